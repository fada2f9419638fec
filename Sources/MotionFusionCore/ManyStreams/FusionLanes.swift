import CVectorMath

/// A SIMD vector type the many-stream engines compute in: `SIMD2`, `SIMD4`, `SIMD8` or `SIMD16` of
/// `Float` or `Double` (for example `SIMD16<Float>` or `SIMD8<Double>`).
///
/// The standard library has no vector square root: `squareRoot()` on a SIMD vector takes one scalar
/// square root per lane (with a libm call on its error path), which made the engine slower than one
/// scalar filter. ``laneSquareRoot()`` is the target's vector instruction instead, correctly rounded
/// like the scalar one, so each lane computes exactly what the scalar filter computes.
public protocol FusionLanes: SIMD, Sendable where Scalar: FusionScalar {
    /// The lane-wise square root, correctly rounded (in every lane the value of
    /// `Scalar.squareRoot()`).
    func laneSquareRoot() -> Self
    /// Lane-wise comparisons. (Through a generic `SIMD` parameter the standard library's `.<` and
    /// the others compare lane by lane in a loop; these use the concrete types' vector compares.)
    static func laneLess(_ a: Self, _ b: Self) -> SIMDMask<MaskStorage>
    static func laneLessOrEqual(_ a: Self, _ b: Self) -> SIMDMask<MaskStorage>
    static func laneGreater(_ a: Self, _ b: Self) -> SIMDMask<MaskStorage>
    static func laneGreaterOrEqual(_ a: Self, _ b: Self) -> SIMDMask<MaskStorage>
    static func laneEqual(_ a: Self, _ b: Self) -> SIMDMask<MaskStorage>
    /// Whether every lane of `mask` is true, and whether any is: the standard library's `all(_:)`
    /// and `any(_:)`, which reduce a mask by an out-of-line loop (`min()`, `max()` of its storage,
    /// a call per test in the engines' steps), by halving the vector instead.
    static func allLanes(_ mask: SIMDMask<MaskStorage>) -> Bool
    static func anyLane(_ mask: SIMDMask<MaskStorage>) -> Bool
}

extension SIMD2: FusionLanes where Scalar: FusionScalar {
    @inlinable @inline(__always)
    public func laneSquareRoot() -> Self {
        if Scalar.self == Float.self {
            return unsafeBitCast(mf_sqrt_float2(unsafeBitCast(self, to: SIMD2<Float>.self)), to: Self.self)
        } else {
            return unsafeBitCast(mf_sqrt_double2(unsafeBitCast(self, to: SIMD2<Double>.self)), to: Self.self)
        }
    }

    @inlinable @inline(__always)
    public static func laneLess(_ a: Self, _ b: Self) -> SIMDMask<MaskStorage> {
        if Scalar.self == Float.self {
            let m = unsafeBitCast(a, to: SIMD2<Float>.self) .< unsafeBitCast(b, to: SIMD2<Float>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        } else {
            let m = unsafeBitCast(a, to: SIMD2<Double>.self) .< unsafeBitCast(b, to: SIMD2<Double>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        }
    }

    @inlinable @inline(__always)
    public static func laneLessOrEqual(_ a: Self, _ b: Self) -> SIMDMask<MaskStorage> {
        if Scalar.self == Float.self {
            let m = unsafeBitCast(a, to: SIMD2<Float>.self) .<= unsafeBitCast(b, to: SIMD2<Float>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        } else {
            let m = unsafeBitCast(a, to: SIMD2<Double>.self) .<= unsafeBitCast(b, to: SIMD2<Double>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        }
    }

    @inlinable @inline(__always)
    public static func laneGreater(_ a: Self, _ b: Self) -> SIMDMask<MaskStorage> {
        if Scalar.self == Float.self {
            let m = unsafeBitCast(a, to: SIMD2<Float>.self) .> unsafeBitCast(b, to: SIMD2<Float>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        } else {
            let m = unsafeBitCast(a, to: SIMD2<Double>.self) .> unsafeBitCast(b, to: SIMD2<Double>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        }
    }

    @inlinable @inline(__always)
    public static func laneGreaterOrEqual(_ a: Self, _ b: Self) -> SIMDMask<MaskStorage> {
        if Scalar.self == Float.self {
            let m = unsafeBitCast(a, to: SIMD2<Float>.self) .>= unsafeBitCast(b, to: SIMD2<Float>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        } else {
            let m = unsafeBitCast(a, to: SIMD2<Double>.self) .>= unsafeBitCast(b, to: SIMD2<Double>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        }
    }

    @inlinable @inline(__always)
    public static func laneEqual(_ a: Self, _ b: Self) -> SIMDMask<MaskStorage> {
        if Scalar.self == Float.self {
            let m = unsafeBitCast(a, to: SIMD2<Float>.self) .== unsafeBitCast(b, to: SIMD2<Float>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        } else {
            let m = unsafeBitCast(a, to: SIMD2<Double>.self) .== unsafeBitCast(b, to: SIMD2<Double>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        }
    }
}

extension SIMD4: FusionLanes where Scalar: FusionScalar {
    @inlinable @inline(__always)
    public func laneSquareRoot() -> Self {
        if Scalar.self == Float.self {
            return unsafeBitCast(mf_sqrt_float4(unsafeBitCast(self, to: SIMD4<Float>.self)), to: Self.self)
        } else {
            return unsafeBitCast(mf_sqrt_double4(unsafeBitCast(self, to: SIMD4<Double>.self)), to: Self.self)
        }
    }

    @inlinable @inline(__always)
    public static func laneLess(_ a: Self, _ b: Self) -> SIMDMask<MaskStorage> {
        if Scalar.self == Float.self {
            let m = unsafeBitCast(a, to: SIMD4<Float>.self) .< unsafeBitCast(b, to: SIMD4<Float>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        } else {
            let m = unsafeBitCast(a, to: SIMD4<Double>.self) .< unsafeBitCast(b, to: SIMD4<Double>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        }
    }

    @inlinable @inline(__always)
    public static func laneLessOrEqual(_ a: Self, _ b: Self) -> SIMDMask<MaskStorage> {
        if Scalar.self == Float.self {
            let m = unsafeBitCast(a, to: SIMD4<Float>.self) .<= unsafeBitCast(b, to: SIMD4<Float>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        } else {
            let m = unsafeBitCast(a, to: SIMD4<Double>.self) .<= unsafeBitCast(b, to: SIMD4<Double>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        }
    }

    @inlinable @inline(__always)
    public static func laneGreater(_ a: Self, _ b: Self) -> SIMDMask<MaskStorage> {
        if Scalar.self == Float.self {
            let m = unsafeBitCast(a, to: SIMD4<Float>.self) .> unsafeBitCast(b, to: SIMD4<Float>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        } else {
            let m = unsafeBitCast(a, to: SIMD4<Double>.self) .> unsafeBitCast(b, to: SIMD4<Double>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        }
    }

    @inlinable @inline(__always)
    public static func laneGreaterOrEqual(_ a: Self, _ b: Self) -> SIMDMask<MaskStorage> {
        if Scalar.self == Float.self {
            let m = unsafeBitCast(a, to: SIMD4<Float>.self) .>= unsafeBitCast(b, to: SIMD4<Float>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        } else {
            let m = unsafeBitCast(a, to: SIMD4<Double>.self) .>= unsafeBitCast(b, to: SIMD4<Double>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        }
    }

    @inlinable @inline(__always)
    public static func laneEqual(_ a: Self, _ b: Self) -> SIMDMask<MaskStorage> {
        if Scalar.self == Float.self {
            let m = unsafeBitCast(a, to: SIMD4<Float>.self) .== unsafeBitCast(b, to: SIMD4<Float>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        } else {
            let m = unsafeBitCast(a, to: SIMD4<Double>.self) .== unsafeBitCast(b, to: SIMD4<Double>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        }
    }
}

extension SIMD8: FusionLanes where Scalar: FusionScalar {
    @inlinable @inline(__always)
    public func laneSquareRoot() -> Self {
        if Scalar.self == Float.self {
            return unsafeBitCast(mf_sqrt_float8(unsafeBitCast(self, to: SIMD8<Float>.self)), to: Self.self)
        } else {
            return unsafeBitCast(mf_sqrt_double8(unsafeBitCast(self, to: SIMD8<Double>.self)), to: Self.self)
        }
    }

    @inlinable @inline(__always)
    public static func laneLess(_ a: Self, _ b: Self) -> SIMDMask<MaskStorage> {
        if Scalar.self == Float.self {
            let m = unsafeBitCast(a, to: SIMD8<Float>.self) .< unsafeBitCast(b, to: SIMD8<Float>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        } else {
            let m = unsafeBitCast(a, to: SIMD8<Double>.self) .< unsafeBitCast(b, to: SIMD8<Double>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        }
    }

    @inlinable @inline(__always)
    public static func laneLessOrEqual(_ a: Self, _ b: Self) -> SIMDMask<MaskStorage> {
        if Scalar.self == Float.self {
            let m = unsafeBitCast(a, to: SIMD8<Float>.self) .<= unsafeBitCast(b, to: SIMD8<Float>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        } else {
            let m = unsafeBitCast(a, to: SIMD8<Double>.self) .<= unsafeBitCast(b, to: SIMD8<Double>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        }
    }

    @inlinable @inline(__always)
    public static func laneGreater(_ a: Self, _ b: Self) -> SIMDMask<MaskStorage> {
        if Scalar.self == Float.self {
            let m = unsafeBitCast(a, to: SIMD8<Float>.self) .> unsafeBitCast(b, to: SIMD8<Float>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        } else {
            let m = unsafeBitCast(a, to: SIMD8<Double>.self) .> unsafeBitCast(b, to: SIMD8<Double>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        }
    }

    @inlinable @inline(__always)
    public static func laneGreaterOrEqual(_ a: Self, _ b: Self) -> SIMDMask<MaskStorage> {
        if Scalar.self == Float.self {
            let m = unsafeBitCast(a, to: SIMD8<Float>.self) .>= unsafeBitCast(b, to: SIMD8<Float>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        } else {
            let m = unsafeBitCast(a, to: SIMD8<Double>.self) .>= unsafeBitCast(b, to: SIMD8<Double>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        }
    }

    @inlinable @inline(__always)
    public static func laneEqual(_ a: Self, _ b: Self) -> SIMDMask<MaskStorage> {
        if Scalar.self == Float.self {
            let m = unsafeBitCast(a, to: SIMD8<Float>.self) .== unsafeBitCast(b, to: SIMD8<Float>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        } else {
            let m = unsafeBitCast(a, to: SIMD8<Double>.self) .== unsafeBitCast(b, to: SIMD8<Double>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        }
    }
}

extension SIMD16: FusionLanes where Scalar: FusionScalar {
    @inlinable @inline(__always)
    public func laneSquareRoot() -> Self {
        if Scalar.self == Float.self {
            return unsafeBitCast(mf_sqrt_float16(unsafeBitCast(self, to: SIMD16<Float>.self)), to: Self.self)
        } else {
            return unsafeBitCast(mf_sqrt_double16(unsafeBitCast(self, to: SIMD16<Double>.self)), to: Self.self)
        }
    }

    @inlinable @inline(__always)
    public static func laneLess(_ a: Self, _ b: Self) -> SIMDMask<MaskStorage> {
        if Scalar.self == Float.self {
            let m = unsafeBitCast(a, to: SIMD16<Float>.self) .< unsafeBitCast(b, to: SIMD16<Float>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        } else {
            let m = unsafeBitCast(a, to: SIMD16<Double>.self) .< unsafeBitCast(b, to: SIMD16<Double>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        }
    }

    @inlinable @inline(__always)
    public static func laneLessOrEqual(_ a: Self, _ b: Self) -> SIMDMask<MaskStorage> {
        if Scalar.self == Float.self {
            let m = unsafeBitCast(a, to: SIMD16<Float>.self) .<= unsafeBitCast(b, to: SIMD16<Float>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        } else {
            let m = unsafeBitCast(a, to: SIMD16<Double>.self) .<= unsafeBitCast(b, to: SIMD16<Double>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        }
    }

    @inlinable @inline(__always)
    public static func laneGreater(_ a: Self, _ b: Self) -> SIMDMask<MaskStorage> {
        if Scalar.self == Float.self {
            let m = unsafeBitCast(a, to: SIMD16<Float>.self) .> unsafeBitCast(b, to: SIMD16<Float>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        } else {
            let m = unsafeBitCast(a, to: SIMD16<Double>.self) .> unsafeBitCast(b, to: SIMD16<Double>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        }
    }

    @inlinable @inline(__always)
    public static func laneGreaterOrEqual(_ a: Self, _ b: Self) -> SIMDMask<MaskStorage> {
        if Scalar.self == Float.self {
            let m = unsafeBitCast(a, to: SIMD16<Float>.self) .>= unsafeBitCast(b, to: SIMD16<Float>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        } else {
            let m = unsafeBitCast(a, to: SIMD16<Double>.self) .>= unsafeBitCast(b, to: SIMD16<Double>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        }
    }

    @inlinable @inline(__always)
    public static func laneEqual(_ a: Self, _ b: Self) -> SIMDMask<MaskStorage> {
        if Scalar.self == Float.self {
            let m = unsafeBitCast(a, to: SIMD16<Float>.self) .== unsafeBitCast(b, to: SIMD16<Float>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        } else {
            let m = unsafeBitCast(a, to: SIMD16<Double>.self) .== unsafeBitCast(b, to: SIMD16<Double>.self)
            return unsafeBitCast(m, to: SIMDMask<MaskStorage>.self)
        }
    }
}

extension FusionLanes {
    /// Lane-wise `mask ? a : b`, as bitwise operations on the lanes' bit patterns. (The standard
    /// library's `replacing(with:where:)` is a lane loop that stays a loop through a generic
    /// parameter.)
    @inlinable @inline(__always)
    public static func select(_ mask: SIMDMask<MaskStorage>, _ a: Self, _ b: Self) -> Self {
        let m = mask._storage
        let bitsA = unsafeBitCast(a, to: MaskStorage.self)
        let bitsB = unsafeBitCast(b, to: MaskStorage.self)
        return unsafeBitCast((bitsA & m) | (bitsB & ~m), to: Self.self)
    }
}

// Mask reductions (see ``FusionLanes/allLanes(_:)``): a lane of a mask is 0 or −1 (every bit set).
extension SIMD2 where Scalar: FusionScalar {
    @inlinable @inline(__always)
    public static func allLanes(_ mask: SIMDMask<MaskStorage>) -> Bool {
        if Scalar.self == Float.self {
            let v = unsafeBitCast(mask, to: SIMD2<Int32>.self)
            return v[0] & v[1] == -1
        } else {
            let v = unsafeBitCast(mask, to: SIMD2<Int64>.self)
            return v[0] & v[1] == -1
        }
    }

    @inlinable @inline(__always)
    public static func anyLane(_ mask: SIMDMask<MaskStorage>) -> Bool {
        if Scalar.self == Float.self {
            let v = unsafeBitCast(mask, to: SIMD2<Int32>.self)
            return v[0] | v[1] != 0
        } else {
            let v = unsafeBitCast(mask, to: SIMD2<Int64>.self)
            return v[0] | v[1] != 0
        }
    }
}

extension SIMD4 where Scalar: FusionScalar {
    @inlinable @inline(__always)
    public static func allLanes(_ mask: SIMDMask<MaskStorage>) -> Bool {
        if Scalar.self == Float.self {
            let v = unsafeBitCast(mask, to: SIMD4<Int32>.self)
            let h0 = v.lowHalf & v.highHalf
            return h0[0] & h0[1] == -1
        } else {
            let v = unsafeBitCast(mask, to: SIMD4<Int64>.self)
            let h0 = v.lowHalf & v.highHalf
            return h0[0] & h0[1] == -1
        }
    }

    @inlinable @inline(__always)
    public static func anyLane(_ mask: SIMDMask<MaskStorage>) -> Bool {
        if Scalar.self == Float.self {
            let v = unsafeBitCast(mask, to: SIMD4<Int32>.self)
            let h0 = v.lowHalf | v.highHalf
            return h0[0] | h0[1] != 0
        } else {
            let v = unsafeBitCast(mask, to: SIMD4<Int64>.self)
            let h0 = v.lowHalf | v.highHalf
            return h0[0] | h0[1] != 0
        }
    }
}

extension SIMD8 where Scalar: FusionScalar {
    @inlinable @inline(__always)
    public static func allLanes(_ mask: SIMDMask<MaskStorage>) -> Bool {
        if Scalar.self == Float.self {
            let v = unsafeBitCast(mask, to: SIMD8<Int32>.self)
            let h0 = v.lowHalf & v.highHalf
            let h1 = h0.lowHalf & h0.highHalf
            return h1[0] & h1[1] == -1
        } else {
            let v = unsafeBitCast(mask, to: SIMD8<Int64>.self)
            let h0 = v.lowHalf & v.highHalf
            let h1 = h0.lowHalf & h0.highHalf
            return h1[0] & h1[1] == -1
        }
    }

    @inlinable @inline(__always)
    public static func anyLane(_ mask: SIMDMask<MaskStorage>) -> Bool {
        if Scalar.self == Float.self {
            let v = unsafeBitCast(mask, to: SIMD8<Int32>.self)
            let h0 = v.lowHalf | v.highHalf
            let h1 = h0.lowHalf | h0.highHalf
            return h1[0] | h1[1] != 0
        } else {
            let v = unsafeBitCast(mask, to: SIMD8<Int64>.self)
            let h0 = v.lowHalf | v.highHalf
            let h1 = h0.lowHalf | h0.highHalf
            return h1[0] | h1[1] != 0
        }
    }
}

extension SIMD16 where Scalar: FusionScalar {
    @inlinable @inline(__always)
    public static func allLanes(_ mask: SIMDMask<MaskStorage>) -> Bool {
        if Scalar.self == Float.self {
            let v = unsafeBitCast(mask, to: SIMD16<Int32>.self)
            let h0 = v.lowHalf & v.highHalf
            let h1 = h0.lowHalf & h0.highHalf
            let h2 = h1.lowHalf & h1.highHalf
            return h2[0] & h2[1] == -1
        } else {
            let v = unsafeBitCast(mask, to: SIMD16<Int64>.self)
            let h0 = v.lowHalf & v.highHalf
            let h1 = h0.lowHalf & h0.highHalf
            let h2 = h1.lowHalf & h1.highHalf
            return h2[0] & h2[1] == -1
        }
    }

    @inlinable @inline(__always)
    public static func anyLane(_ mask: SIMDMask<MaskStorage>) -> Bool {
        if Scalar.self == Float.self {
            let v = unsafeBitCast(mask, to: SIMD16<Int32>.self)
            let h0 = v.lowHalf | v.highHalf
            let h1 = h0.lowHalf | h0.highHalf
            let h2 = h1.lowHalf | h1.highHalf
            return h2[0] | h2[1] != 0
        } else {
            let v = unsafeBitCast(mask, to: SIMD16<Int64>.self)
            let h0 = v.lowHalf | v.highHalf
            let h1 = h0.lowHalf | h0.highHalf
            let h2 = h1.lowHalf | h1.highHalf
            return h2[0] | h2[1] != 0
        }
    }
}
