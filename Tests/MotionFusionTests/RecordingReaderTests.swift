import Foundation
import Testing

@testable import MotionFusionCore
@testable import MotionFusionIO

/// ``RecordingReader``'s places and order: each sample's file and line are its gyroscope reading's,
/// its extra columns are that row's, and a gyroscope reading with a NaN timestamp keeps its place
/// behind a sample the assembler holds.
@Suite("RecordingReader: places and order")
struct RecordingReaderTests {
    @Test func samplesKeepTheirGyroscopeRowsPlaceAndColumns() throws {
        // The accelerometer every 20 ms; at line 6 the gyroscope (0.04 s) waits for the
        // accelerometer reading due then, which comes at line 8, after a row with a NaN time.
        let text = """
            t,gx,gy,gz,ax,ay,az,row
            0.00,0.1,0,0,0,0,9.81,2
            0.01,0.1,0,0,,,,3
            0.02,0.1,0,0,0,0,9.80,4
            0.03,0.1,0,0,nan,nan,nan,5
            0.04,0.1,0,0,,,,6
            nan,0.2,0,0,0,0,9.70,7
            0.04,,,,0,0,9.79,8
            0.05,0.1,0,0,,,,9

            """
        let path = CSVReaderTests.file(text)
        let reader = try RecordingReader(.file(path), checksUnits: false, extraColumns: ["row", "absent"])
        #expect(reader.hasExtraColumn(0) && !reader.hasExtraColumn(1))
        var lines: [Int] = []
        var samples: [SensorSample] = []
        while let sample = try reader.next() {
            let location = try #require(reader.location)
            #expect(location.path == path)
            #expect(reader.extraValue(0) == Double(location.line), "the row's own columns")
            #expect(reader.extraValue(1).isNaN)
            lines.append(location.line)
            samples.append(sample)
        }
        #expect(lines == [2, 3, 4, 5, 6, 7, 9])
        // The held sample got the reading that arrived after it; the passed-on one its own row's.
        #expect(samples[4].timestamp == 0.04 && samples[4].accelerometer == SIMD3(0, 0, 9.79))
        #expect(samples[5].timestamp.isNaN && samples[5].gyroscope == SIMD3(0.2, 0, 0) && samples[5].accelerometer == SIMD3(0, 0, 9.70))
        // Row 5's nan cells are no reading: the one of row 4 is held.
        #expect(samples[3].accelerometer == SIMD3(0, 0, 9.80) && samples[3].accelerometerTimestamp == 0.02)
        #expect(reader.statistics.invalidReadings == 0)
    }

    @Test func oneFilePerSensorGivesTheGyroscopeFilesLines() throws {
        let g = CSVReaderTests.file("t,x,y,z\n0,0.1,0,0\n\n0.01,0.1,0,0\ninf,0.1,0,0\n0.02,0.1,0,0\n")
        let a = CSVReaderTests.file("t,x,y,z\n0,0,0,9.81\n0.015,0,0,9.81\n")
        let reader = try RecordingReader(.sensorFiles(gyroscope: g, accelerometer: a, magnetometer: nil), checksUnits: false)
        var places: [RecordingReader.Location] = []
        var times: [Double] = []
        while let sample = try reader.next() {
            places.append(try #require(reader.location))
            times.append(sample.timestamp)
        }
        #expect(places == [2, 4, 5, 6].map { RecordingReader.Location(path: g, line: $0) })
        #expect(times[0] == 0 && times[1] == 0.01 && times[2] == .infinity && times[3] == 0.02)
    }
}
