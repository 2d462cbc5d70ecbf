// Calibrated parameters in a machine file: written by machine_with_calibration, read back
// losslessly (calibrated_costs "<model>.<parameter>" and the source's calibration member),
// validated, shown by `machine show`, and found again for prediction.
#include "kerncast/error.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/machine/machine_json.hpp"
#include "kerncast/machine/machine_view.hpp"
#include "kerncast/models/calibrated/calibrated_machine.hpp"
#include "kerncast/sha256.hpp"
#include "synthetic_samples.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::models::calibrated;

namespace {

struct Calibrated {
    CostModel model;
    CalibrationResult result;
    MachineModel machine;
};

// 20 records in `path`, none published, with a made-up hash.
CalibrationDataset dataset(const std::string& path, char hash, const std::string& date) {
    return CalibrationDataset{path, std::string(64, hash), 20, 0, date, "0.1.0"};
}

Calibrated calibrated_a100() {
    Calibrated c;
    c.model = make_cost_model("lin", "f_time",
                              "p_launch * f_sync_kernel_launch + p_madd * f_op_float32_madd");
    c.model.text = "name: lin\n";
    const auto samples =
        synthetic::synthetic_samples(c.model, {{1, 1}, {1e6, 1e9}}, {1e-5, 3e-12}, 20, 0.01);
    c.result = calibrate(c.model, samples);
    c.machine = machine_with_calibration(resolve_machine("a100-sxm4-40gb"), c.model, c.result,
                                         dataset("data/records/lin", 'a', "2026-11-25T00:00:00Z"),
                                         "calibrate-lin");
    return c;
}

} // namespace

TEST(CalibratedMachine, RoundTripsThroughTheMachineFile) {
    const Calibrated c = calibrated_a100();
    EXPECT_EQ(c.machine.calibrated_costs.at("lin.p_madd").value, c.result.parameters[1].value);
    EXPECT_EQ(c.machine.calibrated_costs.at("lin.p_launch").source, "calibrate-lin");
    const Provenance& source = c.machine.sources.at("calibrate-lin");
    EXPECT_EQ(source.kind, SourceKind::measured);
    EXPECT_EQ(source.run, "data/records/lin");
    ASSERT_TRUE(source.calibration);
    EXPECT_EQ(source.calibration->parameters, (std::vector<std::string>{"p_launch", "p_madd"}));
    EXPECT_EQ(source.calibration->records, 20);
    EXPECT_EQ(source.calibration->residual_norm, c.result.residual_norm);
    EXPECT_EQ(source.calibration->model_sha256, sha256_hex("name: lin\n"));

    const std::string text = machine_json_text(c.machine);
    const MachineModel read = parse_machine_json(text, "calibrated.json");
    EXPECT_EQ(read, c.machine);
    EXPECT_EQ(machine_json_text(read), text);

    const MachineParameters parameters = calibrated_parameters(read, c.model);
    EXPECT_EQ(parameters.values, c.result.values());
    EXPECT_EQ(parameters.sources, (std::vector<std::string>{"calibrate-lin", "calibrate-lin"}));

    const report::Document shown = machine_view(read);
    const report::Table& table = shown.table_at("calibration_provenance");
    ASSERT_EQ(table.rows.size(), 1u);
    EXPECT_EQ(std::get<std::string>(table.rows[0][1]), "lin");
}

// A recalibration of the model replaces its values: the earlier source goes and the new one
// takes the base key back; another model's calibration keeps its source.
TEST(CalibratedMachine, ARecalibrationReplacesTheProvenanceItMakesObsolete) {
    const Calibrated c = calibrated_a100();
    MachineModel machine = c.machine;
    machine.calibrated_costs["other.p_launch"] = Sourced<double>{2e-6, "calibrate-other"};
    machine.sources["calibrate-other"] = machine.sources.at("calibrate-lin");
    machine.sources["calibrate-other"].calibration->model = "other";
    machine.sources["calibrate-other"].calibration->parameters = {"p_launch"};
    EXPECT_EQ(calibration_source_base("lin"), "calibrate-lin");

    const MachineModel again = machine_with_calibration(
        machine, c.model, c.result, dataset("data/records/lin-2", 'b', "2026-11-26T00:00:00Z"),
        "calibrate-lin-2");
    EXPECT_EQ(again.sources.count("calibrate-lin-2"), 0u);
    ASSERT_EQ(again.sources.count("calibrate-lin"), 1u);
    EXPECT_EQ(again.sources.at("calibrate-lin").run, "data/records/lin-2");
    EXPECT_EQ(again.calibrated_costs.at("lin.p_madd").source, "calibrate-lin");
    EXPECT_EQ(again.calibrated_costs.at("other.p_launch").source, "calibrate-other");
    EXPECT_EQ(again.sources.count("calibrate-other"), 1u);
    EXPECT_EQ(again.sources.size(), machine.sources.size());
    EXPECT_EQ(parse_machine_json(machine_json_text(again), "again.json"), again);
}

TEST(CalibratedMachine, InvalidProvenanceAndMissingParametersAreErrors) {
    const Calibrated c = calibrated_a100();
    std::string text = machine_json_text(c.machine);
    const std::string good = "\"records\": 20";
    ASSERT_NE(text.find(good), std::string::npos);
    std::string bad = text;
    bad.replace(bad.find(good), good.size(), "\"records\": 0");
    try {
        parse_machine_json(bad, "bad.json");
        ADD_FAILURE() << "records 0 accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.where().json_path, "/sources/calibrate-lin/calibration/records");
    }
    CostModel other = make_cost_model("other", "f_time", "p_launch * f_sync_kernel_launch");
    try {
        calibrated_parameters(c.machine, other);
        ADD_FAILURE() << "missing parameters accepted";
    } catch (const Error& e) {
        EXPECT_NE(e.message().find("other.p_launch"), std::string::npos);
        ASSERT_GE(e.notes().size(), 2u);
        EXPECT_NE(e.notes()[0].find("lin.p_launch"), std::string::npos);
        EXPECT_NE(e.notes()[1].find("calibrated models: lin"), std::string::npos);
    }
}
