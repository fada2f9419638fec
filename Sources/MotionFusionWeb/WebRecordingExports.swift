import MotionFusionCore
import MotionFusionIO

// The exports that read a recording's file (``WebRecording``): the page hands over the dropped
// file's bytes and steps through its samples; each sample's outputs and events are read from the
// recording's session with mf_output and mf_event (WebExports.swift).
//
//   mf_recording_open(frame, name, nameLength, bytes, count) -> handle
//                                     a copy of the file's bytes (UTF-8 name for messages); 0 (null)
//                                     for a frame mf_create refuses
//   mf_recording_open_sensors(frame, gName, gNameLength, gBytes, gCount, aName, …, mName, …, mCount)
//                                     one file per sensor (gyroscope, accelerometer, magnetometer;
//                                     a null mBytes: no magnetometer file), as the CLI's --gyroscope,
//                                     --accelerometer and --magnetometer
//   mf_recording_next(handle) -> 1    a sample fused: its outputs are the session's; 0 the end;
//                                     −1 an error (mf_recording_message)
//   mf_recording_session(handle) -> session handle (for mf_output, mf_event, mf_event_count;
//                                     owned by the recording)
//   mf_recording_sample(handle, out)  writes the last sample fused as read: t, gx, gy, gz, ax, ay, az,
//                                     mx, my, mz (what mf_update takes; a missing magnetometer NaN)
//   mf_recording_message(handle, out, capacity) -> length
//                                     the error, or at the end the warnings, as UTF-8, in the CLI's
//                                     words (at most capacity bytes written; the full length returned)
//   mf_recording_destroy(handle)

@_cdecl("mf_recording_open")
public func mf_recording_open(
    _ frame: Int32, _ name: UnsafePointer<UInt8>?, _ nameLength: Int32, _ bytes: UnsafePointer<UInt8>?,
    _ count: Int32
) -> UnsafeMutableRawPointer? {
    guard frame >= 0, Int(frame) < webFrames.count, let session = WebSession(frame: webFrames[Int(frame)]) else {
        return nil
    }
    let file = webFile(name, nameLength, bytes, count, otherwise: "recording")
    guard case .contents(let fileName, let contents) = file else { return nil }
    let recording = WebRecording(.contents(name: fileName, bytes: contents), session: session)
    return Unmanaged.passRetained(recording).toOpaque()
}

@_cdecl("mf_recording_open_sensors")
public func mf_recording_open_sensors(
    _ frame: Int32,
    _ gName: UnsafePointer<UInt8>?, _ gNameLength: Int32, _ gBytes: UnsafePointer<UInt8>?, _ gCount: Int32,
    _ aName: UnsafePointer<UInt8>?, _ aNameLength: Int32, _ aBytes: UnsafePointer<UInt8>?, _ aCount: Int32,
    _ mName: UnsafePointer<UInt8>?, _ mNameLength: Int32, _ mBytes: UnsafePointer<UInt8>?, _ mCount: Int32
) -> UnsafeMutableRawPointer? {
    guard frame >= 0, Int(frame) < webFrames.count, let session = WebSession(frame: webFrames[Int(frame)]) else {
        return nil
    }
    let input = RecordingReader.Input.sensorContents(
        gyroscope: webFile(gName, gNameLength, gBytes, gCount, otherwise: "gyroscope"),
        accelerometer: webFile(aName, aNameLength, aBytes, aCount, otherwise: "accelerometer"),
        magnetometer: mBytes == nil ? nil : webFile(mName, mNameLength, mBytes, mCount, otherwise: "magnetometer"))
    return Unmanaged.passRetained(WebRecording(input, session: session)).toOpaque()
}

/// A copy of a file handed over by a caller: its UTF-8 name (`otherwise` when there is none) and
/// `count` bytes (none for a null pointer).
func webFile(
    _ name: UnsafePointer<UInt8>?, _ nameLength: Int32, _ bytes: UnsafePointer<UInt8>?, _ count: Int32,
    otherwise: String
) -> RecordingReader.File {
    let fileName =
        if let name, nameLength > 0 {
            String(decoding: UnsafeBufferPointer(start: name, count: Int(nameLength)), as: UTF8.self)
        } else {
            otherwise
        }
    return .contents(name: fileName, bytes: bytes.map { Array(UnsafeBufferPointer(start: $0, count: max(Int(count), 0))) } ?? [])
}

@_cdecl("mf_recording_next")
public func mf_recording_next(_ handle: UnsafeMutableRawPointer?) -> Int32 {
    guard let handle else { return 0 }
    return Unmanaged<WebRecording>.fromOpaque(handle).takeUnretainedValue().next()
}

@_cdecl("mf_recording_session")
public func mf_recording_session(_ handle: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let handle else { return nil }
    return Unmanaged<WebRecording>.fromOpaque(handle).takeUnretainedValue().sessionPointer
}

@_cdecl("mf_recording_sample")
public func mf_recording_sample(_ handle: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<Double>?) {
    guard let handle, let out else { return }
    Unmanaged<WebRecording>.fromOpaque(handle).takeUnretainedValue().writeSample(into: out)
}

@_cdecl("mf_recording_message")
public func mf_recording_message(_ handle: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<UInt8>?, _ capacity: Int32) -> Int32 {
    guard let handle else { return 0 }
    let message = Array(Unmanaged<WebRecording>.fromOpaque(handle).takeUnretainedValue().message.utf8)
    if let out {
        for (i, byte) in message.prefix(max(Int(capacity), 0)).enumerated() { out[i] = byte }
    }
    return Int32(message.count)
}

@_cdecl("mf_recording_destroy")
public func mf_recording_destroy(_ handle: UnsafeMutableRawPointer?) {
    guard let handle else { return }
    Unmanaged<WebRecording>.fromOpaque(handle).release()
}
