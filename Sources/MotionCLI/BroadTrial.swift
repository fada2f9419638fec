import Foundation
import MotionFusion

/// One BROAD trial read for the demo: gyroscope, truth and movement flags.
struct BroadTrial {
    var gyroscope: [SIMD3<Double>] = []
    var truth: [Quaternion<Double>?] = []
    var movement: [Bool] = []
    var samplePeriod = 0.0035
    var count: Int { gyroscope.count }

    struct ReadError: Error, CustomStringConvertible {
        var description: String
    }

    init(path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var lines = text.split(whereSeparator: \.isNewline)
        guard !lines.isEmpty else { throw ReadError(description: "\(path): empty file") }
        let header = lines.removeFirst().split(separator: ",").map(String.init)
        func column(_ name: String) throws -> Int {
            guard let index = header.firstIndex(of: name) else {
                throw ReadError(description: "\(path): no column \(name)")
            }
            return index
        }
        let t = try column("t"), gx = try column("gx"), qw = try column("qw")
        let moving = try column("movement")
        var times: [Double] = []
        for (offset, line) in lines.enumerated() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == header.count else {
                throw ReadError(
                    description: "\(path):\(offset + 2): \(fields.count) fields, expected \(header.count)")
            }
            func value(_ index: Int) throws -> Double {
                guard let v = Double(fields[index]) else {
                    throw ReadError(
                        description: "\(path):\(offset + 2): column \(index + 1) is not a number")
                }
                return v
            }
            times.append(try value(t))
            gyroscope.append(SIMD3(try value(gx), try value(gx + 1), try value(gx + 2)))
            let q = Quaternion(w: try value(qw), x: try value(qw + 1), y: try value(qw + 2), z: try value(qw + 3))
            truth.append(q.isFinite ? q : nil)
            movement.append(try value(moving) == 1)
        }
        if times.count > 1 {
            samplePeriod = (times[times.count - 1] - times[0]) / Double(times.count - 1)
        }
    }

    /// The first finite truth quaternion (BROAD starts at rest with the markers visible).
    var firstTruth: Quaternion<Double> {
        truth.first(where: { $0 != nil }).flatMap { $0 } ?? .identity
    }

    /// BROAD's RMSEs in degrees over movement samples with finite truth.
    func score(_ estimates: [Quaternion<Double>]) -> (total: Double, heading: Double, inclination: Double) {
        var sums = SIMD3<Double>.zero
        var n = 0.0
        for index in estimates.indices where movement[index] {
            guard let reference = truth[index] else { continue }
            let e = estimates[index] * reference.conjugate
            let w = min(abs(e.w), 1)
            let total = 2 * acos(w)
            let heading = 2 * atan(abs(e.z) / w)
            let inclination = 2 * acos(min((e.w * e.w + e.z * e.z).squareRoot(), 1))
            sums += SIMD3(total * total, heading * heading, inclination * inclination)
            n += 1
        }
        let rms = (sums / max(n, 1)).squareRoot() * (180 / .pi)
        return (rms.x, rms.y, rms.z)
    }
}
