import Foundation
import Testing

@testable import MotionFusionCore
@testable import MotionFusionIO

/// ``RecordingReader/Input/contents(name:bytes:)``: a file's bytes in memory (how the web page
/// reads a dropped file) read exactly as the file itself, samples, places, errors and warnings, with
/// the name for the path.
@Suite("RecordingReader: contents in memory")
struct RecordingContentsTests {
    /// Every sample and place of `input`, or its error.
    func read(_ input: RecordingReader.Input) -> (samples: [SensorSample], lines: [Int], error: RecordingFileError?, warnings: [String]) {
        var samples: [SensorSample] = []
        var lines: [Int] = []
        do throws(RecordingFileError) {
            let reader = try RecordingReader(input)
            while let sample = try reader.next() {
                samples.append(sample)
                lines.append(reader.location?.line ?? -1)
            }
            return (samples, lines, nil, reader.warnings)
        } catch {
            return (samples, lines, error, [])
        }
    }

    @Test(.enabled(if: BroadData.required, "BROAD data not found at ../shared/reference-data/broad"))
    func aBroadTrialReadsAsItsFile() throws {
        let path = BroadData.folder.appendingPathComponent(BroadData.trials[4] + ".csv").path
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let fromFile = read(.file(path)), fromContents = read(.contents(name: "trial.csv", bytes: bytes))
        #expect(fromFile.error == nil && fromContents.error == nil)
        #expect(fromFile.samples.count > 10_000)
        #expect(fromContents.samples == fromFile.samples)
        #expect(fromContents.lines == fromFile.lines)
        // Compressed in memory too, where the build has zlib (this one does).
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString + ".csv").path
        try Data(bytes).write(to: URL(fileURLWithPath: copy))
        let gzipped = try Data(contentsOf: URL(fileURLWithPath: OtherSourcesFileTests.gzip(copy)))
        #expect(gzipped.starts(with: [0x1F, 0x8B]))
        #expect(read(.contents(name: "trial.csv.gz", bytes: [UInt8](gzipped))).samples == fromFile.samples)
    }

    /// One file per sensor in memory reads as the files themselves, errors named by each file's name.
    @Test func sensorFilesReadAsTheirFiles() throws {
        let g = "t,x,y,z\n0,0.1,0,0\n0.01,0.1,0,0\ninf,0.1,0,0\n0.02,0.1,0,0\n"
        let a = "t,x,y,z\n0,0,0,9.81\n0.015,0,0,9.81\n"
        let m = "t,x,y,z\n0.005,20,0,-40\n"
        let (gp, ap, mp) = (CSVReaderTests.file(g), CSVReaderTests.file(a), CSVReaderTests.file(m))
        let fromFiles = read(.sensorFiles(gyroscope: gp, accelerometer: ap, magnetometer: mp))
        let fromContents = read(.sensorContents(
            gyroscope: .contents(name: "g.csv", bytes: Array(g.utf8)), accelerometer: .contents(name: "a.csv", bytes: Array(a.utf8)),
            magnetometer: .contents(name: "m.csv", bytes: Array(m.utf8))))
        #expect(fromFiles.error == nil && fromFiles.samples.count == 4)
        #expect(fromContents.samples == fromFiles.samples)
        #expect(fromContents.lines == fromFiles.lines)
        #expect(fromContents.samples[1].magnetometer == SIMD3(20, 0, -40))
        // A bad accelerometer file is named by its name.
        let bad = read(.sensorContents(
            gyroscope: .contents(name: "g.csv", bytes: Array(g.utf8)), accelerometer: .contents(name: "a.csv", bytes: Array("t,x,y\n0,0,0\n".utf8)),
            magnetometer: nil))
        let badFile = read(.sensorFiles(gyroscope: gp, accelerometer: CSVReaderTests.file("t,x,y\n0,0,0\n"), magnetometer: nil))
        #expect(bad.error?.path == "a.csv")
        #expect(bad.error?.error == badFile.error?.error)
        #expect(bad.error?.error != nil)
        // Paths and contents mix.
        let mixed = read(.sensorContents(gyroscope: .path(gp), accelerometer: .contents(name: "a.csv", bytes: Array(a.utf8)), magnetometer: nil))
        #expect(mixed.samples.map(\.timestamp).count == 4)
    }

    @Test func errorsAndWarningsAreTheFilesWithTheName() throws {
        let cases = [
            "t,gx,gy,gz,ax,ay,az\n0,0,0,0,0,0,9.81\n0.01,abc,0,0,0,0,9.81\n",  // not a number, line 3
            "t,gx,gy,gz,ax,ay\n0,0,0,0,0,0\n",  // a missing column
            "",  // empty
            "t,gx,gy,gz,ax,ay,az\n0,0,0,0,0,0,9.81\n0.01,0,0,0,0,0,9.81\nnan,,,,0,0,9.81\n0.02,0,0,0,0,0,9.8",  // a NaN time, cut short
        ]
        for text in cases {
            let path = CSVReaderTests.file(text)
            let fromFile = read(.file(path))
            let fromContents = read(.contents(name: "dropped.csv", bytes: Array(text.utf8)))
            #expect(fromContents.samples == fromFile.samples, "\(text.debugDescription)")
            #expect(fromContents.error?.error == fromFile.error?.error, "\(text.debugDescription)")
            #expect(fromContents.error.map { $0.path } == fromFile.error.map { _ in "dropped.csv" })
            #expect(fromContents.warnings == fromFile.warnings.map { $0.replacingOccurrences(of: path, with: "dropped.csv") })
        }
        let last = read(.contents(name: "dropped.csv", bytes: Array(cases[3].utf8)))
        #expect(last.warnings == [
            "dropped.csv: line 5 has no newline (18 bytes, cut short?): it was not read",
            "dropped.csv: 1 reading with a NaN or infinite timestamp discarded",
        ])
        #expect(read(.contents(name: "x.csv", bytes: [])).error == RecordingFileError(path: "x.csv", error: .empty))
    }
}
