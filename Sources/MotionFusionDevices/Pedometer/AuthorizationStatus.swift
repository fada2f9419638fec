/// Core Motion's `CMAuthorizationStatus`. Nothing here asks for permission: the pedometer and
/// activity always report ``authorized`` (a source that cannot be read fails with its own error).
public enum AuthorizationStatus: Int, Sendable, Hashable {
    case notDetermined = 0
    case restricted
    case denied
    case authorized
}
