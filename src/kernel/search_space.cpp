// Search-space files (search_space.hpp): YAML (yaml-cpp, with line/column marks) -> SearchSpace,
// and the enumeration of its combinations under the restrictions.
#include "kerncast/kernel/search_space.hpp"

#include "kerncast/error.hpp"
#include "kerncast/input_file.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/kernel/yaml_source.hpp"
#include "kerncast/kernel/yaml_structure.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <yaml-cpp/yaml.h>

namespace kerncast::kernel {

namespace {

const char* const axis_keys[2][3] = {{"block_x", "block_y", "block_z"},
                                     {"fold_x", "fold_y", "fold_z"}};

// Names a restriction may use besides the swept parameters.
const std::set<std::string> launch_names = {"block_x", "block_y", "block_z", "fold_x",
                                            "fold_y",  "fold_z",  "threads", "points_per_thread",
                                            "strided"};

class SpaceParser {
public:
    SpaceParser(const std::string& text, std::string file) : source_(text, std::move(file)) {}

    SearchSpace parse(const std::string& text) {
        YAML::Node root;
        try {
            root = YAML::Load(text);
        } catch (const YAML::ParserException& e) {
            throw_input_error("YAML syntax error: " + e.msg, at_mark(e.mark.line, e.mark.column));
        }
        if (const auto problem = yaml_structure_problem(root))
            fail(problem->node, problem->message);
        if (!root.IsMap())
            throw_input_error("a search-space file is a YAML mapping with keys kernels, block_x, "
                              "block_y, block_z, fold_x, fold_y, fold_z, fold_placement, params, "
                              "restrictions, source",
                              at_mark(0, 0));
        static const std::set<std::string> keys = {
            "kernels", "source", "block_x",        "block_y", "block_z",     "fold_x",
            "fold_y",  "fold_z", "fold_placement", "params",  "restrictions"};
        for (const auto& entry : root)
            if (!keys.count(entry.first.Scalar()))
                fail(entry.first, "unknown key '" + entry.first.Scalar() + "'",
                     {"known keys: kernels, source, block_x, block_y, block_z, fold_x, fold_y, "
                      "fold_z, fold_placement, params, restrictions"});
        SearchSpace space;
        space.file = source_.file();
        if (const YAML::Node source = root["source"])
            space.source = scalar(source, "source");
        parse_kernels(root["kernels"], root, space);
        for (int kind = 0; kind < 2; ++kind)
            for (size_t a = 0; a < 3; ++a)
                if (const YAML::Node node = root[axis_keys[kind][a]])
                    (kind == 0 ? space.block : space.fold)[a] =
                        values(node, axis_keys[kind][a], true);
        if (const YAML::Node placement = root["fold_placement"])
            for (const YAML::Node& word : as_list(placement)) {
                const std::string text = scalar(word, "fold_placement");
                if (text != "consecutive" && text != "strided")
                    fail(word,
                         "fold_placement must be 'consecutive' or 'strided', not '" + text + "'");
                const FoldPlacement value =
                    text == "strided" ? FoldPlacement::strided : FoldPlacement::consecutive;
                if (std::find(space.fold_placements.begin(), space.fold_placements.end(), value) ==
                    space.fold_placements.end())
                    space.fold_placements.push_back(value);
            }
        if (const YAML::Node params = root["params"]) {
            if (!params.IsMap())
                fail(params, "params must be a mapping {name: [values]}");
            for (const auto& entry : params) {
                const std::string name = entry.first.Scalar();
                if (launch_names.count(name))
                    fail(entry.first, "'" + name +
                                          "' is a launch name of the space, not a kernel "
                                          "parameter: write it as its own key");
                space.params.emplace_back(name, values(entry.second, "params." + name, false));
            }
        }
        check_size(space, root);
        if (const YAML::Node restrictions = root["restrictions"])
            parse_restrictions(restrictions, space);
        return space;
    }

private:
    YamlSource source_;

    SourceLocation at_mark(int line0, int column0) const { return source_.at_mark(line0, column0); }
    SourceLocation at(const YAML::Node& node) const { return source_.at(node); }
    [[noreturn]] void fail(const YAML::Node& node, const std::string& message,
                           std::vector<std::string> notes = {}) const {
        source_.fail(node, message, std::move(notes));
    }
    std::string scalar(const YAML::Node& node, const std::string& what) const {
        return source_.scalar(node, what);
    }
    // A sequence's items, or a scalar as a list of one.
    std::vector<YAML::Node> as_list(const YAML::Node& node) const {
        std::vector<YAML::Node> items;
        if (node.IsSequence())
            for (const auto& item : node)
                items.push_back(item);
        else
            items.push_back(node);
        return items;
    }
    // Integer values, each once: positive ones for block and fold sizes.
    std::vector<std::int64_t> values(const YAML::Node& node, const std::string& what,
                                     bool positive) const {
        if (node.IsSequence() && node.size() == 0)
            fail(node, what + " lists no value");
        std::vector<std::int64_t> result;
        for (const YAML::Node& item : as_list(node)) {
            const std::string text = scalar(item, what);
            std::optional<std::int64_t> value;
            try {
                size_t used = 0;
                const long long number = std::stoll(text, &used);
                if (used == text.size())
                    value = number;
            } catch (const std::exception&) {
            }
            if (!value || (positive && *value < 1))
                fail(item, what + ": '" + text + "' is not " +
                               (positive ? "a positive integer" : "an integer"));
            if (std::find(result.begin(), result.end(), *value) == result.end())
                result.push_back(*value);
        }
        return result;
    }
    void parse_kernels(const YAML::Node& node, const YAML::Node& root, SearchSpace& space) const {
        if (!node)
            fail(root, "a search space names its kernel files: kernels: [file.yaml, ...]");
        const std::filesystem::path folder = std::filesystem::path(source_.file()).parent_path();
        for (const YAML::Node& item : as_list(node)) {
            const std::string path = scalar(item, "kernels");
            if (path.empty())
                fail(item, "kernels: an empty file name");
            const std::filesystem::path resolved = std::filesystem::path(path).is_absolute()
                                                       ? std::filesystem::path(path)
                                                       : folder / path;
            space.kernel_files.push_back(resolved.lexically_normal().string());
        }
        if (space.kernel_files.empty())
            fail(node, "kernels lists no kernel file");
    }
    void check_size(const SearchSpace& space, const YAML::Node& root) const {
        std::int64_t combinations =
            static_cast<std::int64_t>(space.kernel_files.size()) *
            std::max<std::int64_t>(1, static_cast<std::int64_t>(space.fold_placements.size()));
        const auto times = [&](std::size_t n) {
            if (__builtin_mul_overflow(combinations, static_cast<std::int64_t>(n), &combinations) ||
                combinations > max_space_combinations)
                fail(root, "the space has more than " + std::to_string(max_space_combinations) +
                               " combinations before its restrictions: split it, or sweep fewer "
                               "values");
        };
        for (size_t a = 0; a < 3; ++a) {
            times(space.block[a].size());
            times(space.fold[a].size());
        }
        for (const auto& [name, values] : space.params)
            times(values.size());
    }
    void parse_restrictions(const YAML::Node& node, SearchSpace& space) const {
        if (!node.IsSequence())
            fail(node, "restrictions must be a list of conditions, e.g. "
                       "[\"block_x * block_y <= 1024\"]");
        std::set<std::string> known = launch_names;
        for (const auto& [name, values] : space.params)
            known.insert(name);
        for (const auto& item : node) {
            SpaceRestriction restriction;
            restriction.text = scalar(item, "a restriction");
            restriction.line = item.Mark().line + 1;
            try {
                restriction.expression = parse_expression(restriction.text);
            } catch (const ExpressionError& e) {
                fail(item, "restriction '" + restriction.text + "': " + e.what());
            }
            std::vector<std::string> names;
            collect_variables(*restriction.expression, names);
            for (const auto& name : names)
                if (!known.count(name))
                    fail(item,
                         "restriction '" + restriction.text + "' names '" + name +
                             "', which the space does not define",
                         {"a restriction may name block_x, block_y, block_z, fold_x, fold_y, "
                          "fold_z, threads, points_per_thread, strided and the swept params"});
            space.restrictions.push_back(std::move(restriction));
        }
    }
};

} // namespace

SearchSpace parse_search_space(const std::string& text, const std::string& file) {
    return SpaceParser(text, file).parse(text);
}

SearchSpace load_search_space(const std::string& path) {
    return parse_search_space(read_input_file(path, "search-space file"), path);
}

namespace {

// The launches of one kernel file: placements, then folds and blocks (z outermost). A fold of
// one point per thread has no placement: it is listed once.
std::vector<LaunchConfig> space_launches(const SearchSpace& space,
                                         const std::vector<FoldPlacement>& placements) {
    std::vector<Dim3> folds, blocks;
    for (const std::int64_t z : space.fold[2])
        for (const std::int64_t y : space.fold[1])
            for (const std::int64_t x : space.fold[0])
                folds.push_back({x, y, z});
    for (const std::int64_t z : space.block[2])
        for (const std::int64_t y : space.block[1])
            for (const std::int64_t x : space.block[0])
                blocks.push_back({x, y, z});
    std::vector<LaunchConfig> launches;
    for (const FoldPlacement placement : placements)
        for (const Dim3& fold : folds) {
            const bool one_point = volume(fold) == 1;
            if (one_point && placement != placements.front())
                continue;
            for (const Dim3& block : blocks)
                launches.push_back(
                    {block, fold, one_point ? FoldPlacement::consecutive : placement});
        }
    return launches;
}

// The restrictions' names for one launch.
void name_launch(const LaunchConfig& launch, const std::string& file,
                 std::map<std::string, std::int64_t>& names) {
    std::int64_t threads = 1, points = 1;
    for (size_t a = 0; a < 3; ++a)
        if (__builtin_mul_overflow(threads, launch.block[a], &threads) ||
            __builtin_mul_overflow(points, launch.fold[a], &points))
            throw_input_error("a block or fold of the space overflows 64 bits",
                              {file, 0, 0, {}, {}});
    for (size_t a = 0; a < 3; ++a) {
        names[axis_keys[0][a]] = launch.block[a];
        names[axis_keys[1][a]] = launch.fold[a];
    }
    names["threads"] = threads;
    names["points_per_thread"] = points;
    names["strided"] = launch.fold_placement == FoldPlacement::strided ? 1 : 0;
}

bool meets_restrictions(const SearchSpace& space,
                        const std::map<std::string, std::int64_t>& names) {
    const auto lookup = [&](const std::string& name) -> std::optional<std::int64_t> {
        const auto at = names.find(name);
        return at == names.end() ? std::nullopt : std::optional<std::int64_t>(at->second);
    };
    for (const auto& r : space.restrictions) {
        try {
            if (evaluate_integer(*r.expression, lookup) == 0)
                return false;
        } catch (const ExpressionError& e) {
            throw_input_error("restriction '" + r.text + "' cannot be evaluated: " + e.what(),
                              {space.file, r.line, 0, {}, {}});
        }
    }
    return true;
}

} // namespace

SpaceEnumeration enumerate_space(const SearchSpace& space,
                                 const std::vector<FoldPlacement>& file_placements) {
    KERNCAST_CHECK(file_placements.size() == space.kernel_files.size(),
                   "one placement per kernel file");
    SpaceEnumeration result;
    // Parameter combinations, the first parameter outermost.
    std::vector<std::vector<std::pair<std::string, std::int64_t>>> parameter_sets{{}};
    for (const auto& [name, values] : space.params) {
        std::vector<std::vector<std::pair<std::string, std::int64_t>>> extended;
        for (const auto& set : parameter_sets)
            for (const std::int64_t value : values) {
                extended.push_back(set);
                extended.back().emplace_back(name, value);
            }
        parameter_sets = std::move(extended);
    }
    std::map<std::string, std::int64_t> names;
    for (std::size_t k = 0; k < space.kernel_files.size(); ++k) {
        const std::vector<LaunchConfig> launches = space_launches(
            space, space.fold_placements.empty() ? std::vector<FoldPlacement>{file_placements[k]}
                                                 : space.fold_placements);
        for (const auto& parameters : parameter_sets) {
            for (const auto& [name, value] : parameters)
                names[name] = value;
            for (const LaunchConfig& launch : launches) {
                ++result.combinations;
                name_launch(launch, space.file, names);
                if (meets_restrictions(space, names))
                    result.points.push_back({k, launch, parameters});
                else
                    ++result.restricted;
            }
        }
    }
    return result;
}

LoadedSearchSpace load_search_space_with_kernels(const std::string& path) {
    LoadedSearchSpace loaded;
    loaded.space = load_search_space(path);
    std::vector<FoldPlacement> placements;
    for (const std::string& file : loaded.space.kernel_files) {
        loaded.kernels.push_back(load_kernel_file(file));
        placements.push_back(loaded.kernels.back().launch.fold_placement);
    }
    loaded.combinations = enumerate_space(loaded.space, placements);
    if (loaded.combinations.points.empty())
        throw_input_error("the restrictions of " + path + " exclude all " +
                              std::to_string(loaded.combinations.combinations) + " combinations",
                          {path, 0, 0, {}, {}});
    return loaded;
}

} // namespace kerncast::kernel
