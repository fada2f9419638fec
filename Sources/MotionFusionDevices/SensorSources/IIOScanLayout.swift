
/// Where each enabled element sits in one scan read from `/dev/iio:deviceN`, computed as the
/// kernel computes it (`iio_compute_scan_bytes` in drivers/iio/industrialio-buffer.c):
///
/// 1. the enabled elements in the order of their `in_*_index`, the timestamp last (the kernel
///    relies on the timestamp having the highest index and places it after the others);
/// 2. each element starts at the next multiple of its own size — `repeat × storagebits / 8`, the
///    whole element, not one value of it — after the previous one ends;
/// 3. the scan size is the end of the last element rounded up to a multiple of the largest element
///    size.
///
/// A signed 64-bit timestamp (`le:s64/64`) is thus aligned to 8 bytes, and the scan padded to 8.
/// The kernel rounds with `ALIGN()`, which is only a rounding for power-of-two sizes; an element
/// whose size is not a power of two (`repeat` 3, say) has no well-defined place and is refused.
public struct IIOScanLayout: Sendable, Hashable {
    /// An element and its byte offset in the scan.
    public struct Placement: Sendable, Hashable {
        public let element: IIOScanElement
        public let offset: Int
    }

    /// The elements in buffer order, with their offsets.
    public let placements: [Placement]
    /// The bytes of one scan, padding included: what one scan adds to the character device.
    public let scanSize: Int

    /// The layout of `elements` (in any order) followed by `timestamp`, if given.
    ///
    /// - Throws: ``IIOBufferError/unsupportedLayout(path:reason:)`` naming the element when two
    ///   elements share an index or an element's size is not a power of two; also when there is no
    ///   element at all.
    public init(elements: [IIOScanElement], timestamp: IIOScanElement? = nil) throws(IIOBufferError) {
        let sorted = elements.sorted { $0.index != $1.index ? $0.index < $1.index : $0.name < $1.name }
        for (a, b) in zip(sorted, sorted.dropFirst()) where a.index == b.index {
            throw .unsupportedLayout(path: b.name, reason: "index \(b.index) is also the index of \(a.name)")
        }
        let ordered = sorted + (timestamp.map { [$0] } ?? [])
        guard !ordered.isEmpty else { throw .unsupportedLayout(path: "", reason: "no scan element is enabled") }
        var placements: [Placement] = []
        var end = 0
        var largest = 1
        for element in ordered {
            let size = element.type.totalBytes
            guard size > 0, size & (size - 1) == 0 else {
                throw .unsupportedLayout(
                    path: element.name,
                    reason: "\(element.type) takes \(size) bytes, not a power of two, so the kernel's alignment is undefined")
            }
            let offset = Self.roundUp(end, to: size)
            placements.append(Placement(element: element, offset: offset))
            end = offset + size
            largest = max(largest, size)
        }
        self.placements = placements
        scanSize = Self.roundUp(end, to: largest)
    }

    /// The placement of the element called `name`, or nil when it is not enabled.
    public func placement(of name: String) -> Placement? { placements.first { $0.element.name == name } }

    /// `value` rounded up to a multiple of `alignment` (a power of two): the kernel's `ALIGN()`.
    private static func roundUp(_ value: Int, to alignment: Int) -> Int { (value + alignment - 1) & ~(alignment - 1) }
}
