// SHA-256 as specified in FIPS 180-4 (sections 4.1.2, 4.2.2, 5.1.1, 6.2).
#include "kerncast/sha256.hpp"

#include "kerncast/error.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>

namespace kerncast {
namespace {

// FIPS 180-4, 4.2.2: the first 32 bits of the fractional parts of the cube roots of the first
// 64 primes.
constexpr std::array<std::uint32_t, 64> round_constants = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

// FIPS 180-4, 5.3.3: the first 32 bits of the fractional parts of the square roots of the
// first 8 primes.
constexpr std::array<std::uint32_t, 8> initial_hash = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

constexpr std::uint32_t rotate_right(std::uint32_t x, int n) {
    return (x >> n) | (x << (32 - n));
}

} // namespace

Sha256::Sha256() : state_(initial_hash) {}

void Sha256::compress(const std::uint8_t* block) {
    // FIPS 180-4, 6.2.2: message schedule and the 64 rounds.
    std::array<std::uint32_t, 64> w{};
    for (int t = 0; t < 16; ++t)
        w[t] = std::uint32_t{block[4 * t]} << 24 | std::uint32_t{block[4 * t + 1]} << 16 |
               std::uint32_t{block[4 * t + 2]} << 8 | std::uint32_t{block[4 * t + 3]};
    for (int t = 16; t < 64; ++t) {
        const std::uint32_t sigma0 =
            rotate_right(w[t - 15], 7) ^ rotate_right(w[t - 15], 18) ^ (w[t - 15] >> 3);
        const std::uint32_t sigma1 =
            rotate_right(w[t - 2], 17) ^ rotate_right(w[t - 2], 19) ^ (w[t - 2] >> 10);
        w[t] = sigma1 + w[t - 7] + sigma0 + w[t - 16];
    }
    std::uint32_t a = state_[0], b = state_[1], c = state_[2], d = state_[3];
    std::uint32_t e = state_[4], f = state_[5], g = state_[6], h = state_[7];
    for (int t = 0; t < 64; ++t) {
        const std::uint32_t big_sigma1 =
            rotate_right(e, 6) ^ rotate_right(e, 11) ^ rotate_right(e, 25);
        const std::uint32_t choose = (e & f) ^ (~e & g);
        const std::uint32_t t1 = h + big_sigma1 + choose + round_constants[t] + w[t];
        const std::uint32_t big_sigma0 =
            rotate_right(a, 2) ^ rotate_right(a, 13) ^ rotate_right(a, 22);
        const std::uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
        const std::uint32_t t2 = big_sigma0 + majority;
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    state_[0] += a;
    state_[1] += b;
    state_[2] += c;
    state_[3] += d;
    state_[4] += e;
    state_[5] += f;
    state_[6] += g;
    state_[7] += h;
}

void Sha256::update(std::string_view bytes) {
    KERNCAST_CHECK(!finished_, "Sha256::update after digest");
    total_bytes_ += bytes.size();
    const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.data());
    std::size_t remaining = bytes.size();
    while (remaining > 0) {
        const std::size_t take = std::min(remaining, pending_.size() - pending_size_);
        std::memcpy(pending_.data() + pending_size_, data, take);
        pending_size_ += take;
        data += take;
        remaining -= take;
        if (pending_size_ == pending_.size()) {
            compress(pending_.data());
            pending_size_ = 0;
        }
    }
}

std::array<std::uint8_t, 32> Sha256::digest() {
    KERNCAST_CHECK(!finished_, "Sha256::digest called twice");
    // FIPS 180-4, 5.1.1: append bit '1', zeros up to 56 mod 64 bytes, then the 64-bit
    // big-endian message length in bits.
    const std::uint64_t length_bits = total_bytes_ * 8;
    pending_[pending_size_++] = 0x80;
    if (pending_size_ > 56) {
        std::fill(pending_.begin() + static_cast<std::ptrdiff_t>(pending_size_), pending_.end(), 0);
        compress(pending_.data());
        pending_size_ = 0;
    }
    std::fill(pending_.begin() + static_cast<std::ptrdiff_t>(pending_size_), pending_.begin() + 56,
              0);
    for (int i = 0; i < 8; ++i)
        pending_[56 + i] = static_cast<std::uint8_t>(length_bits >> (56 - 8 * i));
    compress(pending_.data());
    finished_ = true;

    std::array<std::uint8_t, 32> result{};
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 4; ++j)
            result[4 * i + j] = static_cast<std::uint8_t>(state_[i] >> (24 - 8 * j));
    return result;
}

std::string sha256_hex(std::string_view bytes) {
    Sha256 hash;
    hash.update(bytes);
    static constexpr char digits[] = "0123456789abcdef";
    std::string hex;
    for (std::uint8_t byte : hash.digest()) {
        hex += digits[byte >> 4];
        hex += digits[byte & 0xf];
    }
    return hex;
}

std::string sha256_file_hex(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file)
        throw_input_error("cannot open '" + path + "' for reading",
                          SourceLocation{path, 0, 0, {}, {}});
    std::string contents((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    if (file.bad())
        throw_input_error("failed reading '" + path + "'", SourceLocation{path, 0, 0, {}, {}});
    return sha256_hex(contents);
}

} // namespace kerncast
