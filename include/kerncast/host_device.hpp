// KERNCAST_HOST_DEVICE marks functions that nvcc compiles for both host and device, so the
// GPU and the CPU references compute bit-identical values from one definition.
#pragma once

#if defined(__CUDACC__)
#define KERNCAST_HOST_DEVICE __host__ __device__
#else
#define KERNCAST_HOST_DEVICE
#endif
