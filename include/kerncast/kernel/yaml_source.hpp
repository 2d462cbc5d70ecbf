// Where a node of a YAML input is, for its error messages: the file as the user named it and
// its lines, shared by the readers of kernel files, cost-model files and search spaces.
#pragma once

#include "kerncast/error.hpp"

#include <string>
#include <vector>
#include <yaml-cpp/yaml.h>

namespace kerncast::kernel {

class YamlSource {
public:
    YamlSource(const std::string& text, std::string file);

    const std::string& file() const { return file_; }
    int line_count() const { return static_cast<int>(lines_.size()); }
    // Line `line0` (0-based, as yaml-cpp counts), or "" outside the text.
    const std::string& line(int line0) const;
    // yaml-cpp's 0-based mark as a 1-based location carrying the line's text.
    SourceLocation at_mark(int line0, int column0) const;
    SourceLocation at(const YAML::Node& node) const;
    // Input Error at `node`.
    [[noreturn]] void fail(const YAML::Node& node, const std::string& message,
                           std::vector<std::string> notes = {}) const;
    // The node's scalar text; Input Error "WHAT must be a single value" otherwise.
    std::string scalar(const YAML::Node& node, const std::string& what) const;

private:
    std::string file_;
    std::vector<std::string> lines_;
};

} // namespace kerncast::kernel
