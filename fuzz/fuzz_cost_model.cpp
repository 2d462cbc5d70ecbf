// Fuzz target: model files of calibrated cost models (docs/model-format.md) — YAML, feature
// names, expressions with definitions — and the evaluation of what parses.
#include "fuzz_target.hpp"
#include "kerncast/models/calibrated/cost_model.hpp"

#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return kerncast::fuzz::run_one([&] {
        using namespace kerncast::models::calibrated;
        const CostModel model = parse_cost_model(kerncast::fuzz::text_of(data, size), "fuzz.yaml");
        std::vector<double> parameters;
        for (const auto& p : model.parameters)
            parameters.push_back(p.initial);
        const std::vector<double> features(model.features().size(), 3.0);
        (void)model.evaluate(parameters, features);
    });
}
