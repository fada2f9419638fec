// libFuzzer target: the one reader of recordings (`RecordingReader` over `IMUCSVReader` and
// `CSVReader`, gzip or not, single- or multi-rate) on arbitrary bytes. Built and run by
// scripts/fuzz, which starts it from the seeds in Tests/Fuzz/Seeds/FuzzCSV (every spelling of a
// multi-rate file, gzip among them). Any input must give samples or a typed RecordingFileError,
// never a crash; each sample is one gyroscope reading, in the order of the file's lines.
import Foundation
import FuzzDriver
import MotionFusion

let path = FileManager.default.temporaryDirectory.appendingPathComponent("motionfusion-fuzz-csv-\(getpid()).csv").path

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return 0 }
    do throws(RecordingFileError) {
        let reader = try RecordingReader(.file(path))
        var samples = 0
        var lastLine = 0
        while let sample = try reader.next() {
            let line = reader.location?.line ?? 0
            precondition(line > lastLine, "sample \(samples) at line \(line), after line \(lastLine)")
            precondition(sample.gyroscope != nil || !sample.timestamp.isFinite, "a sample without its gyroscope reading")
            lastLine = line
            samples += 1
            if samples > 100_000 { break }
        }
    } catch {
        // A typed error naming the file: the expected outcome for broken input.
        precondition(error.path == path, "\(error)")
    }
    return 0
}

@_cdecl("FuzzCSV_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzCSV)
}
