import Foundation
import Testing

import MotionFusion  // not @testable: the snippet may use public API only

/// The README's usage snippet is this code: the test runs it, checks its results, and checks that
/// the README shows exactly these lines (after `import MotionFusion`).
@Suite("README")
struct ReadmeExampleTests {
    @Test func usageSnippetRunsAndIsInTheReadme() throws {
        // README-SNIPPET-BEGIN
        // Fusion: the default filter in a stream that turns timestamps into sample periods.
        var stream = FusionStream()  // InertialFrameFilter<Double>, ENU earth frame
        let recording = SyntheticMotion.generate()  // seeded, with its true attitude
        for k in 0..<recording.count {
            let output = stream.update(
                timestamp: recording.timestamps[k],  // s
                gyroscope: recording.gyroscope[k],  // rad/s
                accelerometer: recording.accelerometer[k],  // m/s², specific force
                magnetometer: recording.magnetometer?[k])  // µT, or nil for 6D
            if k == recording.count - 1 {
                print(output.attitude.yaw, output.gravity, output.linearAcceleration)
            }
        }
        let error = stream.filter.quaternion.angle(to: recording.truth!.last!)
        print(error * 180 / .pi)  // degrees from the true attitude

        // A device tilted 30° about its own X axis (top edge up), then turned 90° to the left.
        let tilt = Quaternion<Double>(angle: 30 * .pi / 180, axis: SIMD3(1, 0, 0))
        let turn = Quaternion<Double>(angle: .pi / 2, axis: SIMD3(0, 0, 1))
        let q = turn * tilt  // sensor → earth, scalar first (w, x, y, z)

        let top = q.act(on: SIMD3(0, 1, 0))  // the device's top edge in the earth frame
        let euler = q.eulerAngles(.aerospace)  // yaw, pitch, roll (intrinsic Z-Y′-X″)
        print(top, euler.angles)

        let attitude = try Attitude(quaternion: q)  // Core Motion's CMAttitude
        print(attitude.pitch * 180 / .pi)  // 30.0 (pitch is about the device's X axis)
        print(attitude.gravity)  // gravity in the device frame, in g: (0, -0.5, -0.866)

        // Wahba's problem: the attitude from two vector observations, solved with LAPACK.
        let up = SIMD3<Double>(0, 0, 1)
        let north = SIMD3<Double>(0, 1, 0)
        let solution = try Wahba.solve(
            reference: [up, north],
            observed: [q.inverseAct(on: up), q.inverseAct(on: north)])
        print(solution.rotation.angle(to: q))  // ≈ 0 rad
        // README-SNIPPET-END

        #expect((top - SIMD3(-cos(.pi / 6), 0, sin(.pi / 6))).length < 1e-15)
        #expect(abs(attitude.pitch - .pi / 6) < 1e-15)
        #expect((attitude.gravity - SIMD3(0, -0.5, -(0.75).squareRoot())).length < 1e-15)
        #expect(solution.rotation.angle(to: q) < 1e-12)
        #expect(error < 3 * .pi / 180)

        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = source.components(separatedBy: "\n")
        let begin = try #require(lines.firstIndex { $0.hasSuffix("// README-SNIPPET-BEGIN") })
        let end = try #require(lines.firstIndex { $0.hasSuffix("// README-SNIPPET-END") })
        let snippet = lines[(begin + 1)..<end].map { $0.count >= 8 ? String($0.dropFirst(8)) : $0 }
        let expected = (["```swift", "import MotionFusion", ""] + snippet + ["```"]).joined(separator: "\n")
        #expect(readme.contains(expected), "README.md must contain the snippet exactly:\n\(expected)")
    }
}
