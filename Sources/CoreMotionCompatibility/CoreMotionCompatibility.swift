// Core Motion's names over MotionFusion, so that Core Motion code builds on Linux, in Swift 6 language
// mode, with two changes: `import CoreMotion` → `import CoreMotionCompatibility`, and
// `CMMotionManager()` → `CMMotionManager(source: …)` (plus `let` → `var` where a value type is
// mutated: CMAttitude, CMDeviceMotion and the rest are structs here, classes in Core Motion).
//
// It is a separate module so that on Apple platforms it never clashes with the real Core Motion:
// code that imports MotionFusion alone sees none of these names. Everything here is a typealias, or
// an extension that only adds a Core Motion spelling — but for `CMPedometer` and `CMPedometerData`
// (CoreMotionPedometerNames.swift), a thin class over ``Pedometer`` for Core Motion's `NSNumber`s;
// the behaviour is MotionFusion's (see the articles "Device Motion for Core Motion Users" and
// "Pedometer and Activity").

@_exported import MotionFusion
