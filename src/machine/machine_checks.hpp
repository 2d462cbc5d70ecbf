// Internal: what every section of validate_machine's checks shares (the machine, the way to
// locate a JSON path in its file, failing there, sources, values by field table and unit), and
// the sections, each in a file of its own (validate_provenance, validate_compute,
// validate_levels, validate_tables); validate.cpp runs them in order. The rules are listed in
// docs/machine-format.md.
#pragma once

#include "kerncast/json_reader.hpp"
#include "kerncast/machine/machine_model.hpp"
#include "machine_fields.hpp"
#include "validate_at.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace kerncast::machine_checks {

using json_reader::child_pointer;
namespace mf = machine_fields;

class MachineChecks {
public:
    MachineChecks(const MachineModel& machine, const JsonPathLocator& locate)
        : m_(machine), locate_(locate) {}

protected:
    const MachineModel& m_;
    const JsonPathLocator& locate_;

    [[noreturn]] void fail(const std::string& path, const std::string& message,
                           std::vector<std::string> notes = {}) const {
        throw_input_error(message, locate_(path), std::move(notes));
    }

    void source(const std::string& key, const std::string& path) const {
        if (key.empty())
            fail(path, "value has no source");
        if (m_.sources.count(key) == 0)
            fail(path, "source \"" + key + "\" is not declared in \"sources\"");
    }

    template <class T>
    void check_value(const Known<T>& known, const std::string& path, mf::Range range,
                     std::string_view unit = "") const {
        if (!known)
            return;
        source(known->source, path);
        if constexpr (std::is_same_v<T, std::string>) {
            if (known->value.empty())
                fail(path, "expected a non-empty string");
        } else {
            if constexpr (std::is_same_v<T, double>) {
                if (!std::isfinite(known->value))
                    fail(path, "expected a finite number");
                // A denormal is no GPU quantity: it is a typo or an overflowed computation,
                // and models dividing by it give infinite times.
                if (known->value != 0 &&
                    std::abs(known->value) < std::numeric_limits<double>::min())
                    fail(path,
                         "expected a normal number, got the denormal " + scientific(known->value));
            }
            if (range == mf::Range::positive && !(known->value > 0))
                fail(path, "must be positive, got " + number(known->value));
            if (range == mf::Range::non_negative && !(known->value >= 0))
                fail(path, "must not be negative, got " + number(known->value));
            physical_range(static_cast<double>(known->value), path, unit);
        }
    }

    // What a GPU can physically have, by unit: generous bounds that catch a value in the wrong
    // unit (a clock in Hz, a bandwidth in B/s) or an overflowed one.
    void physical_range(double value, const std::string& path, std::string_view unit) const {
        struct Bounds {
            std::string_view unit;
            double low, high;
            const char* what;
        };
        static constexpr Bounds bounds[] = {
            {"MHz", 1, 1e5, "a clock in MHz (1 to 100000)"},
            {"GB/s", 1e-3, 1e7, "a bandwidth in GB/s (0.001 to 10^7)"},
            {"cycles", 0, 1e9, "a latency or delay in cycles (at most 10^9)"},
            {"blocks/cycle", 0, 1e4, "a rate in blocks a cycle (at most 10^4)"},
        };
        for (const Bounds& b : bounds)
            if (unit == b.unit && (value < b.low || value > b.high))
                fail(path, std::string("expected ") + b.what + ", got " + scientific(value));
    }

    static std::string scientific(double value) {
        char text[32];
        std::snprintf(text, sizeof text, "%.6g", value);
        return text;
    }

    template <class T> static std::string number(T value) {
        if constexpr (std::is_same_v<T, double>) {
            std::string text = std::to_string(value);
            text.erase(text.find_last_not_of('0') + 1);
            if (!text.empty() && text.back() == '.')
                text.pop_back();
            return text;
        } else {
            return std::to_string(value);
        }
    }

    // `small` of the object at `path` must not exceed its `large`:
    // "<small_key> (value) exceeds <large_key> (value)", at the small one.
    template <class T>
    void not_above(const std::string& path, const Known<T>& small, const char* small_key,
                   const Known<T>& large, const char* large_key) const {
        if (small && large && small->value > large->value)
            fail(child_pointer(path, small_key), std::string(small_key) + " (" +
                                                     number(small->value) + ") exceeds " +
                                                     large_key + " (" + number(large->value) + ")");
    }

    template <class Section, std::size_t N>
    void section(const Section& data, const std::string& path,
                 const std::array<mf::Field<Section>, N>& list) const {
        for (const auto& field : list)
            std::visit(
                [&](auto member) {
                    check_value(data.*member, child_pointer(path, std::string(field.key)),
                                field.range, field.unit);
                },
                field.member);
    }
};

// The sections, in the order validate_machine_at runs them. Each throws an input Error at the
// first rule its part of the machine breaks.
void check_identity(const MachineModel& machine, const JsonPathLocator& locate);
void check_sources(const MachineModel& machine, const JsonPathLocator& locate);
void check_compute(const MachineModel& machine, const JsonPathLocator& locate);
void check_levels(const MachineModel& machine, const JsonPathLocator& locate); // and special
void check_hierarchy(const MachineModel& machine, const JsonPathLocator& locate);
void check_same_cache(const MachineModel& machine, const JsonPathLocator& locate);
void check_tlbs(const MachineModel& machine, const JsonPathLocator& locate);
void check_banks(const MachineModel& machine, const JsonPathLocator& locate); // and miss_pass
void check_mwp_cwp(const MachineModel& machine, const JsonPathLocator& locate);
void check_tables(const MachineModel& machine, const JsonPathLocator& locate); // fits, costs,
                                                                               // atomics

} // namespace kerncast::machine_checks
