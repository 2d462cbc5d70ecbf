// Which kernel files fit-volumes, calibrate and mwp-fit read: given, from --kernels DIR, or the
// ones the records name (as given or beside the record), with the errors for none.
#include "kerncast/error.hpp"
#include "kerncast/validate/record_kernel_files.hpp"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

using namespace kerncast;
namespace fs = std::filesystem;

namespace {

struct TempTree {
    fs::path root;
    TempTree() {
        root = fs::temp_directory_path() /
               ("kerncast-record-kernel-files-" +
                std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(root);
        fs::create_directories(root / "kernels");
        fs::create_directories(root / "records");
    }
    ~TempTree() { fs::remove_all(root); }
    void touch(const fs::path& path) const { std::ofstream(root / path) << "name: k\n"; }
};

runtime::LoadedRecord record_naming(const std::string& record_path, const std::string& file) {
    runtime::LoadedRecord record;
    record.path = record_path;
    record.measurement.kernel.file = file;
    return record;
}

} // namespace

TEST(RecordKernelFiles, GivenThenTheDirectorysKernelFilesSorted) {
    TempTree tree;
    tree.touch("kernels/b.yaml");
    tree.touch("kernels/a.yml");
    tree.touch("kernels/notes.txt");
    const auto files =
        validate::record_kernel_files({"given.yaml"}, (tree.root / "kernels").string(), {});
    ASSERT_EQ(files.size(), 3u);
    EXPECT_EQ(files[0], "given.yaml");
    EXPECT_EQ(fs::path(files[1]).filename(), "a.yml");
    EXPECT_EQ(fs::path(files[2]).filename(), "b.yaml");
}

TEST(RecordKernelFiles, TheRecordsFilesAsGivenOrBesideTheRecordEachOnce) {
    TempTree tree;
    tree.touch("records/beside.yaml");
    tree.touch("kernels/absolute.yaml");
    const std::string record = (tree.root / "records" / "r.json").string();
    const std::string absolute = (tree.root / "kernels" / "absolute.yaml").string();
    const auto files = validate::record_kernel_files(
        {}, "",
        {record_naming(record, "beside.yaml"), record_naming(record, absolute),
         record_naming(record, absolute), record_naming(record, "missing.yaml"),
         record_naming(record, "kernel.cu")});
    ASSERT_EQ(files.size(), 2u);
    EXPECT_EQ(files[0], absolute);
    EXPECT_EQ(files[1], (tree.root / "records" / "beside.yaml").lexically_normal().string());
}

TEST(RecordKernelFiles, NoneIsAnErrorNamingWhatToGive) {
    TempTree tree;
    try {
        validate::record_kernel_files({}, "", {record_naming("r.json", "missing.yaml")});
        FAIL() << "expected a usage error";
    } catch (const Error& error) {
        EXPECT_EQ(error.kind(), ErrorKind::usage);
        EXPECT_NE(error.message().find("KERNEL... or --kernels DIR"), std::string::npos);
    }
    try {
        validate::record_kernel_files({}, (tree.root / "records").string(), {});
        FAIL() << "expected an input error";
    } catch (const Error& error) {
        EXPECT_EQ(error.kind(), ErrorKind::input);
        EXPECT_NE(error.message().find("holds no kernel files"), std::string::npos);
    }
    EXPECT_THROW(validate::record_kernel_files({}, (tree.root / "nowhere").string(), {}), Error);
}
