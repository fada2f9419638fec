import Foundation
import Testing
import ArgumentParser

@testable import MotionCLI
@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// `motion fuse --stop-after parse|filter`, the hidden option `scripts/measure_io` times the stages
/// with: the whole input is read and checked, no output file is written.
@Suite("motion fuse --stop-after")
struct FuseStageTests {
    @Test func measuringRunsReadEverythingAndWriteNothing() throws {
        let directory = FileManager.default.temporaryDirectory
        let out = directory.appendingPathComponent("mf-stage-\(UUID()).csv").path
        let name = (out as NSString).lastPathComponent
        let input = FuseCommandTests.input(rows: 300)
        for stage in ["parse", "filter"] {
            try FuseCommandTests.run(["fuse", input, "-o", out, "--stop-after", stage])
            let written = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(name) }
            #expect(written.isEmpty, "\(stage)")
        }
        // Malformed input fails the same way: the parse stage reads every field.
        let bad = CSVReaderTests.file("t,gx,gy,gz,ax,ay,az\n0,0,0,0,0,0,9.8\n0.01,0,0,0,0,0,9.8x\n")
        do {
            try FuseCommandTests.run(["fuse", bad, "-o", out, "--stop-after", "parse"])
            Issue.record("malformed input must fail")
        } catch {
            #expect("\(error)".contains("line 3, column 7 (az): '9.8x' is not a number"))
        }
        #expect(throws: (any Error).self) { try FuseCommandTests.run(["fuse", input, "-o", out, "--stop-after", "nothing"]) }
        // A full run still writes the file.
        try FuseCommandTests.run(["fuse", input, "-o", out, "--stop-after", "write"])
        #expect(try FuseCommandTests.output(out).count == 300)
        try FileManager.default.removeItem(atPath: out)
        // Hidden from the help.
        #expect(!MotionCommand.helpMessage(for: FuseCommand.self).contains("--stop-after"))
    }
}
