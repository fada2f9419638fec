// The system zlib (Debian: zlib1g-dev; in every Apple SDK). Seen only by MotionFusionIO's
// ByteInput, which inflates gzip-compressed recordings through its stream API as they are read.
#include <zlib.h>
