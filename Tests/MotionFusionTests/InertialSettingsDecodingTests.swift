import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// `InertialFrameFilter.Settings` decodes what earlier versions encoded: a field added since keeps its
/// default, a field that is present keeps its value, a wrong type is still an error.
@Suite struct InertialSettingsDecodingTests {
    typealias Settings = InertialFrameFilter<Double>.Settings

    @Test func aMissingFieldKeepsItsDefault() throws {
        var custom = Settings()
        custom.accelerometerTimeConstant = 2.5
        custom.biasMotionSigma = 0.0009
        custom.magneticHeadingUncertainty = 0.2
        var object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(custom)) as? [String: Any])
        // 0.5.0 had no magneticHeadingUncertainty.
        object.removeValue(forKey: "magneticHeadingUncertainty")
        let decoded = try JSONDecoder().decode(Settings.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(decoded.magneticHeadingUncertainty == 5 * .pi / 180)
        #expect(decoded.accelerometerTimeConstant == 2.5)
        #expect(decoded.biasMotionSigma == 0.0009)
        var expected = custom
        expected.magneticHeadingUncertainty = 5 * .pi / 180
        #expect(decoded == expected)
    }

    @Test func settingsOfVersionsWithoutTheMagnetometerLagDecodeToTheNewDefaults() throws {
        var custom = Settings()
        custom.adaptsHeadingTimeConstant = false
        custom.estimatesMagnetometerLatency = false
        custom.magnetometerTimeConstant = 12
        var object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(custom)) as? [String: Any])
        // Versions before the lag estimate and the adaptive heading time constant had neither field.
        object.removeValue(forKey: "adaptsHeadingTimeConstant")
        object.removeValue(forKey: "estimatesMagnetometerLatency")
        let decoded = try JSONDecoder().decode(Settings.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(decoded.adaptsHeadingTimeConstant)
        #expect(decoded.estimatesMagnetometerLatency)
        #expect(decoded.magnetometerTimeConstant == 12)
    }

    @Test func everyFieldRoundTrips() throws {
        // Every field away from its default (numbers × 1.5, switches flipped, another frame), so a
        // field that init(from:) forgot would decode to its default and differ.
        var object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(Settings())) as? [String: Any])
        for (key, value) in object {
            if let flag = value as? Bool, String(describing: type(of: value)).contains("Bool") {
                object[key] = !flag
            } else if let number = value as? Double {
                object[key] = number == 0 ? 0.25 : number * 1.5
            } else if let number = value as? Int {
                object[key] = number == 0 ? 0.25 : Double(number) * 1.5
            } else if key == "frame" {
                object[key] = "ned"
            }
        }
        let data = try JSONSerialization.data(withJSONObject: object)
        let custom = try JSONDecoder().decode(Settings.self, from: data)
        let defaults = Settings()
        let again = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(custom)) as? [String: Any])
        let original = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(defaults)) as? [String: Any])
        for key in original.keys {
            #expect("\(again[key]!)" != "\(original[key]!)", "\(key) kept its default")
        }
        let decoded = try JSONDecoder().decode(Settings.self, from: JSONEncoder().encode(custom))
        #expect(decoded == custom)
        #expect(try JSONDecoder().decode(Settings.self, from: Data("{}".utf8)) == Settings())
    }

    @Test func aWrongTypeIsAnError() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Settings.self, from: Data(#"{"biasMotionSigma": "fast"}"#.utf8))
        }
    }
}
