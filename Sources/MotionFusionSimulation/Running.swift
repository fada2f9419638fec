import MotionFusionCore
import RealModule

extension MotionScenario {
    /// How a ``Segment/run(seconds:running:)`` segment runs: the feet's forces, the sway, the arm's
    /// swing with the device in the hand, and loops about the vertical. Accelerations are in g, angles
    /// in degrees; the valid ranges are those of ``MotionScenario/validate(memoryLimit:)``.
    ///
    /// The runner starts the segment facing north (ENU y) at a foot strike, with the arm at mid-swing;
    /// the device's attitude at the segment's start is how it is held at mid-swing. Every motion is
    /// periodic or a steady turn, so nothing drifts: over a stride (two steps) the specific force
    /// averages 1 g up (plus the turn's centripetal acceleration) and the swing turns the device by 0.
    ///
    /// - **Steps**, at ``stepFrequency``: a stance whose vertical specific force is a half-sine
    ///   pulse peaking at ``peakForce`` at mid-stance, then a flight in free fall (0 g). For the
    ///   runner neither to rise nor to sink the specific force must average 1 g, so the stance lasts
    ///   π / (2 · peakForce) of the step: 56 % (0.21 s) at the defaults. During the stance the
    ///   runner brakes, then pushes off (``forwardSway``); the body sways toward the foot on the
    ///   ground (``lateralSway``).
    /// - **Arm swing**: the device turns with the hand by `swingAmplitude · sin(π f t)` about the
    ///   runner's lateral (horizontal) axis, one back-and-forth per stride, so it passes mid-swing at
    ///   every foot strike; it sits at ``hand`` from the shoulder, the swing's pivot, and so moves on
    ///   an arc (tangential, centripetal and, while turning, Coriolis acceleration, all exact).
    /// - **Loops**: the runner turns about the vertical at ``turnRate`` for ``turnSeconds``, then runs
    ///   straight for ``straightSeconds``, and so on from the segment's start; the rate eases to 0 and
    ///   back over the first and the last second of each straight stretch (half-cosine). While turning
    ///   the body accelerates toward the circle's center at ``speed`` × rate.
    public struct Running: Sendable, Hashable {
        /// f, steps per second (both feet). Default 2.7 (162 steps a minute). 0: no steps, no sway and
        /// no swing (a smooth glide around the loops).
        public var stepFrequency = 2.7
        /// The vertical specific force at mid-stance, g: 2.5–3 g at the hand (or trunk) of a runner.
        /// Default 2.8. At least π/2 (the stance would otherwise last longer than the step).
        public var peakForce = 2.8
        /// The forward acceleration's amplitude during the stance, g: braking in its first half,
        /// pushing off in its second (one sine period over the stance, zero net). Default 0.5.
        public var forwardSway = 0.5
        /// The side-to-side acceleration's amplitude, g: a sine at the stride frequency (half the step
        /// frequency), toward the right during the first step of each stride. Default 0.3.
        public var lateralSway = 0.3
        /// The arm's swing amplitude, degrees either side of mid-swing. Default 25.
        public var swingAmplitude = 25.0
        /// Where the device is relative to the shoulder (the swing's pivot) at mid-swing, m, in the
        /// runner's frame (x right, y forward, z up). Default (0, 0.27, −0.3): the upper arm hangs
        /// down, the forearm points forward (elbow bent at 90°). Zero: the device turns in place.
        public var hand = SIMD3<Double>(0, 0.27, -0.3)
        /// The running speed, m/s, which with the turn rate sets the centripetal acceleration.
        /// Default 3 (10.8 km/h; a loop of 10 s is then a circle of 4.8 m radius).
        public var speed = 3.0
        /// The turn rate about the vertical while turning, degrees per second; positive turns left
        /// (counterclockwise seen from above). Default 36: one loop every 10 s.
        public var turnRate = 36.0
        /// How long each turning stretch lasts, s. Default 30 (three loops).
        public var turnSeconds = 30.0
        /// How long each straight stretch between turning ones lasts, s (0: always turning). Default 5.
        public var straightSeconds = 5.0

        /// The defaults.
        public init() {}

        /// The stance's share of a step: π / (2 · peakForce).
        var stanceFraction: Double { .pi / (2 * peakForce) }

        /// The length of the half-cosine eases at each end of a straight stretch, s.
        var easing: Double { Swift.min(1, straightSeconds / 2) }

        /// Checks the ranges, naming a setting `\(name).running.peakForce` and so on.
        func validate(_ name: String) throws(SimulationError) {
            let name = "\(name).running"
            try SimulationLimits.nonNegative(stepFrequency, "\(name).stepFrequency", unit: "Hz")
            guard peakForce.isFinite && peakForce >= .pi / 2 else {
                throw .outOfRange(
                    setting: "\(name).peakForce", value: peakForce,
                    range: "finite and ≥ π/2 g (1.5708 g: a stance no longer than the step)")
            }
            try SimulationLimits.finite(forwardSway, "\(name).forwardSway")
            try SimulationLimits.finite(lateralSway, "\(name).lateralSway")
            try SimulationLimits.finite(swingAmplitude, "\(name).swingAmplitude")
            try SimulationLimits.finite(hand, "\(name).hand")
            try SimulationLimits.finite(speed, "\(name).speed")
            try SimulationLimits.finite(turnRate, "\(name).turnRate")
            try SimulationLimits.nonNegative(turnSeconds, "\(name).turnSeconds", unit: "s")
            try SimulationLimits.nonNegative(straightSeconds, "\(name).straightSeconds", unit: "s")
            try SimulationLimits.finite(turnSeconds + straightSeconds, "\(name).turnSeconds + straightSeconds")
        }

        /// The heading ψ (rad, about up, from the segment's start), its rate and its acceleration at
        /// time t into the segment.
        func heading(_ t: Double) -> (angle: Double, rate: Double, acceleration: Double) {
            let omega = turnRate * .pi / 180
            guard straightSeconds > 0 else { return (omega * t, omega, 0) }
            let period = turnSeconds + straightSeconds
            let r = easing
            let loops = (t / period).rounded(.down)
            let u = t - loops * period
            // Each period turns by ω (turnSeconds + r): each half-cosine ease contributes r / 2.
            let before = loops * omega * (turnSeconds + r)
            if u < turnSeconds { return (before + omega * u, omega, 0) }
            let s = u - turnSeconds
            if s < r {
                let x = Double.pi * s / r
                return (
                    before + omega * (turnSeconds + s / 2 + r / (2 * .pi) * .sin(x)), omega * (1 + .cos(x)) / 2,
                    -omega * .pi / (2 * r) * .sin(x)
                )
            }
            if s < straightSeconds - r { return (before + omega * (turnSeconds + r / 2), 0, 0) }
            let v = s - (straightSeconds - r)
            let x = Double.pi * v / r
            return (
                before + omega * (turnSeconds + r / 2 + v / 2 - r / (2 * .pi) * .sin(x)), omega * (1 - .cos(x)) / 2,
                omega * .pi / (2 * r) * .sin(x)
            )
        }

        /// The swing angle θ (rad, about the runner's lateral axis), its rate and its acceleration.
        func swing(_ t: Double) -> (angle: Double, rate: Double, acceleration: Double) {
            guard stepFrequency > 0 else { return (0, 0, 0) }
            let amplitude = swingAmplitude * .pi / 180
            let w = Double.pi * stepFrequency
            // The phase modulo one stride keeps sin and cos accurate however long the run.
            let strides = stepFrequency * t / 2
            let x = 2 * .pi * (strides - strides.rounded(.down))
            return (amplitude * .sin(x), amplitude * w * .cos(x), -amplitude * w * w * .sin(x))
        }

        /// The device's attitude t into the segment, for a start attitude `start` (device → ENU):
        /// `A(ψ) S(θ) start`, A about up, S about the runner's lateral axis (east at the start).
        func attitude(_ t: Double, start: Quaternion<Double>) -> Quaternion<Double> {
            Quaternion(angle: heading(t).angle, axis: SIMD3(0, 0, 1)) * Quaternion(angle: swing(t).angle, axis: SIMD3(1, 0, 0))
                * start
        }

        /// The body rate (device frame, rad/s) of ``attitude(_:start:)``:
        /// `(S start)⁻¹ ψ̇ up + start⁻¹ θ̇ lateral`.
        func rate(_ t: Double, start: Quaternion<Double>) -> SIMD3<Double> {
            let turn = heading(t).rate
            let (angle, swingRate, _) = swing(t)
            let swung = Quaternion(angle: angle, axis: SIMD3(1, 0, 0)) * start
            return swung.inverseAct(on: SIMD3(0, 0, turn)) + start.inverseAct(on: SIMD3(swingRate, 0, 0))
        }

        /// The device's linear acceleration in ENU, m/s², t into the segment.
        func acceleration(_ t: Double, gravity g: Double) -> SIMD3<Double> {
            let (psi, psiRate, psiAcceleration) = heading(t)
            // The body, in the runner's frame (x right, y forward, z up).
            var body = SIMD3<Double>(-speed * psiRate, 0, 0)
            if stepFrequency > 0 {
                let steps = stepFrequency * t
                let phase = steps - steps.rounded(.down)
                let stance = stanceFraction
                let force = phase < stance ? peakForce * .sin(.pi * phase / stance) : 0
                let forward = phase < stance ? -forwardSway * .sin(2 * .pi * phase / stance) : 0
                let strides = steps / 2
                let lateral = lateralSway * .sin(2 * .pi * (strides - strides.rounded(.down)))
                body += g * SIMD3(lateral, forward, force - 1)
            }
            // The hand on its arc about the shoulder, seen in the turning runner's frame.
            let (theta, thetaRate, thetaAcceleration) = swing(t)
            let lateralAxis = SIMD3<Double>(1, 0, 0), up = SIMD3<Double>(0, 0, 1)
            let v = Quaternion(angle: theta, axis: lateralAxis).act(on: hand)
            let across = lateralAxis.cross(v)
            let velocity = thetaRate * across
            let relative = thetaAcceleration * across + thetaRate * thetaRate * lateralAxis.cross(across)
            let arm =
                relative + 2 * psiRate * up.cross(velocity) + psiAcceleration * up.cross(v)
                + psiRate * psiRate * up.cross(up.cross(v))
            return Quaternion(angle: psi, axis: up).act(on: body + arm)
        }
    }
}
