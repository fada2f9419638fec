import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// Kernel-style scans: the bytes of each element at its offset, zero padding elsewhere.
struct ScanEncoder {
    let size: Int
    private(set) var bytes: [UInt8] = []

    init(scanSize: Int) { size = scanSize }

    /// Appends one scan: `fields` are (offset, bytes) pairs.
    mutating func append(_ fields: [(offset: Int, bytes: [UInt8])]) {
        var scan = [UInt8](repeating: 0, count: size)
        for field in fields {
            scan.replaceSubrange(field.offset..<field.offset + field.bytes.count, with: field.bytes)
        }
        bytes += scan
    }
}
