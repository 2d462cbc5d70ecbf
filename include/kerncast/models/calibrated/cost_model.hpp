// A calibrated cost model (Stevens & Klöckner, sec. 6): an output feature (what is
// predicted, e.g. the measured time f_time) and a model expression over kernel features and
// parameters, read from a model file (YAML, docs/model-format.md):
//
//   name: matmul_linear
//   output: f_time
//   let:
//     c_gmem: p_ga * f_mem_access_tag:aLD + p_gb * f_mem_access_tag:bLD
//   expression: p_launch * f_sync_kernel_launch + c_gmem + p_madd * f_op_float32_madd
//   parameters:
//     p_launch: {initial: 1e-5, min: 0}
#pragma once

#include "kerncast/models/calibrated/model_expression.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kerncast::models::calibrated {

struct ParameterSpec {
    std::string name;   // "p_edge"
    double initial = 0; // where calibration starts
    std::optional<double> min, max;
    std::string description;
};

struct CostModel {
    std::string name; // identifies the model's parameters in a machine file
    std::string description;
    std::string source; // where the model comes from (free text)
    std::string file;   // where it was read from ("" when built in code)
    std::string text;   // the file's text (its SHA-256 is the calibration's provenance)
    FeatureSpec output;
    std::vector<std::pair<std::string, std::string>> definitions; // let: name, text
    std::string expression_text;
    ModelSymbols symbols; // features and parameters, in order of first use
    ModelNodePtr tree;    // the expression with definitions inlined
    CompiledExpression expression;
    std::vector<ParameterSpec> parameters; // one per symbols.parameters, same order

    const std::vector<FeatureSpec>& features() const { return symbols.features; }
    // The model at parameter values (in `parameters` order) and feature values (in features()
    // order).
    template <class T> T evaluate(const T* parameter_values, const double* feature_values) const {
        return expression.evaluate(parameter_values, feature_values);
    }
    double evaluate(const std::vector<double>& parameter_values,
                    const std::vector<double>& feature_values) const {
        return expression.evaluate(parameter_values.data(), feature_values.data());
    }
};

// A model from its parts (tests, benchmarks, programs): definitions in order, each may use
// the ones before it. A syntax error is an input Error "model <name>, <part>: ..." with the
// offset in that part.
CostModel make_cost_model(const std::string& name, const std::string& output,
                          const std::string& expression,
                          const std::vector<std::pair<std::string, std::string>>& definitions = {},
                          const std::vector<ParameterSpec>& parameters = {});

// Parses a model file's text; every error is an input Error with file:line:column of the
// offending character (inside expressions too) and, for unknown names, the closest ones.
CostModel parse_cost_model(const std::string& text, const std::string& origin);
CostModel load_cost_model(const std::string& path);

} // namespace kerncast::models::calibrated
