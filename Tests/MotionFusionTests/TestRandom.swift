@testable import MotionFusion

/// The tests' seeded generator: the library's SplitMix64, so failures reproduce.
typealias TestRandom = SplitMix64
