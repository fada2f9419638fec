import Foundation
import Testing
import ArgumentParser

@testable import MotionCLI
@testable import MotionFusion
@testable import MotionFusionCore

/// The closed loop over two fake IIO devices (accelerometer and gyroscope on one, the
/// magnetometer at a fifth of the rate on the other, fed from BROAD trial 01): what `motion
/// device-motion --live` writes is what `motion record --iio` recorded, replayed with `motion
/// device-motion FILE`, and what `motion fuse` computes on that recording.
@Suite("Live, recorded and replayed device motion")
struct LiveRecordReplayTests {
    static func temporaryFile(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("mf-\(name)-\(UUID()).csv").path
    }

    /// Runs `command` (a `motion` command line) on a fresh pair of fake devices fed with
    /// `encoded` (``FakeIMUPair/run(_:feeding:)``).
    static func live(_ encoded: FakeIMUPair.Encoded, _ command: [String]) throws {
        let pair = try FakeIMUPair()
        defer { pair.cleanUp() }
        try pair.run(command, feeding: encoded)
    }

    /// A CSV output's rows (header dropped), as text fields.
    static func rows(_ path: String) throws -> [[Substring]] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        return lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    }

    /// The quaternion (scalar first) in fields 1...4.
    static func quaternion(_ row: [Substring]) -> Quaternion<Double> {
        Quaternion(w: Double(row[1])!, x: Double(row[2])!, y: Double(row[3])!, z: Double(row[4])!)
    }

    /// The Hamilton product a ⊗ b, written out here rather than taken from the library.
    static func product(_ a: Quaternion<Double>, _ b: Quaternion<Double>) -> Quaternion<Double> {
        Quaternion(
            w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
            x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
    }

    /// `motion fuse` attitudes (device → NWU, `--frame nwu`) in Core Motion's
    /// xArbitraryCorrectedZVertical frame, as `DeviceMotionProcessor` documents it: at the first
    /// row whose flags lack notInitialized, q = T ⊗ S with T the turn about the vertical (the
    /// normalized (w, 0, 0, z) part of q), and every attitude from then on is T⁻¹ ⊗ q; the rows
    /// before it are left as they are.
    static func arbitraryCorrected(_ fused: [[Substring]]) -> [Quaternion<Double>] {
        let notInitialized = 1 << 10
        var turnBack: Quaternion<Double>?
        return fused.map { row in
            let q = quaternion(row)
            if turnBack == nil, Int(row.last!)! & notInitialized == 0 {
                let n = (q.w * q.w + q.z * q.z).squareRoot()
                turnBack = n > 0 ? Quaternion(w: q.w / n, x: 0, y: 0, z: -q.z / n) : Quaternion(w: 1, x: 0, y: 0, z: 0)
            }
            return turnBack.map { product($0, q) } ?? q
        }
    }

    /// The largest angle, radians, between the attitudes of two runs of equal length.
    static func largestDifference(_ a: [Quaternion<Double>], _ b: [Quaternion<Double>]) -> Double {
        zip(a, b).map { $0.angle(to: $1) }.max() ?? .nan
    }

    /// `device-motion --live -o -` into a pipe flushes each row as it is made: while the devices
    /// wait after 200 scans, a reader of the pipe already has their rows (the assembler holds back
    /// at most the last few). Before, live rows reached a pipe in 256 KiB blocks, here only when
    /// the run ended.
    @Test(.enabled(if: BroadData.required, "BROAD data not found at ../shared/reference-data/broad"))
    func liveRowsReachAPipeWhileTheDevicesWait() throws {
        let encoded = try FakeIMUPair.encode(try BroadTrial01.rows(from: 32, before: 36))
        let pair = try FakeIMUPair()
        defer { pair.cleanUp() }
        let imu = try FIFOWriter(pair.imu.characterDevicePath)
        let magnetometer = try FIFOWriter(pair.magnetometer.characterDevicePath)
        let process = Process()
        process.standardInput = FileHandle.nullDevice
        process.executableURL = URL(fileURLWithPath: try StandardOutputTests.binary())
        process.arguments = ["device-motion", "--live", "--samples", "400", "-o", "-"] + pair.captureArguments(origin: encoded.origin)
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let received = Lock(Data())
        let ended = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            while true {
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { break }
                received.withLock { $0.append(data) }
            }
            ended.signal()
        }
        func rows() -> Int { received.withLock { $0.filter { $0 == UInt8(ascii: "\n") }.count } - 1 }
        let written = try FakeIMUPair.feed(encoded, imu: imu, magnetometer: magnetometer, imuCount: 200)
        // Within the devices' 5 s stall timeout, after which the run would end (status 1).
        let deadline = Date(timeIntervalSinceNow: 4)
        while rows() < 190, Date() < deadline { usleep(10_000) }
        let whileWaiting = rows()
        #expect(process.isRunning, "the run waits for scans 201 to 400")
        #expect(whileWaiting >= 190 && whileWaiting <= 200, "\(whileWaiting) rows while the devices wait")
        // The rest: the run ends after 400 rows.
        try magnetometer.write(Array(encoded.magnetometerScans[written..<82].joined()))
        try imu.write(Array(encoded.imuScans[200..<400].joined()))
        process.waitUntilExit()
        #expect(ended.wait(timeout: .now() + 10) == .success, "the output pipe did not end")
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(message)")
        #expect(rows() == 400)
    }

    @Test(.enabled(if: BroadData.required, "BROAD data not found at ../shared/reference-data/broad"))
    func liveRecordedReplayedAndFusedAgree() throws {
        let encoded = try FakeIMUPair.encode(try BroadTrial01.rows(from: 32, before: 36))
        let scans = encoded.imuScans.count
        #expect(scans == 1143)
        let (recording, live, replay, fused, fusedENU) = (
            Self.temporaryFile("rec"), Self.temporaryFile("live"), Self.temporaryFile("replay"), Self.temporaryFile("fused"),
            Self.temporaryFile("fused-enu")
        )
        defer {
            if ProcessInfo.processInfo.environment["MF_KEEP"] == nil {
                for path in [recording, live, replay, fused, fusedENU] { try? FileManager.default.removeItem(atPath: path) }
            }
        }

        // (a) Record: t runs from 0 (the origin is the first scan's time) to the last scan's,
        // which ends the run.
        let last = try #require(encoded.readings.last?.timestamp)
        try Self.live(encoded, ["record", "--iio", "--duration", "\(last)", "-o", recording])
        // (b) Device motion live, one row per IMU scan.
        try Self.live(encoded, ["device-motion", "--live", "--samples", "\(scans)", "-o", live])
        // (c) The recording replayed and fused. The defaults of the two commands agree (the
        // InertialFrameFilter at its default settings, SampleClock with a 1 s gap, no rest-bias
        // estimator, no calibration, double) except the filter's earth frame: device motion runs
        // it in NWU, `motion fuse` in ENU unless --frame nwu.
        try FuseCommandTests.run(["device-motion", recording, "-o", replay])
        try FuseCommandTests.run(["fuse", recording, "--frame", "nwu", "-o", fused])
        try FuseCommandTests.run(["fuse", recording, "-o", fusedENU])

        // The recording: one row per sample, the gyroscope and accelerometer on every row, the
        // magnetometer only on the rows of its own readings (one in five).
        let recorded = try Self.rows(recording)
        #expect(recorded.count == scans)
        #expect(!recorded.contains { $0[1].isEmpty || $0[4].isEmpty })
        #expect(recorded.filter { !$0[7].isEmpty }.count == encoded.magnetometerScans.count)

        let liveRows = try Self.rows(live)
        let replayRows = try Self.rows(replay)
        let fusedRows = try Self.rows(fused)
        #expect(liveRows.count == scans)
        #expect(replayRows.count == liveRows.count)
        #expect(fusedRows.count == liveRows.count)
        #expect(replayRows.map { $0[0] } == liveRows.map { $0[0] })
        #expect(fusedRows.map { $0[0] } == liveRows.map { $0[0] })

        let liveAttitudes = liveRows.map(Self.quaternion)
        let replayed = Self.largestDifference(replayRows.map(Self.quaternion), liveAttitudes)
        let identical = try String(contentsOfFile: replay, encoding: .utf8) == String(contentsOfFile: live, encoding: .utf8)
        let fromFuse = Self.largestDifference(Self.arbitraryCorrected(fusedRows), liveAttitudes)
        // The accelerometer is read with the gyroscope, so the recording leaves only magnetometer
        // cells empty (each reading written once, at its time): a magnetometer in some rows only,
        // which both commands read as a multi-rate recording (the reading held, as live).
        #expect(replayed <= 1e-9, "replay vs live: largest attitude difference \(replayed) rad")
        #expect(fromFuse <= 1e-9, "fuse vs live: largest attitude difference \(fromFuse) rad")
        print("live record replay: \(liveRows.count) rows; replay vs live \(replayed) rad (identical text: \(identical)), fuse vs live \(fromFuse) rad")
        // Replay and fuse read the recording the same way.
        let replayVsFuse = Self.largestDifference(Self.arbitraryCorrected(fusedRows), replayRows.map(Self.quaternion))
        #expect(replayVsFuse <= 1e-9)

        // The cause: the recording through the assembler (as the commands read a multi-rate file)
        // gives live's samples, and device motion and the NWU filter on them give live's attitudes.
        var assembled: [SensorSample] = []
        let reader = try RecordingReader(.file(recording))
        while let sample = try reader.next() { assembled.append(sample) }
        #expect(assembled.count == scans)
        #expect(assembled.map { "\($0.timestamp)"[...] } == liveRows.map { $0[0] })
        var processor = try DeviceMotionProcessor<InertialFrameFilter<Double>>(referenceFrame: .xArbitraryCorrectedZVertical)
        var stream = FusionStream(filter: InertialFrameFilter<Double>(settings: .init(frame: .nwu)))
        var assembledMotion: [Quaternion<Double>] = []
        var assembledFused: [[Substring]] = []
        for s in assembled {
            let (w, a) = (try #require(s.gyroscope), try #require(s.accelerometer))
            let m = processor.update(timestamp: s.timestamp, gyroscope: w, accelerometer: a, magnetometer: s.magnetometer)
            assembledMotion.append(m.attitude.quaternion)
            let q = stream.update(timestamp: s.timestamp, gyroscope: w, accelerometer: a, magnetometer: s.magnetometer)
            assembledFused.append(["\(s.timestamp)", "\(q.quaternion.w)", "\(q.quaternion.x)", "\(q.quaternion.y)", "\(q.quaternion.z)", "\(q.flags.rawValue)"])
        }
        let assembledVsLive = Self.largestDifference(assembledMotion, liveAttitudes)
        let assembledFuseVsLive = Self.largestDifference(Self.arbitraryCorrected(assembledFused), liveAttitudes)
        #expect(assembledVsLive <= 1e-9, "assembled recording vs live: \(assembledVsLive) rad")
        #expect(assembledFuseVsLive <= 1e-9, "assembled recording, fused in NWU, vs live: \(assembledFuseVsLive) rad")

        // For the record only: fuse's default ENU, turned into NWU (v_nwu = R_z(−90°) v_enu).
        let enuRows = try Self.rows(fusedENU)
        let toNWU = Quaternion<Double>(w: (0.5).squareRoot(), x: 0, y: 0, z: -(0.5).squareRoot())
        let enuAsNWU = enuRows.map { row -> [Substring] in
            let q = Self.product(toNWU, Self.quaternion(row))
            return [row[0], "\(q.w)"[...], "\(q.x)"[...], "\(q.y)"[...], "\(q.z)"[...], row.last!]
        }
        let fromENU = Self.largestDifference(Self.arbitraryCorrected(enuAsNWU), liveAttitudes)
        print(
            "live/record/replay over two fake devices: \(liveRows.count) rows, \(recorded.count) recording rows; "
                + "replay vs live \(identical ? "text-identical" : "differs in text"), largest attitude difference \(replayed) rad; "
                + "fuse --frame nwu vs live \(fromFuse) rad; fuse (ENU) vs live \(fromENU) rad; replay vs fuse \(replayVsFuse) rad; "
                + "recording assembled: device motion vs live \(assembledVsLive) rad, NWU filter vs live \(assembledFuseVsLive) rad")
    }
}
