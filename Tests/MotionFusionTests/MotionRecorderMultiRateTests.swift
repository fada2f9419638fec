import Foundation
import Testing

@testable import MotionCLI
@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionIO

/// ``MotionRecorder`` given samples a ``SampleAssembler`` made from sensors at different rates:
/// each reading is written once, at its own time, and `motion fuse` on the recording gives the
/// samples' attitudes again.
@Suite("MotionRecorder, multi-rate samples")
struct MotionRecorderMultiRateTests {
    static func path() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("mf-rec-mr-\(UUID()).csv").path
    }

    /// A rotating device: gyroscope at 100 Hz, accelerometer at 50 Hz and magnetometer at 10 Hz on
    /// clocks of their own, in timestamp order; `lateMagnetometer` delivers the magnetometer
    /// reading of 0.507 s only after the gyroscope's of 0.58 s.
    static func readings(seconds: Double = 3, lateMagnetometer: Bool = false) -> [SensorReading] {
        let w = SIMD3<Double>(0.3, -0.2, 0.5)
        func attitude(_ t: Double) -> Quaternion<Double> {
            Quaternion(angle: 0.2, axis: SIMD3(0, 1, 0)) * Quaternion(rotationVector: w * t)
        }
        var all: [SensorReading] = []
        for k in 0..<Int(seconds * 100) { all.append(SensorReading(sensor: .gyroscope, timestamp: Double(k) * 0.01, value: w)) }
        for k in 0..<Int(seconds * 50) {
            let t = 0.003 + Double(k) * 0.02
            all.append(SensorReading(sensor: .accelerometer, timestamp: t, value: attitude(t).inverseAct(on: SIMD3(0, 0, 9.80665))))
        }
        for k in 0..<Int(seconds * 10) {
            let t = 0.007 + Double(k) * 0.1
            all.append(SensorReading(sensor: .magnetometer, timestamp: t, value: attitude(t).inverseAct(on: SIMD3(0, 20, -45))))
        }
        all.sort { $0.timestamp < $1.timestamp }
        if lateMagnetometer, let late = all.firstIndex(where: { $0.sensor == .magnetometer && abs($0.timestamp - 0.507) < 1e-9 }) {
            let reading = all.remove(at: late)
            let after = all.firstIndex { $0.sensor == .gyroscope && $0.timestamp > 0.575 }!
            all.insert(reading, at: after + 1)
        }
        return all
    }

    /// The samples an assembler (default rules) makes of `readings` delivered in that order.
    static func assemble(_ readings: [SensorReading]) -> (samples: [SensorSample], statistics: SampleAssembler.Statistics) {
        var assembler = SampleAssembler()
        var samples: [SensorSample] = []
        for r in readings {
            assembler.add(r)
            while let s = assembler.next() { samples.append(s) }
        }
        assembler.finish()
        while let s = assembler.next() { samples.append(s) }
        return (samples, assembler.statistics)
    }

    /// Records `samples`, fuses the recording, and expects the attitudes of fusing the samples
    /// directly, bit for bit. Returns the recording's data rows.
    static func roundTrip(_ samples: [SensorSample]) throws -> [[Substring]] {
        let recording = path()
        do {
            let recorder = try MotionRecorder(path: recording, syncInterval: 0)
            for s in samples { try recorder.append(s) }
            try recorder.sync()
        }
        let out = path()
        #expect(FuseMultiRateTests.run(["fuse", recording, "-o", out]) == nil)
        try FuseMultiRateTests.expectOutput(out, FuseMultiRateTests.fused(samples), "recorded and fused")
        let text = try String(contentsOfFile: recording, encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    }

    @Test func multiRateSamplesRoundTripThroughFuse() throws {
        let (samples, statistics) = Self.assemble(Self.readings())
        #expect(samples.count == 300)
        #expect(statistics.lateReadings == 0)
        #expect(samples.contains { $0.accelerometerTimestamp != nil } && samples.contains { $0.magnetometerTimestamp != nil })
        let rows = try Self.roundTrip(samples)
        // Each reading once: 300 gyroscope rows, and the accelerometer and magnetometer readings
        // the samples used, in rows of their own at their own times.
        #expect(rows.count { $0[1] != "" } == 300)
        let accelerometerTimes = Set(samples.compactMap { $0.accelerometer != nil ? ($0.accelerometerTimestamp ?? $0.timestamp) : nil })
        let magnetometerTimes = Set(samples.compactMap { $0.magnetometer != nil ? ($0.magnetometerTimestamp ?? $0.timestamp) : nil })
        // The first sample (0 s) comes before any other reading: it has no reading times, so it
        // is written as always, `nan` for the absent sensors (which fuse reads as no reading).
        #expect(rows[0] == ["0.0", "0.3", "-0.2", "0.5", "nan", "nan", "nan", "nan", "nan", "nan"])
        #expect(rows.filter { $0[4] != "" && $0[4] != "nan" }.map { Double($0[0])! } == accelerometerTimes.sorted())
        #expect(rows.filter { $0[7] != "" && $0[7] != "nan" }.map { Double($0[0])! } == magnetometerTimes.sorted())
        #expect(rows.dropFirst().allSatisfy { row in row.count == 10 && row[1...].allSatisfy { $0 != "nan" } })
        // In time order.
        let times = rows.map { Double($0[0])! }
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
    }

    /// `motion record --replay` of a multi-rate recording (it failed at the first empty cell):
    /// the replay goes through the assembler as `motion fuse` reads the file, so recording it again
    /// writes the same rows, byte for byte, and fusing that gives the samples' attitudes.
    @Test func aMultiRateRecordingIsReplayedAndRecordedAgain() throws {
        let (samples, _) = Self.assemble(Self.readings())
        let first = Self.path()
        let second = Self.path()
        let out = Self.path()
        defer { for p in [first, second, out] { try? FileManager.default.removeItem(atPath: p) } }
        do {
            let recorder = try MotionRecorder(path: first, syncInterval: 0)
            for s in samples { try recorder.append(s) }
            try recorder.sync()
        }
        let source = try CSVReplaySource(path: first, pacing: .asFastAsPossible)
        var replayed: [SensorSample] = []
        while let s = try source.next() { replayed.append(s) }
        #expect(replayed.count == samples.count)
        #expect(replayed.map(\.timestamp) == samples.map(\.timestamp))
        #expect(FuseMultiRateTests.run(["record", "--replay", first, "-o", second]) == nil)
        #expect(try String(contentsOfFile: second, encoding: .utf8) == String(contentsOfFile: first, encoding: .utf8))
        #expect(FuseMultiRateTests.run(["fuse", second, "-o", out]) == nil)
        try FuseMultiRateTests.expectOutput(out, FuseMultiRateTests.fused(samples), "recorded, replayed, recorded and fused")
    }

    /// A reading that arrived late is older than rows already written: it is written at its own
    /// time all the same (the file steps back there), and fuse still gives the same attitudes.
    @Test func lateReadingIsWrittenAtItsOwnTime() throws {
        let (samples, statistics) = Self.assemble(Self.readings(lateMagnetometer: true))
        #expect(statistics.lateReadings == 1)
        let rows = try Self.roundTrip(samples)
        let times = rows.map { Double($0[0])! }
        let backward = zip(times, times.dropFirst()).enumerated().filter { $0.element.0 > $0.element.1 }
        #expect(backward.count == 1)
        if let step = backward.first {
            #expect(abs(times[step.offset + 1] - 0.507) < 1e-9)
            #expect(rows[step.offset + 1][7] != "" && rows[step.offset + 1][1] == "")
        }
    }

    /// Samples whose readings are all at their own time are written as always.
    @Test func samplesWithoutReadingTimesAreWrittenAsBefore() throws {
        let recording = Self.path()
        do {
            let recorder = try MotionRecorder(path: recording, syncInterval: 0)
            try recorder.append(SensorSample(timestamp: 0.5, gyroscope: SIMD3(0.1, 0.2, 0.3), accelerometer: SIMD3(1, 2, 3), magnetometer: nil))
            // Readings at the sample's time count as at its time.
            try recorder.append(
                SensorSample(
                    timestamp: 0.51, gyroscope: nil, accelerometer: SIMD3(1, 2, 4), magnetometer: SIMD3(20, 0, -40),
                    accelerometerTimestamp: 0.51))
        }
        let text = try String(contentsOfFile: recording, encoding: .utf8)
        #expect(text == MotionRecorder.header + "0.5,0.1,0.2,0.3,1.0,2.0,3.0,nan,nan,nan\n0.51,nan,nan,nan,1.0,2.0,4.0,20.0,0.0,-40.0\n")
    }

    /// A reading taken at a sample's time and reused by later samples is not written again; two
    /// new readings go in time order before the sample.
    @Test func readingsAreWrittenOnceInTimeOrder() throws {
        let recording = Self.path()
        let a = SIMD3<Double>(0, 0, 9.8), m = SIMD3<Double>(20, 0, -40), g = SIMD3<Double>(0.1, 0, 0)
        do {
            let recorder = try MotionRecorder(path: recording, syncInterval: 0)
            try recorder.append(SensorSample(timestamp: 1, gyroscope: g, accelerometer: a, magnetometer: nil))
            try recorder.append(
                SensorSample(timestamp: 1.01, gyroscope: g, accelerometer: a, magnetometer: m, accelerometerTimestamp: 1, magnetometerTimestamp: 1.005))
            try recorder.append(
                SensorSample(
                    timestamp: 1.02, gyroscope: g, accelerometer: a * 2, magnetometer: m, accelerometerTimestamp: 1.015,
                    magnetometerTimestamp: 1.005))
            try recorder.append(
                SensorSample(
                    timestamp: 1.03, gyroscope: g, accelerometer: a, magnetometer: m * 2, accelerometerTimestamp: 1.028,
                    magnetometerTimestamp: 1.025))
        }
        let text = try String(contentsOfFile: recording, encoding: .utf8)
        #expect(
            text == MotionRecorder.header + """
                1.0,0.1,0.0,0.0,0.0,0.0,9.8,nan,nan,nan
                1.005,,,,,,,20.0,0.0,-40.0
                1.01,0.1,0.0,0.0,,,,,,
                1.015,,,,0.0,0.0,19.6,,,
                1.02,0.1,0.0,0.0,,,,,,
                1.025,,,,,,,40.0,0.0,-80.0
                1.028,,,,0.0,0.0,9.8,,,
                1.03,0.1,0.0,0.0,,,,,,

                """)
    }
}
