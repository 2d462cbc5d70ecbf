// The structure rules every YAML input of kerncast (kernel files, cost-model files) obeys
// before it is read: no key twice in a mapping (yaml-cpp keeps both and a look-up finds the
// first, so the second would be ignored silently), no alias inside the node it names (`a: &a
// [*a]` is a cycle that every later walk would follow forever), and aliases that expand to at
// most max_yaml_nodes nodes (nested aliases grow exponentially: "billion laughs").
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <yaml-cpp/yaml.h>

namespace kerncast::kernel {

inline constexpr std::size_t max_yaml_nodes = 1000000;

struct YamlStructureProblem {
    YAML::Node node;     // where: its Mark() gives line and column
    std::string message; // "key 'name' is given twice", ...
};

// The first node (depth first, in document order) that breaks a rule; nullopt when none does.
std::optional<YamlStructureProblem> yaml_structure_problem(const YAML::Node& root);

} // namespace kerncast::kernel
