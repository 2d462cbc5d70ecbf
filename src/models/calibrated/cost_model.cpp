// Model files (cost_model.hpp; docs/model-format.md): YAML read with yaml-cpp, whose marks
// give each scalar's line and column; an error inside an expression is located at its
// character, also in block scalars (| and >) and plain scalars continued over lines.
#include "kerncast/models/calibrated/cost_model.hpp"

#include "kerncast/closest_names.hpp"
#include "kerncast/error.hpp"
#include "kerncast/input_file.hpp"
#include "kerncast/kernel/yaml_source.hpp"
#include "kerncast/kernel/yaml_structure.hpp"

#include <cmath>
#include <set>
#include <sstream>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

namespace kerncast::models::calibrated {

namespace {

bool is_identifier(const std::string& name) {
    if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
        return false;
    for (char c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
            return false;
    return true;
}

// Checks shared by model files and models built in code; `where(part, offset)` locates an
// offset inside a part ("output", "expression", a definition's name).
template <class Where> void compile_model(CostModel& model, Where where) {
    auto rethrow = [&](const ModelSyntaxError& e, const std::string& part) {
        std::vector<std::string> notes;
        if (!e.suggestions().empty()) {
            std::string list;
            for (const auto& s : e.suggestions())
                list += (list.empty() ? "" : ", ") + s;
            notes.push_back("did you mean " + list + "?");
        }
        throw_input_error(part + ": " + e.what(), where(part, e.offset()), notes);
    };
    try {
        model.output = parse_feature(model.output.name);
    } catch (const FeatureError& e) {
        rethrow(ModelSyntaxError(e.what(), e.offset(), e.suggestions()), "output");
    }
    for (const auto& [name, text] : model.definitions) {
        if (!is_identifier(name) || name.rfind("f_", 0) == 0 || name.rfind("p_", 0) == 0)
            throw_input_error("let: '" + name +
                                  "' cannot name a definition: use a name such as c_gmem "
                                  "(letters, digits, '_'; not starting with f_ or p_)",
                              where("let " + name, -1));
        if (model.symbols.definitions.count(name))
            throw_input_error("let: '" + name + "' is defined twice", where("let " + name, -1));
        try {
            model.symbols.definitions[name] = parse_model_expression(text, model.symbols);
        } catch (const ModelSyntaxError& e) {
            rethrow(e, "let " + name);
        }
    }
    try {
        model.tree = parse_model_expression(model.expression_text, model.symbols);
    } catch (const ModelSyntaxError& e) {
        rethrow(e, "expression");
    }
    for (const auto& feature : model.symbols.features)
        if (feature.measured())
            throw_input_error("the expression uses the measured feature '" + feature.name +
                                  "': input features are computed from the kernel",
                              where("expression", -1));
    if (model.output.kind != FeatureKind::time)
        throw_input_error("output: '" + model.output.name +
                              "' is not measured; kerncast calibrates models of the measured "
                              "time (f_time, f_time_min, f_time_mean)",
                          where("output", 0));
    // Parameters: declared ones keep their settings, used ones not declared start at 0.
    std::vector<ParameterSpec> declared = std::move(model.parameters);
    model.parameters.clear();
    for (const auto& name : model.symbols.parameters) {
        ParameterSpec spec;
        spec.name = name;
        for (const auto& d : declared)
            if (d.name == name)
                spec = d;
        model.parameters.push_back(spec);
    }
    for (const auto& d : declared)
        if (std::find(model.symbols.parameters.begin(), model.symbols.parameters.end(), d.name) ==
            model.symbols.parameters.end())
            throw_input_error("parameters: '" + d.name + "' is not used by the expression",
                              where("parameter " + d.name, -1), {"the expression uses: " + [&] {
                                  std::string list;
                                  for (const auto& p : model.symbols.parameters)
                                      list += (list.empty() ? "" : ", ") + p;
                                  return list.empty() ? std::string("no parameters") : list;
                              }()});
    for (const auto& p : model.parameters)
        if (p.min && p.max && *p.min > *p.max)
            throw_input_error("parameters: " + p.name + " has min > max",
                              where("parameter " + p.name, -1));
    model.expression = CompiledExpression(model.tree);
}

class ModelFileParser {
public:
    ModelFileParser(const std::string& text, std::string file) : source_(text, std::move(file)) {}

    CostModel parse(const std::string& text);

private:
    kernel::YamlSource source_;
    std::map<std::string, YAML::Node> parts_; // "expression", "let NAME", ... -> its node

    SourceLocation at_mark(int line0, int column0) const { return source_.at_mark(line0, column0); }
    SourceLocation at(const YAML::Node& node) const { return source_.at(node); }
    std::string line(int index) const { return source_.line(index); }
    // The file position of character `offset` of a string scalar: single-line and quoted
    // scalars by column; block scalars (| >) and multi-line plain scalars by walking their
    // lines (each line break is one character of the value: '\n' or a folded space).
    SourceLocation inside(const YAML::Node& node, int offset) const {
        const YAML::Mark mark = node.Mark();
        if (offset < 0)
            return at(node);
        std::string first = line(mark.line);
        std::size_t column = static_cast<std::size_t>(std::max(mark.column, 0));
        const bool block = column < first.size() && (first[column] == '|' || first[column] == '>');
        int row = mark.line;
        std::size_t indent = 0;
        if (block) {
            row = mark.line + 1;
            while (row < source_.line_count() &&
                   line(row).find_first_not_of(' ') == std::string::npos)
                ++row;
            indent = line(row).find_first_not_of(' ');
            if (indent == std::string::npos)
                indent = 0;
            column = indent;
        } else if (column < first.size() && (first[column] == '"' || first[column] == '\'')) {
            ++column;
        }
        // An error at the end of a value that ends in line breaks is at its last character.
        const std::string& value = node.Scalar();
        const std::size_t end = value.find_last_not_of(" \t\n");
        std::size_t remaining =
            std::min(static_cast<std::size_t>(offset), end == std::string::npos ? 0 : end + 1);
        SourceLocation last = at(node); // past the value's end: the end of its last line
        for (; row < source_.line_count(); ++row) {
            const std::string text = line(row);
            if (row != mark.line && !block) {
                column = text.find_first_not_of(" \t");
                if (column == std::string::npos)
                    column = text.size();
            } else if (row != mark.line + 1 && block) {
                column = std::min(indent, text.size());
            }
            const std::size_t length = text.size() > column ? text.size() - column : 0;
            if (remaining <= length)
                return at_mark(row, static_cast<int>(column + remaining));
            if (length > 0)
                last = at_mark(row, static_cast<int>(column + length));
            remaining -= length + 1;
        }
        return last;
    }
    [[noreturn]] void fail(const YAML::Node& node, const std::string& message,
                           std::vector<std::string> notes = {}) const {
        source_.fail(node, message, std::move(notes));
    }
    std::string scalar(const YAML::Node& node, const std::string& what) const {
        if (!node.IsScalar())
            fail(node, what + " must be a single value (a string)");
        return node.Scalar();
    }
    double number(const YAML::Node& node, const std::string& what) const {
        const std::string text = scalar(node, what);
        try {
            std::size_t used = 0;
            const double value = std::stod(text, &used);
            if (used == text.size() && std::isfinite(value))
                return value;
        } catch (const std::exception&) {
        }
        fail(node, what + " must be a finite number, got '" + text + "'");
    }
    void check_keys(const YAML::Node& map, const std::vector<std::string>& allowed) const {
        for (const auto& entry : map) {
            const std::string key = entry.first.Scalar();
            if (std::find(allowed.begin(), allowed.end(), key) != allowed.end())
                continue;
            std::vector<std::string> notes;
            const auto close = closest_names(key, allowed, 1);
            if (!close.empty())
                notes.push_back("did you mean '" + close.front() + "'?");
            std::string list;
            for (const auto& k : allowed)
                list += (list.empty() ? "" : ", ") + k;
            notes.push_back("allowed keys: " + list);
            fail(entry.first, "unknown key '" + key + "'", notes);
        }
    }
    // No key twice, no alias cycle, no alias explosion (kernel/yaml_structure.hpp).
    void reject_duplicate_keys(const YAML::Node& node) const {
        if (const auto problem = kernel::yaml_structure_problem(node))
            fail(problem->node, problem->message);
    }
    ParameterSpec parameter(const std::string& name, const YAML::Node& node) const;
};

ParameterSpec ModelFileParser::parameter(const std::string& name, const YAML::Node& node) const {
    ParameterSpec p;
    p.name = name;
    if (node.IsScalar()) {
        p.initial = number(node, "parameter " + name + ": the initial value");
        return p;
    }
    if (!node.IsMap())
        fail(node, "parameter " + name +
                       ": expected an initial value or {initial, min, max, description}");
    check_keys(node, {"initial", "min", "max", "description"});
    if (node["initial"])
        p.initial = number(node["initial"], "parameter " + name + ": initial");
    if (node["min"])
        p.min = number(node["min"], "parameter " + name + ": min");
    if (node["max"])
        p.max = number(node["max"], "parameter " + name + ": max");
    if (node["description"])
        p.description = scalar(node["description"], "parameter " + name + ": description");
    if ((p.min && p.initial < *p.min) || (p.max && p.initial > *p.max))
        fail(node, "parameter " + name + ": the initial value lies outside [min, max]");
    return p;
}

CostModel ModelFileParser::parse(const std::string& text) {
    YAML::Node root;
    try {
        root = YAML::Load(text);
    } catch (const YAML::DeepRecursion& e) {
        throw_input_error("YAML nested too deeply", at_mark(e.mark.line, e.mark.column));
    } catch (const YAML::ParserException& e) {
        throw_input_error("YAML syntax error: " + e.msg, at_mark(e.mark.line, e.mark.column));
    }
    if (!root.IsMap())
        throw_input_error("a model file is a mapping with name, output and expression",
                          at_mark(0, 0));
    reject_duplicate_keys(root);
    check_keys(root,
               {"name", "description", "source", "output", "let", "expression", "parameters"});
    CostModel model;
    model.file = source_.file();
    model.text = text;
    for (const char* key : {"name", "output", "expression"})
        if (!root[key])
            throw_input_error(std::string("missing key '") + key + "'", at_mark(0, 0));
    model.name = scalar(root["name"], "name");
    if (model.name.empty())
        fail(root["name"], "name: expected the model's name");
    for (char c : model.name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-')
            fail(root["name"], "name: letters, digits, '_' and '-' only");
    if (root["description"])
        model.description = scalar(root["description"], "description");
    if (root["source"])
        model.source = scalar(root["source"], "source");
    model.output.name = scalar(root["output"], "output");
    parts_["output"] = root["output"];
    model.expression_text = scalar(root["expression"], "expression");
    parts_["expression"] = root["expression"];
    if (const YAML::Node let = root["let"]) {
        if (!let.IsMap())
            fail(let, "let: expected a mapping of names to expressions");
        for (const auto& entry : let) {
            const std::string name = entry.first.Scalar();
            model.definitions.emplace_back(name, scalar(entry.second, "let " + name));
            parts_["let " + name] = entry.second;
            parts_["let name " + name] = entry.first;
        }
    }
    if (const YAML::Node parameters = root["parameters"]) {
        if (!parameters.IsMap())
            fail(parameters, "parameters: expected a mapping of parameter names");
        for (const auto& entry : parameters) {
            const std::string name = entry.first.Scalar();
            if (name.rfind("p_", 0) != 0 || name.size() < 3 || !is_identifier(name))
                fail(entry.first, "parameters: '" + name + "' is not a parameter name (p_...)");
            model.parameters.push_back(parameter(name, entry.second));
            parts_["parameter " + name] = entry.first;
        }
    }
    compile_model(model, [&](const std::string& part, int offset) {
        if (offset < 0 && parts_.count("let name " + part.substr(part.find(' ') + 1)) &&
            part.rfind("let ", 0) == 0)
            return at(parts_.at("let name " + part.substr(4)));
        const auto found = parts_.find(part);
        if (found == parts_.end())
            return at_mark(0, 0);
        return inside(found->second, offset);
    });
    return model;
}

} // namespace

CostModel make_cost_model(const std::string& name, const std::string& output,
                          const std::string& expression,
                          const std::vector<std::pair<std::string, std::string>>& definitions,
                          const std::vector<ParameterSpec>& parameters) {
    CostModel model;
    model.name = name;
    model.output.name = output;
    model.expression_text = expression;
    model.definitions = definitions;
    model.parameters = parameters;
    compile_model(model, [&](const std::string& part, int offset) {
        SourceLocation where;
        where.file = "model " + name + ", " + part;
        where.column = offset < 0 ? 0 : offset + 1;
        return where;
    });
    return model;
}

CostModel parse_cost_model(const std::string& text, const std::string& origin) {
    return ModelFileParser(text, origin).parse(text);
}

CostModel load_cost_model(const std::string& path) {
    return parse_cost_model(read_input_file(path, "model file"), path);
}

} // namespace kerncast::models::calibrated
