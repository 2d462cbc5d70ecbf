// Parsing feature names (Stevens & Klöckner, sec. 6.1; docs/model-format.md, "Features").
#include "kerncast/models/calibrated/feature.hpp"

#include "kerncast/closest_names.hpp"

#include <cctype>
#include <cmath>
#include <fmt/format.h>

namespace kerncast::models::calibrated {

namespace {

constexpr kernel::DataType all_dtypes[] = {
    kernel::DataType::i8,  kernel::DataType::i16, kernel::DataType::i32, kernel::DataType::i64,
    kernel::DataType::u8,  kernel::DataType::u16, kernel::DataType::u32, kernel::DataType::u64,
    kernel::DataType::f16, kernel::DataType::f32, kernel::DataType::f64};

const std::vector<std::string>& dtype_words() {
    static const std::vector<std::string> words = [] {
        std::vector<std::string> list;
        for (const auto type : all_dtypes)
            list.push_back(feature_dtype_name(type));
        return list;
    }();
    return words;
}

const std::vector<std::string> operation_words{"add", "mul", "div", "madd",     "mod",
                                               "cmp", "min", "max", "func:exp", "atomic:add"};
const std::vector<std::string> space_words{"global", "local", "shared", "constant"};
const std::vector<std::string> direction_words{"load", "store", "atomic"};
const std::vector<std::string> class_names{
    "f_op_float32_madd", "f_mem_access", "f_sync_barrier_local", "f_sync_kernel_launch",
    "f_thread_groups",   "f_time",       "f_time_min",           "f_time_mean"};

bool contains(const std::vector<std::string>& list, const std::string& word) {
    return std::find(list.begin(), list.end(), word) != list.end();
}

class FeatureParser {
public:
    explicit FeatureParser(const std::string& name) : name_(name) { spec_.name = name; }

    FeatureSpec parse() {
        if (name_.rfind("f_", 0) != 0)
            fail("a feature name starts with 'f_'", 0, {});
        const std::string rest = name_.substr(2);
        if (rest.rfind("cl_wall_time", 0) == 0) {
            // The paper's OpenCL wall-time feature (sec. 6.1.4, f_cl_wall_time_nvidia_geforce):
            // here the record's median time, whatever platform and device it names.
            spec_.kind = FeatureKind::time;
        } else if (rest == "time" || rest == "time_min" || rest == "time_mean") {
            spec_.kind = FeatureKind::time;
            spec_.statistic = rest == "time"       ? TimeStatistic::median
                              : rest == "time_min" ? TimeStatistic::min
                                                   : TimeStatistic::mean;
        } else if (rest == "sync_barrier_local") {
            spec_.kind = FeatureKind::barrier;
        } else if (rest == "sync_kernel_launch") {
            spec_.kind = FeatureKind::launch;
        } else if (rest == "thread_groups") {
            spec_.kind = FeatureKind::thread_group;
        } else if (rest.rfind("op_", 0) == 0) {
            operation(5);
        } else if (rest.rfind("mem_access", 0) == 0) {
            memory(12);
        } else {
            std::vector<std::string> close = closest_names(name_, class_names);
            if (close.empty() && name_.rfind("f_op", 0) == 0)
                close.push_back("f_op_float32_madd");
            fail("unknown feature '" + name_ + "'", 0, close);
        }
        return spec_;
    }

private:
    const std::string& name_;
    FeatureSpec spec_;

    [[noreturn]] void fail(const std::string& message, std::size_t offset,
                           std::vector<std::string> suggestions) const {
        throw FeatureError(message, static_cast<int>(offset), std::move(suggestions));
    }
    // The name with [begin, end) replaced by each of the words close to it.
    std::vector<std::string> corrected(std::size_t begin, std::size_t end,
                                       const std::vector<std::string>& words) const {
        std::vector<std::string> names;
        for (const auto& word : closest_names(name_.substr(begin, end - begin), words))
            names.push_back(name_.substr(0, begin) + word + name_.substr(end));
        return names;
    }

    // f_op_<dtype>_<op>
    void operation(std::size_t at) {
        spec_.kind = FeatureKind::operation;
        const std::size_t split = name_.find('_', at);
        const std::size_t dtype_end = split == std::string::npos ? name_.size() : split;
        const std::string dtype = name_.substr(at, dtype_end - at);
        spec_.dtype = kernel::parse_data_type(dtype);
        if (!spec_.dtype)
            fail("unknown data type '" + dtype + "' in an operation feature", at,
                 corrected(at, dtype_end, dtype_words()));
        if (split == std::string::npos)
            fail("an operation feature names its operation: f_op_" + dtype + "_madd", name_.size(),
                 {name_ + "_madd", name_ + "_add", name_ + "_mul"});
        spec_.operation = name_.substr(split + 1);
        const std::string& op = spec_.operation;
        const bool prefixed = (op.rfind("func:", 0) == 0 && op.size() > 5) ||
                              (op.rfind("atomic:", 0) == 0 && op.size() > 7);
        if (!prefixed && !contains(operation_words, op))
            fail("unknown operation '" + op +
                     "' (add, mul, div, madd, mod, cmp, min, max, "
                     "func:<name>, atomic:<kind>)",
                 split + 1, corrected(split + 1, name_.size(), operation_words));
    }

    // The end of a tag starting at `at`: the next '_' that begins another field, or the end.
    std::size_t tag_end(std::size_t at) const {
        for (std::size_t pos = name_.find('_', at); pos != std::string::npos;
             pos = name_.find('_', pos + 1)) {
            const std::size_t next = name_.find('_', pos + 1);
            const std::string word =
                name_.substr(pos + 1, (next == std::string::npos ? name_.size() : next) - pos - 1);
            if (contains(space_words, word) || kernel::parse_data_type(word) ||
                contains(direction_words, word) || word.rfind("lstrides:", 0) == 0 ||
                word.rfind("gstrides:", 0) == 0 || word.rfind("afr:", 0) == 0)
                return pos;
        }
        return name_.size();
    }

    // f_mem_access[_field]...: the fields in any order, each at most once.
    void memory(std::size_t at) {
        spec_.kind = FeatureKind::memory;
        bool seen_space = false, seen_dtype = false, seen_direction = false, seen_tag = false,
             seen_local = false, seen_group = false, seen_afr = false;
        auto once = [&](bool& seen, std::size_t where, const char* what) {
            if (seen)
                fail(std::string("the ") + what + " is given twice", where, {});
            seen = true;
        };
        std::size_t pos = at;
        if (pos < name_.size() && name_[pos] != '_')
            fail("expected '_' and a field after f_mem_access", pos,
                 corrected(0, name_.size(), {"f_mem_access"}));
        while (pos < name_.size()) {
            const std::size_t field = pos + 1;
            if (field >= name_.size())
                fail("expected a field after '_'", field, {name_.substr(0, pos)});
            if (name_.compare(field, 4, "tag:") == 0) {
                once(seen_tag, field, "tag");
                const std::size_t end = tag_end(field + 4);
                spec_.tag = name_.substr(field + 4, end - field - 4);
                if (spec_.tag.empty())
                    fail("expected a tag name after 'tag:'", field + 4, {});
                pos = end;
                continue;
            }
            if (name_.compare(field, 9, "lstrides:") == 0 ||
                name_.compare(field, 9, "gstrides:") == 0) {
                const bool local = name_[field] == 'l';
                once(local ? seen_local : seen_group, field,
                     local ? "local strides" : "group strides");
                pos = strides(field + 9, local ? spec_.local_strides : spec_.group_strides);
                continue;
            }
            std::size_t end = name_.find('_', field);
            if (end == std::string::npos)
                end = name_.size();
            const std::string word = name_.substr(field, end - field);
            if (word.rfind("afr:", 0) == 0) {
                once(seen_afr, field, "access-to-footprint ratio");
                spec_.access_to_footprint = constraint(field + 4, end, false);
            } else if (contains(space_words, word)) {
                once(seen_space, field, "memory space");
                spec_.space = kernel::parse_memory_space(word);
            } else if (const auto dtype = kernel::parse_data_type(word)) {
                once(seen_dtype, field, "data type");
                spec_.dtype = dtype;
            } else if (contains(direction_words, word)) {
                once(seen_direction, field, "direction");
                spec_.direction = word;
            } else {
                std::vector<std::string> words = space_words;
                words.insert(words.end(), dtype_words().begin(), dtype_words().end());
                words.insert(words.end(), direction_words.begin(), direction_words.end());
                for (const char* keyed : {"tag:", "lstrides:", "gstrides:", "afr:"})
                    if (word.find(':') != std::string::npos)
                        words.push_back(keyed + word.substr(word.find(':') + 1));
                fail("unknown memory-access field '" + word +
                         "' (a memory space, data type, direction, tag:, lstrides:, gstrides: "
                         "or afr:)",
                     field, corrected(field, end, words));
            }
            pos = end;
        }
    }

    // "{0:1;1:>15}" starting at `at`; returns the position after '}'.
    std::size_t strides(std::size_t at,
                        std::array<std::optional<Constraint>, kernel::axis_count>& target) {
        if (at >= name_.size() || name_[at] != '{')
            fail("expected '{' and stride constraints, as in lstrides:{0:1;1:>15}", at, {});
        const std::size_t close = name_.find('}', at);
        if (close == std::string::npos)
            fail("missing '}' after the stride constraints", name_.size(), {});
        std::size_t pos = at + 1;
        while (pos < close) {
            std::size_t end = name_.find(';', pos);
            if (end == std::string::npos || end > close)
                end = close;
            const std::size_t colon = name_.find(':', pos);
            if (colon == std::string::npos || colon >= end)
                fail("expected axis:constraint, as in 0:1 or 1:>15", pos, {});
            const std::string axis = name_.substr(pos, colon - pos);
            int index = -1;
            if (axis == "0" || axis == "x")
                index = 0;
            else if (axis == "1" || axis == "y")
                index = 1;
            else if (axis == "2" || axis == "z")
                index = 2;
            if (index < 0)
                fail("unknown thread axis '" + axis + "' (0, 1, 2 or x, y, z)", pos, {});
            if (target[static_cast<std::size_t>(index)])
                fail("axis " + axis + " is constrained twice", pos, {});
            target[static_cast<std::size_t>(index)] = constraint(colon + 1, end, true);
            pos = end + 1;
        }
        if (close + 1 < name_.size() && name_[close + 1] != '_')
            fail("expected '_' or the end after '}'", close + 1, {});
        return close + 1;
    }

    // A comparison and a bound in name_[begin, end): ">15", "<=n", "16", "!=0", ">1.5".
    Constraint constraint(std::size_t begin, std::size_t end, bool allow_parameter) const {
        Constraint c;
        std::size_t pos = begin;
        auto starts = [&](const char* text) {
            const std::size_t length = std::char_traits<char>::length(text);
            if (name_.compare(pos, length, text) != 0 || pos + length > end)
                return false;
            pos += length;
            return true;
        };
        using C = Constraint::Comparison;
        if (starts(">="))
            c.comparison = C::greater_equal;
        else if (starts("<="))
            c.comparison = C::less_equal;
        else if (starts("!="))
            c.comparison = C::not_equal;
        else if (starts("=="))
            c.comparison = C::equal;
        else if (starts(">"))
            c.comparison = C::greater;
        else if (starts("<"))
            c.comparison = C::less;
        else if (starts("="))
            c.comparison = C::equal;
        const std::string bound = name_.substr(pos, end - pos);
        if (bound.empty())
            fail("expected a bound, as in >15", pos, {});
        if (std::isalpha(static_cast<unsigned char>(bound[0])) || bound[0] == '_') {
            if (!allow_parameter)
                fail("expected a number", pos, {});
            for (char ch : bound)
                if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_')
                    fail("a bound is a number or a kernel parameter's name", pos, {});
            c.parameter = bound;
            return c;
        }
        try {
            std::size_t used = 0;
            c.value = std::stod(bound, &used);
            if (used == bound.size() && std::isfinite(c.value))
                return c;
        } catch (const std::exception&) {
        }
        fail("malformed bound '" + bound + "'", pos, {});
    }
};

} // namespace

bool satisfies(double value, Constraint::Comparison comparison, double bound) {
    using C = Constraint::Comparison;
    switch (comparison) {
    case C::equal:
        return value == bound;
    case C::not_equal:
        return value != bound;
    case C::less:
        return value < bound;
    case C::less_equal:
        return value <= bound;
    case C::greater:
        return value > bound;
    case C::greater_equal:
        return value >= bound;
    }
    return false;
}

std::string constraint_text(const Constraint& c) {
    using C = Constraint::Comparison;
    const char* op = c.comparison == C::equal        ? ""
                     : c.comparison == C::not_equal  ? "!="
                     : c.comparison == C::less       ? "<"
                     : c.comparison == C::less_equal ? "<="
                     : c.comparison == C::greater    ? ">"
                                                     : ">=";
    return op + (c.parameter.empty() ? fmt::format("{}", c.value) : c.parameter);
}

std::string feature_dtype_name(kernel::DataType type) {
    using D = kernel::DataType;
    switch (type) {
    case D::i8:
        return "int8";
    case D::i16:
        return "int16";
    case D::i32:
        return "int32";
    case D::i64:
        return "int64";
    case D::u8:
        return "uint8";
    case D::u16:
        return "uint16";
    case D::u32:
        return "uint32";
    case D::u64:
        return "uint64";
    case D::f16:
        return "float16";
    case D::f32:
        return "float32";
    case D::f64:
        return "float64";
    }
    return "?";
}

FeatureSpec parse_feature(const std::string& name) {
    return FeatureParser(name).parse();
}

} // namespace kerncast::models::calibrated
