import Testing

@testable import MotionFusionCore
@testable import MotionFusionIO
import MotionFusionSimulation

/// The queues that hold readings back (``BoundedQueue`` in the assembler, ``LineQueue`` in the
/// reader) start small and grow by doubling: against a plain array used as the queue, in random
/// pushes and pops that fill them past each doubling, to the capacity and beyond (the oldest
/// dropped), every element, count and extra value is the same.
@Suite("Growing queues")
struct GrowingQueueTests {
    @Test(arguments: [1, 5, 16, 17, 100, 4096])
    func boundedQueueMatchesAnArray(capacity: Int) {
        var queue = BoundedQueue<Int>(capacity: capacity)
        var reference: [Int] = []
        var random = SplitMix64(seed: UInt64(capacity))
        var value = 0
        // Phases that favour pushing, then popping, so that the queue fills and drains repeatedly.
        for phase in 0..<12 {
            let pushBias: UInt64 = phase % 2 == 0 ? 80 : 30
            for _ in 0..<(3 * capacity + 40) {
                let roll = random.next() % 100
                if roll < pushBias {
                    value += 1
                    let dropped = queue.push(value)
                    if reference.count == capacity {
                        #expect(dropped == reference.removeFirst())
                    } else {
                        #expect(dropped == nil)
                    }
                    reference.append(value)
                } else if roll < pushBias + (100 - pushBias) / 2 {
                    #expect(queue.popFirst() == (reference.isEmpty ? nil : reference.removeFirst()))
                } else {
                    #expect(queue.popLast() == reference.popLast())
                }
                #expect(queue.count == reference.count && queue.first == reference.first && queue.last == reference.last)
            }
            for k in 0..<reference.count { #expect(queue[k] == reference[k]) }
        }
    }

    @Test(arguments: [(16, 0), (17, 2), (8450, 4)])
    func lineQueueMatchesAnArray(capacity: Int, extraCount: Int) {
        var queue = LineQueue(capacity: capacity, extraCount: extraCount)
        var reference: [(line: Int, extras: [Double])] = []
        var random = SplitMix64(seed: UInt64(capacity * 10 + extraCount))
        var line = 0
        var values = [Double](repeating: .nan, count: extraCount)
        for phase in 0..<8 {
            let pushBias: UInt64 = phase % 2 == 0 ? 75 : 35
            for _ in 0..<(2 * capacity + 40) {
                if random.next() % 100 < pushBias {
                    line += 1
                    let extras = (0..<extraCount).map { Double(line) + Double($0) / 10 }
                    queue.push(file: line % 3, line: line, passedOn: line % 5 == 0) { extras[$0] }
                    if reference.count == capacity { reference.removeFirst() }
                    reference.append((line, extras))
                } else {
                    let expected = reference.first
                    if let expected {
                        queue.copyFirstExtras(into: &values)
                        #expect(values == expected.extras)
                        reference.removeFirst()
                    }
                    #expect(queue.pop()?.line == expected?.line)
                }
                #expect(queue.first?.line == reference.first?.line)
                if let first = queue.first { #expect(first.file == first.line % 3 && first.passedOn == (first.line % 5 == 0)) }
            }
        }
    }
}
