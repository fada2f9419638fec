// The system LAPACK (through LAPACKE) and BLAS (netlib's libblas exports the CBLAS symbols).
// Debian: libblas-dev, liblapacke-dev. Seen only by MotionFusion's LinearAlgebra folder.
#include <lapacke.h>
#include <cblas.h>
