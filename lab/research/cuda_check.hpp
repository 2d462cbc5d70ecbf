// The research CUDA programs' error check (lab/research/*.cu): a failed runtime call prints
// file, line, the call and CUDA's message, and ends the program with status 1.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t status_ = (call);                                                              \
        if (status_ != cudaSuccess) {                                                              \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                     \
                         cudaGetErrorString(status_));                                             \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)
