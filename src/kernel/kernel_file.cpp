// Kernel-file parser: YAML (yaml-cpp, which gives line/column marks) -> KernelSpec, with
// validation of every name, rank, subscript, thread mapping and the isl domain.
#include "kerncast/kernel/kernel_file.hpp"

#include "../support/isl_support.hpp"
#include "kerncast/input_file.hpp"
#include "kerncast/kernel/builtin_functions.hpp"
#include "kerncast/kernel/launch_text.hpp"
#include "kerncast/kernel/staged_arrays.hpp"
#include "kerncast/kernel/yaml_source.hpp"
#include "kerncast/kernel/yaml_structure.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <isl/cpp.h>
#include <map>
#include <set>
#include <sstream>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

namespace kerncast::kernel {
namespace {

class FileParser {
public:
    FileParser(const std::string& text, std::string file) : source_(text, std::move(file)) {}

    KernelSpec parse(const std::string& text);

private:
    YamlSource source_;
    KernelSpec spec_;

    SourceLocation at_mark(int line0, int column0) const { return source_.at_mark(line0, column0); }
    SourceLocation at(const YAML::Node& node) const { return source_.at(node); }
    // Location of byte `offset` inside the string scalar `node` (skipping an opening quote).
    SourceLocation inside(const YAML::Node& node, int offset) const {
        const YAML::Mark mark = node.Mark();
        int column = mark.column;
        if (mark.line >= 0 && mark.line < source_.line_count()) {
            const std::string& line = source_.line(mark.line);
            if (static_cast<size_t>(column) < line.size() &&
                (line[static_cast<size_t>(column)] == '"' ||
                 line[static_cast<size_t>(column)] == '\''))
                ++column;
        }
        return at_mark(mark.line, column + offset);
    }
    [[noreturn]] void fail(const YAML::Node& node, const std::string& message,
                           std::vector<std::string> notes = {}) const {
        source_.fail(node, message, std::move(notes));
    }

    std::string scalar(const YAML::Node& node, const std::string& what) const {
        return source_.scalar(node, what);
    }
    std::int64_t integer(const YAML::Node& node, const std::string& what) const {
        const std::string text = scalar(node, what);
        try {
            size_t used = 0;
            const long long value = std::stoll(text, &used);
            if (used == text.size())
                return value;
        } catch (const std::exception&) {
        }
        fail(node, what + " must be an integer, got '" + text + "'");
    }
    ExprPtr expression(const YAML::Node& node, const std::string& what) const {
        const std::string text = scalar(node, what);
        try {
            return parse_expression(text);
        } catch (const ExpressionError& e) {
            throw_input_error(what + ": " + e.what(), inside(node, e.offset()));
        }
    }

    // No key twice, no alias cycle, no alias explosion (yaml_structure.hpp).
    void reject_duplicate_keys(const YAML::Node& root) const {
        if (const auto problem = yaml_structure_problem(root))
            fail(problem->node, problem->message);
    }
    // Extents and offsets count elements: a real literal (0.5, -1e308) is an error at it.
    void require_integer(const Expr& e, const YAML::Node& node, const std::string& what) const {
        if (e.kind == ExprKind::real)
            throw_input_error(what + " must be an integer expression; '" + to_string(e) +
                                  "' is not an integer",
                              inside(node, e.offset));
        for (const auto& operand : e.operands)
            require_integer(*operand, node, what);
    }
    const Expr* real_valued_part(const Expr& e) const;
    void parse_params(const YAML::Node& node);
    void parse_arrays(const YAML::Node& node);
    void parse_domain(const YAML::Node& node);
    void parse_mapping(const YAML::Node& node, std::array<std::string, axis_count>& target,
                       const std::string& key, std::set<int>& used_axes,
                       std::map<std::string, std::string>& used_indices);
    std::array<std::int64_t, axis_count> parse_triple(const YAML::Node& node,
                                                      const std::string& what) const;
    void parse_statements(const YAML::Node& node);
    void check_param_expression(const ExprPtr& expr, const YAML::Node& node,
                                const std::string& what) const;
    void check_statement(const Statement& statement, const YAML::Node& node) const;
    void check_condition(const ExprPtr& condition, const YAML::Node& node) const;
    void check_value(const ExprPtr& expr, const YAML::Node& node,
                     std::vector<std::string>& bound) const;
    void check_array_ref(const ExprPtr& ref, const YAML::Node& node,
                         std::vector<std::string>& bound) const;
};

bool is_builtin_function(const std::string& name) {
    return find_builtin_function(name) != nullptr;
}

KernelSpec FileParser::parse(const std::string& text) {
    YAML::Node root;
    try {
        root = YAML::Load(text);
    } catch (const YAML::DeepRecursion& e) {
        // yaml-cpp's own limit; its message is only "bad file".
        throw_input_error("YAML nested too deeply (beyond yaml-cpp's depth limit)",
                          at_mark(e.mark.line, e.mark.column));
    } catch (const YAML::ParserException& e) {
        throw_input_error("YAML syntax error: " + e.msg, at_mark(e.mark.line, e.mark.column));
    }
    spec_.file = source_.file();
    reject_duplicate_keys(root);
    if (!root.IsMap())
        throw_input_error("a kernel file is a YAML mapping with keys name, params, arrays, "
                          "domain, statements, ...",
                          at_mark(0, 0));
    static const std::set<std::string> keys = {
        "name",      "description", "source", "params", "assume", "arrays",
        "domain",    "threads",     "blocks", "locals", "launch", "registers_per_thread",
        "statements"};
    for (const auto& entry : root) {
        const std::string key = entry.first.Scalar();
        if (!keys.count(key))
            fail(entry.first, "unknown key '" + key + "'",
                 {"known keys: name, description, source, params, assume, arrays, domain, "
                  "threads, blocks, locals, launch, registers_per_thread, statements"});
    }
    auto require = [&](const char* key) {
        if (!root[key])
            throw_input_error(std::string("missing required key '") + key + "'", at_mark(0, 0));
        return root[key];
    };
    spec_.name = scalar(require("name"), "name");
    if (root["description"])
        spec_.description = scalar(root["description"], "description");
    if (root["params"])
        parse_params(root["params"]);
    if (root["arrays"])
        parse_arrays(root["arrays"]);
    parse_domain(require("domain"));
    if (root["assume"]) {
        const YAML::Node list = root["assume"];
        if (!list.IsSequence())
            fail(list, "assume must be a list of conditions on the parameters");
        for (const auto& item : list) {
            ExprPtr condition = expression(item, "assumption");
            check_param_expression(condition, item, "assumption");
            spec_.assumptions.push_back(item.Scalar());
            spec_.parsed_assumptions.push_back(condition);
        }
    }
    std::set<int> used_axes;
    std::map<std::string, std::string> used_indices;
    if (root["threads"])
        parse_mapping(root["threads"], spec_.threads.global, "threads", used_axes, used_indices);
    if (root["blocks"])
        parse_mapping(root["blocks"], spec_.threads.block, "blocks", used_axes, used_indices);
    if (root["locals"]) {
        std::set<int> local_axes; // a local and a block index may share an axis
        parse_mapping(root["locals"], spec_.threads.local, "locals", local_axes, used_indices);
        for (int axis : local_axes)
            if (!spec_.threads.global[static_cast<size_t>(axis)].empty())
                fail(root["locals"], std::string("thread axis ") + axis_name(axis) +
                                         " is mapped twice (threads and locals)");
    }
    if (root["launch"]) {
        const YAML::Node launch = root["launch"];
        if (!launch.IsMap())
            fail(launch, "launch must be a mapping {block: [x, y, z], fold: [x, y, z], "
                         "fold_placement: consecutive or strided}");
        for (const auto& entry : launch) {
            const std::string key = entry.first.Scalar();
            if (key != "block" && key != "fold" && key != "fold_placement")
                fail(entry.first, "unknown launch key '" + key + "' (block, fold, fold_placement)");
        }
        if (launch["block"]) {
            spec_.launch.block = parse_triple(launch["block"], "launch.block");
            const std::string violation = block_limit_violation(spec_.launch.block);
            if (!violation.empty())
                fail(launch["block"], "launch.block: " + violation);
        }
        if (launch["fold"])
            spec_.launch.fold = parse_triple(launch["fold"], "launch.fold");
        if (const YAML::Node placement = launch["fold_placement"]) {
            const std::string word = placement.IsScalar() ? placement.Scalar() : "";
            if (word == "strided")
                spec_.launch.fold_placement = FoldPlacement::strided;
            else if (word != "consecutive")
                fail(placement, "launch.fold_placement must be 'consecutive' or 'strided'" +
                                    (word.empty() ? std::string() : ", not '" + word + "'"));
            if (volume(spec_.launch.fold) == 1) // one point per thread: nothing to place
                spec_.launch.fold_placement = FoldPlacement::consecutive;
        }
        // The points a block covers must be countable (here, with the position, rather than
        // as a usage error of whichever command binds the launch later).
        std::int64_t points = 1;
        for (int a = 0; a < axis_count; ++a)
            if (__builtin_mul_overflow(points, spec_.launch.block[static_cast<size_t>(a)],
                                       &points) ||
                __builtin_mul_overflow(points, spec_.launch.fold[static_cast<size_t>(a)], &points))
                fail(launch["fold"] ? launch["fold"] : launch,
                     "launch: the block x fold product (the points one block covers) overflows "
                     "64 bits");
    }
    if (root["registers_per_thread"]) {
        const YAML::Node node = root["registers_per_thread"];
        const std::int64_t registers = integer(node, "registers_per_thread");
        if (registers < 1 || registers > max_registers_per_thread)
            fail(node, "registers_per_thread must be between 1 and " +
                           std::to_string(max_registers_per_thread) + ", got " +
                           std::to_string(registers));
        spec_.registers_per_thread = static_cast<int>(registers);
    }
    parse_statements(require("statements"));
    check_staged_arrays(spec_);
    return std::move(spec_);
}

// Words isl's parser reads as keywords, whatever their case (isl_stream.c): a parameter of such
// a name would break every set kerncast writes for isl, so the file is refused at the name.
bool is_isl_keyword(const std::string& name) {
    static const char* const keywords[] = {
        "exists", "and", "or",   "implies", "not",   "infty",  "infinity", "nan",  "min",
        "max",    "rat", "true", "false",   "ceild", "floord", "mod",      "ceil", "floor"};
    std::string lower = name;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return std::any_of(std::begin(keywords), std::end(keywords),
                       [&](const char* keyword) { return lower == keyword; });
}

void FileParser::parse_params(const YAML::Node& node) {
    if (!node.IsMap())
        fail(node, "params must be a mapping name: default value");
    for (const auto& entry : node) {
        Parameter param;
        param.name = entry.first.Scalar();
        if (!is_identifier(param.name))
            fail(entry.first, "parameter name '" + param.name +
                                  "' is not a name: letters, digits and _, not starting with a "
                                  "digit");
        if (is_builtin_name(param.name))
            fail(entry.first, "'" + param.name + "' is reserved (thread/block/fold index)");
        if (is_isl_keyword(param.name))
            fail(entry.first, "parameter name '" + param.name +
                                  "' is a keyword of isl, the polyhedral library kerncast counts "
                                  "with (and, or, not, min, max, mod, floor, ceil, ... in any "
                                  "case): rename it");
        if (entry.second.IsMap()) {
            for (const auto& field : entry.second) {
                const std::string key = field.first.Scalar();
                if (key == "default")
                    param.default_value = integer(field.second, "parameter default");
                else if (key == "representative")
                    param.representative = field.second.as<bool>(false);
                else if (key == "description")
                    param.description = scalar(field.second, "description");
                else
                    fail(field.first, "unknown parameter key '" + key +
                                          "' (default, representative, description)");
            }
            if (!entry.second["default"])
                fail(entry.second, "parameter '" + param.name + "' needs a default value");
        } else {
            param.default_value = integer(entry.second, "parameter '" + param.name + "'");
        }
        if (spec_.find_param(param.name))
            fail(entry.first, "parameter '" + param.name + "' is declared twice");
        spec_.params.push_back(param);
    }
}

void FileParser::check_param_expression(const ExprPtr& expr, const YAML::Node& node,
                                        const std::string& what) const {
    std::vector<std::string> names;
    collect_variables(*expr, names);
    for (const auto& name : names)
        if (!spec_.find_param(name)) {
            // find where the name is written for the caret
            const std::string text = node.Scalar();
            size_t pos = text.find(name);
            throw_input_error(what + " uses '" + name + "', which is not a parameter",
                              inside(node, pos == std::string::npos ? 0 : static_cast<int>(pos)));
        }
}

void FileParser::parse_arrays(const YAML::Node& node) {
    if (!node.IsMap())
        fail(node, "arrays must be a mapping name: {dtype, shape, offset, space}");
    for (const auto& entry : node) {
        ArrayDecl array;
        array.name = entry.first.Scalar();
        array.where = at(entry.first);
        if (!is_identifier(array.name))
            fail(entry.first, "array name '" + array.name +
                                  "' is not a name: letters, digits and _, not starting with a "
                                  "digit");
        if (is_builtin_name(array.name) || spec_.find_param(array.name))
            fail(entry.first, "array name '" + array.name +
                                  "' is already a parameter or "
                                  "reserved name");
        if (spec_.find_array(array.name))
            fail(entry.first, "array '" + array.name + "' is declared twice");
        const YAML::Node fields = entry.second;
        if (!fields.IsMap())
            fail(fields, "array '" + array.name + "' must be a mapping {dtype, shape, ...}");
        for (const auto& field : fields) {
            const std::string key = field.first.Scalar();
            if (key != "dtype" && key != "shape" && key != "offset" && key != "space" &&
                key != "stage")
                fail(field.first,
                     "unknown array key '" + key + "' (dtype, shape, offset, space, stage)");
        }
        if (!fields["dtype"])
            fail(fields, "array '" + array.name + "' needs a dtype");
        const std::string dtype = scalar(fields["dtype"], "dtype");
        auto type = parse_data_type(dtype);
        if (!type)
            fail(fields["dtype"], "unknown dtype '" + dtype + "'",
                 {"known dtypes: i8 i16 i32 i64 u8 u16 u32 u64 f16 f32 f64 (or int32, "
                  "float64, ...)"});
        array.dtype = *type;
        if (fields["space"]) {
            const std::string space = scalar(fields["space"], "space");
            auto parsed = parse_memory_space(space);
            if (!parsed)
                fail(fields["space"],
                     "unknown memory space '" + space + "' (global, shared, constant, private)");
            array.space = *parsed;
        }
        if (fields["shape"]) {
            const YAML::Node shape = fields["shape"];
            if (!shape.IsSequence())
                fail(shape, "shape must be a list of extents, outermost first");
            for (const auto& extent : shape) {
                ExprPtr e = expression(extent, "extent");
                check_param_expression(e, extent, "extent");
                require_integer(*e, extent, "an extent");
                array.shape.push_back(e);
            }
        }
        if (fields["offset"]) {
            array.offset = expression(fields["offset"], "offset");
            check_param_expression(array.offset, fields["offset"], "offset");
            require_integer(*array.offset, fields["offset"], "an offset");
        }
        if (fields["stage"]) {
            const YAML::Node stage = fields["stage"];
            if (scalar(stage, "stage") != "shared")
                fail(stage, "stage must be 'shared' (each block copies what it reads of the "
                            "array into shared memory)");
            if (array.space != MemorySpace::global)
                fail(stage, std::string("only a global array can be staged in shared memory; '") +
                                array.name + "' is " + memory_space_name(array.space));
            if (array.shape.empty())
                fail(stage, "a scalar cannot be staged in shared memory; '" + array.name +
                                "' has no shape");
            array.stage_in_shared = true;
            array.stage_where = at(stage);
        }
        spec_.arrays.push_back(array);
    }
}

void FileParser::parse_domain(const YAML::Node& node) {
    spec_.domain = scalar(node, "domain");
    isl::Context ctx;
    ::isl::set set;
    try {
        set = isl::parse_set(ctx, spec_.domain);
    } catch (const isl::IslError& e) {
        throw_input_error(
            "isl rejects the domain: " + std::string(e.what()),
            e.offset() >= 0 ? inside(node, e.offset()) : at(node),
            {"the domain is an isl set such as \"[n] -> { [i, j] : 0 <= i, j < n }\""});
    }
    for (const auto& name : isl::dim_names(set, isl_dim_param))
        if (!spec_.find_param(name))
            fail(node, "the domain uses parameter '" + name + "', which is not declared in params");
    if (isl_set_dim(set.get(), isl_dim_div) < 0)
        fail(node, "isl rejects the domain");
    spec_.indices = isl::dim_names(set, isl_dim_set);
    for (size_t k = 0; k < spec_.indices.size(); ++k) {
        const std::string& index = spec_.indices[k];
        if (index.empty())
            fail(node, "every index of the domain needs a name, as in { [i, j] : ... }");
        if (is_builtin_name(index))
            fail(node, "index name '" + index +
                           "' is reserved (tx ty tz bx by bz fx fy fz name the launch)");
        if (spec_.find_param(index) || spec_.find_array(index))
            fail(node, "index '" + index + "' has the name of a parameter or array");
        if (std::count(spec_.indices.begin(), spec_.indices.end(), index) > 1)
            fail(node, "index '" + index + "' appears twice in the domain");
    }
    // Boundedness at the default parameter values.
    ::isl::set fixed = set;
    const auto params = isl::dim_names(set, isl_dim_param);
    for (size_t k = 0; k < params.size(); ++k)
        fixed = isl::checked("fixing a parameter", [&] {
            return isl::fix_param(fixed, static_cast<int>(k),
                                  spec_.find_param(params[k])->default_value);
        });
    if (isl_set_is_bounded(fixed.get()) != isl_bool_true)
        fail(node, "the domain is unbounded at the default parameter values",
             {"every index needs a lower and an upper bound"});
}

void FileParser::parse_mapping(const YAML::Node& node, std::array<std::string, axis_count>& target,
                               const std::string& key, std::set<int>& used_axes,
                               std::map<std::string, std::string>& used_indices) {
    if (!node.IsMap())
        fail(node, key + " must be a mapping axis: index, as in {x: i, y: j}");
    for (const auto& entry : node) {
        const std::string axis_text = entry.first.Scalar();
        int axis = -1;
        for (int a = 0; a < axis_count; ++a)
            if (axis_text == axis_name(a))
                axis = a;
        if (axis < 0)
            fail(entry.first, "unknown thread axis '" + axis_text + "' (x, y, z)");
        const std::string index = scalar(entry.second, "mapped index");
        if (used_axes.count(axis))
            fail(entry.first, "thread axis " + axis_text + " is mapped twice");
        if (!spec_.is_index(index))
            fail(
                entry.second, "undeclared index '" + index + "' (the domain's indices: " + [&] {
                    std::string all;
                    for (const auto& i : spec_.indices)
                        all += (all.empty() ? "" : ", ") + i;
                    return all;
                }() + ")");
        if (used_indices.count(index) && key != "locals")
            fail(entry.second,
                 "index '" + index + "' is already mapped (" + used_indices[index] + ")");
        if (used_indices.count(index))
            fail(entry.second,
                 "index '" + index + "' is already mapped (" + used_indices[index] + ")");
        used_indices[index] = key + "." + axis_text;
        used_axes.insert(axis);
        target[static_cast<size_t>(axis)] = index;
    }
}

std::array<std::int64_t, axis_count> FileParser::parse_triple(const YAML::Node& node,
                                                              const std::string& what) const {
    if (!node.IsSequence() || node.size() < 1 || node.size() > 3)
        fail(node, what + " must be a list of 1 to 3 positive integers [x, y, z]");
    std::array<std::int64_t, axis_count> values{1, 1, 1};
    for (size_t k = 0; k < node.size(); ++k) {
        values[k] = integer(node[k], what);
        if (values[k] < 1)
            fail(node[k], what + " entries must be positive");
    }
    return values;
}

void FileParser::parse_statements(const YAML::Node& node) {
    if (!node.IsSequence())
        fail(node, "statements must be a list");
    for (auto it = node.begin(); it != node.end(); ++it) {
        const YAML::Node item = *it;
        StatementSpec statement;
        YAML::Node text_node;
        if (item.IsScalar()) {
            text_node = item;
        } else if (item.IsMap()) {
            for (const auto& field : item) {
                const std::string key = field.first.Scalar();
                if (key != "do" && key != "barrier" && key != "within" && key != "id" &&
                    key != "where")
                    fail(field.first,
                         "unknown statement key '" + key + "' (do, barrier, within, where, id)");
            }
            if (item["do"] && item["barrier"])
                fail(item, "a statement is either 'do: ...' or 'barrier: local', not both");
            if (item["do"]) {
                text_node = item["do"];
            } else if (item["barrier"]) {
                const std::string scope = scalar(item["barrier"], "barrier");
                if (scope != "local")
                    fail(item["barrier"], "barrier scope must be 'local' (__syncthreads)");
                statement.kind = StatementKind::barrier;
                statement.text = "barrier";
                statement.where = at(item);
            } else {
                fail(item, "a statement mapping needs 'do: <statement>' or 'barrier: local'");
            }
            if (item["id"])
                statement.id = scalar(item["id"], "id");
            if (item["where"]) {
                statement.condition = expression(item["where"], "where");
                statement.condition_text = item["where"].Scalar();
                check_condition(statement.condition, item["where"]);
            }
            if (item["within"]) {
                const YAML::Node within = item["within"];
                if (!within.IsSequence())
                    fail(within, "within must be a list of indices");
                for (const auto& index : within) {
                    const std::string name = scalar(index, "index");
                    if (!spec_.is_index(name))
                        fail(index, "undeclared index '" + name + "'");
                    statement.within.push_back(name);
                }
            }
        } else {
            fail(item, "a statement is a string or a mapping {do: ..., within: [...]}");
        }
        if (statement.kind == StatementKind::compute) {
            statement.text = scalar(text_node, "statement");
            statement.where = inside(text_node, 0);
            try {
                statement.parsed = parse_statement(statement.text);
            } catch (const ExpressionError& e) {
                throw_input_error(e.what(), inside(text_node, e.offset()));
            }
            check_statement(statement.parsed, text_node);
        }
        spec_.statements.push_back(statement);
    }
    if (spec_.statements.empty())
        fail(node, "a kernel needs at least one statement");
}

void FileParser::check_statement(const Statement& statement, const YAML::Node& node) const {
    std::vector<std::string> bound;
    check_array_ref(statement.target, node, bound);
    const ArrayDecl* target = spec_.find_array(statement.target->name);
    if (statement.atomic && target->space == MemorySpace::private_)
        throw_input_error("an atomic needs an array in global or shared memory, '" + target->name +
                              "' is private",
                          inside(node, statement.target->offset));
    if (statement.compare)
        check_value(statement.compare, node, bound);
    if (statement.value)
        check_value(statement.value, node, bound);
}

void FileParser::check_array_ref(const ExprPtr& ref, const YAML::Node& node,
                                 std::vector<std::string>& bound) const {
    const ArrayDecl* array = spec_.find_array(ref->name);
    if (!array) {
        if (is_builtin_function(ref->name) || ref->name == "sum" || ref->name == "prod")
            throw_input_error("'" + ref->name + "' is a function: call it with ( )",
                              inside(node, ref->offset));
        throw_input_error("undeclared array '" + ref->name + "'", inside(node, ref->offset),
                          {"declare it under arrays: with dtype and shape"});
    }
    if (ref->operands.size() != array->shape.size())
        throw_input_error("rank mismatch: '" + ref->name + "' has " +
                              std::to_string(array->shape.size()) + " dimension(s), the " +
                              "subscript has " + std::to_string(ref->operands.size()),
                          inside(node, ref->offset));
    for (const auto& subscript : ref->operands) {
        // A subscript that reads an array is data-dependent (indirect); it is allowed and
        // marked as such in the analysis. Every other subscript must be affine.
        bool indirect = false;
        std::function<void(const Expr&)> scan = [&](const Expr& e) {
            if (e.kind == ExprKind::array_ref)
                indirect = true;
            for (const auto& operand : e.operands)
                scan(*operand);
        };
        scan(*subscript);
        // Private arrays live in registers; their subscripts are not addresses.
        if (indirect || array->space == MemorySpace::private_) {
            check_value(subscript, node, bound);
            if (const Expr* real = real_valued_part(*subscript))
                throw_input_error("subscript of '" + ref->name +
                                      "' must be an integer expression; '" + to_string(*real) +
                                      "' is not an integer",
                                  inside(node, real->offset));
            continue;
        }
        try {
            to_affine(*subscript);
        } catch (const ExpressionError& e) {
            throw_input_error("subscript of '" + ref->name +
                                  "' must be affine in the indices "
                                  "and parameters; " +
                                  e.what(),
                              inside(node, e.offset()));
        }
        check_value(subscript, node, bound);
    }
}

// The first part of a data-dependent subscript whose value is not an integer (as C++ would
// refuse it for an index): a real literal, a read of a floating-point array or scalar, or a
// function other than min, max and abs; nullptr when there is none. A nested read's own
// subscripts are checked where that read is.
const Expr* FileParser::real_valued_part(const Expr& e) const {
    switch (e.kind) {
    case ExprKind::real:
        return &e;
    case ExprKind::array_ref:
    case ExprKind::variable:
        if (const ArrayDecl* array = spec_.find_array(e.name))
            return is_floating(array->dtype) ? &e : nullptr;
        return nullptr;
    case ExprKind::call:
        if (e.name != "min" && e.name != "max" && e.name != "abs")
            return &e;
        break;
    default:
        break;
    }
    for (const auto& operand : e.operands)
        if (const Expr* real = real_valued_part(*operand))
            return real;
    return nullptr;
}

void FileParser::check_value(const ExprPtr& expr, const YAML::Node& node,
                             std::vector<std::string>& bound) const {
    const Expr& e = *expr;
    switch (e.kind) {
    case ExprKind::variable:
        if (spec_.is_index(e.name) || spec_.find_param(e.name) || is_builtin_name(e.name) ||
            std::find(bound.begin(), bound.end(), e.name) != bound.end())
            return;
        if (const ArrayDecl* array = spec_.find_array(e.name)) {
            if (!array->shape.empty())
                throw_input_error("rank mismatch: '" + e.name + "' has " +
                                      std::to_string(array->shape.size()) +
                                      " dimension(s) and is used without a subscript",
                                  inside(node, e.offset));
            return;
        }
        throw_input_error("undeclared name '" + e.name +
                              "' (not an index, parameter, array or builtin)",
                          inside(node, e.offset));
    case ExprKind::array_ref:
        check_array_ref(expr, node, bound);
        return;
    case ExprKind::call:
        if (!is_builtin_function(e.name))
            throw_input_error("unknown function '" + e.name + "'", inside(node, e.offset));
        break;
    case ExprKind::reduction: {
        for (size_t k = 0; k < e.reduction_indices.size(); ++k) {
            const std::string& index = e.reduction_indices[k];
            if (!spec_.is_index(index))
                throw_input_error("undeclared index '" + index + "' in " + e.name + "(...)",
                                  inside(node, e.reduction_index_offsets[k]));
        }
        const size_t depth = bound.size();
        bound.insert(bound.end(), e.reduction_indices.begin(), e.reduction_indices.end());
        check_value(e.operands[0], node, bound);
        bound.resize(depth);
        return;
    }
    default:
        break;
    }
    for (const auto& operand : e.operands)
        check_value(operand, node, bound);
}

void FileParser::check_condition(const ExprPtr& condition, const YAML::Node& node) const {
    const Expr& e = *condition;
    if (e.kind == ExprKind::binary &&
        (e.op == BinaryOp::logical_and || e.op == BinaryOp::logical_or)) {
        check_condition(e.operands[0], node);
        check_condition(e.operands[1], node);
        return;
    }
    if (e.kind != ExprKind::binary || !is_comparison(e.op) || e.op == BinaryOp::not_equal)
        throw_input_error("a where-condition compares affine expressions with < <= > >= == "
                          "and joins them with && or ||",
                          inside(node, e.offset));
    for (const auto& side : e.operands) {
        try {
            AffineForm form = to_affine(*side);
            for (const auto& [name, coefficient] : form.coefficients)
                if (!spec_.is_index(name) && !spec_.find_param(name) && !is_builtin_name(name))
                    throw ExpressionError("undeclared name '" + name + "'", side->offset);
        } catch (const ExpressionError& error) {
            throw_input_error(std::string("where-condition: ") + error.what(),
                              inside(node, error.offset()));
        }
    }
}

} // namespace

// Offset of the first byte that is not part of well-formed UTF-8 (RFC 3629), or npos.
static size_t invalid_utf8_at(const std::string& text) {
    size_t k = 0;
    while (k < text.size()) {
        const auto byte = static_cast<unsigned char>(text[k]);
        size_t length = byte < 0x80           ? 1
                        : (byte >> 5) == 0x6  ? 2
                        : (byte >> 4) == 0xe  ? 3
                        : (byte >> 3) == 0x1e ? 4
                                              : 0;
        if (length == 0 || k + length > text.size())
            return k;
        std::uint32_t code = length == 1 ? byte : byte & (0x7f >> length);
        for (size_t j = 1; j < length; ++j) {
            const auto next = static_cast<unsigned char>(text[k + j]);
            if ((next & 0xc0) != 0x80)
                return k;
            code = (code << 6) | (next & 0x3f);
        }
        const std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
        if (code < smallest[length] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
            return k;
        k += length;
    }
    return std::string::npos;
}

KernelSpec parse_kernel_text(const std::string& text, const std::string& file_name) {
    if (text.size() > kernel_file_limit_bytes)
        throw_input_error("the kernel file is larger than " +
                              std::to_string(kernel_file_limit_bytes >> 20) + " MiB (" +
                              std::to_string(text.size()) + " bytes): not parsed",
                          SourceLocation{file_name, 0, 0, {}, {}});
    if (const size_t bad = invalid_utf8_at(text); bad != std::string::npos) {
        const size_t line_start = text.rfind('\n', bad == 0 ? 0 : bad - 1);
        const size_t first = line_start == std::string::npos || bad == 0 ? 0 : line_start + 1;
        SourceLocation where;
        where.file = file_name;
        where.line = 1 + static_cast<int>(std::count(
                             text.begin(), text.begin() + static_cast<long>(first), '\n'));
        where.column = 1 + static_cast<int>(bad - first);
        throw_input_error("the kernel file is not valid UTF-8 (byte " + std::to_string(bad) + ")",
                          where);
    }
    FileParser parser(text, file_name);
    return parser.parse(text);
}

KernelSpec load_kernel_file(const std::string& path) {
    return parse_kernel_text(read_input_file(path, "kernel file", kernel_file_limit_bytes), path);
}

} // namespace kerncast::kernel
