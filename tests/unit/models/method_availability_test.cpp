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
    // The A100 file has the volume model's values and MWP-CWP's Mem_LD (the thesis's DRAM
    // latency), but no measured departure delays.
    const auto a100 = method_availability(resolve_machine("a100-sxm4-40gb"));
    ASSERT_EQ(a100.size(), 4u);
    EXPECT_EQ(missing(a100, "volume model"), "");
    EXPECT_EQ(missing(a100, "MWP-CWP (mwp)"),
              "machine 'a100-sxm4-40gb' lacks mwp_cwp.departure_del_uncoal_cycles, which the "
              "MWP-CWP model needs");
    EXPECT_EQ(missing(a100, "MWP-CWP cache-aware"), missing(a100, "MWP-CWP (mwp)"));
    EXPECT_NE(missing(a100, "shared-memory atomics"), "");
    // Hong & Kim's example machine: MWP-CWP's parameters, no caches for the volume model.
    const auto hk = method_availability(resolve_machine("hk-example"));
    EXPECT_EQ(missing(hk, "MWP-CWP (mwp)"), "");
    EXPECT_NE(missing(hk, "volume model"), "");
    EXPECT_EQ(missing(hk, "MWP-CWP cache-aware"), missing(hk, "volume model"));
    // The H200 file carries a measured atomic service-time table and MWP-CWP's parameters from
    // the probe; so does the H100 file, without the table.
    const auto h200 = method_availability(resolve_machine("h200-sxm-141gb"));
    EXPECT_EQ(missing(h200, "shared-memory atomics"), "");
    EXPECT_EQ(missing(h200, "MWP-CWP (mwp)"), "");
    EXPECT_EQ(missing(h200, "MWP-CWP cache-aware"), "");
    EXPECT_EQ(missing(method_availability(resolve_machine("h100-sxm5-80gb")), "MWP-CWP (mwp)"), "");
}

TEST(MethodAvailability, TheMachinesTableGroupsWhatMachinesLack) {
    report::Document document;
    add_method_table(document,
                     {resolve_machine("a100-sxm4-40gb"), resolve_machine("a100-sxm4-80gb"),
                      resolve_machine("rtx-a6000"), resolve_machine("h200-sxm-141gb")});
    const report::Table& table = document.table_at("methods");
    ASSERT_EQ(table.rows.size(), 4u);
    EXPECT_EQ(table.rows[0],
              (std::vector<report::Cell>{std::string("a100-sxm4-40gb"), std::string("yes"),
                                         std::string("no"), std::string("no"), std::string("no"),
                                         std::string("none")}));
    EXPECT_EQ(table.rows[3],
              (std::vector<report::Cell>{std::string("h200-sxm-141gb"), std::string("yes"),
                                         std::string("yes"), std::string("yes"), std::string("yes"),
                                         std::string("none")}));
    // One note per lacking value, in the order first met, naming every machine that lacks it;
    // the machines without calibrated costs last.
    ASSERT_EQ(document.notes.size(), 4u);
    EXPECT_EQ(document.notes[0],
              "mwp, mwp_cache_aware: lacks mwp_cwp.departure_del_uncoal_cycles, which the MWP-CWP "
              "model needs (a100-sxm4-40gb, a100-sxm4-80gb)");
    EXPECT_EQ(document.notes[1].rfind("atomics: no shared-memory atomic service-time table", 0),
              0u);
    EXPECT_NE(document.notes[1].find("(a100-sxm4-40gb, a100-sxm4-80gb, rtx-a6000)"),
              std::string::npos);
    EXPECT_EQ(document.notes[2], "mwp, mwp_cache_aware: lacks mwp_cwp.mem_ld_cycles, which the "
                                 "MWP-CWP model needs (rtx-a6000)");
    EXPECT_EQ(document.notes[3].rfind("calibrated: no calibrated cost-model parameters", 0), 0u);
    EXPECT_NE(document.notes[3].find("(a100-sxm4-40gb, a100-sxm4-80gb, rtx-a6000, h200-sxm-141gb)"),
              std::string::npos);
}

TEST(MethodAvailability, TheCalibratedColumnNamesTheModelsAMachineCarries) {
    MachineModel calibrated = resolve_machine("h100-sxm5-80gb");
    calibrated.calibrated_costs["matmul_overlap.p_f32_madd"] = Sourced<double>{1e-12, "calib"};
    calibrated.calibrated_costs["matmul_overlap.p_launch"] = Sourced<double>{5e-6, "calib"};
    calibrated.calibrated_costs["fd5pt_linear.p_f32_add"] = Sourced<double>{2e-12, "calib"};
    EXPECT_EQ(calibrated_models(calibrated),
              (std::vector<std::string>{"fd5pt_linear", "matmul_overlap"}));
    report::Document document;
    add_method_table(document, {calibrated});
    const report::Table& table = document.table_at("methods");
    ASSERT_EQ(table.rows.size(), 1u);
    EXPECT_EQ(table.rows[0].back(), report::Cell(std::string("fd5pt_linear, matmul_overlap")));
    for (const auto& note : document.notes)
        EXPECT_EQ(note.find("calibrated:"), std::string::npos) << note;
}
