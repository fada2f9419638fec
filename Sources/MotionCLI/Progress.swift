import Foundation

/// Progress on standard error, only for runs that take more than a second.
final class Progress {
    let label: String
    let start = ContinuousClock.now
    var lastReport: ContinuousClock.Instant
    var reported = false

    init(label: String) {
        self.label = label
        lastReport = start
    }

    func report(rows: Int, bytes: Int, of total: Int?) {
        let now = ContinuousClock.now
        guard now - lastReport >= .seconds(1) else { return }
        lastReport = now
        reported = true
        let percent = total.map { $0 > 0 ? " \(100 * bytes / $0)%," : "" } ?? ""
        FileHandle.standardError.write(Data("\(label):\(percent) \(rows) rows\n".utf8))
    }

    func finish(rows: Int) {
        guard reported else { return }
        let elapsed = ContinuousClock.now - start
        FileHandle.standardError.write(Data("\(label): done, \(rows) rows in \(elapsed)\n".utf8))
    }
}
