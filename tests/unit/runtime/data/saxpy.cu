// SAXPY for the GPU runtime's tests: out = a * x + y (out is separate, so repeated launches
// leave the same result).
extern "C" __global__ void saxpy(int n, float a, const float* x, const float* y, float* out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a * x[i] + y[i];
}
