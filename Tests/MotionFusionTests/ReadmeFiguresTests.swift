import Foundation
import Testing

/// The README's headline figures are copies: each one's home is a DocC article, and the README's
/// table must not drift from it.
///
/// The rule, kept simple: the table sits between `<!-- readme-figures:begin -->` and
/// `<!-- readme-figures:end -->` in README.md. After its header and separator lines, every row
/// names its article with one Markdown link to `Sources/MotionFusion/MotionFusion.docc/NAME.md`
/// (a `#section` after it is allowed). Every number with a decimal point in the row (2.37, 217.7,
/// and a version such as 2.1.2 alike), read as a maximal run of digits and points, must occur as
/// the same token in that article's text. Link targets are not searched for numbers. A figure with
/// no decimal point is not checked, so write headline figures with one.
@Suite("README figures")
struct ReadmeFiguresTests {
    static let begin = "<!-- readme-figures:begin -->"
    static let end = "<!-- readme-figures:end -->"
    static let articleFolder = "Sources/MotionFusion/MotionFusion.docc/"

    @Test func everyHeadlineFigureIsInItsArticle() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let rows = try #require(Self.tableRows(in: readme), "README.md: no table between \(Self.begin) and \(Self.end)")
        #expect(rows.count >= 3, "README.md: \(rows.count) rows in the headline table")
        var checked = 0
        for row in rows {
            let links = Self.articleLinks(in: row)
            guard links.count == 1, let article = links.first else {
                Issue.record("README.md: a headline row must link exactly one article in \(Self.articleFolder), found \(links): \(row)")
                continue
            }
            let text = try String(contentsOf: root.appendingPathComponent(Self.articleFolder + article), encoding: .utf8)
            let available = Set(Self.decimalTokens(in: text))
            let figures = Self.decimalTokens(in: Self.withoutLinkTargets(row))
            #expect(!figures.isEmpty, "README.md: a headline row without a figure: \(row)")
            for figure in figures {
                let found = available.contains(figure)  // a Bool, so a failure prints the message, not the set
                #expect(found, "README.md gives \(figure), which \(article) does not: \(row)")
                checked += 1
            }
        }
        #expect(checked >= 6, "only \(checked) figures checked")
    }

    /// The checker itself: it finds what it must and nothing more.
    @Test func tokensAndLinksAreReadAsDescribed() {
        #expect(Self.decimalTokens(in: "**2.37° / 0.69°** against 3.06. VQF 2.1.2, 27,277 ns, 1e-9, 95.2 Hz.")
            == ["2.37", "0.69", "3.06", "2.1.2", "95.2"])
        #expect(!Self.decimalTokens(in: "it scores 12.37°").contains("2.37"))
        let row = "| a | 1.5 | [Performance](Sources/MotionFusion/MotionFusion.docc/Performance.md#next-to-the-peers) |"
        #expect(Self.articleLinks(in: row) == ["Performance.md"])
        #expect(Self.decimalTokens(in: Self.withoutLinkTargets("[v 1.0](x/y2.5.md)")) == ["1.0"])
        let table = "x\n\(Self.begin)\n| h |\n|---|\n| r1 |\n| r2 |\n\(Self.end)\n| outside |\n"
        #expect(Self.tableRows(in: table) == ["| r1 |", "| r2 |"])
        #expect(Self.tableRows(in: "no markers") == nil)
    }

    /// The table lines between the markers, without the header and the separator; nil without the
    /// markers or a table.
    static func tableRows(in readme: String) -> [String]? {
        guard let start = readme.range(of: begin), let stop = readme.range(of: end, range: start.upperBound..<readme.endIndex)
        else { return nil }
        let lines = readme[start.upperBound..<stop.lowerBound].split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("|") }
        guard lines.count >= 2, lines[1].hasPrefix("|--") || lines[1].hasPrefix("| --") || lines[1].hasPrefix("|:-")
        else { return nil }
        return Array(lines.dropFirst(2))
    }

    /// The article file names (`NAME.md`) of the row's links into the DocC catalog.
    static func articleLinks(in row: String) -> [String] {
        var names: [String] = []
        var rest = row[...]
        let prefix = "](" + articleFolder
        while let found = rest.range(of: prefix) {
            let target = rest[found.upperBound...].prefix { $0 != ")" && $0 != "#" }
            names.append(String(target))
            rest = rest[found.upperBound...]
        }
        return names
    }

    /// The row with every `](target)` replaced by `]`, so that paths and anchors are not read.
    static func withoutLinkTargets(_ text: String) -> String {
        var result = ""
        var rest = text[...]
        while let found = rest.range(of: "](") {
            result += rest[..<found.lowerBound] + "]"
            rest = rest[found.upperBound...]
            if let close = rest.firstIndex(of: ")") { rest = rest[rest.index(after: close)...] } else { rest = "" }
        }
        return result + rest
    }

    /// Maximal runs of digits and points, trimmed of leading and trailing points, that contain a
    /// point between digits: "2.37", "217.7", "2.1.2"; not "27,277" (no point) nor a sentence's
    /// final point.
    static func decimalTokens(in text: String) -> [String] {
        var tokens: [String] = []
        var current = ""
        func flush() {
            let token = current.trimmingCharacters(in: CharacterSet(charactersIn: "."))
            if token.contains(".") { tokens.append(token) }
            current = ""
        }
        for character in text {
            if character.isASCII && (character.isNumber || character == ".") {
                current.append(character)
            } else {
                flush()
            }
        }
        flush()
        return tokens
    }
}
