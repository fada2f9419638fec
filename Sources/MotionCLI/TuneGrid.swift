import Foundation
import RealModule

/// `motion tune`'s search space: one axis per `--set` and every combination of their values a
/// candidate, in mixed radix (the last axis varies fastest).
///
/// An axis is written `name=a...b` (`steps` values evenly spaced from a to b, both included),
/// `name=a...b:N` (N values), `name=a...b:N:log` (N values evenly spaced in the logarithm, for time
/// constants and gains that matter by their ratio; a and b above 0), `name=v1,v2,…` (those values:
/// numbers, or `true`/`false` for a switch) or `name=v` (one value, the same in every candidate).
/// A range's values are rounded to six significant digits. The values are passed on as `--set name=value` text, so a misspelt name or a value outside the
/// setting's range is refused as `motion fuse --set` refuses it.
struct TuneGrid: Equatable {
    /// One setting and the values it takes.
    struct Axis: Equatable {
        var name: String
        var values: [String]
    }

    var axes: [Axis]

    /// The most candidates one run takes.
    static let maximumCount = 1_000_000

    /// Parses the `--set` specifications, `steps` being the values of an `a...b` range without `:N`.
    ///
    /// - Throws: ``CommandFailure`` naming the specification and what is wrong with it.
    init(_ specifications: [String], steps: Int) throws {
        guard (2...10_000).contains(steps) else { throw CommandFailure("tune: --steps must be from 2 to 10000, got \(steps)") }
        axes = try specifications.map { try Self.axis($0, steps: steps) }
        var seen = Set<String>()
        for axis in axes where !seen.insert(axis.name).inserted {
            throw CommandFailure("tune: --set \(axis.name) is given twice")
        }
        guard count <= Self.maximumCount else {
            throw CommandFailure(
                "tune: the --set ranges make \(axes.map { "\($0.values.count)" }.joined(separator: " × ")) "
                    + "candidates, more than \(Self.maximumCount)")
        }
    }

    /// The number of candidates (the product of the axes' sizes, 1 without axes), or `Int.max` when
    /// it overflows.
    var count: Int {
        axes.reduce(1) { product, axis in
            let (result, overflow) = product.multipliedReportingOverflow(by: axis.values.count)
            return overflow ? Int.max : result
        }
    }

    /// Candidate `index`'s value of each axis.
    func values(_ index: Int) -> [String] {
        var rest = index
        var result = [String](repeating: "", count: axes.count)
        for k in axes.indices.reversed() {
            let n = axes[k].values.count
            result[k] = axes[k].values[rest % n]
            rest /= n
        }
        return result
    }

    /// Candidate `index`'s `--set` overrides, `name=value`, one per axis.
    func overrides(_ index: Int) -> [String] {
        zip(axes, values(index)).map { $0.name + "=" + $1 }
    }

    static func axis(_ text: String, steps: Int) throws -> Axis {
        func fail(_ why: String) -> CommandFailure { CommandFailure("tune: --set '\(text)': \(why)") }
        let parts = text.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw fail("expected name=a...b, name=a...b:N, name=a...b:N:log or name=v1,v2,…")
        }
        let (name, spec) = (parts[0], parts[1])
        guard let range = spec.range(of: "...") else {
            let values = spec.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            if let empty = values.firstIndex(of: "") { throw fail("value \(empty + 1) is empty") }
            guard Set(values).count == values.count else { throw fail("a value is listed twice") }
            return Axis(name: name, values: values)
        }
        let lowText = String(spec[..<range.lowerBound])
        let rest = spec[range.upperBound...].split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard let low = Double(lowText), low.isFinite, let high = Double(rest[0]), high.isFinite else {
            throw fail("the ends of a...b must be finite numbers")
        }
        guard low < high else { throw fail("a...b needs a below b") }
        guard rest.count <= 3 else { throw fail("expected a...b, a...b:N or a...b:N:log") }
        var n = steps
        if rest.count >= 2 {
            guard let given = Int(rest[1]), given >= 2, given <= 10_000 else {
                throw fail("N in a...b:N must be a whole number from 2 to 10000")
            }
            n = given
        }
        var logarithmic = false
        if rest.count == 3 {
            guard rest[2] == "log" else { throw fail("expected log after a...b:N, got '\(rest[2])'") }
            guard low > 0 else { throw fail("a...b:N:log needs a above 0") }
            logarithmic = true
        }
        let values = (0..<n).map { i -> Double in
            if i == 0 { return low }
            if i == n - 1 { return high }
            let f = Double(i) / Double(n - 1)
            if logarithmic { return Double.exp(Double.log(low) + f * (Double.log(high) - Double.log(low))) }
            // Weighted ends, not low + f (high − low): a range across zero (−0.3...0.6:4) gives 0, not
            // a rounding residue that would stay in the six digits kept.
            let value = (low * Double(n - 1 - i) + high * Double(i)) / Double(n - 1)
            return abs(value) < 1e-12 * (high - low) ? 0 : value
        }
        // Six significant digits, so that the value printed is the value run (and `motion fuse
        // --set` with it reproduces the score).
        let rounded = values.map { Double(String(format: "%.6g", $0)) ?? $0 }
        guard Set(rounded).count == rounded.count else { throw fail("the values do not differ in six digits") }
        return Axis(name: name, values: rounded.map { "\($0)" })
    }
}
