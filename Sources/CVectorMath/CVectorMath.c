// CVectorMath is header-only (include/CVectorMath.h); SwiftPM needs one source file per C target.
#include "CVectorMath.h"
