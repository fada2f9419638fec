
/// One enabled scan element of an IIO buffer: its name (the file prefix, for example
/// `in_accel_x` or `in_timestamp`), its `in_*_index` and its `in_*_type`.
public struct IIOScanElement: Sendable, Hashable {
    public var name: String
    public var index: Int
    public var type: IIOScanType

    public init(name: String, index: Int, type: IIOScanType) {
        self.name = name
        self.index = index
        self.type = type
    }
}
