import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// The bytes of the low `count` bytes of `value`, little-endian (least significant first).
func littleEndianBytes(_ value: UInt64, count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * $0)) }
}

/// The bytes of the low `count` bytes of `value`, big-endian (most significant first).
func bigEndianBytes(_ value: UInt64, count: Int) -> [UInt8] {
    Array(littleEndianBytes(value, count: count).reversed())
}

/// `IIOScanType`: the `in_*_type` grammar of Documentation/ABI/testing/sysfs-bus-iio and the
/// decoding of one stored value.
@Suite("IIOBuffer type")
struct IIOBufferTypeTests {
    // MARK: Parsing

    /// Every form the ABI allows: with and without `>>shift`, with `Xrepeat`, both byte orders,
    /// s, u and f, every storage size.
    static let wellFormed: [(text: String, e: IIOScanType.Endianness, f: IIOScanType.Format, bits: Int, storage: Int, repeatCount: Int, shift: Int, canonical: String)] = [
        ("le:s12/16>>4", .little, .signed, 12, 16, 1, 4, "le:s12/16>>4"),
        ("be:u16/16", .big, .unsigned, 16, 16, 1, 0, "be:u16/16>>0"),
        ("le:s16/16", .little, .signed, 16, 16, 1, 0, "le:s16/16>>0"),
        ("le:s16/16>>0\n", .little, .signed, 16, 16, 1, 0, "le:s16/16>>0"),
        ("le:s64/64", .little, .signed, 64, 64, 1, 0, "le:s64/64>>0"),
        ("le:s64/64>>0", .little, .signed, 64, 64, 1, 0, "le:s64/64>>0"),
        ("le:s24/32>>0", .little, .signed, 24, 32, 1, 0, "le:s24/32>>0"),
        ("be:s20/32>>12", .big, .signed, 20, 32, 1, 12, "be:s20/32>>12"),
        ("le:s12/16X2>>4", .little, .signed, 12, 16, 2, 4, "le:s12/16X2>>4"),
        ("le:s16/32X4>>0", .little, .signed, 16, 32, 4, 0, "le:s16/32X4>>0"),
        ("le:u16/16X1>>0", .little, .unsigned, 16, 16, 1, 0, "le:u16/16>>0"),  // X1 and X0: no repeat
        ("le:u16/16X0", .little, .unsigned, 16, 16, 1, 0, "le:u16/16>>0"),
        ("be:s48/64>>2", .big, .signed, 48, 64, 1, 2, "be:s48/64>>2"),  // the ABI's own example
        ("le:u8/8>>0", .little, .unsigned, 8, 8, 1, 0, "le:u8/8>>0"),
        ("be:s8/8", .big, .signed, 8, 8, 1, 0, "be:s8/8>>0"),
        ("le:u64/64>>0", .little, .unsigned, 64, 64, 1, 0, "le:u64/64>>0"),
        ("le:f32/32>>0", .little, .float, 32, 32, 1, 0, "le:f32/32>>0"),
        ("be:f64/64", .big, .float, 64, 64, 1, 0, "be:f64/64>>0"),
        ("le:f16/16", .little, .float, 16, 16, 1, 0, "le:f16/16>>0"),
        ("le:f16/32>>8", .little, .float, 16, 32, 1, 8, "le:f16/32>>8"),
        ("  be:u1/8>>7 \r\n", .big, .unsigned, 1, 8, 1, 7, "be:u1/8>>7"),
    ]

    @Test func parsesEveryFormTheABIAllows() throws {
        for c in Self.wellFormed {
            let type = try IIOScanType(parsing: c.text, path: "/sys/x/in_accel_x_type")
            #expect(type.endianness == c.e, "\(c.text)")
            #expect(type.format == c.f, "\(c.text)")
            #expect(type.bits == c.bits, "\(c.text)")
            #expect(type.storageBits == c.storage, "\(c.text)")
            #expect(type.repeatCount == c.repeatCount, "\(c.text)")
            #expect(type.shift == c.shift, "\(c.text)")
            #expect(type.description == c.canonical, "\(c.text)")
            #expect(type.storageBytes == c.storage / 8, "\(c.text)")
            #expect(type.totalBytes == c.storage / 8 * c.repeatCount, "\(c.text)")
            // The canonical form parses back to the same type.
            #expect(try IIOScanType(parsing: type.description) == type, "\(c.text)")
        }
    }

    /// Malformed or unsupported texts: each is a typed error that names the file and the text.
    static let malformed: [(text: String, reasonContains: String)] = [
        ("", "be:"),
        ("xx:s16/16>>0", "be:"),
        ("LE:s16/16>>0", "be:"),
        ("le-s16/16>>0", "be:"),
        ("le:q16/16>>0", "s, u or f"),
        ("le:16/16>>0", "s, u or f"),
        ("le:s/16>>0", "number of bits"),
        ("le:s16>>0", "\"/\""),
        ("le:s16/>>0", "storage bits"),
        ("le:s16/16>>", "shift"),
        ("le:s16/16>>-1", "shift"),
        ("le:s16/16X>>0", "repeat"),
        ("le:s16/16>>0 junk", "unexpected text"),
        ("le:s16/16>>0>>1", "unexpected text"),
        ("le:s16/16X2X2", "unexpected text"),
        ("le:s17/16>>0", "bits 17"),
        ("le:s0/16>>0", "bits 0"),
        ("le:s12/12>>0", "storage bits 12"),
        ("le:s16/24>>0", "storage bits 24"),
        ("le:s16/128>>0", "storage bits 128"),
        ("le:s12/16>>5", "shift 5 + bits 12"),
        ("be:s20/32>>13", "shift 13 + bits 20"),
        ("le:f24/32>>0", "IEEE 754"),
        ("le:f8/8>>0", "IEEE 754"),
        ("le:s16/16>>99999999999", "shift"),
        ("le:s99999999999/16", "number of bits"),
        ("le:s16/16X99999>>0", "repeat count 99999"),
        ("le:s１６/16", "number of bits"),  // full-width digits are not digits here
    ]

    @Test func malformedTypesNameTheFileAndTheText() {
        let path = "/sys/bus/iio/devices/iio:device0/buffer0/in_accel_x_type"
        for c in Self.malformed {
            do {
                let type = try IIOScanType(parsing: c.text, path: path)
                Issue.record("\"\(c.text)\" parsed as \(type)")
            } catch {
                guard case .malformedType(let errorPath, let text, let reason) = error else {
                    Issue.record("\"\(c.text)\": unexpected \(error)")
                    continue
                }
                #expect(errorPath == path)
                #expect(text == c.text.trimmingCharacters(in: .whitespacesAndNewlines))
                #expect(reason.contains(c.reasonContains), "\"\(c.text)\": \(reason)")
                #expect(error.description.contains(path))
                #expect(error.description.contains("\"\(text)\""))
                #expect(error.localizedDescription == error.description)
                #expect(error.path == path)
            }
        }
    }

    @Test func memberwiseInitializerChecksTheRulesToo() throws {
        #expect(throws: IIOBufferError.self) {
            try IIOScanType(endianness: .little, format: .signed, bits: 13, storageBits: 16, shift: 4)
        }
        #expect(throws: IIOBufferError.self) {
            try IIOScanType(endianness: .little, format: .float, bits: 12, storageBits: 16)
        }
        let type = try IIOScanType(endianness: .big, format: .unsigned, bits: 12, storageBits: 16, repeatCount: 3, shift: 4)
        #expect(type.description == "be:u12/16X3>>4")
        #expect(type.totalBytes == 6)
    }

    // MARK: Decoding

    private func decode(_ text: String, _ bytes: [UInt8], at offset: Int = 0, repetition: Int = 0) throws
        -> (bits: UInt64, integer: Int64?, value: Double)
    {
        let type = try IIOScanType(parsing: text)
        return bytes.withUnsafeBytes {
            (
                type.bitPattern(in: $0, at: offset, repetition: repetition),
                type.integer(in: $0, at: offset, repetition: repetition),
                type.value(in: $0, at: offset, repetition: repetition)
            )
        }
    }

    @Test func twelveBitsShiftedByFourLittleEndian() throws {
        // -5 in 12 bits is 0xFFB; shifted left 4 with junk 0xA in the low nibble: 0xFFBA, stored LE.
        let d = try decode("le:s12/16>>4", [0xBA, 0xFF])
        #expect(d.bits == 0xFFB)
        #expect(d.integer == -5)
        #expect(d.value == -5)
        // The largest and smallest 12-bit values, junk 0xF below them.
        #expect(try decode("le:s12/16>>4", [0xFF, 0x7F]).integer == 2047)
        #expect(try decode("le:s12/16>>4", [0x0F, 0x80]).integer == -2048)
    }

    @Test func unsignedBigEndianSixteen() throws {
        let d = try decode("be:u16/16", [0xBE, 0xEF])
        #expect(d.integer == 0xBEEF)
        #expect(d.value == 48879)
        // The same bytes little-endian are 0xEFBE.
        #expect(try decode("le:u16/16", [0xBE, 0xEF]).integer == 0xEFBE)
    }

    @Test func signedSixteenBothByteOrders() throws {
        // -12345 = 0xCFC7.
        #expect(try decode("le:s16/16", [0xC7, 0xCF]).integer == -12345)
        #expect(try decode("be:s16/16>>0", [0xCF, 0xC7]).integer == -12345)
        #expect(try decode("le:s16/16", [0x39, 0x30]).integer == 12345)
        #expect(try decode("le:s16/16", [0x00, 0x80]).integer == -32768)
    }

    @Test func signedSixtyFour() throws {
        let stamp: Int64 = 1_700_000_000_123_456_789
        #expect(try decode("le:s64/64", littleEndianBytes(UInt64(bitPattern: stamp), count: 8)).integer == stamp)
        #expect(try decode("le:s64/64>>0", littleEndianBytes(UInt64(bitPattern: -stamp), count: 8)).integer == -stamp)
        #expect(try decode("be:s64/64", bigEndianBytes(UInt64(bitPattern: Int64.min), count: 8)).integer == Int64.min)
    }

    @Test func twentyFourInThirtyTwoMasksTheTopByte() throws {
        // -1 000 000 in 24 bits is 0xF0BDC0; 0xA5 in the unused top byte must be masked away.
        let stored: UInt64 = 0xA5F0_BDC0
        let d = try decode("le:s24/32>>0", littleEndianBytes(stored, count: 4))
        #expect(d.bits == 0xF0BDC0)
        #expect(d.integer == -1_000_000)
        // Positive, with junk: 0x5A_7FFFFF → 8 388 607.
        #expect(try decode("le:s24/32>>0", littleEndianBytes(0x5A7F_FFFF, count: 4)).integer == 8_388_607)
    }

    @Test func twentyInThirtyTwoShiftedByTwelveBigEndian() throws {
        // -300 000 in 20 bits is 0xB6C20; shifted 12 with 0xABC below: 0xB6C20ABC, stored BE.
        let d = try decode("be:s20/32>>12", [0xB6, 0xC2, 0x0A, 0xBC])
        #expect(d.bits == 0xB6C20)
        #expect(d.integer == -300_000)
        // 0x7FFFF (524 287) with junk: 0x7FFFF123.
        #expect(try decode("be:s20/32>>12", [0x7F, 0xFF, 0xF1, 0x23]).integer == 524_287)
    }

    @Test func repeatedTwelveBitValues() throws {
        // Two values, each le:s12/16>>4: -5 (0xFFBA) and 1000 (0x3E8 → 0x3E85 with junk 5).
        let bytes: [UInt8] = [0xBA, 0xFF, 0x85, 0x3E]
        #expect(try decode("le:s12/16X2>>4", bytes, repetition: 0).integer == -5)
        #expect(try decode("le:s12/16X2>>4", bytes, repetition: 1).integer == 1000)
        // At an offset within a larger scan.
        #expect(try decode("le:s12/16X2>>4", [0, 0, 0, 0] + bytes, at: 4, repetition: 1).integer == 1000)
    }

    @Test func fortyEightInSixtyFourShiftedByTwo() throws {
        // The ABI's example s48/64>>2: shift right 2, keep 48 bits. -123 456 789 012 in 48 bits is
        // 0xFFE3_4166_E5EC; shifted 2 with junk 0b11 below and 0x2A5D in the 14 bits above.
        let raw = UInt64(bitPattern: -123_456_789_012) & 0xFFFF_FFFF_FFFF
        let stored = (0x2A5D << 50) | (raw << 2) | 0b11
        #expect(raw == 0xFFE3_4166_E5EC)
        #expect(try decode("be:s48/64>>2", bigEndianBytes(stored, count: 8)).integer == -123_456_789_012)
    }

    @Test func eightBits() throws {
        #expect(try decode("le:u8/8>>0", [200]).integer == 200)
        #expect(try decode("be:s8/8", [200]).integer == -56)
        #expect(try decode("be:u1/8>>7", [0x80]).integer == 1)
        #expect(try decode("be:u1/8>>7", [0x7F]).integer == 0)
    }

    @Test func unsignedSixtyFourAboveInt64Max() throws {
        let d = try decode("le:u64/64>>0", [UInt8](repeating: 0xFF, count: 8))
        #expect(d.integer == nil)
        #expect(d.bits == UInt64.max)
        #expect(d.value == 18_446_744_073_709_551_616.0)
    }

    @Test func floatingPoint() throws {
        let f: Float = -9.80665
        let single = try decode("le:f32/32>>0", littleEndianBytes(UInt64(f.bitPattern), count: 4))
        #expect(single.value == Double(f))
        #expect(single.integer == nil)
        let double = 0.1 + 0.2
        #expect(try decode("be:f64/64", bigEndianBytes(double.bitPattern, count: 8)).value == double)
        // binary16: 1, −2, the largest, the smallest subnormal, infinity, NaN.
        #expect(try decode("le:f16/16", [0x00, 0x3C]).value == 1)
        #expect(try decode("le:f16/16", [0x00, 0xC0]).value == -2)
        #expect(try decode("le:f16/16", [0xFF, 0x7B]).value == 65504)
        #expect(try decode("le:f16/16", [0x01, 0x00]).value == 0x1p-24)
        #expect(try decode("le:f16/16", [0x00, 0x35]).value == 0.3125)  // 2⁻² × (1 + 256/1024)
        #expect(try decode("le:f16/16", [0x00, 0x7C]).value == .infinity)
        #expect(try decode("le:f16/16", [0x00, 0x7E]).value.isNaN)
        // binary16 in the upper half of 32 bits: 0x3C00 << 8 = 0x003C_0000 with junk.
        #expect(try decode("le:f16/32>>8", littleEndianBytes(0x003C_00AB, count: 4)).value == 1)
    }
}
