import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// `IIOScanLayout`: where each enabled element sits in a scan, as `iio_compute_scan_bytes`
/// (drivers/iio/industrialio-buffer.c) computes it. Every expected offset below is worked out by
/// hand in the comment next to it.
@Suite("IIOBuffer layout")
struct IIOBufferLayoutTests {
    private func element(_ name: String, _ index: Int, _ type: String) throws(IIOBufferError) -> IIOScanElement {
        IIOScanElement(name: name, index: index, type: try IIOScanType(parsing: type))
    }

    private func offsets(_ layout: IIOScanLayout) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: layout.placements.map { ($0.element.name, $0.offset) })
    }

    @Test func kernelDocumentationExampleAllEnabled() throws {
        // Documentation/iio/iio_devbuf.rst: u16, u32, u32, u64 →
        // 0-1 CHN_0, 2-3 pad, 4-7 CHN_1, 8-11 CHN_2, 12-15 pad, 16-23 CHN_3.
        let layout = try IIOScanLayout(elements: [
            try element("c0", 0, "be:u16/16>>0"), try element("c1", 1, "be:u32/32>>0"),
            try element("c2", 2, "be:u32/32>>0"), try element("c3", 3, "be:u64/64>>0"),
        ])
        #expect(layout.placements.map(\.offset) == [0, 4, 8, 16])
        #expect(layout.scanSize == 24)
    }

    @Test func kernelDocumentationExampleFirstAndLast() throws {
        // Only channel 0 and 3: 0-1 CHN_0, 2-7 pad, 8-15 CHN_3.
        let layout = try IIOScanLayout(elements: [try element("c0", 0, "be:u16/16>>0"), try element("c3", 3, "be:u64/64>>0")])
        #expect(layout.placements.map(\.offset) == [0, 8])
        #expect(layout.scanSize == 16)
    }

    @Test func accelerometerGyroscopeAndTimestamp() throws {
        // Six s16 (0, 2, …, 10), end 12; the s64 timestamp at the next multiple of 8: 16; size 24.
        let names = ["in_accel_x", "in_accel_y", "in_accel_z", "in_anglvel_x", "in_anglvel_y", "in_anglvel_z"]
        let layout = try IIOScanLayout(
            elements: try names.enumerated().map { try element($0.element, $0.offset, "le:s16/16>>0") },
            timestamp: try element("in_timestamp", 6, "le:s64/64>>0"))
        #expect(layout.placements.map(\.element.name) == names + ["in_timestamp"])
        #expect(layout.placements.map(\.offset) == [0, 2, 4, 6, 8, 10, 16])
        #expect(layout.scanSize == 24)
        #expect(layout.placement(of: "in_timestamp")?.offset == 16)
        #expect(layout.placement(of: "in_magn_x") == nil)
    }

    @Test func mixedSizesNeedPadding() throws {
        // u16 at 0 (end 2); s32 at 4 (end 8); u8 at 8 (end 9); s16 at 10 (end 12); u64 at 16
        // (end 24); s16 at 24 (end 26); timestamp at 32 (end 40); size 40 (largest 8).
        let layout = try IIOScanLayout(
            elements: [
                try element("a", 0, "le:u16/16>>0"), try element("b", 1, "le:s32/32>>0"),
                try element("c", 2, "le:u8/8>>0"), try element("d", 3, "be:s12/16>>4"),
                try element("e", 4, "le:u64/64>>0"), try element("f", 5, "le:s16/16>>0"),
            ],
            timestamp: try element("in_timestamp", 6, "le:s64/64>>0"))
        #expect(layout.placements.map(\.offset) == [0, 4, 8, 10, 16, 24, 32])
        #expect(layout.scanSize == 40)
    }

    @Test func orderIsTheIndexNotTheListOrder() throws {
        // Indices 7, 2, 5 → buffer order 2 (s32 at 0), 5 (s16 at 4), 7 (s32 at 8); size 12.
        let layout = try IIOScanLayout(elements: [
            try element("seven", 7, "le:s32/32>>0"), try element("two", 2, "le:s32/32>>0"),
            try element("five", 5, "le:s16/16>>0"),
        ])
        #expect(layout.placements.map(\.element.name) == ["two", "five", "seven"])
        #expect(offsets(layout) == ["two": 0, "five": 4, "seven": 8])
        #expect(layout.scanSize == 12)
    }

    @Test func scanSizeIsPaddedToTheLargestElement() throws {
        // Three s16: 6 bytes, largest 2 → 6. s32 then s16: end 6, largest 4 → 8.
        // s8 alone: 1. u8, u8, u8 then s64 timestamp: 0, 1, 2, then 8; size 16.
        #expect(try IIOScanLayout(elements: (0..<3).map { try element("e\($0)", $0, "le:s16/16") }).scanSize == 6)
        #expect(try IIOScanLayout(elements: [try element("a", 0, "le:s32/32"), try element("b", 1, "le:s16/16")]).scanSize == 8)
        #expect(try IIOScanLayout(elements: [try element("a", 0, "le:s8/8")]).scanSize == 1)
        let bytes = try IIOScanLayout(
            elements: (0..<3).map { try element("e\($0)", $0, "le:u8/8") }, timestamp: try element("in_timestamp", 3, "le:s64/64"))
        #expect(bytes.placements.map(\.offset) == [0, 1, 2, 8])
        #expect(bytes.scanSize == 16)
    }

    @Test func timestampAloneAndTimestampLast() throws {
        let alone = try IIOScanLayout(elements: [], timestamp: try element("in_timestamp", 3, "le:s64/64>>0"))
        #expect(alone.placements.map(\.offset) == [0])
        #expect(alone.scanSize == 8)
        // The timestamp goes last whatever its index (the kernel relies on it being the highest).
        let last = try IIOScanLayout(
            elements: [try element("a", 5, "le:s16/16")], timestamp: try element("in_timestamp", 0, "le:s64/64"))
        #expect(last.placements.map(\.element.name) == ["a", "in_timestamp"])
        #expect(last.placements.map(\.offset) == [0, 8])
    }

    @Test func repeatedElementIsAlignedToItsWholeSize() throws {
        // The kernel aligns an element to repeat × storage bytes: u16 at 0 (end 2); le:s12/16X2 is
        // 4 bytes, so at 4 (not 2); u16 at 8; timestamp at 16; size 24.
        let layout = try IIOScanLayout(
            elements: [
                try element("a", 0, "le:u16/16>>0"), try element("pair", 1, "le:s12/16X2>>4"),
                try element("b", 2, "le:u16/16>>0"),
            ],
            timestamp: try element("in_timestamp", 3, "le:s64/64>>0"))
        #expect(layout.placements.map(\.offset) == [0, 4, 8, 16])
        #expect(layout.scanSize == 24)
        // A quaternion of four s32 (16 bytes) after a u16: at 16, size 32 (largest 16).
        let quaternion = try IIOScanLayout(elements: [
            try element("a", 0, "le:u16/16"), try element("in_rot_quaternion", 1, "le:s16/32X4"),
        ])
        #expect(quaternion.placements.map(\.offset) == [0, 16])
        #expect(quaternion.scanSize == 32)
    }

    @Test func sizesThatAreNotAPowerOfTwoAreRefused() throws {
        // Three 16-bit values make 6 bytes: the kernel's ALIGN() is undefined for it.
        #expect(throws: IIOBufferError.unsupportedLayout(
            path: "triple", reason: "le:s16/16X3>>0 takes 6 bytes, not a power of two, so the kernel's alignment is undefined")
        ) {
            try IIOScanLayout(elements: [try element("a", 0, "le:u16/16"), try element("triple", 1, "le:s16/16X3")])
        }
    }

    @Test func duplicateIndicesAndNothingEnabledAreRefused() throws {
        do {
            _ = try IIOScanLayout(elements: [try element("a", 1, "le:u16/16"), try element("b", 1, "le:u16/16")])
            Issue.record("two elements with index 1 laid out")
        } catch {
            guard case .unsupportedLayout(let path, let reason) = error else { throw error }
            #expect(path == "b")
            #expect(reason.contains("a"))
        }
        #expect(throws: IIOBufferError.self) { try IIOScanLayout(elements: []) }
    }
}
