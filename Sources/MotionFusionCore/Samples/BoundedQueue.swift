/// A first-in first-out queue of bounded capacity. Its storage starts small and doubles, up to
/// the capacity, only when the queue holds more elements than ever before: at most log2(capacity)
/// allocations in its life, none once it has been that full, and a queue that never holds many
/// costs little to create (a reader opened per file, a fuzz input). Used where a stream must hold
/// a few elements back (the ``SampleAssembler``).
struct BoundedQueue<Element>: Sendable where Element: Sendable {
    private var storage: [Element?]
    private var head = 0
    private(set) var count = 0
    /// The most elements held; pushing onto a full queue drops the oldest.
    let capacity: Int

    /// The storage a new queue starts with.
    static var initialStorage: Int { 16 }

    /// An empty queue that holds at most `capacity` elements (at least 1).
    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 1)
        storage = Array(repeating: nil, count: Swift.min(self.capacity, Self.initialStorage))
    }

    var isEmpty: Bool { count == 0 }
    var isFull: Bool { count == capacity }

    /// The storage index of the element `offset` places after the oldest (`offset` ≤ `count`).
    @inline(__always)
    private func index(_ offset: Int) -> Int {
        let i = head + offset
        return i < storage.count ? i : i - storage.count
    }

    /// The element `offset` places after the oldest (0: the oldest).
    subscript(offset: Int) -> Element {
        get { storage[index(offset)]! }
        set { storage[index(offset)] = newValue }
    }

    var first: Element? { isEmpty ? nil : self[0] }
    var last: Element? { isEmpty ? nil : self[count - 1] }

    /// Appends `element`; when full, the oldest element is dropped first and returned.
    @discardableResult
    mutating func push(_ element: Element) -> Element? {
        var dropped: Element?
        if isFull {
            dropped = popFirst()
        } else if count == storage.count {
            grow()
        }
        storage[index(count)] = element
        count += 1
        return dropped
    }

    /// Doubles the storage (up to the capacity), the elements moved to its front in order.
    private mutating func grow() {
        let larger = Swift.min(storage.count * 2, capacity)
        var moved: [Element?] = []
        moved.reserveCapacity(larger)
        for k in 0..<count { moved.append(storage[index(k)]) }
        moved.append(contentsOf: repeatElement(nil, count: larger - count))
        storage = moved
        head = 0
    }

    /// Removes and returns the oldest element.
    @discardableResult
    mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head]
        storage[head] = nil
        head = index(1)
        count -= 1
        return element
    }

    /// Removes and returns the newest element.
    @discardableResult
    mutating func popLast() -> Element? {
        guard count > 0 else { return nil }
        let i = index(count - 1)
        let element = storage[i]
        storage[i] = nil
        count -= 1
        return element
    }

    mutating func removeAll() {
        while popFirst() != nil {}
    }
}
