
/// Why an ``IIODeviceGroup`` cannot be made. Every case that is about devices names them (their
/// sysfs folders). A member that fails while the group runs is not one of these: ``IIODeviceGroup``
/// rethrows that member's own error (an ``IIOBufferError`` for an ``IIOBufferedSource``, which names
/// the character device).
public enum IIODeviceGroupError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The group was given no member (or no device).
    case noMembers
    /// No member has a gyroscope: the gyroscope drives the samples (``SampleAssembler``).
    /// `devices` are the members' device folders (empty for members that are not IIO devices).
    case noGyroscope(devices: [String])
    /// The ``IIOBufferedSource`` of `device` has no ``IIOBufferedSource/timestampOrigin``: each
    /// device would count t = 0 from its own first scan, so the times of two devices could not be
    /// compared.
    case missingTimestampOrigin(device: String)
    /// The members' ``IIOBufferedSource/timestampOrigin``s differ: `origins[i]` is that of
    /// `devices[i]`.
    case timestampOriginsDiffer(devices: [String], origins: [Int64])
    /// The devices stamp their scans with different kernel clocks (`current_timestamp_clock`):
    /// `clocks[i]` is that of `devices[i]`.
    case clocksDiffer(devices: [String], clocks: [String])
    /// The kernel clock `clock` (a `current_timestamp_clock` name) cannot be read, or is not one
    /// this library knows, so no common origin could be taken; pass one.
    case clockUnavailable(clock: String)
    /// Making the source of one device failed (the convenience initializer), or reading its
    /// `current_timestamp_clock` did.
    case device(IIOBufferError)

    /// A message naming the devices, with the fix.
    public var description: String {
        switch self {
        case .noMembers:
            "IIO group: no device given"
        case .noGyroscope(let devices):
            "IIO group: none of the devices has a gyroscope (in_anglvel), which drives the samples"
                + (devices.isEmpty ? "" : ": \(devices.joined(separator: ", "))")
        case .missingTimestampOrigin(let device):
            "IIO group: \(device) has no timestamp origin, so its t = 0 is its own first scan; pass one "
                + "timestampOrigin (kernel-clock nanoseconds) to every IIOBufferedSource of the group"
        case .timestampOriginsDiffer(let devices, let origins):
            "IIO group: the devices count time from different origins ("
                + zip(devices, origins).map { "\($0): \($1) ns" }.joined(separator: ", ")
                + "); pass one timestampOrigin to every IIOBufferedSource of the group"
        case .clocksDiffer(let devices, let clocks):
            "IIO group: the devices stamp scans with different clocks ("
                + zip(devices, clocks).map { "\($0)/current_timestamp_clock: \($1)" }.joined(separator: ", ")
                + "); write one clock name to every current_timestamp_clock"
        case .clockUnavailable(let clock):
            "IIO group: cannot read the kernel clock \"\(clock)\" for a common origin; pass timestampOrigin"
        case .device(let error):
            error.description
        }
    }
}
