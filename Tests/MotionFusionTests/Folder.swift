import Foundation
import Testing

// Files and folders for the output tests (OutputFileTests, CommandOutputSafetyTests).

/// A fresh folder per test, removed at the end, so that leftovers are easy to see.
struct Folder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("mf-output-\(UUID())").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }

    subscript(name: String) -> String { path + "/" + name }

    func write(_ name: String, _ text: String) throws -> String {
        try Data(text.utf8).write(to: URL(fileURLWithPath: self[name]))
        return self[name]
    }

    func read(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: self[name])) }

    /// The names in the folder, sorted.
    var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
}
