import ArgumentParser
import Foundation
import MotionFusion

/// `motion tune`: a search over a filter's settings on the user's own recordings with truth.
struct TuneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tune",
        abstract: "Search a filter's settings on recordings with truth: the best settings and a leave-one-out check.",
        discussion: """
            Each combination of the --set values is a candidate, run over every INPUT as `motion \
            fuse --set …` runs it, scored as `motion evaluate` scores (BROAD's RMS error) and \
            ranked by its mean over the recordings; the defaults are scored too. Leave one \
            recording out: the settings best on the others, scored on the one left out.

            --set name=a...b takes --steps values; a...b:N takes N, a...b:N:log spaces them in \
            the logarithm; v1,v2 lists them. TRUTH: each INPUT's own qw,qx,qy,qz unless --truth \
            gives one file per INPUT.

            Unit options (--time-unit, --gyro-unit, --accel-unit, --mag-unit, --trust-units): \
            `motion tune --help-hidden`. They and every detail: the DocC article "The motion \
            Command-Line Tool", section "Tuning a filter".
            """)

    @Argument(help: "The recordings (CSV in the motion fuse format).")
    var inputs: [String] = []

    @Option(help: ArgumentHelp("The truth of each INPUT, in order (default: the INPUT's own qw,qx,qy,qz).", valueName: "file"))
    var truth: [String] = []

    @Option(name: .customLong("set"), help: ArgumentHelp("A setting's values: name=a...b[:N[:log]] or name=v1,v2.", valueName: "name=values"))
    var axes: [String] = []

    @Option(help: "Values of an a...b range without :N.")
    var steps: Int = 10

    @Option(help: "The filter to tune.")
    var filter: FilterName = .inertial

    @Flag(help: "Ignore magnetometer columns (6D; scores inclination).")
    var noMagnetometer = false

    @Option(help: "The error minimized (default: total; 6D: inclination).")
    var metric: TuneMetric?

    @Option(help: "The truth's earth frame.")
    var frame: EarthFrame = .enu

    @Option(help: "Arithmetic.")
    var precision: Precision = .double

    @Flag(help: "Do not learn the magnetometer's hard/soft iron online.")
    var noLearnMagnetometer = false

    @Option(parsing: .unconditional, help: "Longest step integrated over, s.")
    var maximumGap: Double = 1

    @Option(help: "Threads (default: the processor count).")
    var jobs: Int?

    @Option(help: "Candidates listed.")
    var top: Int = 10

    @Option(name: .shortAndLong, help: ArgumentHelp("Every candidate's scores as CSV (- for standard output).", valueName: "file"))
    var output: String?

    @OptionGroup var units: InputUnits

    /// The metric in use.
    var scoredMetric: TuneMetric { metric ?? (noMagnetometer ? .inclination : .total) }

    func validate() throws {
        if inputs.isEmpty { throw ValidationError("give at least one recording") }
        if !truth.isEmpty && truth.count != inputs.count {
            throw ValidationError("--truth is given \(truth.count) times for \(inputs.count) recordings: one per INPUT, in order")
        }
        if inputs.contains("-") || truth.contains("-") { throw ValidationError("tune reads files, not standard input") }
        if noMagnetometer && scoredMetric != .inclination {
            throw ValidationError("--metric \(scoredMetric.rawValue) with --no-magnetometer: without a magnetometer heading is not observable; tune inclination")
        }
        if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs must be from 1 to 256, got \(jobs)") }
        if top < 1 { throw ValidationError("--top must be at least 1") }
        if !(2...10_000).contains(steps) { throw ValidationError("--steps must be from 2 to 10000, got \(steps)") }
        if !(maximumGap > 0) || !maximumGap.isFinite { throw ValidationError("--maximum-gap must be a positive number of seconds") }
    }

    func run() throws {
        // Before anything is read: an output that is an input, a link or a folder is refused here.
        let file = try output.map { try OutputFile(path: $0, inputs: inputs + truth) }
        let report: TuneReport
        do {
            report = try self.report()
        } catch {
            file?.abandon()
            throw error
        }
        if let file {
            file.write(report.csv)
            try file.commit()
        }
        // With the CSV on standard output, the report goes to standard error.
        if file?.writesToStandardOutput == true {
            FileHandle.standardError.write(Data(report.text.utf8))
        } else {
            print(report.text, terminator: "")
        }
    }

    /// The search and its findings, in the precision asked for; `lanes` false runs the default
    /// filter's candidates as scalar states (``TuneSearch/usesLanes``).
    func report(lanes: Bool = true) throws -> TuneReport {
        let grid = try TuneGrid(axes, steps: steps)
        switch precision {
        case .double: return try filter.build(frame: frame, for: TuneConsumer<Double>(command: self, grid: grid, lanes: lanes))
        case .float: return try filter.build(frame: frame, for: TuneConsumer<Float>(command: self, grid: grid, lanes: lanes))
        }
    }

    /// Reads the recordings, runs the search and reports it; `prototype` is the filter at its
    /// defaults (the concrete type the candidates share).
    func tune<F: AttitudeFilter>(_ prototype: F, grid: TuneGrid, lanes: Bool) throws -> TuneReport {
        let started = DispatchTime.now().uptimeNanoseconds
        var candidates = [prototype]
        var values: [[String]] = [[]]
        // Without --set the defaults are the only candidate.
        let count = grid.axes.isEmpty ? 0 : grid.count
        candidates.reserveCapacity(count + 1)
        for index in 0..<count {
            let made = try filter.build(overrides: grid.overrides(index), frame: frame, for: SameFilter<F>())
            guard let made else { throw CommandFailure("tune: internal: candidate \(index) is not a \(F.self)") }
            candidates.append(made)
            values.append(grid.values(index))
        }
        let truthPaths = truth.isEmpty ? inputs : truth
        let recordings = try zip(inputs, truthPaths).map { input, truth in
            try TuneRecording<F.Scalar>(
                input: .file(input), truth: truth, units: units, useMagnetometer: !noMagnetometer,
                learnsMagnetometer: !noLearnMagnetometer)
        }
        if !noMagnetometer && scoredMetric != .inclination,
            let without = recordings.first(where: { !$0.hasMagnetometer })
        {
            throw CommandFailure(
                "\(without.name) has no magnetometer reading: its heading is not observable, so --metric "
                    + "\(scoredMetric.rawValue) would rank an arbitrary heading; give --no-magnetometer (which scores inclination)")
        }
        let read = DispatchTime.now().uptimeNanoseconds
        let threads = min(jobs ?? ProcessInfo.processInfo.activeProcessorCount, 256)
        var search = TuneSearch(
            candidates: candidates, recordings: recordings, metric: scoredMetric, maximumGap: maximumGap)
        search.usesLanes = lanes
        let scores = search.run(jobs: threads)
        let finished = DispatchTime.now().uptimeNanoseconds
        return TuneReport(
            axes: grid.axes.map(\.name), values: values, names: recordings.map(\.name), scores: scores,
            metric: scoredMetric, filter: filter, sixD: noMagnetometer, samples: recordings.reduce(0) { $0 + $1.count },
            readSeconds: Double(read - started) / 1e9, searchSeconds: Double(finished - read) / 1e9, threads: threads,
            top: top)
    }
}

/// Hands `motion tune` the filter at its defaults as its concrete type.
private struct TuneConsumer<Scalar: FusionScalar>: FilterConsumer {
    let command: TuneCommand, grid: TuneGrid, lanes: Bool
    func consume<F: AttitudeFilter>(_ filter: F) throws -> TuneReport where F.Scalar == Scalar {
        try command.tune(filter, grid: grid, lanes: lanes)
    }
}

/// A candidate's filter, when it is of the type `F` (always: the same filter and precision).
private struct SameFilter<F: AttitudeFilter>: FilterConsumer {
    typealias Scalar = F.Scalar
    func consume<G: AttitudeFilter>(_ filter: G) throws -> F? where G.Scalar == Scalar { filter as? F }
}
