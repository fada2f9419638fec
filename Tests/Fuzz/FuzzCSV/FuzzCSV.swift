// libFuzzer target: the CSV reader (`IMUCSVReader` over `CSVReader`) on arbitrary bytes.
// Built and run by scripts/fuzz. Any input must give rows or a typed CSVError, never a crash; every
// row it returns must have a finite timestamp.
import Foundation
import FuzzDriver
import MotionFusion

let path = FileManager.default.temporaryDirectory.appendingPathComponent("motionfusion-fuzz-csv-\(getpid()).csv").path

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return 0 }
    do {
        let reader = try IMUCSVReader(path: path)
        var rows = 0
        while let record = try reader.next() {
            precondition(record.timestamp.isFinite, "a row with a non-finite timestamp")
            rows += 1
            if rows > 100_000 { break }
        }
    } catch {
        // A typed CSVError: the expected outcome for broken input.
        _ = error.localizedDescription
    }
    return 0
}

@_cdecl("FuzzCSV_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzCSV)
}
