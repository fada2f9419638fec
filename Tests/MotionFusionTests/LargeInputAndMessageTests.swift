import ArgumentParser
import Foundation
import Testing

@testable import MotionCLI
@testable import MotionFusion
@testable import MotionFusionEstimation
@testable import MotionFusionIO

/// Bounded memory, and messages that name the wrong thing and say what was expected.
@Suite("Large inputs and messages")
struct LargeInputAndMessageTests {
    /// `calibrate` holds the recording in memory: an endless generated stream on standard input is
    /// refused at the first sample beyond what the memory available holds (here capped at 2 MB
    /// with MOTION_MEMORY_LIMIT), naming the line, instead of growing until the kernel kills it.
    @Test func anEndlessRecordingIsRefusedInBoundedMemory() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let generate = #"awk 'BEGIN { print "t,gx,gy,gz,ax,ay,az"; for (i = 0; ; i++) printf "%.2f,0.01,0,0,0,0,9.81\n", i * 0.01 }'"#
        let result = try RecordingReliabilityTests.shell(
            generate + #" | MOTION_MEMORY_LIMIT=2000000 "$MOTION" calibrate gyroscope - --trust-units"#, in: folder)
        let limit = 2_000_000 / IMURecording.bytesPerSample
        #expect(result.status == 1, "\(result.error)")
        #expect(result.error.contains("-: line \(limit + 2): more than \(limit) samples, the most this reader holds in memory"), "\(result.error)")
        #expect(result.error.contains("calibrate from a shorter recording"), "\(result.error)")
        // calibrate magnetometer holds its samples too (32 bytes each, twice for an array's growth).
        let field = #"awk 'BEGIN { print "mx,my,mz"; for (i = 0; ; i++) printf "%d,20,-40\n", i % 40 }'"#
        let magnetic = try RecordingReliabilityTests.shell(
            field + #" | MOTION_MEMORY_LIMIT=640000 "$MOTION" calibrate magnetometer -"#, in: folder)
        #expect(magnetic.status == 1, "\(magnetic.error)")
        #expect(magnetic.error.contains("-: line 10002: more than 10000 samples"), "\(magnetic.error)")
    }

    @Test func messagesSayWhatWasExpected() throws {
        // `--axis 0` listed the raw values: "please provide one of '0', '1' or '2'".
        let input = CSVReaderTests.file("t,gx,gy,gz,ax,ay,az\n0,0,0,0,0,0,9.81\n")
        let axis = FuseMultiRateTests.run(["calibrate", "gyroscope", input, "--known-rotation", "90", "--axis", "0"])
        #expect(axis?.contains("one of 'x', 'y' or 'z'") == true && axis?.contains("'1' or '2'") == false, "\(axis ?? "exit 0")")
        // `--known-rotation 1e308`: "must be finite and non-zero" of a finite, non-zero value (the
        // conversion to radians overflowed).
        let huge = FuseMultiRateTests.run(["calibrate", "gyroscope", input, "--known-rotation", "1e308"])
        #expect(huge?.contains("at most 3600000 (10,000 turns) in size, got 1e+308") == true, "\(huge ?? "exit 0")")
        let turns = try CalibrateGyroscope.parse([input, "--known-rotation", "-3600000"])
        #expect(turns.knownRotation == -3_600_000)
        // "needs at least 1 samples".
        #expect(CalibrationError.tooFewSamples(needed: 1, found: 0).description == "needs at least 1 sample, found 0")
        #expect(CalibrationError.tooFewSamples(needed: 6, found: 2).description == "needs at least 6 samples, found 2")
        #expect(EstimationError.tooFewInputs(needed: 1, found: 0).description == "needs at least 1 input, found 0")
        // Samples on a line, or all alike but one: "the samples lie on one circle" was wrong.
        let line = (0..<50).map { SIMD3<Double>(Double($0), 2 * Double($0), 0) }
        let outlier = [SIMD3<Double>](repeating: SIMD3(20, 0, -40), count: 49) + [SIMD3(30, 5, -20)]
        for samples in [line, outlier] {
            #expect {
                _ = try EllipsoidFit.magnetometer(samples, model: .sphere)
            } throws: { error in
                guard case CalibrationError.underdetermined(let reason) = error else { return false }
                return reason.contains("lie in one plane (on a circle, a line or a few points")
            }
        }
    }

    /// Blank lines before the header are skipped, as after it ("the file is empty" before), and
    /// counted in the line numbers.
    @Test func blankLinesBeforeTheHeaderAreSkipped() throws {
        let path = CSVReaderTests.file("\n  \r\n\nt,gx,gy,gz,ax,ay,az\n0,0,0,0,0,0,9.81\n0.01,0,x,0,0,0,9.81\n")
        let reader = try CSVReader(path: path)
        #expect(reader.header == ["t", "gx", "gy", "gz", "ax", "ay", "az"])
        #expect(reader.lineNumber == 4)
        var values: [Double] = []
        #expect(try reader.nextRow(columns: [0, 1], into: &values))
        #expect(reader.lineNumber == 5)
        #expect(throws: CSVError.notANumber(line: 6, column: 3, name: "gy", text: "x")) {
            _ = try reader.nextRow(columns: [0, 1, 2], into: &values)
        }
        #expect(throws: CSVError.empty) { _ = try CSVReader(path: CSVReaderTests.file("\n \n\r\n")) }
    }
}
