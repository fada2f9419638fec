import ArgumentParser
import MotionFusion

/// The filters the commands can run, and everything the commands know about each: its name, which
/// `motion fuse` options set its settings, and how it is built from them. Adding a filter is adding
/// a case here; `fuse`, `bench` and `demo` take every filter from this registry.
enum FilterName: String, CaseIterable, ExpressibleByArgument {
    case inertial, madgwick, mahony, complementary

    /// Whether the filter has a many-stream engine (`motion bench --streams` above 1).
    var hasManyStreams: Bool { self == .inertial || self == .madgwick }

    /// The `motion fuse` options that set this filter's settings; the others are refused with it.
    var options: [FilterOption] {
        switch self {
        case .inertial: [.accelerometerTimeConstant, .magnetometerTimeConstant]
        case .madgwick: [.beta, .zeta]
        case .mahony: [.kp, .ki, .maximumBias]
        case .complementary: [.accelerometerTimeConstant, .magnetometerTimeConstant]
        }
    }

    /// Builds the filter in the consumer's precision with its defaults, then the options' values,
    /// then the `--set` overrides (refused outside their settings' ranges), and hands it to
    /// `consumer` as its concrete type, so that the consumer's generic code is specialized for it.
    func build<Consumer: FilterConsumer>(
        options values: [FilterOption: Double] = [:], overrides: [String] = [], frame: EarthFrame = .enu,
        for consumer: Consumer
    ) throws -> Consumer.Result {
        typealias S = Consumer.Scalar
        func value(_ option: FilterOption) -> S? { values[option].map { S($0) } }
        switch self {
        case .inertial:
            var settings = InertialFrameFilter<S>.Settings(frame: frame)
            if let v = value(.accelerometerTimeConstant) { settings.accelerometerTimeConstant = v }
            if let v = value(.magnetometerTimeConstant) { settings.magnetometerTimeConstant = v }
            settings = try SettingsOverrides.apply(overrides, to: settings, filter: rawValue)
            return try consumer.consume(InertialFrameFilter<S>(settings: settings))
        case .madgwick:
            var settings = MadgwickFilter<S>.Settings(frame: frame)
            if let v = value(.beta) { settings.beta = v }
            if let v = value(.zeta) { settings.zeta = v }
            settings = try SettingsOverrides.apply(overrides, to: settings, filter: rawValue)
            return try consumer.consume(MadgwickFilter<S>(settings: settings))
        case .mahony:
            var settings = MahonyFilter<S>.Settings(frame: frame)
            if let v = value(.kp) { settings.kp = v }
            if let v = value(.ki) { settings.ki = v }
            if let v = value(.maximumBias) { settings.maximumBias = v }
            settings = try SettingsOverrides.apply(overrides, to: settings, filter: rawValue)
            return try consumer.consume(MahonyFilter<S>(settings: settings))
        case .complementary:
            var settings = ComplementaryFilter<S>.Settings(frame: frame)
            if let v = value(.accelerometerTimeConstant) { settings.accelerometerTimeConstant = v }
            if let v = value(.magnetometerTimeConstant) { settings.magnetometerTimeConstant = v }
            settings = try SettingsOverrides.apply(overrides, to: settings, filter: rawValue)
            return try consumer.consume(ComplementaryFilter<S>(settings: settings))
        }
    }

    /// The filters an option belongs to.
    static func owners(of option: FilterOption) -> [FilterName] { allCases.filter { $0.options.contains(option) } }
}

/// A `motion fuse` option that sets one filter setting (or the same setting of several filters).
enum FilterOption: String, CaseIterable {
    case beta, zeta, kp, ki, maximumBias, accelerometerTimeConstant, magnetometerTimeConstant

    /// The option as typed: `--maximum-bias`.
    var flag: String {
        "--" + rawValue.reduce(into: "") { text, c in text += c.isUppercase ? "-" + c.lowercased() : String(c) }
    }
}

/// What a command does with a filter of precision `Scalar`: ``FilterName/build(options:overrides:frame:for:)``
/// hands it the filter as its concrete type.
protocol FilterConsumer {
    associatedtype Scalar: FusionScalar
    associatedtype Result
    func consume<F: AttitudeFilter>(_ filter: F) throws -> Result where F.Scalar == Scalar
}
