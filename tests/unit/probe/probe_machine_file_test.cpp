// probe_machine_file: the synthetic record's analysis under the name of a device a built-in
// lists extends that built-in, so that the models the probe alone cannot feed run; under an
// unknown name the probed values stand alone and the file says what each model lacks.
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/method_availability.hpp"
#include "kerncast/probe/analysis.hpp"
#include "kerncast/probe/probe_machine_file.hpp"
#include "synthetic_record.hpp"

#include <gtest/gtest.h>

namespace kerncast::probe {
namespace {

MachineModel probed_as(const std::string& name, int cc_major, int cc_minor) {
    ProbeAnalysis a = analyse_probe_record(testing::synthetic_record(testing::SyntheticTruth{}));
    a.device.name = name;
    a.device.cc_major = cc_major;
    a.device.cc_minor = cc_minor;
    return machine_from_probe(a, "data/probe/synthetic/raw.json");
}

models::MethodAvailability method(const ProbeMachineFile& file, const std::string& name) {
    for (const auto& m : models::method_availability(file.machine))
        if (m.method.rfind(name, 0) == 0)
            return m;
    throw std::runtime_error("no method " + name);
}

} // namespace

TEST(ProbeMachineFile, ADeviceABuiltInListsExtendsIt) {
    const MachineModel probed = probed_as("NVIDIA H100 80GB HBM3", 9, 0);
    const ProbeMachineFile file = probe_machine_file(probed, "h100.json");
    ASSERT_EQ(file.extends, "h100-sxm5-80gb");
    EXPECT_NE(file.text.find("\"extends\": \"h100-sxm5-80gb\""), std::string::npos);
    EXPECT_EQ(file.machine.identity.id, "h100-sxm5-80gb-probed");
    EXPECT_FALSE(file.machine.identity.incomplete);
    // Probed values win: the L1's size at this carve-out and its sector are the probe's; the
    // line, associativity and SM count the built-in's.
    const MemoryLevel* l1 = file.machine.level("l1");
    ASSERT_NE(l1, nullptr);
    EXPECT_EQ(l1->effective_size_bytes->value, probed.level("l1")->effective_size_bytes->value);
    EXPECT_EQ(l1->sector_bytes->value, probed.level("l1")->sector_bytes->value);
    const MachineModel builtin = builtin_machine("h100-sxm5-80gb");
    EXPECT_EQ(l1->line_bytes->value, builtin.level("l1")->line_bytes->value);
    EXPECT_EQ(l1->ways->value, builtin.level("l1")->ways->value);
    EXPECT_EQ(method(file, "volume model").missing, "");
}

TEST(ProbeMachineFile, AnUnknownDeviceStandsAloneAndSaysWhatIsMissing) {
    const ProbeMachineFile file = probe_machine_file(probed_as("Synthetic GPU", 9, 0), "s.json");
    EXPECT_FALSE(file.extends);
    EXPECT_EQ(file.text.find("\"extends\""), std::string::npos);
    EXPECT_TRUE(file.machine.identity.incomplete);
    // The probe gives the L1's size seen at one carve-out, not its capacity: the volume model
    // names that.
    EXPECT_NE(method(file, "volume model").missing.find("l1"), std::string::npos)
        << method(file, "volume model").missing;
    EXPECT_NE(method(file, "shared-memory atomics").missing, "");
}

} // namespace kerncast::probe
