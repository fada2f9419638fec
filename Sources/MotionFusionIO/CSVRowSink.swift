/// What the CSV writers (``FusionCSVWriter``, ``DeviceMotionCSVWriter``, ``MotionEventCSVWriter``)
/// share: the ``OutputFile``, a reused buffer that rows are formatted into and that goes to the file
/// whenever it fills, and the writer's life — ``flush()``, ``finish()``, ``abandon()``.
///
/// Numbers are written in the shortest text that reads back to the same value, exactly as `"\(x)"`
/// writes them (`0.0`, `0.25`, `1e-05`, `-2.5e+16`, `inf`), except that every NaN is `nan`: Swift
/// spells a signaling NaN `snan` and a negative one `-nan`, which no CSV reader, ours included, reads
/// back (found by FuzzFiles). Formatting a row allocates nothing.
final class CSVRowSink {
    let file: OutputFile
    /// The rows not yet handed to the file. A writer formats a row into a local copy
    /// (`var line = sink.buffer`) and stores it back, so that each byte is not a class access.
    var buffer: ByteOutputBuffer
    private(set) var isOpen = true
    static let chunk = 256 * 1024
    /// More than any row needs.
    static let rowReserve = 1024

    /// Takes the open output and writes `header` and a newline.
    init(file: OutputFile, header: String) {
        self.file = file
        buffer = ByteOutputBuffer(capacity: Self.chunk + Self.rowReserve)
        buffer.write(header + "\n")
    }

    deinit {
        abandon()
        buffer.deallocate()
    }

    /// After a row: hands the rows to the file when the buffer is full.
    @inline(__always)
    func rowWritten() {
        if buffer.count >= Self.chunk { handOver() }
    }

    private func handOver() {
        file.write(UnsafeRawBufferPointer(buffer.contents))
        buffer.removeAll()
    }

    /// Sends the rows written so far on to the file now (``OutputFile/flush()``).
    func flush() {
        guard isOpen else { return }
        handOver()
        file.flush()
    }

    /// Writes the last rows and finishes the file (``OutputFile/commit()``).
    func finish() throws(OutputFileError) {
        guard isOpen else { return }
        handOver()
        isOpen = false
        try file.commit()
    }

    /// Stops: a temporary file is deleted and the target is untouched.
    func abandon() {
        guard isOpen else { return }
        isOpen = false
        buffer.removeAll()
        file.abandon()
    }
}

extension ByteOutputBuffer {
    /// A number as ``CSVRowSink`` says (NaN as `nan`).
    @inline(__always)
    mutating func number<Value: BinaryFloatingPoint & TextOutputStreamable>(_ value: Value) {
        if value.isNaN { write("nan") } else { value.write(to: &self) }
    }

    /// A comma, then the number.
    @inline(__always)
    mutating func field<Value: BinaryFloatingPoint & TextOutputStreamable>(_ value: Value) {
        append(UInt8(ascii: ","))
        number(value)
    }

    /// Three fields: a comma and each component.
    @inline(__always)
    mutating func fields<Value: BinaryFloatingPoint & TextOutputStreamable & SIMDScalar>(_ v: SIMD3<Value>) {
        field(v.x)
        field(v.y)
        field(v.z)
    }
}
