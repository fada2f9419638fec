import MotionFusionCore

// The C-style export surface of the WebAssembly build (`scripts/web`; its README in this folder):
// plain functions on doubles and an opaque handle, which JavaScript calls through the module's
// exports and C through these symbols. A handle is a ``WebSession`` on the heap.
//
//   mf_create(frame) -> handle        frame: 0 xArbitraryZVertical (6D), 1 xArbitraryCorrectedZVertical,
//                                     2 xMagneticNorthZVertical; 0 (null) for another value
//   mf_update(handle, t, gx, gy, gz, ax, ay, az, mx, my, mz) -> events
//                                     one raw sample (s, rad/s, m/s², µT; a NaN magnetometer: none);
//                                     returns the number of motion events it completed
//   mf_output(handle, out)            writes mf_output_count() doubles (WebSession.write(into:))
//   mf_event(handle, index, out) -> 1 writes 4 doubles for event index of the last update (0: none)
//   mf_event_count(handle) -> e       the number of events of the last update
//   mf_output_count() -> n
//   mf_destroy(handle)

/// The reference frames a page can ask for, by number (true north needs a declination).
let webFrames: [AttitudeReferenceFrame] = [.xArbitraryZVertical, .xArbitraryCorrectedZVertical, .xMagneticNorthZVertical]

@_cdecl("mf_create")
public func mf_create(_ frame: Int32) -> UnsafeMutableRawPointer? {
    guard frame >= 0, Int(frame) < webFrames.count, let session = WebSession(frame: webFrames[Int(frame)]) else {
        return nil
    }
    let pointer = UnsafeMutablePointer<WebSession>.allocate(capacity: 1)
    pointer.initialize(to: session)
    return UnsafeMutableRawPointer(pointer)
}

@_cdecl("mf_destroy")
public func mf_destroy(_ handle: UnsafeMutableRawPointer?) {
    guard let handle else { return }
    let pointer = handle.assumingMemoryBound(to: WebSession.self)
    pointer.deinitialize(count: 1)
    pointer.deallocate()
}

@_cdecl("mf_update")
public func mf_update(
    _ handle: UnsafeMutableRawPointer?, _ t: Double, _ gx: Double, _ gy: Double, _ gz: Double, _ ax: Double,
    _ ay: Double, _ az: Double, _ mx: Double, _ my: Double, _ mz: Double
) -> Int32 {
    guard let handle else { return 0 }
    let session = handle.assumingMemoryBound(to: WebSession.self)
    return Int32(
        session.pointee.update(
            timestamp: t, gyroscope: SIMD3(gx, gy, gz), accelerometer: SIMD3(ax, ay, az),
            magnetometer: SIMD3(mx, my, mz)))
}

@_cdecl("mf_output_count")
public func mf_output_count() -> Int32 { Int32(WebSession.outputCount) }

@_cdecl("mf_output")
public func mf_output(_ handle: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<Double>?) {
    guard let handle, let out else { return }
    handle.assumingMemoryBound(to: WebSession.self).pointee.write(into: out)
}

@_cdecl("mf_event")
public func mf_event(_ handle: UnsafeMutableRawPointer?, _ index: Int32, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    guard let handle, let out else { return 0 }
    return handle.assumingMemoryBound(to: WebSession.self).pointee.writeEvent(Int(index), into: out) ? 1 : 0
}

@_cdecl("mf_event_count")
public func mf_event_count(_ handle: UnsafeMutableRawPointer?) -> Int32 {
    guard let handle else { return 0 }
    return Int32(handle.assumingMemoryBound(to: WebSession.self).pointee.newEvents.count)
}
