#include "kerncast/error.hpp"
#include "kerncast/sha256.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>

namespace kerncast {
namespace {

// FIPS 180-4 examples (NIST CSRC "Examples with Intermediate Values", SHA-256) and the
// NIST test vectors for the empty and the one-million-'a' message.
TEST(Sha256, FipsExampleAbc) {
    EXPECT_EQ(sha256_hex("abc"),
              "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256, FipsExampleTwoBlocks) {
    EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, EmptyMessage) {
    EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Sha256, FourBlockMessage) {
    EXPECT_EQ(sha256_hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnop"
                         "jklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"),
              "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

TEST(Sha256, OneMillionA) {
    EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
              "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, IncrementalUpdatesEqualOneShot) {
    // Split points around the 55/56/64-byte padding boundaries.
    const std::string message(200, 'x');
    for (std::size_t split : {0, 1, 55, 56, 63, 64, 65, 128, 199, 200}) {
        Sha256 hash;
        hash.update(std::string_view(message).substr(0, split));
        hash.update(std::string_view(message).substr(split));
        const auto digest = hash.digest();
        std::string hex;
        char byte_text[3];
        for (auto byte : digest) {
            std::snprintf(byte_text, sizeof byte_text, "%02x", byte);
            hex += byte_text;
        }
        EXPECT_EQ(hex, sha256_hex(message)) << "split at " << split;
    }
}

TEST(Sha256, PaddingBoundaryLengths) {
    // 55 bytes fit one block with the length; 56 need a second block.
    EXPECT_EQ(sha256_hex(std::string(55, 'a')),
              "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
    EXPECT_EQ(sha256_hex(std::string(56, 'a')),
              "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
    EXPECT_EQ(sha256_hex(std::string(64, 'a')),
              "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

TEST(Sha256, FileHashEqualsContentHash) {
    const auto path = std::filesystem::temp_directory_path() / "kerncast_sha256_test.txt";
    {
        std::ofstream file(path, std::ios::binary);
        file << "abc";
    }
    EXPECT_EQ(sha256_file_hex(path.string()), sha256_hex("abc"));
    std::filesystem::remove(path);
}

TEST(Sha256, MissingFileIsAnInputError) {
    try {
        sha256_file_hex("/nonexistent/kerncast/file.cu");
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        EXPECT_NE(e.describe().find("/nonexistent/kerncast/file.cu"), std::string::npos);
    }
}

} // namespace
} // namespace kerncast
