import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// Madgwick and Mahony against the `ahrs` package, sample by sample (Reference/filter_*.csv, made by
/// scripts/make_filter_reference): every sample within 1e-9 rad in Double, after mapping frames.
@Suite("Filters match ahrs sample by sample")
struct FilterReferenceTests {
    struct Recording {
        var t: [Double] = []
        var gyroscope: [SIMD3<Double>] = []
        var accelerometer: [SIMD3<Double>] = []
        var magnetometer: [SIMD3<Double>] = []

        init() throws {
            let table = try ReferenceTable("filter_inputs.csv")
            for row in table.rows {
                t.append(table.double(row, "t"))
                gyroscope.append(table.vector(row, "gx", "gy", "gz"))
                accelerometer.append(table.vector(row, "ax", "ay", "az"))
                magnetometer.append(table.vector(row, "mx", "my", "mz"))
            }
        }
    }

    /// Runs `filter` from the reference's first quaternion (given in `referenceFrame`) with the
    /// filter's own frame `frame`, and returns the largest angle to the reference over all samples.
    func largestDeviation<F: AttitudeFilter>(
        _ filter: F, file: String, referenceFrame: EarthFrame, nineD: Bool,
        bias: ((F) -> SIMD3<Double>)? = nil
    ) throws -> (angle: Double, bias: Double) where F.Scalar == Double {
        let data = try Recording()
        let table = try ReferenceTable(file)
        #expect(table.rows.count == data.t.count)
        // The rotation taking the reference's frame to the filter's: q_F = r ⊗ q_ref.
        let r = filter.frame.fromNWU(Double.self) * referenceFrame.fromNWU(Double.self).conjugate
        var filter = filter
        filter.reset(to: r * table.quaternion(table.rows[0]))
        var worst = 0.0
        var worstBias = 0.0
        for k in 1..<data.t.count {
            filter.update(
                gyroscope: data.gyroscope[k], accelerometer: data.accelerometer[k],
                magnetometer: nineD ? data.magnetometer[k] : nil, dt: data.t[k] - data.t[k - 1])
            let expected = r * table.quaternion(table.rows[k])
            worst = max(worst, filter.quaternion.angle(to: expected))
            if let bias {
                let b = table.vector(table.rows[k], "bx", "by", "bz")
                worstBias = max(worstBias, (bias(filter) - b).length)
            }
        }
        return (worst, worstBias)
    }

    @Test(arguments: EarthFrame.allCases)
    func madgwickIMU(frame: EarthFrame) throws {
        for (beta, file) in [(0.1, "filter_ahrs_madgwick_imu.csv"), (0.033, "filter_ahrs_madgwick_imu_beta0.033.csv")] {
            let filter = MadgwickFilter<Double>(settings: .init(beta: beta, frame: frame))
            let result = try largestDeviation(filter, file: file, referenceFrame: .nwu, nineD: false)
            #expect(result.angle <= 1e-9, "\(file) in \(frame): \(result.angle) rad")
        }
    }

    @Test(arguments: EarthFrame.allCases)
    func madgwickMARG(frame: EarthFrame) throws {
        let filter = MadgwickFilter<Double>(settings: .init(beta: 0.1, frame: frame))
        let result = try largestDeviation(
            filter, file: "filter_ahrs_madgwick_marg.csv", referenceFrame: .nwu, nineD: true)
        #expect(result.angle <= 1e-9, "in \(frame): \(result.angle) rad")
    }

    @Test(arguments: EarthFrame.allCases)
    func mahony(frame: EarthFrame) throws {
        // ahrs's Mahony writes its magnetic reference with north on +y: ENU.
        for (file, nineD) in [
            ("filter_ahrs_mahony_imu.csv", false), ("filter_ahrs_mahony_marg.csv", true),
            ("filter_ahrs_mahony_marg_q0enu.csv", true),
        ] {
            let filter = MahonyFilter<Double>(settings: .init(kp: 1, ki: 0.3, maximumBias: .infinity, frame: frame))
            let result = try largestDeviation(
                filter, file: file, referenceFrame: .enu, nineD: nineD, bias: { $0.gyroscopeBias })
            #expect(result.angle <= 1e-9, "\(file) in \(frame): \(result.angle) rad")
            #expect(result.bias <= 1e-9, "\(file) bias in \(frame): \(result.bias) rad/s")
        }
    }

    @Test func floatFollowsDoubleClosely() throws {
        let data = try Recording()
        let table = try ReferenceTable("filter_ahrs_madgwick_marg.csv")
        var filter = MadgwickFilter<Float>(settings: .init(beta: 0.1, frame: .nwu))
        filter.reset(to: Quaternion<Float>(table.quaternion(table.rows[0])))
        var worst = 0.0
        for k in 1..<data.t.count {
            filter.update(
                gyroscope: SIMD3<Float>(data.gyroscope[k]), accelerometer: SIMD3<Float>(data.accelerometer[k]),
                magnetometer: SIMD3<Float>(data.magnetometer[k]), dt: Float(data.t[k] - data.t[k - 1]))
            worst = max(worst, Quaternion<Double>(filter.quaternion).angle(to: table.quaternion(table.rows[k])))
        }
        // Float rounding (6e-8 per step) stays bounded because the correction is contractive.
        #expect(worst <= 1e-4, "\(worst) rad")
    }
}
