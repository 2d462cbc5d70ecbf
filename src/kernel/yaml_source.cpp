#include "kerncast/kernel/yaml_source.hpp"

#include <sstream>

namespace kerncast::kernel {

YamlSource::YamlSource(const std::string& text, std::string file) : file_(std::move(file)) {
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
        lines_.push_back(line);
}

const std::string& YamlSource::line(int line0) const {
    static const std::string none;
    return line0 >= 0 && line0 < line_count() ? lines_[static_cast<size_t>(line0)] : none;
}

SourceLocation YamlSource::at_mark(int line0, int column0) const {
    SourceLocation where;
    where.file = file_;
    where.line = line0 + 1;
    where.column = column0 + 1;
    where.source_line = line(line0);
    return where;
}

SourceLocation YamlSource::at(const YAML::Node& node) const {
    return at_mark(node.Mark().line, node.Mark().column);
}

void YamlSource::fail(const YAML::Node& node, const std::string& message,
                      std::vector<std::string> notes) const {
    throw_input_error(message, at(node), std::move(notes));
}

std::string YamlSource::scalar(const YAML::Node& node, const std::string& what) const {
    if (!node.IsScalar())
        fail(node, what + " must be a single value");
    return node.Scalar();
}

} // namespace kerncast::kernel
