import MotionFusionCore
/// The samples of a recording read back (``MotionRecorder/read(path:from:to:checksUnits:)``), in file order,
/// and the cut-off last line if the file ends inside one.
public struct RecordedSamples: RandomAccessCollection, Sendable {
    /// The samples of the whole lines (within the time range asked for).
    public var samples: [SensorSample]
    /// The last line, when a write was cut short there (it was not read); nil for a file that ends
    /// on a whole line.
    public var partialLastLine: CSVPartialLine?

    public init(samples: [SensorSample], partialLastLine: CSVPartialLine?) {
        self.samples = samples
        self.partialLastLine = partialLastLine
    }

    public var startIndex: Int { samples.startIndex }
    public var endIndex: Int { samples.endIndex }
    public subscript(position: Int) -> SensorSample { samples[position] }
}
