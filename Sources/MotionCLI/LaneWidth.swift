import MotionFusion

/// Work over a many-stream lane type, run by ``LaneWidth/run(_:scalar:width:)`` for a width known
/// only at run time.
protocol LaneWork {
    associatedtype Result
    func run<Lanes: FusionLanes>(_: Lanes.Type) -> Result
}

/// The lane widths the command-line tool runs the many-stream engines in, and the one place that
/// turns a width chosen at run time (`--float-lanes`, `--double-lanes`, ``VectorRegister``) into
/// its SIMD type.
enum LaneWidth {
    /// The widths there are lane types for, per precision.
    static let float = [4, 8, 16]
    static let double = [2, 4, 8]

    /// The widths of `scalar`'s lanes.
    static func widths<Scalar: FusionScalar>(_ scalar: Scalar.Type) -> [Int] {
        scalar == Float.self ? float : double
    }

    /// The width nearest `lanes` that has a lane type: one vector register's lanes
    /// (``VectorRegister``), clamped to the narrowest and widest there are.
    static func fitting<Scalar: FusionScalar>(_ lanes: Int, _ scalar: Scalar.Type) -> Int {
        let widths = widths(scalar)
        return Swift.min(widths.last!, Swift.max(widths.first!, lanes))
    }

    /// One vector register's lanes of `scalar`, as ``fitting(_:_:)`` clamps them.
    static func register<Scalar: FusionScalar>(_ scalar: Scalar.Type) -> Int {
        fitting(scalar == Float.self ? VectorRegister.floatLanes : VectorRegister.doubleLanes, scalar)
    }

    /// Runs `work` in `width` lanes of `scalar`. `width` must be one of ``widths(_:)``'s (the
    /// options are checked against them).
    static func run<Work: LaneWork, Scalar: FusionScalar>(_ work: Work, scalar: Scalar.Type, width: Int) -> Work.Result {
        if scalar == Float.self {
            switch width {
            case 4: return work.run(SIMD4<Float>.self)
            case 8: return work.run(SIMD8<Float>.self)
            case 16: return work.run(SIMD16<Float>.self)
            default: break
            }
        } else if scalar == Double.self {
            switch width {
            case 2: return work.run(SIMD2<Double>.self)
            case 4: return work.run(SIMD4<Double>.self)
            case 8: return work.run(SIMD8<Double>.self)
            default: break
            }
        }
        preconditionFailure("no \(scalar) lanes of width \(width)")
    }
}
