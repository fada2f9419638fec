// The umbrella module: `import MotionFusion` gives every layer.
@_exported import MotionFusionCore
@_exported import MotionFusionDevices
@_exported import MotionFusionEstimation
@_exported import MotionFusionIO
@_exported import MotionFusionSimulation
