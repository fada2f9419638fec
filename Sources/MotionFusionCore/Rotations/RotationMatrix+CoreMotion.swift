/// Core Motion's element names (`CMRotationMatrix`): `m` followed by the 1-based row and column,
/// so `m12` is row 1, column 2 (`self[0, 1]`).
///
/// For ``Attitude/rotationMatrix`` (reference frame → device frame, as Core Motion defines it) the
/// third column is minus gravity in the device frame: `(m13, m23, m33) == −gravity` in g.
extension RotationMatrix {
    /// Row 1, column 1.
    @inlinable public var m11: Scalar { get { column0.x } set { column0.x = newValue } }
    /// Row 1, column 2.
    @inlinable public var m12: Scalar { get { column1.x } set { column1.x = newValue } }
    /// Row 1, column 3.
    @inlinable public var m13: Scalar { get { column2.x } set { column2.x = newValue } }
    /// Row 2, column 1.
    @inlinable public var m21: Scalar { get { column0.y } set { column0.y = newValue } }
    /// Row 2, column 2.
    @inlinable public var m22: Scalar { get { column1.y } set { column1.y = newValue } }
    /// Row 2, column 3.
    @inlinable public var m23: Scalar { get { column2.y } set { column2.y = newValue } }
    /// Row 3, column 1.
    @inlinable public var m31: Scalar { get { column0.z } set { column0.z = newValue } }
    /// Row 3, column 2.
    @inlinable public var m32: Scalar { get { column1.z } set { column1.z = newValue } }
    /// Row 3, column 3.
    @inlinable public var m33: Scalar { get { column2.z } set { column2.z = newValue } }
}
