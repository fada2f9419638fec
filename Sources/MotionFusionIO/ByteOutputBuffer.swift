/// A growable byte buffer that numbers and text are appended to without allocating, for writers that
/// hand it to the file in large chunks.
///
/// Numbers are appended with the standard library's own text: `Double` and `Float` write themselves
/// through `TextOutputStreamable.write(to:)` — the text that `"\(x)"` and `print(x)` give, the
/// shortest that reads back to the same value — and they deliver it as ASCII bytes through the
/// stream's `_writeASCII(_:)`, which this buffer copies without making a `String`. (Should a
/// standard library stop calling `_writeASCII`, the text arrives through `write(_:)` instead: the
/// same bytes, with a `String` made for each.)
struct ByteOutputBuffer: TextOutputStream {
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    /// The bytes appended since the last ``removeAll()``.
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        bytes = .allocate(capacity: self.capacity)
    }

    /// Frees the storage; the buffer must not be used afterwards.
    func deallocate() { bytes.deallocate() }

    /// The bytes appended so far.
    var contents: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: bytes, count: count) }

    mutating func removeAll() { count = 0 }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        bytes[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        if count + buffer.count > capacity { grow(to: count + buffer.count) }
        (bytes + count).update(from: base, count: buffer.count)
        count += buffer.count
    }

    /// `value` in decimal.
    mutating func append(_ value: UInt64) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
        withUnsafeMutableBytes(of: &digits) { text in
            var v = value
            var i = text.count
            repeat {
                i -= 1
                text[i] = UInt8(ascii: "0") + UInt8(v % 10)
                v /= 10
            } while v != 0
            let base = text.baseAddress!.assumingMemoryBound(to: UInt8.self)
            append(UnsafeBufferPointer(start: base + i, count: text.count - i))
        }
    }

    mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { append($0) }
    }

    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) { append(buffer) }

    private mutating func grow(to needed: Int) {
        let larger = max(capacity * 2, needed)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.update(from: bytes, count: count)
        bytes.deallocate()
        bytes = moved
        capacity = larger
    }
}
