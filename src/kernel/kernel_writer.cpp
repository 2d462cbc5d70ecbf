// KernelSpec -> YAML through yaml-cpp's emitter (it quotes what needs quoting).
#include "kerncast/kernel/kernel_writer.hpp"

#include <sstream>
#include <yaml-cpp/yaml.h>

namespace kerncast::kernel {
namespace {

void write_mapping(YAML::Emitter& out, const char* key,
                   const std::array<std::string, axis_count>& indices) {
    bool any = false;
    for (const auto& index : indices)
        any = any || !index.empty();
    if (!any)
        return;
    out << YAML::Key << key << YAML::Value << YAML::Flow << YAML::BeginMap;
    for (int axis = 0; axis < axis_count; ++axis)
        if (!indices[static_cast<size_t>(axis)].empty())
            out << YAML::Key << axis_name(axis) << YAML::Value
                << indices[static_cast<size_t>(axis)];
    out << YAML::EndMap;
}

// [x, y, z] without trailing ones (at least one entry), as a kernel file writes it.
void write_triple(YAML::Emitter& out, const std::array<std::int64_t, axis_count>& values) {
    size_t used = axis_count;
    while (used > 1 && values[used - 1] == 1)
        --used;
    out << YAML::Flow << YAML::BeginSeq;
    for (size_t k = 0; k < used; ++k)
        out << values[k];
    out << YAML::EndSeq;
}

void write_params(YAML::Emitter& out, const KernelSpec& spec) {
    if (spec.params.empty())
        return;
    bool plain = true;
    for (const auto& param : spec.params)
        plain = plain && !param.representative && param.description.empty();
    out << YAML::Key << "params" << YAML::Value;
    if (plain)
        out << YAML::Flow;
    out << YAML::BeginMap;
    for (const auto& param : spec.params) {
        out << YAML::Key << param.name << YAML::Value;
        if (param.representative || !param.description.empty()) {
            out << YAML::Flow << YAML::BeginMap << YAML::Key << "default" << YAML::Value
                << param.default_value;
            if (param.representative)
                out << YAML::Key << "representative" << YAML::Value << true;
            if (!param.description.empty())
                out << YAML::Key << "description" << YAML::Value << YAML::DoubleQuoted
                    << param.description;
            out << YAML::EndMap;
        } else {
            out << param.default_value;
        }
    }
    out << YAML::EndMap;
}

void write_arrays(YAML::Emitter& out, const KernelSpec& spec) {
    if (spec.arrays.empty())
        return;
    out << YAML::Key << "arrays" << YAML::Value << YAML::BeginMap;
    for (const auto& array : spec.arrays) {
        out << YAML::Key << array.name << YAML::Value << YAML::Flow << YAML::BeginMap;
        out << YAML::Key << "dtype" << YAML::Value << data_type_name(array.dtype);
        if (!array.shape.empty()) {
            out << YAML::Key << "shape" << YAML::Value << YAML::Flow << YAML::BeginSeq;
            for (const auto& extent : array.shape)
                out << to_string(*extent);
            out << YAML::EndSeq;
        }
        if (array.offset)
            out << YAML::Key << "offset" << YAML::Value << to_string(*array.offset);
        if (array.space != MemorySpace::global)
            out << YAML::Key << "space" << YAML::Value << memory_space_name(array.space);
        if (array.stage_in_shared)
            out << YAML::Key << "stage" << YAML::Value << "shared";
        out << YAML::EndMap;
    }
    out << YAML::EndMap;
}

void write_statement(YAML::Emitter& out, const StatementSpec& statement) {
    const bool plain = statement.kind == StatementKind::compute && statement.id.empty() &&
                       statement.within.empty() && statement.condition_text.empty();
    if (plain) {
        out << YAML::DoubleQuoted << statement.text;
        return;
    }
    const bool long_form = !statement.condition_text.empty();
    if (!long_form)
        out << YAML::Flow;
    out << YAML::BeginMap;
    if (!statement.id.empty())
        out << YAML::Key << "id" << YAML::Value << statement.id;
    if (statement.kind == StatementKind::barrier)
        out << YAML::Key << "barrier" << YAML::Value << "local";
    else
        out << YAML::Key << "do" << YAML::Value << YAML::DoubleQuoted << statement.text;
    if (!statement.within.empty()) {
        out << YAML::Key << "within" << YAML::Value << YAML::Flow << YAML::BeginSeq;
        for (const auto& index : statement.within)
            out << index;
        out << YAML::EndSeq;
    }
    if (!statement.condition_text.empty())
        out << YAML::Key << "where" << YAML::Value << YAML::DoubleQuoted
            << statement.condition_text;
    out << YAML::EndMap;
}

} // namespace

std::string write_kernel_yaml(const KernelSpec& spec, const std::string& header_comment) {
    YAML::Emitter out;
    out.SetIndent(2);
    out << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << spec.name;
    if (!spec.description.empty())
        out << YAML::Key << "description" << YAML::Value << spec.description;
    write_params(out, spec);
    if (!spec.assumptions.empty()) {
        out << YAML::Key << "assume" << YAML::Value << YAML::Flow << YAML::BeginSeq;
        for (const auto& assumption : spec.assumptions)
            out << YAML::DoubleQuoted << assumption;
        out << YAML::EndSeq;
    }
    write_arrays(out, spec);
    out << YAML::Key << "domain" << YAML::Value << YAML::DoubleQuoted << spec.domain;
    write_mapping(out, "threads", spec.threads.global);
    write_mapping(out, "blocks", spec.threads.block);
    write_mapping(out, "locals", spec.threads.local);
    const LaunchConfig defaults;
    if (spec.launch.block != defaults.block || spec.launch.fold != defaults.fold) {
        out << YAML::Key << "launch" << YAML::Value << YAML::Flow << YAML::BeginMap;
        out << YAML::Key << "block" << YAML::Value;
        write_triple(out, spec.launch.block);
        if (spec.launch.fold != defaults.fold) {
            out << YAML::Key << "fold" << YAML::Value;
            write_triple(out, spec.launch.fold);
            if (spec.launch.fold_placement == FoldPlacement::strided)
                out << YAML::Key << "fold_placement" << YAML::Value << "strided";
        }
        out << YAML::EndMap;
    }
    if (spec.registers_per_thread)
        out << YAML::Key << "registers_per_thread" << YAML::Value << *spec.registers_per_thread;
    out << YAML::Key << "statements" << YAML::Value << YAML::BeginSeq;
    for (const auto& statement : spec.statements)
        write_statement(out, statement);
    out << YAML::EndSeq << YAML::EndMap;

    std::ostringstream text;
    std::istringstream comment(header_comment);
    std::string line;
    while (std::getline(comment, line))
        text << (line.empty() ? "#" : "# " + line) << "\n";
    text << out.c_str() << "\n";
    return text.str();
}

} // namespace kerncast::kernel
