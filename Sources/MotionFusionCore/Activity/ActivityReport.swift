/// One activity as ``ActivityClassifier`` reports it: what, how sure, and since when.
public struct ActivityReport: Sendable, Hashable {
    /// The activity.
    public var kind: ActivityKind
    /// How sure the classifier is.
    public var confidence: ActivityConfidence
    /// When the activity began, s, on the readings' clock: the first step of a walk, the moment the
    /// device became still, the reading at which a run or an unknown stretch was recognised. Never
    /// before the previous report's start.
    public var startTime: Double
    /// When the classifier reported it, s: the reading that changed the kind or the confidence.
    public var reportTime: Double

    public init(kind: ActivityKind, confidence: ActivityConfidence, startTime: Double, reportTime: Double) {
        self.kind = kind
        self.confidence = confidence
        self.startTime = startTime
        self.reportTime = reportTime
    }
}
