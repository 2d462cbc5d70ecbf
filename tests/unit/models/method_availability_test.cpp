// method_availability: each model's own check, on built-in machines whose gaps are known from
// their files.
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/method_availability.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::models;

namespace {

std::string missing(const std::vector<MethodAvailability>& methods, const std::string& name) {
    for (const auto& m : methods)
        if (m.method.rfind(name, 0) == 0)
            return m.missing;
    ADD_FAILURE() << "no method " << name;
    return "?";
}

} // namespace

TEST(MethodAvailability, EachModelSaysWhatTheMachineLacks) {
    // The A100 file has the volume model's values but not MWP-CWP's Mem_LD.
    const auto a100 = method_availability(resolve_machine("a100-sxm4-40gb"));
    ASSERT_EQ(a100.size(), 4u);
    EXPECT_EQ(missing(a100, "volume model"), "");
    EXPECT_EQ(missing(a100, "MWP-CWP (mwp)"),
              "machine 'a100-sxm4-40gb' lacks mwp_cwp.mem_ld_cycles, which the MWP-CWP model "
              "needs");
    EXPECT_EQ(missing(a100, "MWP-CWP cache-aware"), missing(a100, "MWP-CWP (mwp)"));
    EXPECT_NE(missing(a100, "shared-memory atomics"), "");
    // Hong & Kim's example machine: MWP-CWP's parameters, no caches for the volume model.
    const auto hk = method_availability(resolve_machine("hk-example"));
    EXPECT_EQ(missing(hk, "MWP-CWP (mwp)"), "");
    EXPECT_NE(missing(hk, "volume model"), "");
    EXPECT_EQ(missing(hk, "MWP-CWP cache-aware"), missing(hk, "volume model"));
    // The H200 file carries a measured atomic service-time table.
    EXPECT_EQ(
        missing(method_availability(resolve_machine("h200-sxm-141gb")), "shared-memory atomics"),
        "");
}
