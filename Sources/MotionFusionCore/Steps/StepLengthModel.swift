/// How long a step is, for a pedometer's distance and pace: a length the user gives, or one
/// estimated from the user's height.
///
/// **The model.** Without a length of their own, a step is ``heightFactor`` (0.415) times the
/// user's height: the rule pedometer makers give for walking (0.413 for women, 0.415 for men; it
/// is not from a study we could read, and it leaves out that steps lengthen as cadence rises: at
/// 1.5 steps a second a step is shorter than this, at 2 longer, and a run's steps are longer
/// still). For a 1.75 m walker it gives 0.73 m, 1.3 m/s at 1.8 steps a second, a usual walking
/// speed.
///
/// **How accurate.** Not measured here: none of the recordings the package is tested on has a
/// distance, a speed or the walkers' heights. Published models that add the cadence (Renaudin et
/// al., Sensors 2012: 2.5–5 % of the distance walked, with three parameters fitted on 12 walkers)
/// do better than a fixed length; with a fixed length the error is that of the user's step length
/// against the model's — typically 5–15 % for a height-based length, near 0 for a length measured
/// by the user over a known distance. Give ``stepLength`` when distance matters.
public struct StepLengthModel: Sendable, Hashable {
    /// The fraction of the height a walking step is. 0.415.
    public static var heightFactor: Double { 0.415 }
    /// The height used when none is given, m: 1.70.
    public static var defaultHeight: Double { 1.70 }

    /// The user's height, m. Used when ``stepLength`` is nil. Values outside 0.5…2.5 m are not
    /// used (``defaultHeight`` is).
    public var height: Double
    /// The user's own step length, m (measured: a known distance divided by the steps counted over
    /// it), or nil to use ``height``. Values outside 0.1…3 m are not used.
    public var stepLength: Double?

    /// A model from a height (default 1.70 m) or a step length.
    public init(height: Double = StepLengthModel.defaultHeight, stepLength: Double? = nil) {
        self.height = height
        self.stepLength = stepLength
    }

    /// The length of one step, m.
    public var length: Double {
        if let stepLength, stepLength >= 0.1 && stepLength <= 3 { return stepLength }
        let h = height >= 0.5 && height <= 2.5 ? height : Self.defaultHeight
        return Self.heightFactor * h
    }
}
