import Testing

@testable import MotionFusionCore

/// The sample assembler's rules, each against values worked out by hand or by a brute-force
/// search written here, independent of the assembler's queues.
@Suite("Sample assembler")
struct SampleAssemblerTests {
    typealias Reading = SensorReading

    static func gyro(_ t: Double, _ v: Double = 1) -> Reading { Reading(sensor: .gyroscope, timestamp: t, value: [v, 0, 0]) }
    static func acc(_ t: Double, _ v: Double = 2) -> Reading { Reading(sensor: .accelerometer, timestamp: t, value: [0, 0, v]) }
    static func mag(_ t: Double, _ v: Double = 3) -> Reading { Reading(sensor: .magnetometer, timestamp: t, value: [v, 0, 0]) }

    /// Feeds `readings` in order, then finishes; every sample made.
    static func assemble(
        _ readings: [Reading], rules: SampleAssembler.Rules = .init(), expecting: SensorSet = []
    ) -> ([SensorSample], SampleAssembler) {
        var assembler = SampleAssembler(rules: rules, expecting: expecting)
        var out: [SensorSample] = []
        for r in readings {
            assembler.add(r)
            while let s = assembler.next() { out.append(s) }
        }
        assembler.finish()
        while let s = assembler.next() { out.append(s) }
        return (out, assembler)
    }

    /// The brute-force expectation: for each gyroscope reading, the newest reading of each other
    /// sensor at or before its time (ties count), if no older than the age limit.
    static func expected(_ readings: [Reading], rules: SampleAssembler.Rules = .init()) -> [SensorSample] {
        let accs = readings.filter { $0.sensor == .accelerometer }
        let mags = readings.filter { $0.sensor == .magnetometer }
        func latest(_ list: [Reading], _ t: Double, _ age: Double) -> Reading? {
            guard let r = list.last(where: { $0.timestamp <= t }), t - r.timestamp <= age else { return nil }
            return r
        }
        return readings.filter { $0.sensor == .gyroscope }.map { g in
            let a = latest(accs, g.timestamp, rules.maximumAccelerometerAge)
            let m = latest(mags, g.timestamp, rules.maximumMagnetometerAge)
            return SensorSample(
                timestamp: g.timestamp, gyroscope: g.value, accelerometer: a?.value, magnetometer: m?.value,
                accelerometerTimestamp: a?.timestamp, magnetometerTimestamp: m?.timestamp)
        }
    }

    /// Gyroscope at 1 kHz, accelerometer at 250 Hz, magnetometer at 50 Hz, all with phases of
    /// their own, in timestamp order (others before the gyroscope at equal times); values count up.
    static func multiRate(seconds: Double = 2) -> [Reading] {
        var all: [(Double, Int, Reading)] = []
        var k = 0
        func add(_ sensor: Reading.Sensor, period: Double, phase: Double, order: Int) {
            var t = phase
            while t < seconds {
                k += 1
                all.append((t, order, Reading(sensor: sensor, timestamp: t, value: [Double(k), 0, 0])))
                t += period
            }
        }
        add(.gyroscope, period: 0.001, phase: 0, order: 2)
        add(.accelerometer, period: 0.004, phase: 0.0005, order: 0)
        add(.magnetometer, period: 0.02, phase: 0.003, order: 1)
        return all.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
    }

    @Test("A scan with every sensor comes out as it went in")
    func wholeScans() {
        var assembler = SampleAssembler()
        var out: [SensorSample] = []
        for k in 0..<50 {
            let t = Double(k) * 0.01
            let s = SensorSample(timestamp: t, gyroscope: [Double(k), 1, 2], accelerometer: [0, 0, 9.8], magnetometer: [20, 0, -40])
            assembler.add(s)
            while let made = assembler.next() { out.append(made) }
            #expect(out.last == s, "made at once, unchanged, at sample \(k)")
        }
        #expect(out.count == 50)
        #expect(assembler.statistics.samples == 50)
        #expect(assembler.statistics.timedOutWaits == 0)
    }

    @Test("Multi-rate readings in timestamp order: the latest at or before, as a brute-force search finds")
    func multiRateInOrder() {
        let readings = Self.multiRate()
        let (out, assembler) = Self.assemble(readings)
        let want = Self.expected(readings)
        #expect(out.count == readings.filter { $0.sensor == .gyroscope }.count && out.count > 1990)
        #expect(out == want)
        // Hand-checked: the gyroscope at 3.0 ms pairs with the accelerometer of 0.5 ms (the next is at
        // 4.5 ms) and the magnetometer of 3.0 ms (taken at the same time).
        #expect(out[3].accelerometerTimestamp == 0.0005)
        #expect(out[3].magnetometerTimestamp == nil, "same time as the sample: nil")
        #expect(out[3].magnetometer != nil)
        // Before the magnetometer's first reading (3 ms): none.
        #expect(out[0].magnetometer == nil && out[2].magnetometer == nil)
        #expect(out[0].accelerometer == nil, "the accelerometer starts at 0.5 ms")
        #expect(assembler.statistics.staleAccelerometer == 0)
        #expect(assembler.statistics.lateReadings == 0)
    }

    @Test("Readings that arrive late, within the wait, give what the recording gives")
    func liveArrivalMatchesRecording() {
        // Every accelerometer and magnetometer reading arrives after the gyroscope readings of the
        // next `delay` milliseconds (as from a second device read by another thread), but within
        // the wait (50 ms).
        let readings = Self.multiRate()
        for delay in [1, 3, 7, 30] {
            var keyed: [(Double, Int, Reading)] = []
            for (n, r) in readings.enumerated() {
                let arrival = r.sensor == .gyroscope ? r.timestamp : r.timestamp + Double(delay) * 0.001 + 0.0001
                keyed.append((arrival, n, r))
            }
            let arrivals = keyed.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
            let (out, assembler) = Self.assemble(arrivals, expecting: .all)
            #expect(out == Self.expected(readings), "delay \(delay) ms")
            #expect(assembler.statistics.timedOutWaits == 0, "delay \(delay) ms")
            #expect(assembler.statistics.lateReadings == 0, "delay \(delay) ms")
        }
    }

    @Test("A gyroscope reading waits for a due reading, and only for one that is due")
    func waitsForDueReading() {
        var a = SampleAssembler()
        // The magnetometer at 0, 10, 20 ms: an interval of 10 ms learned.
        for t in [0.0, 0.01, 0.02] {
            a.add(Self.mag(t))
            a.add(Self.gyro(t))
        }
        var made: [SensorSample] = []
        while let s = a.next() { made.append(s) }
        #expect(made.count == 3)
        // 25 ms: the next reading (30 ms) is not due: made at once.
        a.add(Self.gyro(0.025))
        #expect(a.next()?.timestamp == 0.025)
        // 29.6 ms, past 20 ms + 0.95 × 10 ms: due; held.
        a.add(Self.gyro(0.0296))
        #expect(a.next() == nil)
        a.add(Self.gyro(0.030))
        #expect(a.next() == nil)
        a.add(Self.mag(0.030, 7))
        let s1 = a.next()
        let s2 = a.next()
        #expect(s1?.timestamp == 0.0296 && s1?.magnetometer == [3, 0, 0] && s1?.magnetometerTimestamp == 0.02)
        #expect(s2?.timestamp == 0.030 && s2?.magnetometer == [7, 0, 0] && s2?.magnetometerTimestamp == nil)
        #expect(a.next() == nil)
        #expect(a.statistics.timedOutWaits == 0)
    }

    @Test("A sensor that stops: the wait runs out once, then no more waits; its readings age out")
    func sensorStops() {
        let rules = SampleAssembler.Rules(maximumAccelerometerAge: 0.05, maximumWait: 0.02)
        var a = SampleAssembler(rules: rules)
        var out: [SensorSample] = []
        // Gyroscope and accelerometer at 100 Hz together until 0.2 s, then the gyroscope alone.
        for k in 0..<60 {
            let t = Double(k) * 0.01
            if t < 0.2 + 1e-9 { a.add(Self.acc(t, Double(k))) }
            a.add(Self.gyro(t))
            while let s = a.next() { out.append(s) }
        }
        // The gyroscope at 0.21 s waited for the accelerometer due at 0.21 s until gyroscope
        // readings 20 ms newer (0.23 s) arrived; none held at the end but the last ones.
        #expect(a.statistics.timedOutWaits == 1)
        a.finish()
        while let s = a.next() { out.append(s) }
        #expect(out.count == 60)
        let expected: [Double] = (0..<60).map { Double($0) * 0.01 }
        #expect(out.map(\.timestamp) == expected)
        // 0.21 … 0.25 s: within 50 ms of the last reading (0.2 s), held; from 0.26 s: none.
        let last = Double(20) * 0.01
        for s in out where s.timestamp > last {
            if s.timestamp - last <= 0.05 {
                #expect(s.accelerometer == [0, 0, 20] && s.accelerometerTimestamp == 0.2, "t = \(s.timestamp)")
            } else {
                #expect(s.accelerometer == nil, "t = \(s.timestamp)")
            }
        }
        #expect(a.statistics.staleAccelerometer == 1, "the last reading dropped once")
    }

    @Test("No magnetometer at all: 6D samples, never a wait")
    func magnetometerNeverArrives() {
        let readings = Self.multiRate().filter { $0.sensor != .magnetometer }
        let (out, assembler) = Self.assemble(readings)
        #expect(out.count == readings.filter { $0.sensor == .gyroscope }.count && out.count > 1990)
        #expect(out.allSatisfy { $0.magnetometer == nil })
        #expect(out == Self.expected(readings))
        #expect(assembler.statistics.timedOutWaits == 0)
        // Told to expect one, the first gyroscope readings wait for it, once, then go on.
        let (expecting, waited) = Self.assemble(readings, expecting: .all)
        #expect(expecting == out)
        #expect(waited.statistics.timedOutWaits == 1)
    }

    @Test("Expected sensors are waited for from the first reading on")
    func expectedFromTheStart() {
        var a = SampleAssembler(expecting: [.accelerometer])
        a.add(Self.gyro(0))
        a.add(Self.gyro(0.001))
        let first = a.next()
        #expect(first == nil, "no accelerometer reading yet")
        a.add(Self.acc(0.0005))
        let atZero = a.next()
        let atOne = a.next()
        #expect(atZero?.timestamp == 0 && atZero?.accelerometer == nil, "0 ms: before the reading")
        #expect(atOne == nil, "1 ms: the interval is not known; waits for a reading at or after 1 ms")
        a.add(Self.acc(0.0015))
        let released = a.next()
        #expect(released?.timestamp == 0.001 && released?.accelerometerTimestamp == 0.0005)
        #expect(a.statistics.timedOutWaits == 0)
    }

    @Test("A clock that goes back: the held samples are made, the old timeline's readings discarded")
    func clockGoesBack() {
        var a = SampleAssembler()
        var out: [SensorSample] = []
        func feed(_ r: Reading) {
            a.add(r)
            while let s = a.next() { out.append(s) }
        }
        for k in 0..<10 {
            let t = 100 + Double(k) * 0.01
            feed(Self.acc(t, 1))
            feed(Self.mag(t, 1))
            feed(Self.gyro(t))
        }
        // A magnetometer reading of the old timeline ahead of the gyroscope, then the jump to 5 s.
        feed(Self.mag(100.1, 1))
        feed(Self.acc(5, 2))
        feed(Self.gyro(5))
        feed(Self.acc(5.01, 2))
        feed(Self.gyro(5.01))
        a.finish()
        while let s = a.next() { out.append(s) }
        #expect(out.count == 12)
        #expect(out.map(\.timestamp).suffix(2) == [5, 5.01])
        #expect(out[10].accelerometer == [0, 0, 2] && out[10].magnetometer == nil, "nothing from the old timeline")
        #expect(out[11].accelerometer == [0, 0, 2] && out[11].magnetometer == nil)
        #expect(a.statistics.clockJumps == 2, "the accelerometer's clock and the gyroscope's")
        #expect(a.statistics.discardedReadings == 3, "the old timeline's readings still held: accelerometer 100.09 s, magnetometer 100.09 and 100.1 s")
    }

    @Test("A clock that jumps forward past the gap: old readings are too old to use")
    func clockJumpsForward() {
        let readings: [Reading] = [Self.acc(0), Self.gyro(0), Self.acc(0.01), Self.gyro(0.01), Self.gyro(5), Self.acc(5.01), Self.gyro(5.01)]
        let (out, a) = Self.assemble(readings)
        #expect(out.map(\.timestamp) == [0, 0.01, 5, 5.01])
        #expect(out[2].accelerometer == nil)
        #expect(out[3].accelerometer != nil)
        #expect(a.statistics.clockJumps == 1)
        #expect(a.statistics.staleAccelerometer == 1)
        #expect(out == Self.expected(readings))
    }

    @Test("NaN and infinite timestamps are discarded and counted")
    func invalidTimestamps() {
        let readings: [Reading] = [
            Self.acc(0), Self.gyro(0), Self.gyro(.nan), Self.acc(.infinity, 9), Self.mag(-.infinity), Self.gyro(0.01),
        ]
        let (out, a) = Self.assemble(readings)
        #expect(out.map(\.timestamp) == [0, 0.01])
        #expect(out[1].accelerometer == [0, 0, 2])
        #expect(a.statistics.invalidReadings == 3)
    }

    @Test("A reading that arrives after its sample was made is counted late and used from then on")
    func lateReading() {
        var a = SampleAssembler(rules: .init(maximumWait: 0))
        var out: [SensorSample] = []
        for k in 0..<5 {
            let t = Double(k) * 0.01
            a.add(Self.acc(t, Double(k)))
            a.add(Self.gyro(t))
        }
        // maximumWait 0: the gyroscope at 50 ms is made at once although a reading is due.
        a.add(Self.gyro(0.05))
        while let s = a.next() { out.append(s) }
        #expect(out.count == 6)
        #expect(out[5].accelerometer == [0, 0, 4])
        a.add(Self.acc(0.05, 5))
        a.add(Self.gyro(0.06))
        while let s = a.next() { out.append(s) }
        #expect(out[6].accelerometer == [0, 0, 5] && out[6].accelerometerTimestamp == 0.05)
        #expect(a.statistics.lateReadings == 1)
    }

    @Test("More gyroscope readings than can be held: the oldest are made without waiting")
    func overflow() {
        var a = SampleAssembler(rules: .init(maximumWait: 1000))
        a.add(Self.mag(0))
        a.add(Self.mag(0.001))
        let n = SampleAssembler.heldSamples + 10
        for k in 1...n { a.add(Self.gyro(0.001 + Double(k) * 1e-4)) }
        #expect(a.statistics.overflows == 10)
        var count = 0
        while a.next() != nil { count += 1 }
        #expect(count == 10, "the rest still wait for the magnetometer due at 2 ms")
        a.finish()
        while a.next() != nil { count += 1 }
        #expect(count == n)
    }

    @Test("Rules outside their ranges become the defaults")
    func rulesClamp() {
        let r = SampleAssembler.Rules(maximumAccelerometerAge: .nan, maximumMagnetometerAge: -1, maximumWait: .infinity, maximumGap: 0)
        #expect(r == SampleAssembler.Rules())
        let open = SampleAssembler.Rules(maximumAccelerometerAge: .infinity, maximumWait: 0, maximumGap: .infinity)
        #expect(open.maximumAccelerometerAge == .infinity && open.maximumWait == 0 && open.maximumGap == .infinity)
    }
}

extension SampleAssemblerTests {
    @Test("Many scans added before any is taken: none loses its accelerometer reading")
    func manyScansBeforeTaking() {
        // More scans than a sensor's readings can be held (256), all added before the first next().
        var a = SampleAssembler(expecting: [.accelerometer])
        let n = SampleAssembler.heldReadings + 44
        for k in 0..<n {
            let t = Double(k) * 0.01
            a.add(SensorSample(timestamp: t, gyroscope: [1, 0, 0], accelerometer: [0, 0, Double(k)], magnetometer: nil))
        }
        a.finish()
        var out: [SensorSample] = []
        while let s = a.next() { out.append(s) }
        #expect(out.count == n)
        #expect(out.enumerated().allSatisfy { $0.element.accelerometer == [0, 0, Double($0.offset)] })
        #expect(a.statistics.discardedReadings == 0)
        #expect(a.statistics.droppedSamples == 0)
    }

    @Test("More samples made than taken: the oldest are dropped and counted")
    func samplesNotTaken() {
        var a = SampleAssembler()
        let n = 2 * SampleAssembler.heldSamples + 5
        for k in 0..<n { a.add(Self.gyro(Double(k) * 0.001)) }
        a.finish()
        var count = 0
        while a.next() != nil { count += 1 }
        #expect(count + a.statistics.droppedSamples == n)
        #expect(a.statistics.droppedSamples > 0)
        #expect(a.statistics.samples == n)
    }
}
