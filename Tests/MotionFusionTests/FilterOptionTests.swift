import Foundation
import Testing
import ArgumentParser

@testable import MotionCLI
@testable import MotionFusion

/// `motion fuse`'s options that belong to one filter: given with another filter they are refused
/// (they were silently ignored), a negative value is read as a number and refused with the range
/// (it was "Missing value"), and with their own filter they work as before.
@Suite("motion fuse: options of the chosen filter")
struct FilterOptionTests {
    static func message(_ arguments: [String]) -> String? {
        do {
            _ = try MotionCommand.parseAsRoot(arguments)
            return nil
        } catch {
            return MotionCommand.message(for: error)
        }
    }

    @Test(arguments: [
        (["--beta", "0.1"], "madgwick", "inertial"), (["--zeta", "0.01"], "madgwick", "inertial"),
        (["--kp", "2"], "mahony", "inertial"), (["--ki", "0.1", "--filter", "madgwick"], "mahony", "madgwick"),
        (["--maximum-bias", "0.2", "--filter", "complementary"], "mahony", "complementary"),
        (["--accelerometer-time-constant", "2", "--filter", "madgwick"], "inertial and complementary", "madgwick"),
        (["--magnetometer-time-constant", "9", "--filter", "mahony"], "inertial and complementary", "mahony"),
    ])
    func anOptionOfAnotherFilterIsRefused(_ options: [String], owner: String, chosen: String) throws {
        let text = try #require(Self.message(["fuse", "in.csv", "-o", "out.csv"] + options))
        #expect(text.contains("\(options[0]) is a setting of --filter \(owner), not of the \(chosen) filter"), "\(text)")
    }

    @Test func aNegativeValueIsReadAndRefusedWithItsRange() throws {
        for option in ["--beta", "--kp", "--accelerometer-time-constant", "--maximum-gap"] {
            let filter = option == "--beta" ? "madgwick" : option == "--kp" ? "mahony" : "inertial"
            let text = try #require(Self.message(["fuse", "in.csv", "-o", "o.csv", "--filter", filter, option, "-0.5"]))
            #expect(text.contains("\(option) must be a finite number ≥ 0, got -0.5"), "\(text)")
            #expect(!text.contains("Missing value"), "\(text)")
        }
    }

    @Test func anOptionOfTheChosenFilterChangesItsOutputAndTheDefaultsAreTheDocumentedOnes() throws {
        let input = FuseCommandTests.input()
        let folder = FileManager.default.temporaryDirectory
        func fuse(_ options: [String]) throws -> [[Double]] {
            let out = folder.appendingPathComponent("mf-options-\(UUID()).csv").path
            defer { try? FileManager.default.removeItem(atPath: out) }
            try FuseCommandTests.run(["fuse", input, "-o", out] + options)
            return try FuseCommandTests.output(out)
        }
        #expect(try fuse(["--filter", "madgwick"]) == fuse(["--filter", "madgwick", "--beta", "0.1", "--zeta", "0"]))
        #expect(try fuse(["--filter", "madgwick"]) != fuse(["--filter", "madgwick", "--beta", "0.5"]))
        #expect(
            try fuse(["--filter", "mahony"]) == fuse(["--filter", "mahony", "--kp", "1", "--ki", "0.01", "--maximum-bias", "0.1"]))
        #expect(try fuse([]) == fuse(["--accelerometer-time-constant", "4", "--magnetometer-time-constant", "30"]))
    }

    /// The registry is the one place a filter is described: every option it names is one that
    /// `motion fuse --help-hidden` shows under that spelling and belongs to some filter, and each name builds
    /// its own filter type in both precisions.
    @Test func theRegistryNamesEveryOptionAsFuseSpellsItAndBuildsEachFilter() throws {
        let help = MotionCommand.helpMessage(for: FuseCommand.self, includeHidden: true, columns: 1000)
        for option in FilterOption.allCases {
            #expect(help.contains(option.flag + " "), "\(option.flag) not in fuse --help-hidden")
            #expect(!FilterName.owners(of: option).isEmpty, "\(option.flag) belongs to no filter")
        }
        struct TypeName<Scalar: FusionScalar>: FilterConsumer {
            func consume<F: AttitudeFilter>(_ filter: F) -> String where F.Scalar == Scalar { "\(F.self)" }
        }
        let types = ["inertial": "InertialFrameFilter", "madgwick": "MadgwickFilter", "mahony": "MahonyFilter",
                     "complementary": "ComplementaryFilter"]
        #expect(Set(types.keys) == Set(FilterName.allCases.map(\.rawValue)))
        #expect(help.contains("(values: " + FilterName.allCases.map(\.rawValue).joined(separator: ", ") + ";"))
        for filter in FilterName.allCases {
            #expect(try filter.build(for: TypeName<Double>()) == "\(types[filter.rawValue]!)<Double>")
            #expect(try filter.build(for: TypeName<Float>()) == "\(types[filter.rawValue]!)<Float>")
        }
    }

    /// An out-of-range `--set` value is refused by the registry's build with the setting's range.
    @Test func aSetValueOutsideItsRangeIsRefused() throws {
        struct Nothing: FilterConsumer {
            typealias Scalar = Double
            func consume<F: AttitudeFilter>(_ filter: F) where F.Scalar == Double {}
        }
        #expect(throws: SettingsOverrideError.self) { try FilterName.madgwick.build(overrides: ["beta=-1"], for: Nothing()) }
        #expect(throws: Never.self) { try FilterName.madgwick.build(overrides: ["beta=0.2"], for: Nothing()) }
    }
}
