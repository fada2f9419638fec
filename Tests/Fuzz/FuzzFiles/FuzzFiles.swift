// libFuzzer target: the file-writing paths. The input's bytes become numbers (8 bytes each, any bit
// pattern: NaN, infinities, subnormals, -0), which are
// - written as FusionOutput rows by FusionCSVWriter (through OutputFile's temporary file and
//   rename) and read back with CSVReader: every number must read back to the same bits (any NaN as
//   NaN), the flags exactly, and no temporary file may be left;
// - appended as SensorSamples by MotionRecorder and read back: every sample with a timestamp that
//   is not NaN, in order, its finite vectors exactly and any vector with a non-finite component as
//   an absent sensor.
// Built and run by scripts/fuzz; files go to TMPDIR (a tmpfs there).
import Foundation
import FuzzDriver
import MotionFusion

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("motionfusion-fuzz-files-\(getpid())").path
let fusionPath = folder + "/out.csv"
let recordingPath = folder + "/rec.csv"

func same(_ a: Double, _ b: Double) -> Bool { a.isNaN ? b.isNaN : a.bitPattern == b.bitPattern }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFiles(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    var numbers: [Double] = []
    var flags: [UInt16] = []
    var i = 0
    while i + 8 <= size {
        var bits: UInt64 = 0
        for k in 0..<8 { bits |= UInt64(data[i + k]) << (8 * k) }
        numbers.append(Double(bitPattern: bits))
        flags.append(UInt16(truncatingIfNeeded: bits))
        i += 8
    }

    // FusionCSVWriter: 17 numbers and the flags per row.
    let rows = numbers.count / 17
    var outputs: [FusionOutput<Double>] = []
    for r in 0..<rows {
        let n = Array(numbers[(r * 17)..<(r * 17 + 17)])
        outputs.append(
            FusionOutput(
                timestamp: n[0], quaternion: Quaternion(w: n[1], x: n[2], y: n[3], z: n[4]),
                gyroscopeBias: SIMD3(n[5], n[6], n[7]), gravity: SIMD3(n[8], n[9], n[10]),
                linearAcceleration: SIMD3(n[11], n[12], n[13]), earthLinearAcceleration: SIMD3(n[14], n[15], n[16]),
                flags: FusionFlags(rawValue: flags[r])))
    }
    do {
        let writer = try FusionCSVWriter(path: fusionPath)
        for output in outputs { writer.write(output) }
        try writer.finish()
        let reader = try CSVReader(path: fusionPath)
        precondition(reader.header.joined(separator: ",") == FusionCSVWriter.header, "header")
        let columns = Array(0..<18)
        var values: [Double] = []
        var k = 0
        if !outputs.isEmpty {
            while try reader.nextRow(columns: columns, into: &values) {
                let o = outputs[k]
                let expected = [o.timestamp, o.quaternion.w, o.quaternion.x, o.quaternion.y, o.quaternion.z]
                    + [o.gyroscopeBias, o.gravity, o.linearAcceleration, o.earthLinearAcceleration].flatMap { [$0.x, $0.y, $0.z] }
                for c in 0..<17 { precondition(same(values[c], expected[c]), "row \(k) column \(c): \(values[c]) != \(expected[c])") }
                precondition(values[17] == Double(o.flags.rawValue), "flags")
                k += 1
            }
            precondition(k == outputs.count && reader.partialLastLine == nil, "rows read back: \(k) of \(outputs.count)")
        }
    } catch {
        // Only an empty output (a header and no row) may fail to read back.
        guard outputs.isEmpty, case CSVError.noData = error else { preconditionFailure("\(error)") }
    }
    let left = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    precondition(left.allSatisfy { $0 == "out.csv" || $0 == "rec.csv" }, "left behind: \(left)")

    // MotionRecorder: 10 numbers per sample.
    unlink(recordingPath)
    var samples: [SensorSample] = []
    for r in 0..<(numbers.count / 10) {
        let n = Array(numbers[(r * 10)..<(r * 10 + 10)])
        samples.append(
            SensorSample(
                timestamp: n[0], gyroscope: SIMD3(n[1], n[2], n[3]), accelerometer: SIMD3(n[4], n[5], n[6]),
                magnetometer: r % 3 == 0 ? nil : SIMD3(n[7], n[8], n[9])))
    }
    do {
        let recorder = try MotionRecorder(path: recordingPath, syncInterval: 0)
        for sample in samples { try recorder.append(sample) }
        let back = try MotionRecorder.read(path: recordingPath, checksUnits: false)
        let kept = samples.filter { !$0.timestamp.isNaN }
        precondition(back.count == kept.count && back.partialLastLine == nil, "samples read back: \(back.count) of \(kept.count)")
        func expected(_ v: SIMD3<Double>?) -> SIMD3<Double>? {
            guard let v, v.x.isFinite, v.y.isFinite, v.z.isFinite else { return nil }
            return v
        }
        for (a, b) in zip(back, kept) {
            precondition(same(a.timestamp, b.timestamp), "timestamp")
            for (x, y) in [(a.gyroscope, expected(b.gyroscope)), (a.accelerometer, expected(b.accelerometer)), (a.magnetometer, expected(b.magnetometer))] {
                precondition((x == nil) == (y == nil), "absent sensor")
                if let x, let y { precondition(same(x.x, y.x) && same(x.y, y.y) && same(x.z, y.z), "vector") }
            }
        }
    } catch {
        preconditionFailure("\(error)")
    }
    return 0
}

@_cdecl("FuzzFiles_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzFiles)
}
