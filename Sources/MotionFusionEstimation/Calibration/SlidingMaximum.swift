
/// The maximum of a sliding window whose ends only move forward (a monotone queue): amortized
/// O(1) per sample.
struct SlidingMaximum {
    private var indices: [Int] = []
    private var values: [Double] = []
    private var head = 0

    mutating func reset() {
        indices.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        head = 0
    }

    /// Adds sample `index` (larger than every index pushed before).
    mutating func push(_ index: Int, _ value: Double) {
        while values.count > head, values[values.count - 1] <= value {
            values.removeLast()
            indices.removeLast()
        }
        indices.append(index)
        values.append(value)
    }

    /// The maximum over the samples pushed so far with an index of at least `low` (at least one).
    mutating func maximum(from low: Int) -> Double {
        while indices[head] < low { head += 1 }
        return values[head]
    }
}
