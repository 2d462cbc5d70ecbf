// SHA-256 (FIPS 180-4): identifies the exact kernel file a measurement record was taken from.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace kerncast {

// Incremental SHA-256: update() any number of times, then digest() once.
class Sha256 {
public:
    Sha256();
    void update(std::string_view bytes);
    // The 32-byte digest; the object must not be updated afterwards.
    std::array<std::uint8_t, 32> digest();

private:
    void compress(const std::uint8_t* block);

    std::array<std::uint32_t, 8> state_;
    std::array<std::uint8_t, 64> pending_{};
    std::size_t pending_size_ = 0;
    std::uint64_t total_bytes_ = 0;
    bool finished_ = false;
};

// Lower-case hexadecimal SHA-256 of bytes (64 characters).
std::string sha256_hex(std::string_view bytes);

// Lower-case hexadecimal SHA-256 of a file's contents; an input Error names the path when it
// cannot be read.
std::string sha256_file_hex(const std::string& path);

} // namespace kerncast
