/// Samples of many independent sensor streams, laid out for ``MadgwickStreams``: structure of
/// arrays, one SIMD vector per channel for each group of `Lanes.scalarCount` streams and each step.
///
/// Step `t` of stream `s` holds the gyroscope (rad/s), accelerometer (specific force, any unit),
/// optionally the magnetometer (any unit) and `dt`, the seconds since the stream's previous step.
/// Streams may have different lengths: stream `s` has ``lengths``[s] steps, and the engine leaves a
/// stream untouched after its last step. Unset samples are zero, so a step that is never set is a
/// step with `dt = 0`, which a filter holds (and a zero accelerometer, which it skips).
///
/// The memory is `stepCount × channels × ⌈streamCount / lanes⌉` vectors, filled in place: nothing is
/// allocated per sample, neither here nor in the engine.
@frozen
public struct MultiStreamSamples<Lanes: FusionLanes>: Sendable {
    public typealias Scalar = Lanes.Scalar

    /// The number of streams.
    public let streamCount: Int
    /// The number of steps of the longest stream.
    public let stepCount: Int
    /// Whether the samples carry a magnetometer channel (9D); without one every step is 6D.
    public let hasMagnetometer: Bool
    /// The number of steps of each stream (at most ``stepCount``).
    public private(set) var lengths: [Int]
    /// Groups of `Lanes.scalarCount` streams: `⌈streamCount / lanes⌉`.
    public let groupCount: Int
    /// Channels per step and group: gx, gy, gz, ax, ay, az, dt and, with a magnetometer, mx, my, mz.
    @usableFromInline let channelCount: Int
    /// `[step][channel][group]`.
    @usableFromInline var storage: [Lanes]
    /// Per group, the length of its shortest stream (0 when the group has padding lanes past the
    /// last stream): below it every lane is active. And the length of its longest stream.
    @usableFromInline var groupShortest: [Int]
    @usableFromInline var groupLongest: [Int]

    /// Zeroed samples for `streamCount` streams of `stepCount` steps each (shorten streams with
    /// ``setLength(_:ofStream:)``).
    ///
    /// The memory is ``byteCount(streamCount:stepCount:hasMagnetometer:)`` bytes: check it first
    /// when the counts come from outside the program. As with Swift's own collections, a count out of
    /// range is a programmer error that stops the program, and so does an allocation larger than
    /// the memory there is.
    ///
    /// - Precondition: `streamCount ≥ 1`, `stepCount ≥ 0`, and the size representable
    ///   (``byteCount(streamCount:stepCount:hasMagnetometer:)`` is not nil).
    public init(streamCount: Int, stepCount: Int, hasMagnetometer: Bool) {
        precondition(streamCount >= 1 && stepCount >= 0, "need at least one stream and no negative length")
        precondition(
            Self.byteCount(streamCount: streamCount, stepCount: stepCount, hasMagnetometer: hasMagnetometer) != nil,
            "\(streamCount) streams of \(stepCount) steps need more bytes than an Int can count")
        self.streamCount = streamCount
        self.stepCount = stepCount
        self.hasMagnetometer = hasMagnetometer
        lengths = Array(repeating: stepCount, count: streamCount)
        groupCount = Self.groupCount(streamCount: streamCount)
        channelCount = Self.channelCount(hasMagnetometer: hasMagnetometer)
        storage = Array(repeating: Lanes(), count: stepCount * channelCount * groupCount)
        groupShortest = Array(repeating: stepCount, count: groupCount)
        groupLongest = Array(repeating: stepCount, count: groupCount)
        if streamCount % Lanes.scalarCount != 0 { groupShortest[groupCount - 1] = 0 }
    }

    /// The bytes that samples of `streamCount` streams of `stepCount` steps take: the vectors
    /// (`stepCount × channels × ⌈streamCount / lanes⌉`) and the per-stream and per-group lengths.
    /// Nil when a count is out of range (`streamCount < 1`, `stepCount < 0`) or the size does not
    /// fit in an `Int`. Allocates nothing.
    public static func byteCount(streamCount: Int, stepCount: Int, hasMagnetometer: Bool) -> Int? {
        guard streamCount >= 1, stepCount >= 0 else { return nil }
        let groups = groupCount(streamCount: streamCount)
        let (vectors, o1) = stepCount.multipliedReportingOverflow(by: channelCount(hasMagnetometer: hasMagnetometer))
        let (allVectors, o2) = vectors.multipliedReportingOverflow(by: groups)
        let (vectorBytes, o3) = allVectors.multipliedReportingOverflow(by: MemoryLayout<Lanes>.stride)
        // The lengths: one Int per stream and two per group.
        let (groupLengths, o4) = groups.multipliedReportingOverflow(by: 2)
        let (lengths, o5) = streamCount.addingReportingOverflow(groupLengths)
        let (lengthBytes, o6) = lengths.multipliedReportingOverflow(by: MemoryLayout<Int>.stride)
        let (total, o7) = vectorBytes.addingReportingOverflow(lengthBytes)
        return o1 || o2 || o3 || o4 || o5 || o6 || o7 ? nil : total
    }

    /// `⌈streamCount / lanes⌉`, without overflow.
    static func groupCount(streamCount: Int) -> Int {
        streamCount / Lanes.scalarCount + (streamCount % Lanes.scalarCount == 0 ? 0 : 1)
    }

    static func channelCount(hasMagnetometer: Bool) -> Int { hasMagnetometer ? 10 : 7 }

    @inlinable
    func index(step: Int, channel: Int, group: Int) -> Int {
        (step * channelCount + channel) * groupCount + group
    }

    /// Sets one sample. A `nil` magnetometer in samples that have the channel is stored as zero: a 6D
    /// step for that stream.
    ///
    /// - Precondition: `stream` and `step` in range.
    @inlinable
    public mutating func set(
        stream: Int, step: Int, gyroscope: SIMD3<Scalar>, accelerometer: SIMD3<Scalar>,
        magnetometer: SIMD3<Scalar>?, dt: Scalar
    ) {
        precondition(stream >= 0 && stream < streamCount && step >= 0 && step < stepCount, "sample out of range")
        let group = stream / Lanes.scalarCount, lane = stream % Lanes.scalarCount
        let base = index(step: step, channel: 0, group: group)
        storage[base][lane] = gyroscope.x
        storage[base + groupCount][lane] = gyroscope.y
        storage[base + 2 * groupCount][lane] = gyroscope.z
        storage[base + 3 * groupCount][lane] = accelerometer.x
        storage[base + 4 * groupCount][lane] = accelerometer.y
        storage[base + 5 * groupCount][lane] = accelerometer.z
        storage[base + 6 * groupCount][lane] = dt
        if hasMagnetometer {
            let m = magnetometer ?? .zero
            storage[base + 7 * groupCount][lane] = m.x
            storage[base + 8 * groupCount][lane] = m.y
            storage[base + 9 * groupCount][lane] = m.z
        }
    }

    /// Sets the number of steps of one stream (at most ``stepCount``); the engine leaves the stream
    /// untouched from that step on.
    public mutating func setLength(_ length: Int, ofStream stream: Int) {
        precondition(stream >= 0 && stream < streamCount, "stream out of range")
        precondition(length >= 0 && length <= stepCount, "length out of range")
        lengths[stream] = length
        let group = stream / Lanes.scalarCount
        let streams = (group * Lanes.scalarCount)..<min((group + 1) * Lanes.scalarCount, streamCount)
        let padded = streams.count < Lanes.scalarCount
        groupShortest[group] = padded ? 0 : streams.map { lengths[$0] }.min()!
        groupLongest[group] = streams.map { lengths[$0] }.max()!
    }

    /// The sample of one stream at one step, as stored.
    public func sample(stream: Int, step: Int) -> (
        gyroscope: SIMD3<Scalar>, accelerometer: SIMD3<Scalar>, magnetometer: SIMD3<Scalar>?, dt: Scalar
    ) {
        precondition(stream >= 0 && stream < streamCount && step >= 0 && step < stepCount, "sample out of range")
        let group = stream / Lanes.scalarCount, lane = stream % Lanes.scalarCount
        func value(_ channel: Int) -> Scalar { storage[index(step: step, channel: channel, group: group)][lane] }
        return (
            SIMD3(value(0), value(1), value(2)), SIMD3(value(3), value(4), value(5)),
            hasMagnetometer ? SIMD3(value(7), value(8), value(9)) : nil, value(6)
        )
    }
}
