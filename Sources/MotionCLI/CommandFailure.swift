/// A failure with a message for the user; exits with status 1.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ message: String) { description = message }
}
