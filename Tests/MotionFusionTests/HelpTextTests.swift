import Testing

@testable import MotionCLI

/// The help texts of evaluate, declination and record: line continuations, not literal backslashes
/// (a `\\` at a line's end in a Swift multi-line string is a backslash in the text).
@Suite("Help texts without stray backslashes")
struct HelpTextTests {
    @Test func noBackslashesInTheHelp() {
        for help in [
            MotionCommand.helpMessage(for: EvaluateCommand.self), MotionCommand.helpMessage(for: DeclinationCommand.self),
            MotionCommand.helpMessage(for: RecordCommand.self),
        ] {
            #expect(!help.contains("\\"), "\(help)")
        }
        let evaluate = MotionCommand.helpMessage(for: EvaluateCommand.self, columns: 1000)
        for text in ["--6d", "--no-heading", "zero or not finite", "flags column"] {
            #expect(evaluate.contains(text), "\(text)")
        }
    }
}
