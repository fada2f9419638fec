import Foundation
import MotionFusion
import Synchronization
import Testing

/// The code examples of the DocC articles, as written there, with a check of their result.
struct DocumentationExampleTests {
    /// "Device Motion for Core Motion Users".
    @Test func deviceMotionForCoreMotionUsersExample() throws {
        let recording = try MotionScenario.named("gestures")!.generate()
        let manager = MotionManager(source: RecordingSource(recording, pacing: .asFastAsPossible))  // or IIOBufferedSource, …
        manager.deviceMotionUpdateInterval = 0.02                // 50 Hz
        manager.startDeviceMotionUpdates(using: .xMagneticNorthZVertical)
        manager.waitUntilFinished()
        if let motion = manager.deviceMotion {
            print(motion.attitude.yaw, motion.gravity, motion.userAcceleration)
        }
        let motion = manager.deviceMotion
        #expect(motion != nil)
        if let motion {
            // Gravity is a unit vector in g whatever the attitude.
            let g = motion.gravity
            #expect(abs((g * g).sum().squareRoot() - 1) < 1e-9)
            #expect(motion.attitude.yaw.isFinite)
        }
    }

    /// "Device Motion for Core Motion Users", the handler on `.main`: a @MainActor test blocks the
    /// main queue in waitUntilFinished(), which runs the handler meanwhile.
    @MainActor @Test func deviceMotionForCoreMotionUsersHandlerExample() throws {
        let manager = MotionManager(source: RecordingSource(try MotionScenario.named("gestures")!.generate(), pacing: .asFastAsPossible))
        let headings = Mutex<[Double]>([])
        manager.deviceMotionUpdateInterval = 1.0 / 60.0
        manager.startDeviceMotionUpdates(using: .xMagneticNorthZVertical, to: .main) { motion, error in
            if let error {
                print("device motion failed: \(error)")
                return
            }
            guard let motion else { return }
            headings.withLock { $0.append(motion.heading) }
        }
        manager.waitUntilFinished()  // on the main thread: runs the .main handlers while it waits
        print(headings.withLock { $0.count }, "headings")
        // Every 1/60 s interval of the 100 Hz recording gives one sample (every other one).
        let count = headings.withLock { $0.count }
        #expect(count == (manager.sampleCount + 1) / 2, "\(count) of \(manager.sampleCount)")
        #expect(headings.withLock { $0.allSatisfy { $0 >= 0 && $0 < 360 } })
    }

    /// "Device Motion for Core Motion Users", the async stream in true north.
    @Test func deviceMotionForCoreMotionUsersStreamExample() async throws {
        let manager = MotionManager(source: RecordingSource(try MotionScenario.named("gestures")!.generate(), pacing: .asFastAsPossible))
        var last: DeviceMotion?
        for await motion in manager.deviceMotionUpdates(using: .xTrueNorthZVertical, declination: .degrees(1.3)) {
            last = motion
        }
        if let error = manager.error {
            print(error)  // for example MotionManagerError.trueNorthNotAvailable without a declination
        } else if let last {
            print("true heading \(last.heading)°")
        }
        #expect(manager.error == nil && manager.attitudeReferenceFrame == .xTrueNorthZVertical)
        let heading = try #require(last?.heading)
        #expect(heading >= 0 && heading < 360)
    }

    /// "Device Motion for Core Motion Users", real sensors on Linux: compiled here, not run — it
    /// reads the machine's own IIO devices. `IIODeviceGroupTests` and `IIOCaptureOptionsTests` run
    /// the same calls on fake devices.
    static func realSensorsOnLinuxExample() throws {
        // One device with accelerometer and gyroscope (and perhaps a magnetometer):
        if let device = try IIODevice.list().first(where: { $0.channelTypes.contains(.gyroscope) }) {
            let manager = MotionManager(source: try IIOBufferedSource(device: device))
            manager.startDeviceMotionUpdates()
        }

        // Sensors on several devices (an IMU and a separate magnetometer), merged by kernel timestamp:
        let group = try IIODeviceGroup(devices: try IIODevice.list())
        let merged = MotionManager(source: group)
        merged.startDeviceMotionUpdates(using: .xMagneticNorthZVertical)
    }

    /// Every ```swift block of "Device Motion for Core Motion Users" appears word for word (indentation
    /// aside) in the test sources that compile it: its `import` lines in the file, the rest as
    /// consecutive lines. An example edited in the article alone, or never compiled, fails here.
    @Test func deviceMotionForCoreMotionUsersExamplesAreTheCompiledOnes() throws {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let article = try String(
            contentsOf: root.appendingPathComponent("Sources/MotionFusion/MotionFusion.docc/DeviceMotionForCoreMotionUsers.md"),
            encoding: .utf8)
        let blocks = Self.swiftBlocks(in: article)
        #expect(blocks.count >= 4, "\(blocks.count) swift blocks")
        let sources = try ["Tests/MotionFusionTests", "Tests/CoreMotionCompatibilityTests"].flatMap { folder in
            let url = root.appendingPathComponent(folder)
            return try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
                .filter { $0.hasSuffix(".swift") }
                .map { try Self.lines(String(contentsOf: url.appendingPathComponent($0), encoding: .utf8)) }
        }
        for block in blocks {
            let imports = block.filter { $0.hasPrefix("import ") }
            var body = block.filter { !$0.hasPrefix("import ") }
            while body.first == "" { body.removeFirst() }
            while body.last == "" { body.removeLast() }
            let compiled = sources.contains { file in
                imports.allSatisfy(file.contains) && Self.contains(file, body)
            }
            #expect(compiled, "not compiled by any test as written:\n\(block.joined(separator: "\n"))")
        }
    }

    /// The articles spell Euler angles with their convention: `EulerAngles(yaw:pitch:roll:)` is
    /// deprecated (pitch is about Y in the aerospace sequence, about X in Core Motion's).
    /// Conventions.md and GettingStarted.md used it in three examples.
    @Test func articlesUseNoDeprecatedEulerAngles() throws {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.appendingPathComponent("Sources/MotionFusion/MotionFusion.docc")
        let articles = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".md") }
        #expect(articles.contains("Conventions.md") && articles.contains("GettingStarted.md"))
        for name in articles {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains("EulerAngles") {
                #expect(!line.contains("(yaw:"), "\(name): \(line)")
            }
        }
    }

    /// "Conventions", the gimbal-lock example (aerospace angles), with the values it states.
    @Test func conventionsGimbalLockExample() {
        let locked = EulerAngles<Double>(aerospaceYaw: 0.3, pitch: .pi / 2, roll: 0.2)
        let extracted = locked.quaternion.eulerAngles(.aerospace)
        #expect(abs(extracted.angles[0] - 0.1) < 1e-6 && abs(extracted.angles[1] - .pi / 2) < 1e-6)
        #expect(extracted.angles[2] == 0 && extracted.isGimbalLocked)
        #expect(extracted.quaternion.isApproximatelySameRotation(as: locked.quaternion))
    }

    /// The lines of each ```swift block, trimmed.
    static func swiftBlocks(in markdown: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in lines(markdown) {
            if current == nil {
                if line == "```swift" { current = [] }
            } else if line == "```" {
                blocks.append(current!)
                current = nil
            } else {
                current!.append(line)
            }
        }
        return blocks
    }

    /// Lines without their leading and trailing white space.
    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// True if `part` occurs in `lines` as consecutive lines.
    static func contains(_ lines: [String], _ part: [String]) -> Bool {
        guard !part.isEmpty, part.count <= lines.count else { return part.isEmpty }
        return (0...(lines.count - part.count)).contains { start in lines[start..<(start + part.count)].elementsEqual(part) }
    }
}
