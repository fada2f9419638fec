import ArgumentParser
import MotionFusion

/// `motion version`: prints the library version.
struct VersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "version", abstract: "Print MotionFusion's version.")

    func run() throws {
        print("motion \(MotionFusionVersion.string)")
    }
}
