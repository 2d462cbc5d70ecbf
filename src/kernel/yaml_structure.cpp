#include "kerncast/kernel/yaml_structure.hpp"

#include <set>
#include <vector>

namespace kerncast::kernel {

namespace {

struct Walk {
    std::vector<YAML::Node> path; // the ancestors of the node being checked
    std::size_t visited = 0;

    std::optional<YamlStructureProblem> below(const YAML::Node& node) {
        if (++visited > max_yaml_nodes)
            return YamlStructureProblem{node, "the YAML aliases expand to more than " +
                                                  std::to_string(max_yaml_nodes) +
                                                  " nodes; write it without them"};
        for (const YAML::Node& ancestor : path)
            if (ancestor.is(node))
                return YamlStructureProblem{
                    node, "a YAML alias refers to a node that contains it (a cycle)"};
        if (!node.IsMap() && !node.IsSequence())
            return std::nullopt;
        path.push_back(node);
        std::optional<YamlStructureProblem> problem;
        if (node.IsMap()) {
            std::set<std::string> seen;
            for (const auto& entry : node) {
                if (entry.first.IsScalar() && !seen.insert(entry.first.Scalar()).second)
                    return YamlStructureProblem{entry.first, "key '" + entry.first.Scalar() +
                                                                 "' is given twice"};
                if ((problem = below(entry.second)))
                    return problem;
            }
        } else {
            for (const auto& item : node)
                if ((problem = below(item)))
                    return problem;
        }
        path.pop_back();
        return std::nullopt;
    }
};

} // namespace

std::optional<YamlStructureProblem> yaml_structure_problem(const YAML::Node& root) {
    return Walk{}.below(root);
}

} // namespace kerncast::kernel
