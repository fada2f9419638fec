/// The library's version, as `motion version` prints it.
@_documentation(visibility: public)
public enum MotionFusionVersion {
    /// Semantic version of this release.
    public static let string = "0.5.0"
}
