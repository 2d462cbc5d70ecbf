// Reading ptxas -v reports (host logic, no CUDA needed) and the unavailable error of a build
// without CUDA. The NVRTC half is register_usage_nvrtc_test.cpp.
#include "kerncast/codegen/register_usage.hpp"
#include "kerncast/error.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/runtime/nvrtc_compile.hpp"

#include <cstdlib>
#include <gtest/gtest.h>
#include <optional>

using namespace kerncast;
using namespace kerncast::codegen;

namespace {

// NVRTC's log of a two-kernel source compiled with --ptxas-options=-v for sm_80 (CUDA 13.0).
const std::string two_entries = R"(ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'triv' for 'sm_80'
ptxas info    : Function properties for triv
ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 8 registers, used 0 barriers, 360 bytes cmem[0]
ptxas info    : Compile time = 2.460 ms
ptxas info    : Compiling entry function 'k' for 'sm_80'
ptxas info    : Function properties for k
ptxas         .     256 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 40 registers, used 0 barriers, 256 bytes cumulative stack size, 364 bytes cmem[0]
ptxas info    : Compile time = 9.723 ms)";

} // namespace

TEST(RegisterUsage, ReadsTheNamedEntryOfAPtxasReport) {
    const auto k = parse_ptxas_usage(two_entries, "k");
    ASSERT_TRUE(k);
    EXPECT_EQ(k->function, "k");
    EXPECT_EQ(k->target, "sm_80");
    EXPECT_EQ(k->registers, 40);
    EXPECT_EQ(k->stack_frame_bytes, 256);
    EXPECT_EQ(k->spill_store_bytes, 0);
    EXPECT_EQ(k->spill_load_bytes, 0);

    const auto triv = parse_ptxas_usage(two_entries, "triv");
    ASSERT_TRUE(triv);
    EXPECT_EQ(triv->registers, 8); // not the next entry's 40
    EXPECT_EQ(triv->stack_frame_bytes, 0);

    EXPECT_FALSE(parse_ptxas_usage(two_entries, "tri"));
    EXPECT_FALSE(parse_ptxas_usage("", "k"));
}

TEST(RegisterUsage, SpillsAndCalleesOfAnEntry) {
    // A called (__noinline__) function's properties follow the entry's, before the next entry
    // (as CUDA 13.0's ptxas prints them); only the entry's own count. Spills as ptxas reports
    // them at a 64-register cap (dg_diff_4 at 1024 threads per block).
    const std::string log = R"(ptxas info    : Compiling entry function 'dg' for 'sm_90'
ptxas info    : Function properties for dg
ptxas         .     72 bytes stack frame, 68 bytes spill stores, 68 bytes spill loads
ptxas info    : Used 64 registers, used 1 barriers, 72 bytes cumulative stack size
ptxas info    : Compile time = 80.671 ms
ptxas info    : Function properties for _Z6helperPfi
ptxas         .     4096 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads
ptxas info    : Compiling entry function 'other' for 'sm_90'
ptxas info    : Function properties for other
ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 12 registers, used 0 barriers)";
    const auto dg = parse_ptxas_usage(log, "dg");
    ASSERT_TRUE(dg);
    EXPECT_EQ(dg->target, "sm_90");
    EXPECT_EQ(dg->registers, 64);
    EXPECT_EQ(dg->stack_frame_bytes, 72);
    EXPECT_EQ(dg->spill_store_bytes, 68);
    EXPECT_EQ(dg->spill_load_bytes, 68);
    const auto other = parse_ptxas_usage(log, "other");
    ASSERT_TRUE(other);
    EXPECT_EQ(other->registers, 12);
    EXPECT_EQ(other->stack_frame_bytes, 0);
}

TEST(RegisterUsage, OlderFormatAndMissingRegisterLine) {
    // Older ptxas: no barrier count, no properties line.
    const auto old = parse_ptxas_usage("ptxas info    : Compiling entry function 'saxpy' for "
                                       "'sm_75'\nptxas info    : Used 10 registers, 356 bytes "
                                       "cmem[0]\n",
                                       "saxpy");
    ASSERT_TRUE(old);
    EXPECT_EQ(old->registers, 10);
    EXPECT_EQ(old->stack_frame_bytes, 0);
    // An entry without "Used N registers" (a truncated log) has no count.
    EXPECT_FALSE(parse_ptxas_usage("ptxas info    : Compiling entry function 'k' for 'sm_80'\n"
                                   "ptxas info    : Compiling entry function 'j' for 'sm_80'\n"
                                   "ptxas info    : Used 12 registers\n",
                                   "k"));
}

// The cache directory: KERNCAST_CACHE_DIR (empty: none), else XDG_CACHE_HOME, else HOME.
TEST(RegisterUsage, TheDefaultCacheDirectoryFollowsTheEnvironment) {
    const auto saved = [](const char* name) -> std::optional<std::string> {
        const char* value = std::getenv(name);
        return value ? std::optional<std::string>(value) : std::nullopt;
    };
    const auto own = saved("KERNCAST_CACHE_DIR"), xdg = saved("XDG_CACHE_HOME"),
               home = saved("HOME");
    ::setenv("KERNCAST_CACHE_DIR", "/c", 1);
    ::setenv("XDG_CACHE_HOME", "/x", 1);
    ::setenv("HOME", "/h", 1);
    EXPECT_EQ(default_register_cache_directory(), "/c/ptxas");
    ::setenv("KERNCAST_CACHE_DIR", "", 1);
    EXPECT_EQ(default_register_cache_directory(), std::nullopt);
    ::unsetenv("KERNCAST_CACHE_DIR");
    EXPECT_EQ(default_register_cache_directory(), "/x/kerncast/ptxas");
    ::unsetenv("XDG_CACHE_HOME");
    EXPECT_EQ(default_register_cache_directory(), "/h/.cache/kerncast/ptxas");
    ::unsetenv("HOME");
    EXPECT_EQ(default_register_cache_directory(), std::nullopt);
    for (const auto& [name, value] : {std::pair{"KERNCAST_CACHE_DIR", own},
                                      std::pair{"XDG_CACHE_HOME", xdg}, std::pair{"HOME", home}})
        if (value)
            ::setenv(name, value->c_str(), 1);
}

TEST(RegisterUsage, WithoutCudaCountingIsUnavailable) {
    if (!runtime::nvrtc_supported_architectures().empty())
        GTEST_SKIP() << "built with CUDA: register_usage_nvrtc_test.cpp covers this build";
    try {
        (void)register_count_sm(resolve_machine("a100-sxm4-40gb"));
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::unavailable);
        EXPECT_EQ(e.message(), "counting registers with ptxas (--registers auto) needs NVRTC, "
                               "and kerncast was built without CUDA");
    }
}
