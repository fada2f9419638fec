"""The columns of a recording, for the Python scripts: the names of the Swift table
Sources/MotionFusionIO/RecordingColumns.swift, which is where they are defined (the test
RecordingColumnsTests.thePythonScriptsUseTheSameNames checks that the two agree).
"""

TIME = "t"
GYROSCOPE = ("gx", "gy", "gz")
ACCELEROMETER = ("ax", "ay", "az")
MAGNETOMETER = ("mx", "my", "mz")
# A reference attitude, and the attitude `motion fuse` writes: sensor -> earth, scalar first.
TRUTH = ("qw", "qx", "qy", "qz")
MOVEMENT = "movement"
# The axes of a file with one sensor's readings (besides TIME).
AXES = ("x", "y", "z")

# t,gx,gy,gz,ax,ay,az: what every recording has; with the magnetometer, what MotionRecorder writes.
INERTIAL = (TIME,) + GYROSCOPE + ACCELEROMETER
SENSORS = INERTIAL + MAGNETOMETER


def header(names) -> str:
    """A header line naming `names`, without its newline."""
    return ",".join(names)
