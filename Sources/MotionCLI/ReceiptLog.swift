import MotionFusion

/// The consumer's record: each device motion's timestamp and the `CLOCK_MONOTONIC` nanoseconds at
/// which it was received, in the order received. One consumer records at a time (a serial queue, a
/// task, a thread); the caller reads the record after the consumer has ended (a semaphore or the
/// queue orders the two).
final class ReceiptLog: @unchecked Sendable {
    /// The device motions' timestamps, seconds, in the order received.
    private(set) var timestamps: [Double] = []
    /// `CLOCK_MONOTONIC` nanoseconds at each receipt.
    private(set) var receipts: [Int64] = []

    /// An empty record with room for `capacity` receipts (no allocation while measuring).
    init(capacity: Int) {
        timestamps.reserveCapacity(capacity)
        receipts.reserveCapacity(capacity)
    }

    /// Notes the receipt of a device motion stamped `timestamp`: the clock is read first.
    func record(_ timestamp: Double) {
        let now = IIOFakeScanWriter.monotonicNanoseconds()
        timestamps.append(timestamp)
        receipts.append(now)
    }
}
