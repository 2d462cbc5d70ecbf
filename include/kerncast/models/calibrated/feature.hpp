// Kernel features of calibrated cost models (Stevens & Klöckner, sec. 6.1): a feature is a
// function of a kernel and its parameter values that returns a number — an operation count,
// a memory-access count of one access pattern, barriers, launches, thread groups — or the
// measured time of a run. Written `f_...` in model expressions (docs/model-format.md):
//
//   f_op_float32_madd
//   f_mem_access_tag:aLD
//   f_mem_access_global_float32_load_lstrides:{0:1;1:>15}_gstrides:{0:16}_afr:>1
//   f_sync_barrier_local   f_sync_kernel_launch   f_thread_groups   f_time
#pragma once

#include "kerncast/kernel/kernel_spec.hpp"

#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace kerncast::models::calibrated {

// A feature name that is not one: the message, the offset of the offending character inside
// the name, and full feature names close to what was meant ("did you mean").
class FeatureError : public std::runtime_error {
public:
    FeatureError(std::string message, int offset, std::vector<std::string> suggestions = {})
        : std::runtime_error(std::move(message)), offset_(offset),
          suggestions_(std::move(suggestions)) {}
    int offset() const { return offset_; }
    const std::vector<std::string>& suggestions() const { return suggestions_; }

private:
    int offset_;
    std::vector<std::string> suggestions_;
};

// A bound on a stride or an access-to-footprint ratio: `16` (equal), `>15`, `<=n`, `!=0`.
// The value is a number or, for strides, a kernel parameter's name (Stevens & Klöckner 6.1:
// "lstrides:{0:<n}"), resolved at the parameter values of each evaluation.
struct Constraint {
    enum class Comparison { equal, not_equal, less, less_equal, greater, greater_equal };
    Comparison comparison = Comparison::equal;
    double value = 0;
    std::string parameter; // non-empty: the bound is this kernel parameter's value
    bool operator==(const Constraint&) const = default;
};
bool satisfies(double value, Constraint::Comparison comparison, double bound);
std::string constraint_text(const Constraint& constraint); // ">15", "n", "<=1.5"

enum class FeatureKind {
    operation, // f_op_<dtype>_<op>
    memory,  // f_mem_access[_tag:T][_space][_dtype][_direction][_lstrides:{}][_gstrides:{}][_afr:]
    barrier, // f_sync_barrier_local: barriers one work-item passes
    launch,  // f_sync_kernel_launch: 1 per kernel
    thread_group, // f_thread_groups: thread blocks (work-groups) launched
    time,         // f_time (median), f_time_min, f_time_mean: measured, seconds
};

enum class TimeStatistic { median, min, mean };

struct FeatureSpec {
    std::string name; // as written, the identity of the feature in a model
    FeatureKind kind = FeatureKind::operation;
    // operation: the dtype and the operation class of analysis::OperationCount ("madd").
    // memory: each field optional.
    std::optional<kernel::DataType> dtype;
    std::string operation;
    std::string tag;
    std::optional<kernel::MemorySpace> space;
    std::string direction; // "load", "store", "atomic"; "" = any
    // Per thread axis 0..2 (x, y, z): local (threadIdx) and group (blockIdx) strides.
    std::array<std::optional<Constraint>, kernel::axis_count> local_strides;
    std::array<std::optional<Constraint>, kernel::axis_count> group_strides;
    std::optional<Constraint> access_to_footprint;
    TimeStatistic statistic = TimeStatistic::median;

    bool measured() const { return kind == FeatureKind::time; }
};

// Parses a feature name (with its "f_" prefix). Throws FeatureError with the offset of the
// offending character and, where a field is misspelt, the corrected names.
FeatureSpec parse_feature(const std::string& name);

// The paper's spelling of a data type in feature names: "float32", "int32", "uint8".
std::string feature_dtype_name(kernel::DataType type);

} // namespace kerncast::models::calibrated
