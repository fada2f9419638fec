// The system zlib (Debian: zlib1g-dev; in every Apple SDK). Seen only by MotionFusionIO's CSVReader,
// which reads gzip-compressed recordings through it (gzread reads plain files as they are).
#include <zlib.h>
