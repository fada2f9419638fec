/// A first-in first-out queue of fixed capacity on storage allocated once, at creation: pushing
/// and popping never allocate. Used where a stream must hold a few elements back (the
/// ``SampleAssembler``).
struct BoundedQueue<Element>: Sendable where Element: Sendable {
    private var storage: [Element?]
    private var head = 0
    private(set) var count = 0

    /// An empty queue that holds at most `capacity` elements (at least 1).
    init(capacity: Int) {
        storage = Array(repeating: nil, count: Swift.max(capacity, 1))
    }

    var capacity: Int { storage.count }
    var isEmpty: Bool { count == 0 }
    var isFull: Bool { count == storage.count }

    /// The element `offset` places after the oldest (0: the oldest).
    subscript(offset: Int) -> Element {
        get { storage[(head + offset) % storage.count]! }
        set { storage[(head + offset) % storage.count] = newValue }
    }

    var first: Element? { isEmpty ? nil : self[0] }
    var last: Element? { isEmpty ? nil : self[count - 1] }

    /// Appends `element`; when full, the oldest element is dropped first and returned.
    @discardableResult
    mutating func push(_ element: Element) -> Element? {
        var dropped: Element?
        if isFull { dropped = popFirst() }
        storage[(head + count) % storage.count] = element
        count += 1
        return dropped
    }

    /// Removes and returns the oldest element.
    @discardableResult
    mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head]
        storage[head] = nil
        head = (head + 1) % storage.count
        count -= 1
        return element
    }

    /// Removes and returns the newest element.
    @discardableResult
    mutating func popLast() -> Element? {
        guard count > 0 else { return nil }
        let index = (head + count - 1) % storage.count
        let element = storage[index]
        storage[index] = nil
        count -= 1
        return element
    }

    mutating func removeAll() {
        while popFirst() != nil {}
    }
}
