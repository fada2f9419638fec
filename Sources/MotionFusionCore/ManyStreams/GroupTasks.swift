#if !hasFeature(Embedded)  // task groups need the Concurrency runtime, which a firmware need not link
/// How the many-stream engines spread their groups of lanes over concurrent tasks: `taskCount`
/// contiguous ranges of the `groupCount` groups, one task each; `work` runs on a range and returns
/// that range's part of the result. Returns the ranges with their parts, in order.
@usableFromInline
enum GroupTasks {
    @usableFromInline
    static func run<Part: Sendable>(
        groupCount: Int, taskCount: Int, _ work: @escaping @Sendable (Range<Int>) -> Part
    ) async -> [(range: Range<Int>, part: Part)] {
        let tasks = min(taskCount, groupCount)
        let ranges = (0..<tasks).map { k in (groupCount * k / tasks)..<(groupCount * (k + 1) / tasks) }
        let parts = await withTaskGroup(of: (Int, Part).self) { taskGroup in
            for (k, range) in ranges.enumerated() {
                taskGroup.addTask { (k, work(range)) }
            }
            var parts = [Part?](repeating: nil, count: tasks)
            for await (k, part) in taskGroup { parts[k] = part }
            return parts
        }
        return zip(ranges, parts).map { ($0, $1!) }
    }
}
#endif
