
/// How one scan element is stored in a Linux IIO buffer, as its `in_*_type` file describes it.
///
/// The kernel's ABI (Documentation/ABI/testing/sysfs-bus-iio, Documentation/iio/iio_devbuf.rst)
/// gives the form `[be|le]:[f|s|u]bits/storagebits[Xrepeat][>>shift]`:
///
/// - `be` or `le`: big or little endian;
/// - `s`, `u` or `f`: signed (two's complement), unsigned, or IEEE 754 binary floating point
///   (`f` is the newest form; `bits` is then 16, 32 or 64);
/// - `bits`: the number of valid bits; `storagebits`: the bits the value occupies in the buffer
///   (after padding), which is also its alignment;
/// - `Xrepeat`: the element holds `repeat` values of `storagebits` each, one after the other
///   (the kernel omits it when the repeat count is 0 or 1);
/// - `>>shift`: shift the stored value right by this before masking out all but `bits` bits (the
///   kernel always prints it, `>>0` included; it may be absent in hand-written descriptions).
///
/// `le:s12/16>>4` is thus a 12-bit signed value in the upper bits of a little-endian 16-bit word.
/// Decoding a stored value: read `storagebits / 8` bytes in the given byte order, shift right by
/// `shift`, keep the low `bits` bits (the rest may carry other information), then sign-extend
/// from bit `bits − 1` when signed, or read the bits as an IEEE 754 number when floating point.
///
/// This reader accepts storage sizes of 8, 16, 32 and 64 bits (every in-tree driver uses one of
/// them; a scan's layout is only defined by the kernel for power-of-two sizes), `bits` from 1 to
/// `storagebits` with `bits + shift ≤ storagebits`.
public struct IIOScanType: Sendable, Hashable, CustomStringConvertible {
    /// The byte order of the stored value.
    public enum Endianness: String, Sendable, Hashable {
        case big = "be"
        case little = "le"
    }

    /// How the `bits` valid bits are to be read.
    public enum Format: String, Sendable, Hashable {
        /// Two's complement.
        case signed = "s"
        /// Unsigned binary.
        case unsigned = "u"
        /// IEEE 754 binary16, binary32 or binary64.
        case float = "f"
    }

    public let endianness: Endianness
    public let format: Format
    /// The number of valid bits.
    public let bits: Int
    /// The bits one value occupies in the buffer: 8, 16, 32 or 64.
    public let storageBits: Int
    /// How many values of `storageBits` the element holds (1 when the type has no `X` part).
    public let repeatCount: Int
    /// The right shift applied to a stored value before masking.
    public let shift: Int

    /// The bytes one value occupies.
    public var storageBytes: Int { storageBits / 8 }
    /// The bytes the whole element occupies in a scan: `repeatCount × storageBytes`. The kernel
    /// also aligns the element to this size.
    public var totalBytes: Int { storageBytes * repeatCount }

    /// A type from its parts.
    ///
    /// - Throws: ``IIOBufferError/malformedType(path:text:reason:)`` (with the canonical text and
    ///   an empty path) when the parts break the rules in the type's description.
    public init(
        endianness: Endianness, format: Format, bits: Int, storageBits: Int, repeatCount: Int = 1, shift: Int = 0
    ) throws(IIOBufferError) {
        let text = Self.text(endianness, format, bits, storageBits, repeatCount, shift)
        if let reason = Self.problem(format: format, bits: bits, storageBits: storageBits, repeatCount: repeatCount, shift: shift) {
            throw .malformedType(path: "", text: text, reason: reason)
        }
        self.endianness = endianness
        self.format = format
        self.bits = bits
        self.storageBits = storageBits
        self.repeatCount = max(repeatCount, 1)
        self.shift = shift
    }

    /// Parses the text of an `in_*_type` file; `path` names the file in errors. Surrounding white
    /// space (sysfs ends the text with a newline) is ignored.
    ///
    /// - Throws: ``IIOBufferError/malformedType(path:text:reason:)`` naming `path`, the text and
    ///   what is wrong with it.
    public init(parsing text: String, path: String = "") throws(IIOBufferError) {
        let trimmed = text.trimmingScanTypeSpace()
        var scanner = Scanner(Array(trimmed.utf8))
        func fail(_ reason: String) -> IIOBufferError { .malformedType(path: path, text: trimmed, reason: reason) }

        let endianness: Endianness
        if scanner.take("be:") {
            endianness = .big
        } else if scanner.take("le:") {
            endianness = .little
        } else {
            throw fail("expected \"be:\" or \"le:\" at the start")
        }
        let format: Format
        if scanner.take("s") {
            format = .signed
        } else if scanner.take("u") {
            format = .unsigned
        } else if scanner.take("f") {
            format = .float
        } else {
            throw fail("expected s, u or f after the colon")
        }
        guard let bits = scanner.number() else { throw fail("expected the number of bits after \(format.rawValue)") }
        guard scanner.take("/") else { throw fail("expected \"/\" after the number of bits") }
        guard let storageBits = scanner.number() else { throw fail("expected the number of storage bits after \"/\"") }
        var repeatCount = 1
        if scanner.take("X") {
            guard let count = scanner.number() else { throw fail("expected a repeat count after \"X\"") }
            repeatCount = max(count, 1)  // the ABI: 0 and 1 both mean "no repeat"
        }
        var shift = 0
        if scanner.take(">>") {
            guard let value = scanner.number() else { throw fail("expected a shift after \">>\"") }
            shift = value
        }
        guard scanner.atEnd else { throw fail("unexpected text after the type") }
        if let reason = Self.problem(format: format, bits: bits, storageBits: storageBits, repeatCount: repeatCount, shift: shift) {
            throw fail(reason)
        }
        self.endianness = endianness
        self.format = format
        self.bits = bits
        self.storageBits = storageBits
        self.repeatCount = repeatCount
        self.shift = shift
    }

    /// The type as the kernel prints it: `le:s12/16>>4`, `le:s12/16X2>>4`.
    public var description: String { Self.text(endianness, format, bits, storageBits, repeatCount, shift) }

    // MARK: - Decoding

    /// The `bits` valid bits of value number `repetition` (0 ..< ``repeatCount``) of the element
    /// that starts at byte `offset` of `scan`: the stored value in its byte order, shifted right by
    /// ``shift`` and masked to ``bits`` bits (not yet sign-extended).
    ///
    /// - Precondition: the element lies within `scan`.
    public func bitPattern(in scan: UnsafeRawBufferPointer, at offset: Int, repetition: Int = 0) -> UInt64 {
        precondition(repetition >= 0 && repetition < repeatCount, "repetition \(repetition) of \(repeatCount)")
        let start = offset + repetition * storageBytes
        precondition(start >= 0 && start + storageBytes <= scan.count, "element outside the scan")
        var stored: UInt64 = 0
        switch endianness {
        case .big:
            for i in 0..<storageBytes { stored = stored << 8 | UInt64(scan[start + i]) }
        case .little:
            for i in (0..<storageBytes).reversed() { stored = stored << 8 | UInt64(scan[start + i]) }
        }
        return (stored >> UInt64(shift)) & Self.mask(bits)
    }

    /// The value as an integer: sign-extended when signed. Nil for a floating-point type and for
    /// an unsigned 64-bit value above `Int64.max`.
    public func integer(in scan: UnsafeRawBufferPointer, at offset: Int, repetition: Int = 0) -> Int64? {
        let pattern = bitPattern(in: scan, at: offset, repetition: repetition)
        switch format {
        case .signed: return Self.signExtend(pattern, bits: bits)
        case .unsigned: return Int64(exactly: pattern)
        case .float: return nil
        }
    }

    /// The value as a `Double`: the integer (exact up to 2⁵³ in magnitude), or the IEEE 754 number
    /// (NaN and infinities included, as stored).
    public func value(in scan: UnsafeRawBufferPointer, at offset: Int, repetition: Int = 0) -> Double {
        let pattern = bitPattern(in: scan, at: offset, repetition: repetition)
        switch format {
        case .signed: return Double(Self.signExtend(pattern, bits: bits))
        case .unsigned: return Double(pattern)
        case .float:
            switch bits {
            case 16: return Self.half(UInt16(truncatingIfNeeded: pattern))
            case 32: return Double(Float(bitPattern: UInt32(truncatingIfNeeded: pattern)))
            default: return Double(bitPattern: pattern)
            }
        }
    }

    // MARK: - Private

    private static func text(_ e: Endianness, _ f: Format, _ bits: Int, _ storage: Int, _ repeatCount: Int, _ shift: Int) -> String {
        let repeatPart = repeatCount > 1 ? "X\(repeatCount)" : ""
        return "\(e.rawValue):\(f.rawValue)\(bits)/\(storage)\(repeatPart)>>\(shift)"
    }

    /// What is wrong with these parts, or nil.
    private static func problem(format: Format, bits: Int, storageBits: Int, repeatCount: Int, shift: Int) -> String? {
        guard [8, 16, 32, 64].contains(storageBits) else {
            return "storage bits \(storageBits): expected 8, 16, 32 or 64"
        }
        guard bits >= 1 && bits <= storageBits else {
            return "bits \(bits): expected 1 to the storage bits (\(storageBits))"
        }
        guard shift >= 0 && shift + bits <= storageBits else {
            return "shift \(shift) + bits \(bits) exceeds the storage bits (\(storageBits))"
        }
        guard repeatCount >= 0 && repeatCount <= 1 << 16 else {
            return "repeat count \(repeatCount): expected 0 to 65536"
        }
        if format == .float && ![16, 32, 64].contains(bits) {
            return "floating point with \(bits) bits: expected 16, 32 or 64 (IEEE 754 binary16/32/64)"
        }
        return nil
    }

    private static func mask(_ bits: Int) -> UInt64 { bits >= 64 ? ~0 : (1 << UInt64(bits)) - 1 }

    private static func signExtend(_ pattern: UInt64, bits: Int) -> Int64 {
        guard bits < 64, pattern & (1 << UInt64(bits - 1)) != 0 else { return Int64(bitPattern: pattern) }
        return Int64(bitPattern: pattern | ~mask(bits))
    }

    /// IEEE 754 binary16 → Double (exact), without `Float16` (not available on every platform).
    private static func half(_ h: UInt16) -> Double {
        let sign: Double = h & 0x8000 != 0 ? -1 : 1
        let exponent = Int(h >> 10 & 0x1F)
        let fraction = Double(h & 0x3FF)
        switch exponent {
        case 0: return sign * fraction * 0x1p-24  // zero and subnormals: fraction × 2⁻¹⁴ × 2⁻¹⁰
        case 31: return fraction == 0 ? sign * .infinity : .nan
        default: return sign * (1 + fraction * 0x1p-10) * Double(sign: .plus, exponent: exponent - 15, significand: 1)
        }
    }

    /// A cursor over the ASCII bytes of a type string.
    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { position == bytes.count }

        mutating func take(_ literal: String) -> Bool {
            let expected = Array(literal.utf8)
            guard bytes.count - position >= expected.count,
                bytes[position..<position + expected.count].elementsEqual(expected)
            else { return false }
            position += expected.count
            return true
        }

        /// A run of decimal digits (at most 9, so that it cannot overflow), or nil.
        mutating func number() -> Int? {
            var value = 0
            var digits = 0
            while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
                guard digits < 9 else { return nil }
                value = value * 10 + Int(bytes[position] - 0x30)
                digits += 1
                position += 1
            }
            return digits > 0 ? value : nil
        }
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs, CR and LF.
    func trimmingScanTypeSpace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
