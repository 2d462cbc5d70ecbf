#include "kerncast/kernel/kernel_spec.hpp"

#include "../support/isl_support.hpp"
#include "kerncast/error.hpp"
#include "kerncast/support/memo.hpp"

#include <algorithm>
#include <isl/cpp.h>
#include <map>

namespace kerncast::kernel {

std::optional<DataType> parse_data_type(const std::string& name) {
    static const std::map<std::string, DataType> names = {
        {"i8", DataType::i8},       {"int8", DataType::i8},     {"i16", DataType::i16},
        {"int16", DataType::i16},   {"i32", DataType::i32},     {"int32", DataType::i32},
        {"i64", DataType::i64},     {"int64", DataType::i64},   {"u8", DataType::u8},
        {"uint8", DataType::u8},    {"u16", DataType::u16},     {"uint16", DataType::u16},
        {"u32", DataType::u32},     {"uint32", DataType::u32},  {"u64", DataType::u64},
        {"uint64", DataType::u64},  {"f16", DataType::f16},     {"float16", DataType::f16},
        {"f32", DataType::f32},     {"float32", DataType::f32}, {"f64", DataType::f64},
        {"float64", DataType::f64},
    };
    auto found = names.find(name);
    if (found == names.end())
        return std::nullopt;
    return found->second;
}

const char* data_type_name(DataType type) {
    switch (type) {
    case DataType::i8:
        return "i8";
    case DataType::i16:
        return "i16";
    case DataType::i32:
        return "i32";
    case DataType::i64:
        return "i64";
    case DataType::u8:
        return "u8";
    case DataType::u16:
        return "u16";
    case DataType::u32:
        return "u32";
    case DataType::u64:
        return "u64";
    case DataType::f16:
        return "f16";
    case DataType::f32:
        return "f32";
    case DataType::f64:
        return "f64";
    }
    return "?";
}

int data_type_bytes(DataType type) {
    switch (type) {
    case DataType::i8:
    case DataType::u8:
        return 1;
    case DataType::i16:
    case DataType::u16:
    case DataType::f16:
        return 2;
    case DataType::i32:
    case DataType::u32:
    case DataType::f32:
        return 4;
    case DataType::i64:
    case DataType::u64:
    case DataType::f64:
        return 8;
    }
    return 0;
}

bool is_floating(DataType type) {
    return type == DataType::f16 || type == DataType::f32 || type == DataType::f64;
}

std::optional<MemorySpace> parse_memory_space(const std::string& name) {
    if (name == "global")
        return MemorySpace::global;
    if (name == "shared" || name == "local")
        return MemorySpace::shared;
    if (name == "constant")
        return MemorySpace::constant;
    if (name == "private" || name == "register")
        return MemorySpace::private_;
    return std::nullopt;
}

const char* memory_space_name(MemorySpace space) {
    switch (space) {
    case MemorySpace::global:
        return "global";
    case MemorySpace::shared:
        return "shared";
    case MemorySpace::constant:
        return "constant";
    case MemorySpace::private_:
        return "private";
    }
    return "?";
}

const char* axis_name(int axis) {
    static const char* names[] = {"x", "y", "z"};
    return axis >= 0 && axis < axis_count ? names[axis] : "?";
}

bool is_builtin_name(const std::string& name) {
    // tx ty tz, bx by bz, fx fy fz
    return name.size() == 2 && (name[0] == 't' || name[0] == 'b' || name[0] == 'f') &&
           (name[1] == 'x' || name[1] == 'y' || name[1] == 'z');
}

void collect_launch_names(const Expr& expr, std::set<std::string>& names) {
    if (expr.kind == ExprKind::variable && is_builtin_name(expr.name))
        names.insert(expr.name);
    for (const ExprPtr& operand : expr.operands)
        if (operand)
            collect_launch_names(*operand, names);
}

namespace {

bool any_launch_name(const Expr& expr) {
    if (expr.kind == ExprKind::variable && is_builtin_name(expr.name))
        return true;
    for (const ExprPtr& operand : expr.operands)
        if (operand && any_launch_name(*operand))
            return true;
    return false;
}

} // namespace

bool names_launch(const StatementSpec& statement) {
    for (const ExprPtr& e : {statement.parsed.target, statement.parsed.value,
                             statement.parsed.compare, statement.condition})
        if (e && any_launch_name(*e))
            return true;
    return false;
}

const ArrayDecl* KernelSpec::find_array(const std::string& array_name) const {
    for (const auto& array : arrays)
        if (array.name == array_name)
            return &array;
    return nullptr;
}

const Parameter* KernelSpec::find_param(const std::string& param_name) const {
    for (const auto& param : params)
        if (param.name == param_name)
            return &param;
    return nullptr;
}

bool KernelSpec::is_index(const std::string& index_name) const {
    return std::find(indices.begin(), indices.end(), index_name) != indices.end();
}

std::vector<std::pair<std::string, std::int64_t>>
KernelSpec::param_values(const std::vector<std::pair<std::string, std::int64_t>>& overrides) const {
    std::vector<std::pair<std::string, std::int64_t>> values;
    for (const auto& param : params)
        values.emplace_back(param.name, param.default_value);
    for (const auto& override_entry : overrides) {
        // (no structured binding: clang 14 cannot capture one in the lambda below)
        const std::string& override_name = override_entry.first;
        const std::int64_t value = override_entry.second;
        auto slot = std::find_if(values.begin(), values.end(),
                                 [&](const auto& entry) { return entry.first == override_name; });
        if (slot == values.end()) {
            std::string known;
            for (const auto& param : params)
                known += (known.empty() ? "" : ", ") + param.name;
            throw_input_error("kernel '" + name + "' has no parameter '" + override_name + "'", {},
                              {"parameters: " + (known.empty() ? "(none)" : known)});
        }
        slot->second = value;
    }
    check_param_values(values);
    return values;
}

void KernelSpec::check_param_values(
    const std::vector<std::pair<std::string, std::int64_t>>& values) const {
    auto values_text = [&] {
        std::string text;
        for (const auto& [n, v] : values)
            text += (text.empty() ? "" : ", ") + n + "=" + std::to_string(v);
        return text;
    };
    auto lookup = [&](const std::string& param) -> std::optional<std::int64_t> {
        for (const auto& [n, v] : values)
            if (n == param)
                return v;
        return std::nullopt;
    };
    for (const auto& array : arrays) {
        if (array.offset) {
            try {
                (void)evaluate_integer(*array.offset, lookup);
            } catch (const ExpressionError& e) {
                throw_input_error("array '" + array.name + "': offset: " + e.what() + " (" +
                                      values_text() + ")",
                                  array.where);
            }
        }
        for (size_t d = 0; d < array.shape.size(); ++d) {
            std::int64_t extent = 0;
            try {
                extent = evaluate_integer(*array.shape[d], lookup);
            } catch (const ExpressionError& e) {
                throw_input_error("array '" + array.name + "': extent " + std::to_string(d + 1) +
                                      ": " + e.what() + " (" + values_text() + ")",
                                  array.where);
            }
            if (extent < 0)
                throw_input_error("array '" + array.name + "' has the negative extent " +
                                      std::to_string(extent) + " in dimension " +
                                      std::to_string(d + 1) + " for " + values_text(),
                                  array.where);
        }
    }
    // An empty domain has nothing to count, generate or run: say so rather than answer zeros.
    if (domain.empty())
        return;
    // Whether the domain is empty depends on its text and the values alone: an explore of a
    // space asks it once (support/memo.hpp).
    static support::Memo<bool> emptiness;
    std::string key = domain;
    for (const auto& [n, v] : values)
        key += '\0' + n + '=' + std::to_string(v);
    const bool empty = emptiness.get(key, [&]() -> bool {
        isl::Context ctx;
        ::isl::set set;
        try {
            set = isl::parse_set(ctx, domain);
        } catch (const isl::IslError&) {
            return false; // rejected with its position when the file was read
        }
        const auto names = isl::dim_names(set, isl_dim_param);
        for (size_t k = 0; k < names.size(); ++k) {
            const auto value = lookup(names[k]);
            if (!value)
                return false;
            set = isl::checked("fixing a parameter",
                               [&] { return isl::fix_param(set, static_cast<int>(k), *value); });
        }
        return isl::checked("testing the domain for emptiness", [&] { return set.is_empty(); });
    });
    if (empty)
        throw_input_error("kernel '" + name + "': the domain " + domain + " is empty for " +
                              (values.empty() ? std::string("its parameters") : values_text()),
                          SourceLocation{file, 0, 0, {}, {}},
                          {"every parameter that sizes the domain must be at least 1"});
}

} // namespace kerncast::kernel
