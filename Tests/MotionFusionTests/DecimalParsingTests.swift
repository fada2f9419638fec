import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The CSV reader's decimal parser against the C library's `strtod` and Swift's `Double(String)`:
/// whenever it gives a value, the value must be the same to the last bit, and everything it leaves
/// to `strtod` must still read as before.
@Suite("Decimal parsing")
struct DecimalParsingTests {
    /// What `strtod` makes of the whole text: nil when it does not consume all of it.
    static func strtodValue(_ text: String) -> Double? {
        text.withCString { begin in
            var end: UnsafeMutablePointer<CChar>? = nil
            let value = strtod(begin, &end)
            return end == UnsafeMutablePointer(mutating: begin) + text.utf8.count ? value : nil
        }
    }

    /// The fast parser alone: nil when it leaves the text to `strtod`.
    static func fastValue(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { bytes in
            // A copy, so that the parser cannot rely on a terminator after the text.
            let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: max(bytes.count, 1))
            defer { copy.deallocate() }
            if let base = bytes.baseAddress { copy.update(from: base, count: bytes.count) }
            return DecimalParser.parse(copy, count: bytes.count)
        }
    }

    /// Checks one text; returns whether the fast parser decided it.
    @discardableResult
    static func check(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let reference = strtodValue(text)
        guard let fast = fastValue(text) else { return false }
        guard let reference else {
            Issue.record("\(text.debugDescription): parsed as \(fast), strtod rejects it", sourceLocation: sourceLocation)
            return true
        }
        #expect(
            fast.bitPattern == reference.bitPattern,
            "\(text.debugDescription): \(fast) (\(String(fast.bitPattern, radix: 16))), strtod \(reference) (\(String(reference.bitPattern, radix: 16)))",
            sourceLocation: sourceLocation)
        if let swift = Double(text) {
            #expect(fast.bitPattern == swift.bitPattern, "\(text.debugDescription) vs Double(String)", sourceLocation: sourceLocation)
        }
        return true
    }

    @Test func edgeCasesMatchStrtod() {
        let decided = [
            "0", "-0", "+0", "0.0", "-0.0", "00", "000.000", "0e0", "-0e-5", "0e999999999999", "-0.0e+400",
            ".5", "5.", "-.5", "+5.", "+.5", "1E5", "1e+5", "1e-5", "1e0", "1e-0", "00001.5000", "-00.0001",
            "0.000000000000000000000000000001", "1e22", "1e23", "1e-22", "1e-23", "9e22", "4.5e15",
            "9007199254740992", "9007199254740993", "9007199254740994", "9007199254740995",
            "18014398509481985", "1e308", "1.7976931348623157e308", "1.7976931348623158e308",
            "-1.7976931348623157e+308", "2.2250738585072014e-308", "2.2250738585072015e-308",
            "0.1", "0.2", "0.3", "0.30000000000000004", "3.141592653589793", "2.718281828459045",
            "9.80665", "-9.80665", "1234567890123456789", "9999999999999999999", "1844674407370955161",
            "0.9999999999999999", "0.99999999999999994", "0.99999999999999995", "1.0000000000000002",
            "7.2057594037927933e16", "8.98846567431158e307", "1e-300", "1.5e-307", "123.456e-2",
            "4.35689e-310" /* subnormal: left to strtod */, "5e-324", "2.4703282292062327e-324",
            "2.2250738585072011e-308", "1e-400", "1e400", "-1e400", "1e309",
        ]
        for text in decided { Self.check(text) }
        // The common spellings are decided here, not left to strtod.
        for text in ["0", "-0", ".5", "5.", "1e22", "9007199254740992", "0.30000000000000004", "1.7976931348623157e308",
            "2.2250738585072014e-308", "1234567890123456789", "-9.80665", "0.1"]
        {
            #expect(Self.fastValue(text) != nil, "\(text) should be decided by the fast parser")
        }
        // Exactly halfway between two doubles (1e23 = 5²³·2²³ with 5²³ odd and 54 bits wide; 2⁵³ + 1):
        // Eisel–Lemire cannot break the tie, so strtod does.
        #expect(Self.fastValue("1e23") == nil && Self.fastValue("9007199254740993") == nil)
        #expect(Self.fastValue("-0")?.sign == .minus && Self.fastValue("0")?.sign == .plus)
        // Left to strtod: other spellings, too many digits, results that are not normal numbers.
        for text in [
            "", ".", "-", "+", "e5", "1e", "1e+", "1e-", "1.5.5", "1,5", " 1", "1 ", "\t1", "0x1p3", "0X1.8P1",
            "inf", "-inf", "+inf", "infinity", "INF", "nan", "-nan", "NaN", "nan(123)", "1e5x", "--1", "+-1",
            "1d5", "1..5", "1e5.5", "e", "E", "1ee5", "12345678901234567890", "1.00000000000000011102230246251565404236316680908203125",
            "1e400", "1e-400", "4.9e-324", "2.2250738585072011e-308",
        ] {
            #expect(Self.fastValue(text) == nil, "\(text.debugDescription) must be left to strtod")
        }
    }

    @Test func shortestAndFullPrecisionTextsOfRandomDoublesMatchStrtod() {
        var random = TestRandom(seed: 2026)
        var decided = 0
        let count = 100_000
        for k in 0..<count {
            // Random bit patterns cover every binade; every fourth value is of the size sensors give.
            var x = Double(bitPattern: random.next())
            if k % 4 == 0 { x = (Double(random.next() >> 11) / 0x1p53 - 0.5) * 100 }
            guard x.isFinite else { continue }
            let texts = [
                "\(x)", String(format: "%.17g", x), String(format: "%.16e", x), String(format: "%.15g", x),
                String(format: "%.9g", x), String(format: "%.3f", x),
            ]
            for text in texts where Self.check(text) { decided += 1 }
            // The shortest text always reads back to the same value.
            #expect(Self.strtodValue("\(x)")?.bitPattern == x.bitPattern)
        }
        // Nearly all are decided by the fast path (not: everything left to strtod).
        #expect(decided > count * 6 * 9 / 10, "decided \(decided)")
    }

    @Test func everyDecimalExponentWithRandomSignificands() {
        var random = TestRandom(seed: 7)
        for exponent in -360...330 {
            for digits in [1, 2, 8, 15, 16, 17, 18, 19] {
                for _ in 0..<6 {
                    var significand = ""
                    for d in 0..<digits {
                        let digit = Int(random.next() % 10)
                        significand += String(d == 0 && digit == 0 ? 1 : digit)
                    }
                    let point = Int(random.next() % UInt64(digits + 1))
                    let mantissa = String(significand.prefix(point)) + "." + String(significand.dropFirst(point))
                    let sign = ["", "-", "+"][Int(random.next() % 3)]
                    let e = exponent + (digits - point)  // so that the value is about 10^exponent · significand
                    Self.check("\(sign)\(mantissa)e\(e)")
                    Self.check("\(sign)\(significand)E\(exponent)")
                }
            }
        }
    }

    @Test func halfwayAndNearHalfwayCases() {
        // Exact midpoints between neighbouring doubles that have at most 19 digits: in the binades
        // [2^(52+j), 2^(53+j)) for j = −2…8 the midpoint is a multiple of 1/8 below 2⁶¹. Ties go to
        // the even neighbour; the texts one unit of the last digit either side must round away from
        // the midpoint. All as strtod decides.
        var random = TestRandom(seed: 99)
        for j in -2...8 {
            for _ in 0..<2_000 {
                // x = 2^(52+j) + r·ulp; in eighths: x·8 = 2^(55+j) + r·2^(3+j).
                let r = random.next() % (1 << 52)
                let eighths = (UInt64(1) << UInt64(55 + j)) + (r << UInt64(3 + j)) + (UInt64(1) << UInt64(2 + j))
                let whole = eighths / 8
                let fraction = ["", ".125", ".25", ".375", ".5", ".625", ".75", ".875"][Int(eighths % 8)]
                let midpoint = "\(whole)\(fraction)"
                Self.check(midpoint)
                Self.check("-" + midpoint)
                Self.check(fraction.isEmpty ? "\(whole - 1)" : "\(whole)\(fraction.dropLast())")  // below
                Self.check(fraction.isEmpty ? "\(whole + 1)" : "\(whole)\(fraction)1")  // above
                Self.check(fraction.isEmpty ? "\(whole).000000001" : "\(whole)\(fraction)000001")
            }
        }
        for text in [
            "9007199254740993", "9007199254740995", "9007199254740997", "18014398509481986", "18014398509481990",
            "1.00000000000000011102230246251565", "1.0000000000000001110223024625156", "4503599627370496.5",
            "4503599627370497.5", "2251799813685248.25", "2251799813685248.75", "1125899906842624.125",
        ] {
            Self.check(text)
        }
    }

    @Test func randomDigitStringsMatchStrtod() {
        var random = TestRandom(seed: 3)
        let alphabet = Array("0123456789")
        for _ in 0..<200_000 {
            var text = ["", "-", "+"][Int(random.next() % 3)]
            let leadingZeros = Int(random.next() % 4)
            text += String(repeating: "0", count: leadingZeros)
            let integerDigits = Int(random.next() % 12)
            for _ in 0..<integerDigits { text.append(alphabet[Int(random.next() % 10)]) }
            if random.next() % 4 != 0 {
                text += "."
                let fractionDigits = Int(random.next() % 22)
                for _ in 0..<fractionDigits { text.append(alphabet[Int(random.next() % 10)]) }
            }
            if random.next() % 2 == 0 {
                text += random.next() % 2 == 0 ? "e" : "E"
                text += ["", "-", "+"][Int(random.next() % 3)]
                text += String(Int(random.next() % 340))
            }
            Self.check(text)
        }
    }

    @Test func tableOfPowersOfTenIsExact() {
        // Each entry is ⌊10^q · 2^k⌋ for the k that puts it in [2¹²⁷, 2¹²⁸): checked with big integers.
        var powers = [BigUInt(limbs: [1])]  // 10^0, 10^1, …
        let largest = max(DecimalParser.largestPowerOfTen, -DecimalParser.smallestPowerOfTen)
        for _ in 0..<largest { powers.append(powers.last!.times(BigUInt(limbs: [10]))) }
        for q in DecimalParser.smallestPowerOfTen...DecimalParser.largestPowerOfTen {
            let index = 2 * (q - DecimalParser.smallestPowerOfTen)
            let entry = BigUInt(high: powersOfTen128[index], low: powersOfTen128[index + 1])
            #expect(entry.bitWidth == 128, "1e\(q)")
            if q >= 0 {
                // The first 128 bits of 10^q, the rest cut off (or zeros appended).
                let power = powers[q]
                let shift = power.bitWidth - 128
                #expect(shift >= 0 ? power.shiftedRight(shift) == entry : power.shiftedLeft(-shift) == entry, "1e\(q)")
            } else {
                // entry · 10^−q ≤ 2^k < (entry + 1) · 10^−q for some k. The lower product is not a
                // power of two (it has the factor 5^−q), so k is its bit width.
                let low = entry.times(powers[-q])
                let high = entry.plus(1).times(powers[-q])
                #expect(high.minusOne().bitWidth >= low.bitWidth + 1, "1e\(q)")
            }
        }
    }
}

/// Just enough of an unsigned big integer for checking the table: little-endian 32-bit limbs.
struct BigUInt: Equatable {
    var limbs: [UInt32]

    init(limbs: [UInt32]) {
        self.limbs = limbs
        while self.limbs.count > 1, self.limbs.last == 0 { self.limbs.removeLast() }
    }

    init(high: UInt64, low: UInt64) {
        self.init(limbs: [UInt32(truncatingIfNeeded: low), UInt32(low >> 32), UInt32(truncatingIfNeeded: high), UInt32(high >> 32)])
    }

    static func power(of base: UInt32, _ exponent: Int) -> BigUInt {
        var result = BigUInt(limbs: [1])
        for _ in 0..<exponent { result = result.times(BigUInt(limbs: [base])) }
        return result
    }

    var bitWidth: Int { (limbs.count - 1) * 32 + (32 - limbs.last!.leadingZeroBitCount) }

    func times(_ other: BigUInt) -> BigUInt {
        var product = [UInt64](repeating: 0, count: limbs.count + other.limbs.count + 1)
        for (i, a) in limbs.enumerated() {
            var carry: UInt64 = 0
            for (j, b) in other.limbs.enumerated() {
                let t = product[i + j] + UInt64(a) * UInt64(b) + carry
                product[i + j] = t & 0xFFFF_FFFF
                carry = t >> 32
            }
            var k = i + other.limbs.count
            while carry != 0 {
                let t = product[k] + carry
                product[k] = t & 0xFFFF_FFFF
                carry = t >> 32
                k += 1
            }
        }
        return BigUInt(limbs: product.map { UInt32($0) })
    }

    func plus(_ small: UInt32) -> BigUInt {
        var result = limbs + [0]
        var carry = UInt64(small)
        var i = 0
        while carry != 0 {
            let t = UInt64(result[i]) + carry
            result[i] = UInt32(truncatingIfNeeded: t)
            carry = t >> 32
            i += 1
        }
        return BigUInt(limbs: result)
    }

    func minusOne() -> BigUInt {
        var result = limbs
        var i = 0
        while result[i] == 0 {
            result[i] = .max
            i += 1
        }
        result[i] -= 1
        return BigUInt(limbs: result)
    }

    func shiftedRight(_ bits: Int) -> BigUInt {
        let words = bits / 32, rest = bits % 32
        var result = [UInt32](repeating: 0, count: max(limbs.count - words, 1))
        for i in 0..<(limbs.count - words) {
            var value = UInt64(limbs[i + words]) >> rest
            if rest > 0, i + words + 1 < limbs.count { value |= UInt64(limbs[i + words + 1]) << (32 - rest) }
            result[i] = UInt32(truncatingIfNeeded: value)
        }
        return BigUInt(limbs: result)
    }

    func shiftedLeft(_ bits: Int) -> BigUInt {
        let words = bits / 32, rest = bits % 32
        var result = [UInt32](repeating: 0, count: limbs.count + words + 1)
        for (i, limb) in limbs.enumerated() {
            let value = UInt64(limb) << rest
            result[i + words] |= UInt32(truncatingIfNeeded: value)
            result[i + words + 1] |= UInt32(value >> 32)
        }
        return BigUInt(limbs: result)
    }
}
