/// Reads decimal numbers from bytes, correctly rounded to `Double`, without allocating.
///
/// ``parse(_:count:)`` handles the common text `[+-]digits[.digits][(e|E)[+-]digits]` (either side
/// of the point may be empty, not both) with up to 19 significant digits. For every such text whose
/// value it returns, the value is bit for bit the one `strtod` and `Double(String)` give (both round
/// correctly): when the digits fit in 2⁵³ and the decimal exponent in ±22, one IEEE multiplication or
/// division of two exact numbers (Clinger's fast path); otherwise the Eisel–Lemire algorithm (Lemire,
/// "Number parsing at a gigabyte per second", 2021), which either gives the correctly rounded value
/// or says it cannot decide. It returns nil for everything else — other spellings (`inf`, `nan`,
/// hexadecimal, spaces), more than 19 significant digits, results that are subnormal, zero by
/// underflow or infinite, and the rare undecided cases — and the caller then asks `strtod`, so the
/// result is always `strtod`'s.
enum DecimalParser {
    /// The range of decimal exponents q for which `powersOfTen128` holds 10^q. With at most 19
    /// significant digits, a value with a smaller exponent is below the smallest normal `Double`
    /// and one with a larger exponent overflows; neither is decided here.
    static let smallestPowerOfTen = -342
    static let largestPowerOfTen = 308

    @inline(__always)
    static func exactPowerOfTen(_ k: Int) -> Double {
        exactPowersOfTen.withUnsafeBufferPointer { $0[k] }
    }

    /// The value of the `count` bytes at `text`, or nil when the text is not a plain decimal number
    /// or this parser leaves it to `strtod` (see the type's description).
    @inline(__always)
    static func parse(_ text: UnsafePointer<UInt8>, count: Int) -> Double? {
        var i = 0
        var negative = false
        if i < count, text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+") {
            negative = text[i] == UInt8(ascii: "-")
            i += 1
        }
        var significand: UInt64 = 0
        var digits = 0  // significant digits in `significand` (leading zeros do not count)
        var exponent = 0  // the value is significand × 10^exponent
        var sawDigits = false

        let integerStart = i
        while i < count {
            let digit = text[i] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            if significand != 0 || digit != 0 {
                guard digits < 19 else { return nil }
                significand = significand &* 10 &+ UInt64(digit)
                digits += 1
            }
            i += 1
        }
        sawDigits = i > integerStart
        if i < count, text[i] == UInt8(ascii: ".") {
            i += 1
            let fractionStart = i
            while i < count {
                let digit = text[i] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                if significand != 0 || digit != 0 {
                    guard digits < 19 else { return nil }
                    significand = significand &* 10 &+ UInt64(digit)
                    digits += 1
                }
                exponent -= 1
                i += 1
            }
            sawDigits = sawDigits || i > fractionStart
        }
        guard sawDigits else { return nil }
        if i < count, text[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            var exponentIsNegative = false
            if i < count, text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+") {
                exponentIsNegative = text[i] == UInt8(ascii: "-")
                i += 1
            }
            let exponentStart = i
            var written = 0
            while i < count {
                let digit = text[i] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                if written < 100_000 { written = written * 10 + Int(digit) }  // beyond: 0 or ∞ anyway
                i += 1
            }
            guard i > exponentStart else { return nil }
            exponent += exponentIsNegative ? -written : written
        }
        guard i == count else { return nil }
        return value(significand: significand, exponent: exponent, negative: negative)
    }

    /// significand × 10^exponent, correctly rounded, or nil when undecided here.
    @inline(__always)
    static func value(significand: UInt64, exponent: Int, negative: Bool) -> Double? {
        if significand == 0 { return negative ? -0.0 : 0.0 }
        // Clinger: both operands exact, one rounding.
        if significand <= 1 << 53, exponent >= -22, exponent <= 22 {
            let w = Double(significand)
            let x = exponent < 0 ? w / exactPowerOfTen(-exponent) : w * exactPowerOfTen(exponent)
            return negative ? -x : x
        }
        return eiselLemire(significand: significand, exponent: exponent, negative: negative)
    }

    /// The Eisel–Lemire algorithm for `Double`, as in Nigel Tao's description
    /// (https://nigeltao.github.io/blog/2020/eisel-lemire.html): multiply the normalized significand
    /// by a 128-bit truncation of 10^exponent; when the bits that decide the rounding could be
    /// changed by the truncation, or the value lies exactly halfway, give up (nil). Also nil for
    /// subnormal and infinite results.
    @inline(__always)
    static func eiselLemire(significand: UInt64, exponent: Int, negative: Bool) -> Double? {
        guard exponent >= smallestPowerOfTen, exponent <= largestPowerOfTen else { return nil }
        // Normalization.
        let leadingZeros = significand.leadingZeroBitCount
        let normalized = significand &<< UInt64(leadingZeros)
        // ⌊exponent · log₂10⌋ + 64 + bias − leading zeros (217706 / 2¹⁶ ≈ log₂10).
        var binaryExponent = UInt64(bitPattern: Int64(((217706 &* exponent) &>> 16) &+ 64 &+ 1023))
            &- UInt64(leadingZeros)
        // Multiplication by the high word of 10^exponent.
        let index = (exponent &- smallestPowerOfTen) &* 2
        let (powerHigh, powerLow) = powersOfTen128.withUnsafeBufferPointer { ($0[index], $0[index &+ 1]) }
        var (high, low) = normalized.multipliedFullWidth(by: powerHigh)
        // Wider approximation: when the low bits are all ones, the low word may carry into them.
        if high & 0x1FF == 0x1FF, low &+ normalized < normalized {
            let (carryHigh, carryLow) = normalized.multipliedFullWidth(by: powerLow)
            var mergedHigh = high
            let mergedLow = low &+ carryHigh
            if mergedLow < low { mergedHigh &+= 1 }
            if mergedHigh & 0x1FF == 0x1FF, mergedLow &+ 1 == 0, carryLow &+ normalized < normalized {
                return nil
            }
            high = mergedHigh
            low = mergedLow
        }
        // Shift to 54 bits.
        let top = high &>> 63
        var mantissa = high &>> (top &+ 9)
        binaryExponent &-= 1 ^ top
        // Exactly halfway (or too close to tell): undecided.
        if low == 0, high & 0x1FF == 0, mantissa & 3 == 1 { return nil }
        // Round to 53 bits, to nearest, ties to even.
        mantissa &+= mantissa & 1
        mantissa &>>= 1
        if mantissa &>> 53 > 0 {
            mantissa &>>= 1
            binaryExponent &+= 1
        }
        // Zero or negative (wrapped): subnormal; 0x7FF or more: infinite.
        if binaryExponent &- 1 >= 0x7FF - 1 { return nil }
        var bits = binaryExponent &<< 52 | mantissa & 0x000F_FFFF_FFFF_FFFF
        if negative { bits |= 1 &<< 63 }
        return Double(bitPattern: bits)
    }
}

/// 10⁰…10²², exact in `Double`.
let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]
