import Foundation
import Testing

/// The snippet of a DocC article that a test compiles and runs: the lines of the test's source
/// between `// The article's snippet, from here…` and `// … to here.` (indented by eight spaces
/// there), which the article must show unchanged in a ```swift block.
enum ArticleSnippet {
    /// Whether `article` (a file in MotionFusion.docc) shows the snippet of `source` (a test file's
    /// `#filePath`).
    static func isShown(from source: String, in article: String) throws -> Bool {
        let text = try String(contentsOfFile: source, encoding: .utf8)
        let start = try #require(text.range(of: "        // The article's snippet, from here…\n"))
        let end = try #require(text.range(of: "        // … to here.\n"))
        let snippet = text[start.upperBound..<end.lowerBound].split(separator: "\n").map { $0.dropFirst(8) }
            .joined(separator: "\n")
        let url = URL(fileURLWithPath: source).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/MotionFusion/MotionFusion.docc/" + article)
        return try String(contentsOf: url, encoding: .utf8).contains("```swift\n" + snippet + "\n```")
    }
}
