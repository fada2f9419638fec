import Foundation
import MotionFusion

/// What `motion tune` found: the candidates ranked by their mean error over the recordings, the
/// filter's defaults among them, and the leave-one-recording-out check.
struct TuneReport {
    /// The set axes' names, and each candidate's values for them (candidate 0, the defaults: none).
    let axes: [String]
    let values: [[String]]
    /// The recordings' names.
    let names: [String]
    /// Candidate c's RMS error on recording r, degrees, at `[c * names.count + r]` (NaN: diverged).
    let scores: [Double]
    let metric: TuneMetric
    let filter: FilterName
    let sixD: Bool
    let samples: Int
    let readSeconds: Double, searchSeconds: Double
    let threads: Int
    let top: Int

    var candidates: Int { values.count }

    /// Candidate c's mean over the recordings (NaN when it diverged on one).
    func mean(_ c: Int) -> Double {
        let r = names.count
        return (0..<r).reduce(0) { $0 + scores[c * r + $1] } / Double(r)
    }

    /// Candidate c's settings as `--set` arguments, or "(defaults)".
    func label(_ c: Int) -> String {
        c == 0 ? "(defaults)" : zip(axes, values[c]).map { "\($0)=\($1)" }.joined(separator: " ")
    }

    /// The candidates, best first: by mean error, NaN last, ties to the lower index.
    var ranking: [Int] {
        let means = (0..<candidates).map(mean)
        return (0..<candidates).sorted { a, b in
            let (x, y) = (means[a], means[b])
            if x.isNaN != y.isNaN { return y.isNaN }
            if x != y && !x.isNaN { return x < y }
            return a < b
        }
    }

    /// For each recording: the candidate whose mean over the other recordings is lowest (NaN last,
    /// ties to the lower index) and its error on the recording left out. Empty with one recording.
    static func leaveOneOut(scores: [Double], candidates: Int, recordings r: Int) -> [(chosen: Int, error: Double)] {
        guard r > 1 else { return [] }
        return (0..<r).map { out in
            var chosen = 0
            var best = Double.nan
            for c in 0..<candidates {
                var sum = 0.0
                for k in 0..<r where k != out { sum += scores[c * r + k] }
                let m = sum / Double(r - 1)
                if !m.isNaN && (best.isNaN || m < best) {
                    best = m
                    chosen = c
                }
            }
            return (chosen, scores[chosen * r + out])
        }
    }

    var text: String {
        let r = names.count
        let order = ranking
        let rankOf = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0 + 1) })
        func worst(_ c: Int) -> Double { (0..<r).map { scores[c * r + $0] }.max { a, b in a.isNaN ? false : (b.isNaN || a < b) } ?? .nan }
        func f(_ x: Double) -> String { x.isNaN ? "diverged" : String(format: "%.3f", x) }
        let mode = sixD ? "6D" : "9D"
        var t = "tune: \(filter.rawValue) filter, \(mode), \(metric.rawValue) RMSE in degrees (BROAD's scoring, heading offset kept)\n"
        let perSample = searchSeconds * 1e9 / (Double(samples) * Double(candidates))
        t += "\(r) recording\(r == 1 ? "" : "s"), \(samples) samples; \(candidates) candidates (the defaults and "
        t += "\(candidates - 1) settings); read in \(String(format: "%.2f", readSeconds)) s, searched in "
        t += "\(String(format: "%.2f", searchSeconds)) s on \(threads) thread\(threads == 1 ? "" : "s") "
        t += "(\(String(format: "%.1f", perSample)) ns per sample and candidate)\n\n"
        t += "best of \(candidates) (mean over the recordings; worst recording):\n"
        t += "  rank      mean     worst  settings\n"
        func line(_ rank: String, _ c: Int) -> String {
            rank.leftPadding(6) + f(mean(c)).leftPadding(10) + f(worst(c)).leftPadding(10) + "  " + label(c) + "\n"
        }
        for c in order.prefix(top) { t += line("\(rankOf[c]!)", c) }
        if rankOf[0]! > top { t += line("\(rankOf[0]!)", 0) }
        let folds = Self.leaveOneOut(scores: scores, candidates: candidates, recordings: r)
        guard !folds.isEmpty else {
            t += "\nleave one recording out: needs two recordings or more\n"
            return t
        }
        t += "\nleave one recording out (the settings best on the others, scored on the one left out):\n"
        let shown = shownNames
        let width = max(9, shown.map(\.count).max() ?? 0)
        t += "  " + "recording".rightPadding(width) + "  left out  best there  defaults  settings chosen\n"
        var heldOut = 0.0, bestThere = 0.0, defaults = 0.0
        for (k, fold) in folds.enumerated() {
            let best = (0..<candidates).map { scores[$0 * r + k] }.filter { !$0.isNaN }.min() ?? .nan
            heldOut += fold.error
            bestThere += best
            defaults += scores[k]
            t += "  " + shown[k].rightPadding(width) + f(fold.error).leftPadding(10)
                + f(best).leftPadding(12) + f(scores[k]).leftPadding(10) + "  " + label(fold.chosen) + "\n"
        }
        let n = Double(r)
        t += "  " + "mean".rightPadding(width) + f(heldOut / n).leftPadding(10) + f(bestThere / n).leftPadding(12)
            + f(defaults / n).leftPadding(10) + "\n"
        let chosen = Dictionary(grouping: folds.map(\.chosen), by: { $0 }).values.map(\.count).max() ?? 0
        t += "held out \(f(heldOut / n))° against \(f(mean(order[0])))° in-sample for the best and "
        t += "\(f(mean(0)))° for the defaults; the most often chosen settings were chosen for \(chosen) of \(r) recordings\n"
        return t
    }

    /// Every candidate, best first: rank, the axes' values, the mean and each recording's error.
    var csv: String {
        let r = names.count
        var c = "rank," + (axes + ["mean"] + shownNames).map(Self.csvField).joined(separator: ",") + "\n"
        for (rank, k) in ranking.enumerated() {
            let settings = k == 0 ? axes.map { _ in "default" } : values[k]
            let numbers = [mean(k)] + (0..<r).map { scores[k * r + $0] }
            c += "\(rank + 1)," + (settings.map(Self.csvField) + numbers.map { "\($0)" }).joined(separator: ",") + "\n"
        }
        return c
    }

    /// The recordings' names as shown: their file names, or their paths where two file names are
    /// the same.
    var shownNames: [String] {
        let short = names.map { $0.split(separator: "/").last.map(String.init) ?? $0 }
        return Set(short).count == short.count ? short : names
    }

    static func csvField(_ text: String) -> String {
        text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" })
            ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }
}

extension String {
    fileprivate func leftPadding(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
    fileprivate func rightPadding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
