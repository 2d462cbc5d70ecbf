// Owners of CUDA runtime resources, shared by every file under cuda/ (.cu and host .cpp):
// device buffers, pinned host buffers, events, streams, loaded libraries (modules) and texture
// objects, NVRTC programs. Creation failures go through cuda_check (an `unavailable` Error naming
// the call, file and line); destruction never throws. Plain C++: no device code, no fmt.
#pragma once

#include "cuda_check.cuh"

#include <cstddef>
#include <cuda_runtime.h>
#include <nvrtc.h>
#include <string>
#include <utility>
#include <vector>

namespace kerncast::gpu {

// One owned handle: `destroy` runs once on the held value unless it is the empty value.
template <class Handle, auto destroy> class UniqueHandle {
public:
    UniqueHandle() = default;
    explicit UniqueHandle(Handle handle) : handle_(handle) {}
    ~UniqueHandle() { reset(); }
    UniqueHandle(UniqueHandle&& other) noexcept : handle_(std::exchange(other.handle_, Handle{})) {}
    UniqueHandle& operator=(UniqueHandle&& other) noexcept {
        if (this != &other) {
            reset();
            handle_ = std::exchange(other.handle_, Handle{});
        }
        return *this;
    }
    UniqueHandle(const UniqueHandle&) = delete;
    UniqueHandle& operator=(const UniqueHandle&) = delete;
    Handle get() const { return handle_; }
    explicit operator bool() const { return handle_ != Handle{}; }

private:
    void reset() {
        if (handle_ != Handle{})
            destroy(std::exchange(handle_, Handle{}));
    }
    Handle handle_{};
};

// cudaMalloc'd memory for `count` elements of T (at least one element is allocated, so
// get() is never null).
template <class T> class DeviceBuffer {
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(std::size_t count) : count_(count) {
        void* data = nullptr;
        KERNCAST_CUDA(cudaMalloc(&data, (count > 0 ? count : 1) * sizeof(T)));
        memory_ = Memory(data);
    }
    T* get() const { return static_cast<T*>(memory_.get()); }
    std::size_t size() const { return count_; }
    std::size_t bytes() const { return count_ * sizeof(T); }

    // The first `count` elements, copied to the host (synchronises with the device).
    std::vector<T> download(std::size_t count) const {
        std::vector<T> host(count);
        KERNCAST_CUDA(cudaMemcpy(host.data(), get(), count * sizeof(T), cudaMemcpyDeviceToHost));
        return host;
    }
    T download_first() const { return download(1)[0]; }
    void upload(const std::vector<T>& host) {
        KERNCAST_CUDA(
            cudaMemcpy(get(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
    }

private:
    using Memory = UniqueHandle<void*, cudaFree>;
    Memory memory_;
    std::size_t count_ = 0;
};

// cudaMallocHost'd (page-locked) memory for `count` elements of T.
template <class T> class PinnedHostBuffer {
public:
    explicit PinnedHostBuffer(std::size_t count) : count_(count) {
        void* data = nullptr;
        KERNCAST_CUDA(cudaMallocHost(&data, (count > 0 ? count : 1) * sizeof(T)));
        memory_ = Memory(data);
    }
    T* get() const { return static_cast<T*>(memory_.get()); }
    std::size_t size() const { return count_; }

private:
    using Memory = UniqueHandle<void*, cudaFreeHost>;
    Memory memory_;
    std::size_t count_ = 0;
};

class Event {
public:
    Event() {
        cudaEvent_t event = nullptr;
        KERNCAST_CUDA(cudaEventCreate(&event));
        event_ = Handle(event);
    }
    cudaEvent_t get() const { return event_.get(); }
    void record(cudaStream_t stream = nullptr) { KERNCAST_CUDA(cudaEventRecord(get(), stream)); }
    // Milliseconds from `start` to this event, waiting for this one to complete.
    float milliseconds_since(const Event& start) const {
        KERNCAST_CUDA(cudaEventSynchronize(get()));
        return elapsed_ms(start);
    }
    // The same, for events already known to be complete (after a device synchronisation).
    float elapsed_ms(const Event& start) const {
        float ms = 0;
        KERNCAST_CUDA(cudaEventElapsedTime(&ms, start.get(), get()));
        return ms;
    }

private:
    using Handle = UniqueHandle<cudaEvent_t, cudaEventDestroy>;
    Handle event_;
};

class Stream {
public:
    Stream() {
        cudaStream_t stream = nullptr;
        KERNCAST_CUDA(cudaStreamCreate(&stream));
        stream_ = Handle(stream);
    }
    cudaStream_t get() const { return stream_.get(); }
    void synchronize() const { KERNCAST_CUDA(cudaStreamSynchronize(get())); }

private:
    using Handle = UniqueHandle<cudaStream_t, cudaStreamDestroy>;
    Handle stream_;
};

// A module loaded from a cubin or PTX image (cudaLibrary_t) and its kernels (functions).
class Library {
public:
    explicit Library(const void* image) {
        cudaLibrary_t library = nullptr;
        KERNCAST_CUDA(
            cudaLibraryLoadData(&library, image, nullptr, nullptr, 0, nullptr, nullptr, 0));
        library_ = Handle(library);
    }
    cudaLibrary_t get() const { return library_.get(); }
    // The kernel named `name` (a lowered name), as the function pointer cudaLaunchKernel and
    // cudaFuncSetAttribute take.
    const void* function(const std::string& name) const {
        cudaKernel_t kernel = nullptr;
        KERNCAST_CUDA(cudaLibraryGetKernel(&kernel, get(), name.c_str()));
        return reinterpret_cast<const void*>(kernel);
    }

private:
    using Handle = UniqueHandle<cudaLibrary_t, cudaLibraryUnload>;
    Handle library_;
};

// A texture object over linear device memory of 32-bit elements.
class LinearTexture {
public:
    LinearTexture() = default;
    LinearTexture(const void* data, std::size_t bytes) {
        cudaResourceDesc resource{};
        resource.resType = cudaResourceTypeLinear;
        resource.res.linear.devPtr = const_cast<void*>(data);
        resource.res.linear.desc = cudaCreateChannelDesc<unsigned int>();
        resource.res.linear.sizeInBytes = bytes;
        cudaTextureDesc description{};
        description.readMode = cudaReadModeElementType;
        cudaTextureObject_t texture = 0;
        KERNCAST_CUDA(cudaCreateTextureObject(&texture, &resource, &description, nullptr));
        texture_ = Handle(texture);
    }
    cudaTextureObject_t get() const { return texture_.get(); }

private:
    using Handle = UniqueHandle<cudaTextureObject_t, cudaDestroyTextureObject>;
    Handle texture_;
};

// An NVRTC program, created by the caller (whose error check names NVRTC's status).
class NvrtcProgram {
public:
    explicit NvrtcProgram(nvrtcProgram program) : program_(program) {}
    nvrtcProgram get() const { return program_.get(); }

private:
    static nvrtcResult destroy(nvrtcProgram program) { return nvrtcDestroyProgram(&program); }
    using Handle = UniqueHandle<nvrtcProgram, &NvrtcProgram::destroy>;
    Handle program_;
};

} // namespace kerncast::gpu
