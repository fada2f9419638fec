@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// The tests' seeded generator: the library's SplitMix64, so failures reproduce.
typealias TestRandom = SplitMix64
