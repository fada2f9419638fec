import RealModule

/// ``InertialFrameFilter``'s magnetic disturbance detection and rejection, run at each correction
/// step with a field seen in the earth frame.
///
/// The field's norm and dip angle (after a first-order low-pass of τ_current) are compared with a
/// reference learned while the field is undisturbed: outside the norm or dip threshold the field is
/// disturbed, and the heading gain is 0 for up to `maximumRejectionDuration` seconds, then divided by
/// `rejectionGainFactor`; rejection time is earned back at `rejectionGainFactor` seconds per second
/// undisturbed. A new field that stays consistent for `newFieldDuration` seconds while the sensor
/// turns faster than `newFieldMinimumRate` (the first one: `firstFieldDuration`) becomes the reference.
/// Before the first reference every field counts as disturbed and the budget starts spent. The
/// first reference makes available only as much of it as the gyroscope can carry the heading alone:
/// `ψ / σ_bz` seconds, the time in which the vertical bias's uncertainty σ_bz turns the heading by
/// the magnetometer's own persistent heading error ψ (`magneticHeadingUncertainty`).
@frozen @usableFromInline
struct MagneticDisturbanceRejection<Scalar: FusionScalar>: Sendable {
    /// The low-pass current norm (µT) and dip (rad, positive downward).
    @usableFromInline var normDip: SIMD2<Scalar> = .zero
    @usableFromInline var seeded = false
    /// The reference norm and dip; norm 0: none yet.
    @usableFromInline var reference: SIMD2<Scalar> = .zero
    /// A candidate for a new reference and how long it has been seen while turning.
    @usableFromInline var candidate: SIMD2<Scalar> = .zero
    @usableFromInline var candidateTime: Scalar = 0
    @usableFromInline var undisturbedTime: Scalar = 0
    /// Rejection time spent (starts spent: before a first reference the field is used at the
    /// reduced gain).
    @usableFromInline var rejectionTime: Scalar
    @usableFromInline var disturbed = true

    /// The settings the rejection uses, kept here and refreshed by the filter whenever its
    /// settings are set (a step reads these scalars instead of taking the whole settings value).
    @usableFromInline
    struct Parameters: Sendable {
        @usableFromInline var magneticNormThreshold: Scalar
        @usableFromInline var magneticDipThreshold: Scalar
        @usableFromInline var undisturbedDuration: Scalar
        @usableFromInline var newFieldMinimumRate: Scalar
        @usableFromInline var newFieldDuration: Scalar
        @usableFromInline var firstFieldDuration: Scalar
        @usableFromInline var maximumRejectionDuration: Scalar
        @usableFromInline var rejectionGainFactor: Scalar
        @usableFromInline var magneticHeadingUncertainty: Scalar

        @inlinable
        init(_ settings: InertialFrameFilter<Scalar>.Settings) {
            magneticHeadingUncertainty = settings.magneticHeadingUncertainty
            magneticNormThreshold = settings.magneticNormThreshold
            magneticDipThreshold = settings.magneticDipThreshold
            undisturbedDuration = settings.undisturbedDuration
            newFieldMinimumRate = settings.newFieldMinimumRate
            newFieldDuration = settings.newFieldDuration
            firstFieldDuration = settings.firstFieldDuration
            maximumRejectionDuration = settings.maximumRejectionDuration
            rejectionGainFactor = settings.rejectionGainFactor
        }
    }

    /// The settings in use (see ``Parameters``).
    @usableFromInline var parameters: Parameters

    /// No reference yet, the rejection budget spent (`rejectionTime` beyond `maximumRejectionDuration`
    /// would also do).
    @inlinable init(settings: InertialFrameFilter<Scalar>.Settings) {
        parameters = Parameters(settings)
        rejectionTime = settings.maximumRejectionDuration
    }

    /// Whether a reference field exists.
    @inlinable var hasReference: Bool { reference.x > 0 }

    /// Judges the field of norm `norm` (µT) and unit direction `e` (earth frame, z up) seen over the
    /// last `dt` seconds while the sensor turns at `lowPassRate` (rad/s), and scales the heading
    /// `gain` accordingly: unchanged when undisturbed, 0 while rejecting, divided by
    /// `rejectionGainFactor` after the rejection budget is spent. `verticalBiasSigma` (rad/s) is the
    /// standard deviation of the gyroscope bias along the vertical, which sets the budget the first
    /// reference makes available (0: the whole budget, NaN: none); it is evaluated only then.
    /// Returns whether the field is undisturbed (the gain is the nominal one).
    @inlinable
    mutating func judge(
        norm: Scalar, direction e: SIMD3<Scalar>, lowPassRate: SIMD3<Scalar>, dt: Scalar,
        currentGain: Scalar, referenceGain: Scalar, verticalBiasSigma: @autoclosure () -> Scalar,
        gain: inout Scalar
    ) -> Bool {
        let current = SIMD2(norm, Scalar.asin(max(-1, min(1, -e.z))))
        if seeded {
            FirstOrder.step(&normDip, toward: current, gain: currentGain)
        } else {
            normDip = current
            seeded = true
        }
        let normTh = parameters.magneticNormThreshold
        let dipTh = parameters.magneticDipThreshold
        if abs(normDip.x - reference.x) < normTh * reference.x
            && abs(normDip.y - reference.y) < dipTh
        {
            undisturbedTime += dt
            if undisturbedTime >= parameters.undisturbedDuration {
                disturbed = false
                FirstOrder.step(&reference, toward: normDip, gain: referenceGain)
            }
        } else {
            undisturbedTime = 0
            disturbed = true
        }
        // A new field: consistent for long enough while the sensor moves.
        if abs(normDip.x - candidate.x) < normTh * candidate.x
            && abs(normDip.y - candidate.y) < dipTh
        {
            if (lowPassRate * lowPassRate).sum() >= parameters.newFieldMinimumRate * parameters.newFieldMinimumRate {
                candidateTime += dt
            }
            FirstOrder.step(&candidate, toward: normDip, gain: referenceGain)
            if disturbed
                && (candidateTime >= parameters.newFieldDuration
                    || (reference.x == 0 && candidateTime >= parameters.firstFieldDuration))
            {
                // With a reference to judge against, rejection becomes possible, but only for as
                // long as the gyroscope can carry the heading alone: the vertical bias's
                // uncertainty turns it by ψ in ψ / σ_bz (10 s at the 0.5°/s prior, the full 60 s
                // once rest has measured the bias). More is earned while undisturbed.
                if reference.x == 0 {
                    let longest = parameters.maximumRejectionDuration
                    let psi = parameters.magneticHeadingUncertainty
                    let sigma = verticalBiasSigma()
                    // ψ = 0: no budget; σ = 0 (a bias known exactly): all of it; an unusable σ
                    // (NaN): none. Before the first reference nothing has been earned back, so the
                    // spent time is set, not lowered (a maximum raised since init counts too).
                    let allowed: Scalar
                    if psi == 0 || sigma.isNaN {
                        allowed = 0
                    } else if sigma > 0 {
                        allowed = min(longest, psi / sigma)
                    } else {
                        allowed = longest
                    }
                    rejectionTime = longest - allowed
                }
                reference = candidate
                disturbed = false
                undisturbedTime = parameters.undisturbedDuration
            }
        } else {
            candidateTime = 0
            candidate = normDip
        }
        if disturbed {
            if rejectionTime <= parameters.maximumRejectionDuration {
                rejectionTime += dt
                gain = 0
            } else {
                gain /= parameters.rejectionGainFactor
            }
            return false
        }
        rejectionTime = max(rejectionTime - parameters.rejectionGainFactor * dt, 0)
        return true
    }
}
