#include "kerncast/error.hpp"
#include "kerncast/input_file.hpp"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <optional>
#include <string>
#include <unistd.h>

namespace kerncast {
namespace {

namespace fs = std::filesystem;

std::optional<Error> read_error(const std::string& path, std::size_t limit) {
    try {
        read_input_file(path, "machine file", limit);
    } catch (const Error& e) {
        return e;
    }
    return std::nullopt;
}

class InputFile : public ::testing::Test {
protected:
    void SetUp() override {
        // One directory per test and process: CTest runs the tests in parallel.
        directory_ = fs::temp_directory_path() /
                     ("kerncast_input_file_" + std::to_string(::getpid()) + "_" +
                      ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(directory_);
    }
    void TearDown() override { fs::remove_all(directory_); }

    std::string write(const std::string& name, const std::string& text) {
        const fs::path path = directory_ / name;
        std::ofstream(path, std::ios::binary) << text;
        return path.string();
    }

    fs::path directory_;
};

TEST_F(InputFile, ReadsTheWholeTextUpToTheLimitExactly) {
    std::string text(200000, 'x'); // more than one 64 KiB chunk
    text[0] = '{';
    text[199999] = '\0'; // bytes are kept as they are, NUL included
    const std::string path = write("m.json", text);
    EXPECT_EQ(read_input_file(path, "machine file", text.size()), text);
    EXPECT_EQ(read_input_file(path, "machine file"), text);
}

TEST_F(InputFile, RefusesAFileOneByteOverTheLimit) {
    const std::string path = write("m.json", std::string(1025, 'x'));
    const auto error = read_error(path, 1024);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->kind(), ErrorKind::input);
    EXPECT_EQ(error->message(), "the machine file is larger than 1 KiB: not read (is it the "
                                "right file?)");
    EXPECT_EQ(error->where().file, path);
}

TEST_F(InputFile, ADeviceThatNeverEndsStopsAtTheLimit) {
    const auto error = read_error("/dev/zero", std::size_t{1} << 20);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "the machine file is larger than 1 MiB: not read (is it the "
                                "right file?)");
}

TEST_F(InputFile, MissingFileAndDirectoryAreInputErrorsNamingThePath) {
    const std::string missing = (directory_ / "no-such.json").string();
    const auto not_found = read_error(missing, 1024);
    ASSERT_TRUE(not_found);
    EXPECT_EQ(not_found->kind(), ErrorKind::input);
    EXPECT_EQ(not_found->message(), "cannot open machine file: No such file or directory");
    EXPECT_EQ(not_found->where().file, missing);

    const auto directory = read_error(directory_.string(), 1024);
    ASSERT_TRUE(directory);
    EXPECT_EQ(directory->message(), "cannot read machine file: it is a directory");
    EXPECT_EQ(directory->where().file, directory_.string());
}

TEST_F(InputFile, AnEmptyFileIsEmptyText) {
    EXPECT_EQ(read_input_file(write("empty.json", ""), "machine file", 1), "");
}

} // namespace
} // namespace kerncast
