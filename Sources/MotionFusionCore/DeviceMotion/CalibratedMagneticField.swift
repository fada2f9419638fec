/// The magnetic field in the device frame after calibration, with how far it can be trusted:
/// Core Motion's `CMCalibratedMagneticField`.
///
/// Without a magnetometer sample (a 6D source, or a sample the slower magnetometer skipped) the
/// field is zero and the accuracy ``MagneticFieldAccuracy/uncalibrated``, as Core Motion reports it.
/// A sample is reported in every reference frame, also in
/// ``AttitudeReferenceFrame/xArbitraryZVertical``, whose attitude does not use it.
public struct CalibratedMagneticField<Scalar: FusionScalar>: Sendable, Hashable {
    /// µT, device frame, after the magnetometer calibration (hard and soft iron) if there is one.
    public var field: SIMD3<Scalar>
    /// The calibration's accuracy (``MagneticFieldAccuracy``); `.uncalibrated` without a
    /// calibration or without a sample.
    public var accuracy: MagneticFieldAccuracy

    public init(field: SIMD3<Scalar>, accuracy: MagneticFieldAccuracy) {
        self.field = field
        self.accuracy = accuracy
    }

    /// No sample: zero field, ``MagneticFieldAccuracy/uncalibrated``.
    public static var noSample: CalibratedMagneticField { CalibratedMagneticField(field: .zero, accuracy: .uncalibrated) }
}
