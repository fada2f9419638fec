import Foundation
import Testing

@testable import MotionFusionCore
@testable import MotionFusionIO

/// One sensor's readings from a file of its own.
@Suite("SensorCSVReader")
struct SensorCSVReaderTests {
    static func readAll(_ text: String, _ sensor: SensorReading.Sensor) throws(CSVError) -> [SensorReading] {
        let reader = try SensorCSVReader(path: CSVReaderTests.file(text), sensor: sensor)
        var readings: [SensorReading] = []
        while let r = try reader.next() { readings.append(r) }
        return readings
    }

    @Test func columnNamesInAnyOrderAndTheSensorsOwnNames() throws {
        let plain = try Self.readAll("z,t,other,x,y\n3,0.5,text,1,2\n", .gyroscope)
        #expect(plain == [SensorReading(sensor: .gyroscope, timestamp: 0.5, value: SIMD3(1, 2, 3))])
        let own = try Self.readAll("t,ax,ay,az\n0.5,1,2,3\n", .accelerometer)
        #expect(own == [SensorReading(sensor: .accelerometer, timestamp: 0.5, value: SIMD3(1, 2, 3))])
        let xio = try Self.readAll("Time (s),Magnetometer X (uT),Magnetometer Y (uT),Magnetometer Z (uT)\n1,1,2,3\n", .magnetometer)
        #expect(xio == [SensorReading(sensor: .magnetometer, timestamp: 1, value: SIMD3(1, 2, 3))])
        // Another sensor's names are not this sensor's axes.
        #expect(throws: CSVError.missingColumn(line: 1, name: "x", found: ["t", "gx", "gy", "gz"])) { try Self.readAll("t,gx,gy,gz\n0,1,2,3\n", .accelerometer) }
    }

    @Test func unitsFromTheHeaderOrGiven() throws {
        let r = try Self.readAll("t (ms),x (deg/s),y (deg/s),z (deg/s)\n7,180,90,0\n", .gyroscope)
        #expect(r[0].timestamp == 0.007)
        #expect(r[0].value == SIMD3(Double.pi, Double.pi / 2, 0))
        let g = try Self.readAll("t,x[g],y[g],z[g]\n0,0,0,1\n", .accelerometer)
        #expect(g[0].value == SIMD3(0, 0, 9.80665))
        let reader = try SensorCSVReader(
            path: CSVReaderTests.file("t,x,y,z\n0,1,0,0\n"), sensor: .magnetometer, magnetometerUnit: .gauss)
        #expect(reader.unit == "gauss")
        #expect(try reader.next()?.value == SIMD3(100, 0, 0))
        // Refused as IMUCSVReader refuses them.
        #expect(throws: CSVError.unknownUnit(line: 1, quantity: .magnetometer, column: 2, name: "x (g)", unit: "g")) {
            try Self.readAll("t,x (g),y (g),z (g)\n0,1,2,3\n", .magnetometer)
        }
        #expect(throws: CSVError.unitContradiction(line: 1, quantity: .gyroscope, column: 2, name: "x (deg/s)", header: "deg/s", given: "rad/s")) {
            try SensorCSVReader(
                path: CSVReaderTests.file("t,x (deg/s),y (deg/s),z (deg/s)\n0,1,2,3\n"), sensor: .gyroscope,
                gyroscopeUnit: .radiansPerSecond)
        }
    }

    @Test func errorsNameLineAndColumn() throws {
        #expect(throws: CSVError.missingColumn(line: 1, name: "y", found: ["t", "x", "z"])) { try Self.readAll("t,x,z\n0,1,2\n", .gyroscope) }
        #expect(throws: CSVError.missingColumn(line: 1, name: "t", found: ["x", "y", "z"])) { try Self.readAll("x,y,z\n0,1,2\n", .gyroscope) }
        #expect(throws: CSVError.notANumber(line: 3, column: 4, name: "z", text: "")) {
            try Self.readAll("t,x,y,z\n0,1,2,3\n0.1,1,2,\n", .gyroscope)
        }
        #expect(throws: CSVError.wrongFieldCount(line: 2, expected: 4, found: 3)) { try Self.readAll("t,x,y,z\n0,1,2\n", .gyroscope) }
        // File order is kept: no sorting, no check.
        let r = try Self.readAll("t,x,y,z\n1,0,0,0\n0.5,0,0,0\n", .gyroscope)
        #expect(r.map(\.timestamp) == [1, 0.5])
    }
}
