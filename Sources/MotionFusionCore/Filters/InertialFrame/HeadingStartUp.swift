/// ``InertialFrameFilter``'s heading start-up: the first usable field sets the heading outright,
/// and for the first τ_m seconds after it the heading moves by the running mean of the fields that
/// are not judged disturbed (gains 1/2, 1/3, …, or the usual gain if that is larger) instead of the
/// first-order gain alone, so that the heading converges in τ_m, not in several τ_m.
@frozen @usableFromInline
struct HeadingStartUp<Scalar: FusionScalar>: Sendable {
    /// The number of fields averaged so far; 0 once the start-up is over (or before a field).
    @usableFromInline var count: Scalar = 0
    /// Whether a field, or an attitude given to the filter, has set the heading.
    @usableFromInline var isSeeded = false
    /// Seconds since the first field.
    @usableFromInline var time: Scalar = 0

    @inlinable init() {}

    /// No heading yet: the next usable field sets it.
    @inlinable mutating func restart() {
        count = 0
        isSeeded = false
    }

    /// An attitude given to the filter has set the heading: no start-up.
    @inlinable mutating func seedFromAttitude() {
        count = 0
        isSeeded = true
    }

    /// A field has set the heading: the start-up begins.
    @inlinable mutating func seedFromField() {
        isSeeded = true
        count = 1
        time = 0
    }

    /// Adjusts the heading gain of a correction step of `interval` seconds: 1 for the first field,
    /// at least 1/N for the N-th during the start-up (`counts`: the field is not judged disturbed
    /// against a reference; before the first reference every field counts), unchanged after it.
    /// Returns whether the step is past the start-up (only such steps are nominal for the bias
    /// estimator and the disagreement's variance).
    @inlinable
    mutating func adjust(gain: inout Scalar, interval: Scalar, counts: Bool, timeConstant: Scalar) -> Bool {
        if !isSeeded {
            seedFromField()
            gain = 1
            return false
        }
        guard count > 0 else { return true }
        time += interval
        if counts {
            count += 1
            gain = max(gain, 1 / count)
        }
        if time >= timeConstant { count = 0 }
        return false
    }
}
