// Semantic checks of a MachineModel; the rules are listed in docs/machine-format.md.
#include "kerncast/machine/validate.hpp"

#include "kerncast/closest_names.hpp"
#include "kerncast/json_reader.hpp"
#include "machine_fields.hpp"
#include "validate_at.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <regex>
#include <set>

namespace kerncast {
namespace {

using json_reader::child_pointer;
namespace mf = machine_fields;

class Validator {
public:
    Validator(const MachineModel& machine, const JsonPathLocator& locate)
        : m_(machine), locate_(locate) {}

    void run() {
        identity();
        sources();
        compute();
        levels(m_.memory, "/memory", true);
        levels(m_.special_memories, "/special_memories", false);
        hierarchy();
        same_cache();
        tlbs();
        section(m_.shared_memory_banks, "/shared_memory_banks", mf::bank_fields);
        miss_pass();
        section(m_.mwp_cwp, "/mwp_cwp", mf::mwp_cwp_fields);
        capacity_fits();
        calibrated_costs();
        atomic_service_times();
    }

private:
    const MachineModel& m_;
    const JsonPathLocator& locate_;

    [[noreturn]] void fail(const std::string& path, const std::string& message,
                           std::vector<std::string> notes = {}) const {
        throw_input_error(message, locate_(path), std::move(notes));
    }

    // ----- helpers -----

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

    // ----- sections -----

    void identity() const {
        static const std::regex id_pattern("^[a-z0-9][a-z0-9._+-]*$");
        const auto& id = m_.identity;
        if (!std::regex_match(id.id, id_pattern))
            fail("/identity/id",
                 "expected an id of lower-case letters, digits, '.', '_', '+' and '-' (starting "
                 "with a letter or digit), got \"" +
                     id.id + "\"");
        if (id.name.empty())
            fail("/identity/name", "expected a non-empty name");
        if (id.vendor.empty())
            fail("/identity/vendor", "expected a non-empty vendor");
        if (id.architecture.empty())
            fail("/identity/architecture", "expected a non-empty architecture");
        if (id.cc_major < 1 || id.cc_minor < 0)
            fail("/identity/compute_capability", "compute capability must be at least 1.0, got " +
                                                     std::to_string(id.cc_major) + "." +
                                                     std::to_string(id.cc_minor));
    }

    void sources() const {
        for (const auto& [key, provenance] : m_.sources) {
            const std::string path = child_pointer("/sources", key);
            if (key.empty())
                fail(path, "a source needs a non-empty key");
            if (provenance.citation.empty())
                fail(child_pointer(path, "citation"),
                     "expected a citation (document and table/section the values come from)");
            if (provenance.kind == SourceKind::measured && provenance.run.empty())
                fail(child_pointer(path, "run"),
                     "a \"measured\" source must name the run that measured it (\"run\")");
            if (provenance.uncertainty)
                uncertainty(*provenance.uncertainty, child_pointer(path, "uncertainty"));
            if (provenance.fit)
                fit_provenance(*provenance.fit, child_pointer(path, "fit"));
            if (provenance.calibration)
                calibration_provenance(*provenance.calibration, child_pointer(path, "calibration"));
        }
    }

    // `kerncast calibrate`'s provenance (docs/model-format.md, "Calibrated parameters").
    void calibration_provenance(const CalibrationProvenance& c, const std::string& path) const {
        if (c.model.empty())
            fail(child_pointer(path, "model"), "expected the model's name");
        if (c.parameters.empty())
            fail(child_pointer(path, "parameters"),
                 "expected the names of the parameters it calibrated");
        std::set<std::string> seen;
        for (std::size_t i = 0; i < c.parameters.size(); ++i) {
            const std::string at = child_pointer(child_pointer(path, "parameters"), i);
            if (c.parameters[i].rfind("p_", 0) != 0 || c.parameters[i].size() < 3)
                fail(at, "expected a parameter name (p_...), got \"" + c.parameters[i] + "\"");
            if (!seen.insert(c.parameters[i]).second)
                fail(at, "parameter \"" + c.parameters[i] + "\" is listed twice");
        }
        if (c.records < 1)
            fail(child_pointer(path, "records"),
                 "must be at least 1, got " + std::to_string(c.records));
        auto non_negative = [&](const char* key, double value) {
            if (!std::isfinite(value) || value < 0)
                fail(child_pointer(path, key), "must not be negative, got " + number(value));
        };
        non_negative("residual_norm", c.residual_norm);
        non_negative("geometric_mean_abs_relative_error", c.geometric_mean_abs_relative_error);
        non_negative("max_abs_relative_error", c.max_abs_relative_error);
        static const std::regex sha_pattern("^[0-9a-f]{64}$");
        for (const auto& [key, value] : {std::pair{"model_sha256", &c.model_sha256},
                                         std::pair{"records_sha256", &c.records_sha256}})
            if (!std::regex_match(*value, sha_pattern))
                fail(child_pointer(path, key),
                     "expected 64 lower-case hexadecimal digits, got \"" + *value + "\"");
        static const std::regex date_pattern(
            R"(^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z$)");
        if (!std::regex_match(c.date, date_pattern))
            fail(child_pointer(path, "date"),
                 "expected an ISO 8601 UTC date such as \"2026-11-24T21:00:00Z\", got \"" + c.date +
                     "\"");
        if (c.kerncast_version.empty())
            fail(child_pointer(path, "kerncast_version"), "expected the kerncast version");
    }

    void fit_provenance(const FitProvenance& f, const std::string& path) const {
        std::vector<std::string> known;
        for (const auto& slot : mf::capacity_fit_slots)
            known.emplace_back(slot.key);
        if (f.fits.empty())
            fail(child_pointer(path, "fits"), "expected the names of the fits it determined");
        std::set<std::string> seen;
        for (std::size_t i = 0; i < f.fits.size(); ++i) {
            const std::string at = child_pointer(child_pointer(path, "fits"), i);
            if (std::find(known.begin(), known.end(), f.fits[i]) == known.end()) {
                std::vector<std::string> notes;
                const auto close = closest_names(f.fits[i], known, 1);
                if (!close.empty())
                    notes.push_back("did you mean \"" + close.front() + "\"?");
                fail(at, "unknown capacity fit \"" + f.fits[i] + "\"", notes);
            }
            if (!seen.insert(f.fits[i]).second)
                fail(at, "fit \"" + f.fits[i] + "\" is listed twice");
        }
        if (f.records < 1)
            fail(child_pointer(path, "records"),
                 "must be at least 1, got " + std::to_string(f.records));
        if (f.samples < 1)
            fail(child_pointer(path, "samples"),
                 "must be at least 1, got " + std::to_string(f.samples));
        auto error = [&](const char* key, double value) {
            if (!std::isfinite(value) || value < 0)
                fail(child_pointer(path, key), "must not be negative, got " + number(value));
        };
        error("median_abs_relative_error", f.median_abs_relative_error);
        error("p90_abs_relative_error", f.p90_abs_relative_error);
        if (f.held_out_median_abs_relative_error)
            error("held_out_median_abs_relative_error", *f.held_out_median_abs_relative_error);
        if (f.held_out_p90_abs_relative_error)
            error("held_out_p90_abs_relative_error", *f.held_out_p90_abs_relative_error);
        static const std::regex sha_pattern("^[0-9a-f]{64}$");
        if (!std::regex_match(f.records_sha256, sha_pattern))
            fail(child_pointer(path, "records_sha256"),
                 "expected 64 lower-case hexadecimal digits, got \"" + f.records_sha256 + "\"");
        static const std::regex date_pattern(
            R"(^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z$)");
        if (!std::regex_match(f.date, date_pattern))
            fail(child_pointer(path, "date"),
                 "expected an ISO 8601 UTC date such as \"2026-11-24T21:00:00Z\", got \"" + f.date +
                     "\"");
        if (f.kerncast_version.empty())
            fail(child_pointer(path, "kerncast_version"), "expected the kerncast version");
        for (const auto& [name, range] : f.oversubscription_ranges) {
            const std::string at =
                child_pointer(child_pointer(path, "oversubscription_ranges"), name);
            if (std::find(f.fits.begin(), f.fits.end(), name) == f.fits.end())
                fail(at, "\"" + name + "\" is not one of the fits this source determined");
            if (!std::isfinite(range[0]) || !std::isfinite(range[1]) || range[0] < 0 ||
                range[0] > range[1])
                fail(at, "expected 0 <= smallest O <= largest O, got [" + number(range[0]) + ", " +
                             number(range[1]) + "]");
        }
    }

    void uncertainty(const Uncertainty& u, const std::string& path) const {
        if (!std::isfinite(u.relative_spread) || u.relative_spread < 0)
            fail(child_pointer(path, "relative_spread"),
                 "must not be negative, got " + number(u.relative_spread));
        const std::vector<std::string> verdicts{"high", "medium", "low"};
        if (std::find(verdicts.begin(), verdicts.end(), u.confidence) == verdicts.end()) {
            std::vector<std::string> notes;
            const auto close = closest_names(u.confidence, verdicts, 1);
            if (!close.empty())
                notes.push_back("did you mean \"" + close.front() + "\"?");
            fail(child_pointer(path, "confidence"),
                 "expected \"high\", \"medium\" or \"low\", got \"" + u.confidence + "\"", notes);
        }
        if (u.repetitions < 1)
            fail(child_pointer(path, "repetitions"),
                 "must be at least 1, got " + std::to_string(u.repetitions));
    }

    void compute() const {
        const auto& c = m_.compute;
        const std::string p = "/compute";
        section(c, p, mf::compute_fields);
        auto at = [&](const char* key) { return child_pointer(p, key); };

        if (!c.sm_count)
            fail(at("sm_count"), "missing required field \"sm_count\"");

        if (c.register_allocation_granularity &&
            c.register_allocation_granularity->value != "warp" &&
            c.register_allocation_granularity->value != "block")
            fail(at("register_allocation_granularity"),
                 "expected \"warp\" or \"block\", got \"" +
                     c.register_allocation_granularity->value + "\"");

        // Impossible combinations.
        if (c.max_warps_per_sm && c.warp_size && c.max_threads_per_sm &&
            c.max_warps_per_sm->value * c.warp_size->value != c.max_threads_per_sm->value)
            fail(at("max_threads_per_sm"), "max_threads_per_sm (" +
                                               std::to_string(c.max_threads_per_sm->value) +
                                               ") must equal max_warps_per_sm x warp_size (" +
                                               std::to_string(c.max_warps_per_sm->value) + " x " +
                                               std::to_string(c.warp_size->value) + ")");
        if (c.max_threads_per_block && c.max_threads_per_sm &&
            c.max_threads_per_block->value > c.max_threads_per_sm->value)
            fail(at("max_threads_per_block"),
                 "max_threads_per_block (" + std::to_string(c.max_threads_per_block->value) +
                     ") exceeds max_threads_per_sm (" +
                     std::to_string(c.max_threads_per_sm->value) + ")");
        if (c.max_threads_per_block && c.warp_size &&
            c.max_threads_per_block->value % c.warp_size->value != 0)
            fail(at("max_threads_per_block"), "max_threads_per_block (" +
                                                  std::to_string(c.max_threads_per_block->value) +
                                                  ") must be a multiple of warp_size (" +
                                                  std::to_string(c.warp_size->value) + ")");
        if (c.base_clock_mhz && c.boost_clock_mhz &&
            c.base_clock_mhz->value > c.boost_clock_mhz->value)
            fail(at("base_clock_mhz"), "base_clock_mhz (" + number(c.base_clock_mhz->value) +
                                           ") exceeds boost_clock_mhz (" +
                                           number(c.boost_clock_mhz->value) + ")");
        auto not_above = [&](const Known<int>& small, const char* small_key,
                             const Known<int>& large, const char* large_key) {
            if (small && large && small->value > large->value)
                fail(at(small_key), std::string(small_key) + " (" + std::to_string(small->value) +
                                        ") exceeds " + large_key + " (" +
                                        std::to_string(large->value) + ")");
        };
        not_above(c.shared_memory_per_block_bytes, "shared_memory_per_block_bytes",
                  c.shared_memory_per_block_optin_bytes, "shared_memory_per_block_optin_bytes");
        not_above(c.shared_memory_per_block_bytes, "shared_memory_per_block_bytes",
                  c.shared_memory_per_sm_bytes, "shared_memory_per_sm_bytes");
        not_above(c.shared_memory_per_block_optin_bytes, "shared_memory_per_block_optin_bytes",
                  c.shared_memory_per_sm_bytes, "shared_memory_per_sm_bytes");
        not_above(c.max_registers_per_thread, "max_registers_per_thread", c.registers_per_sm,
                  "registers_per_sm");
        not_above(c.max_registers_per_block, "max_registers_per_block", c.registers_per_sm,
                  "registers_per_sm");
        not_above(c.warp_allocation_granularity, "warp_allocation_granularity", c.max_warps_per_sm,
                  "max_warps_per_sm");
        if (c.reserved_shared_memory_per_block_bytes && c.shared_memory_per_sm_bytes &&
            c.reserved_shared_memory_per_block_bytes->value >= c.shared_memory_per_sm_bytes->value)
            fail(at("reserved_shared_memory_per_block_bytes"),
                 "reserved_shared_memory_per_block_bytes must be less than "
                 "shared_memory_per_sm_bytes");
        if (c.registers_per_sm && c.register_allocation_unit &&
            c.registers_per_sm->value % c.register_allocation_unit->value != 0)
            fail(at("register_allocation_unit"),
                 "registers_per_sm (" + std::to_string(c.registers_per_sm->value) +
                     ") must be a multiple of register_allocation_unit (" +
                     std::to_string(c.register_allocation_unit->value) + ")");

        if (c.shared_memory_carveouts_kib) {
            const std::string path = at("shared_memory_carveouts_kib");
            source(c.shared_memory_carveouts_kib->source, path);
            const auto& carveouts = c.shared_memory_carveouts_kib->value;
            if (carveouts.empty())
                fail(path, "expected at least one carve-out size");
            for (std::size_t i = 0; i < carveouts.size(); ++i) {
                if (carveouts[i] < 0)
                    fail(child_pointer(path, i),
                         "must not be negative, got " + std::to_string(carveouts[i]));
                if (i > 0 && carveouts[i] <= carveouts[i - 1])
                    fail(child_pointer(path, i), "carve-outs must be listed in increasing order");
            }
            if (c.shared_memory_per_sm_bytes &&
                static_cast<std::int64_t>(carveouts.back()) * 1024 !=
                    c.shared_memory_per_sm_bytes->value)
                fail(path, "the largest carve-out (" + std::to_string(carveouts.back()) +
                               " KiB) must equal shared_memory_per_sm_bytes (" +
                               std::to_string(c.shared_memory_per_sm_bytes->value) + " B)");
        }

        std::set<std::pair<std::string, std::string>> seen;
        for (std::size_t i = 0; i < c.issue_rates.size(); ++i) {
            const auto& rate = c.issue_rates[i];
            const std::string path = child_pointer(at("issue_rates"), i);
            if (rate.op.empty())
                fail(child_pointer(path, "op"), "expected a non-empty instruction class");
            if (rate.dtype.empty())
                fail(child_pointer(path, "dtype"), "expected a non-empty data type");
            if (!seen.insert({rate.op, rate.dtype}).second)
                fail(path, "issue rate for op \"" + rate.op + "\", dtype \"" + rate.dtype +
                               "\" is given twice");
            check_value(Known<double>(rate.per_cycle_per_sm),
                        child_pointer(path, "per_cycle_per_sm"), mf::Range::positive);
        }
    }

    void miss_pass() const {
        const auto& known = m_.shared_memory_banks.miss_pass;
        if (!known)
            return;
        const std::vector<std::string> allowed(mf::miss_pass_values.begin(),
                                               mf::miss_pass_values.end());
        if (known->value == "after_hits") {
            const auto l2 =
                std::find_if(m_.memory.begin(), m_.memory.end(),
                             [](const MemoryLevel& level) { return level.name == "l2"; });
            if (l2 == m_.memory.end() || !l2->latency_cycles)
                fail("/shared_memory_banks/miss_pass",
                     "miss_pass \"after_hits\" needs the L2 latency (memory level l2, "
                     "latency_cycles): a fill is in flight that long");
        }
        if (std::find(allowed.begin(), allowed.end(), known->value) != allowed.end())
            return;
        std::vector<std::string> notes;
        const auto close = closest_names(known->value, allowed, 2);
        if (!close.empty())
            notes.push_back("did you mean \"" + close.front() + "\"?");
        notes.push_back("values: " + json_reader::quoted_list(allowed));
        fail("/shared_memory_banks/miss_pass", "unknown miss_pass \"" + known->value + "\"", notes);
    }

    void levels(const std::vector<MemoryLevel>& list, const std::string& path,
                bool hierarchy) const {
        std::vector<std::string> allowed;
        if (hierarchy)
            allowed.assign(mf::hierarchy_level_names.begin(), mf::hierarchy_level_names.end());
        else
            allowed.assign(mf::special_memory_names.begin(), mf::special_memory_names.end());
        const std::vector<std::string> scopes(mf::sharing_scopes.begin(), mf::sharing_scopes.end());
        for (std::size_t i = 0; i < list.size(); ++i) {
            const MemoryLevel& level = list[i];
            const std::string level_path = child_pointer(path, i);
            if (std::find(allowed.begin(), allowed.end(), level.name) == allowed.end()) {
                std::vector<std::string> notes;
                const auto close = closest_names(level.name, allowed, 1);
                if (!close.empty())
                    notes.push_back("did you mean \"" + close.front() + "\"?");
                std::string names;
                for (const auto& name : allowed)
                    names += (names.empty() ? "" : ", ") + name;
                notes.push_back("levels here: " + names);
                fail(child_pointer(level_path, "name"),
                     "unknown memory level \"" + level.name + "\"", notes);
            }
            for (std::size_t j = 0; j < i; ++j)
                if (list[j].name == level.name)
                    fail(child_pointer(level_path, "name"),
                         "memory level \"" + level.name + "\" is given twice");
            if (std::find(scopes.begin(), scopes.end(), level.shared_by) == scopes.end())
                fail(child_pointer(level_path, "shared_by"),
                     "expected one of \"sm\", \"tpc\", \"gpc\", \"gpu\", got \"" + level.shared_by +
                         "\"");
            section(level, level_path, mf::level_fields);
            if (level.line_bytes && level.sector_bytes &&
                (level.sector_bytes->value > level.line_bytes->value ||
                 level.line_bytes->value % level.sector_bytes->value != 0))
                fail(child_pointer(level_path, "sector_bytes"),
                     "sector_bytes (" + std::to_string(level.sector_bytes->value) +
                         ") must divide line_bytes (" + std::to_string(level.line_bytes->value) +
                         ")");
            if (level.ways && level.size_bytes && level.line_bytes &&
                (level.size_bytes->value % level.line_bytes->value != 0 ||
                 (level.size_bytes->value / level.line_bytes->value) % level.ways->value != 0))
                fail(child_pointer(level_path, "ways"),
                     "ways (" + std::to_string(level.ways->value) +
                         ") must divide the lines of the level (size_bytes / line_bytes)");
            if (level.size_bytes && level.effective_size_bytes &&
                level.effective_size_bytes->value > level.size_bytes->value)
                fail(child_pointer(level_path, "effective_size_bytes"),
                     "effective_size_bytes (" + std::to_string(level.effective_size_bytes->value) +
                         ") exceeds size_bytes (" + std::to_string(level.size_bytes->value) + ")");
            auto not_above = [&](const Known<double>& small, const char* small_key,
                                 const Known<double>& large, const char* large_key) {
                if (small && large && small->value > large->value)
                    fail(child_pointer(level_path, small_key),
                         std::string(small_key) + " (" + number(small->value) + ") exceeds " +
                             large_key + " (" + number(large->value) + ")");
            };
            not_above(level.sustained_bandwidth_gbs, "sustained_bandwidth_gbs",
                      level.peak_bandwidth_gbs, "peak_bandwidth_gbs");
            not_above(level.store_bandwidth_gbs, "store_bandwidth_gbs", level.peak_bandwidth_gbs,
                      "peak_bandwidth_gbs");
            not_above(level.latency_near_cycles, "latency_near_cycles", level.latency_far_cycles,
                      "latency_far_cycles");
            if (level.effective_size_by_carveout)
                carveout_sizes(level, child_pointer(level_path, "effective_size_by_carveout"));
            if (level.mixed_bandwidth_by_store_fraction)
                mixed_bandwidths(level,
                                 child_pointer(level_path, "mixed_bandwidth_by_store_fraction"));
            if (level.latency_under_load)
                loaded_latencies(level, child_pointer(level_path, "latency_under_load"));
            if (level.bandwidth_by_loads_in_flight)
                in_flight_bandwidths(level,
                                     child_pointer(level_path, "bandwidth_by_loads_in_flight"));
        }
    }

    // A load/store mix's store fraction: 0 (loads alone) to 1 (stores alone).
    void store_fraction_in_range(double fraction, const std::string& path) const {
        if (!(fraction >= 0 && fraction <= 1))
            fail(path,
                 "must be between 0 (loads alone) and 1 (stores alone), got " + number(fraction));
    }

    // A curve's entries: sorted by store fraction and, within one fraction, by `key`, each
    // (fraction, key) pair once; `before_*` are the previous entry's.
    void sorted_by_fraction_then(double before_fraction, double fraction,
                                 const std::string& fraction_path, const char* key,
                                 double before_value, double value,
                                 const std::string& key_path) const {
        if (fraction < before_fraction)
            fail(fraction_path, "entries must be sorted by store_fraction (" + number(fraction) +
                                    " comes after " + number(before_fraction) + ")");
        if (fraction == before_fraction && value <= before_value)
            fail(key_path, std::string("entries of one store_fraction must be sorted by ") + key +
                               ", each once (" + number(value) + " comes after " +
                               number(before_value) + ")");
    }

    // A bandwidth of the level's streams: at most its peak, when the level gives one.
    void not_above_peak(const MemoryLevel& level, double gbs, const std::string& path) const {
        if (level.peak_bandwidth_gbs && gbs > level.peak_bandwidth_gbs->value)
            fail(path, "bandwidth_gbs (" + number(gbs) + ") exceeds peak_bandwidth_gbs (" +
                           number(level.peak_bandwidth_gbs->value) + ")");
    }

    // A table only the dram level takes (`key`; `why` says why): its source, the level, and at
    // least one entry of `shape`.
    template <class Entry>
    void dram_only_list(const MemoryLevel& level, const Sourced<std::vector<Entry>>& list,
                        const std::string& path, const std::string& key, const std::string& why,
                        const std::string& shape) const {
        source(list.source, path);
        if (level.name != "dram")
            fail(path,
                 "only the dram level takes " + key + " (" + why + "), not '" + level.name + "'");
        if (list.value.empty())
            fail(path, "expected at least one " + shape + " entry");
    }

    // Latency under load: the dram level's only (the probe measures no other), sorted by store
    // fraction and then bandwidth, each pair once; fractions in [0, 1], bandwidths not negative
    // (0: nothing streams) and not above the level's peak, latencies positive, their standard
    // deviations not negative (0: not measured).
    void loaded_latencies(const MemoryLevel& level, const std::string& path) const {
        const auto& list = *level.latency_under_load;
        dram_only_list(level, list, path, "latency_under_load",
                       "the probe measures no other level's",
                       "{\"store_fraction\", \"bandwidth_gbs\", \"latency_cycles\"}");
        for (std::size_t i = 0; i < list.value.size(); ++i) {
            const LoadedLatency& entry = list.value[i];
            const std::string entry_path = child_pointer(path, i);
            const std::string fraction_path = child_pointer(entry_path, "store_fraction");
            const std::string bandwidth_path = child_pointer(entry_path, "bandwidth_gbs");
            store_fraction_in_range(entry.store_fraction, fraction_path);
            if (!(entry.bandwidth_gbs >= 0))
                fail(bandwidth_path, "must not be negative, got " + number(entry.bandwidth_gbs));
            not_above_peak(level, entry.bandwidth_gbs, bandwidth_path);
            if (i > 0)
                sorted_by_fraction_then(list.value[i - 1].store_fraction, entry.store_fraction,
                                        fraction_path, "bandwidth_gbs",
                                        list.value[i - 1].bandwidth_gbs, entry.bandwidth_gbs,
                                        bandwidth_path);
            if (!(entry.latency_cycles > 0))
                fail(child_pointer(entry_path, "latency_cycles"),
                     "must be positive, got " + number(entry.latency_cycles));
            if (!(entry.latency_stddev_cycles >= 0))
                fail(child_pointer(entry_path, "latency_stddev_cycles"),
                     "must not be negative, got " + number(entry.latency_stddev_cycles));
        }
    }

    // Bandwidth by load bytes in flight: the dram level's only (the in-flight limiter reads no
    // other), sorted by store fraction and then bytes in flight, each pair once; fractions in [0,
    // 1) (a mix with loads), bytes in flight and bandwidths positive, bandwidths not above the
    // level's peak.
    void in_flight_bandwidths(const MemoryLevel& level, const std::string& path) const {
        const auto& list = *level.bandwidth_by_loads_in_flight;
        dram_only_list(level, list, path, "bandwidth_by_loads_in_flight",
                       "the in-flight limiter reads no other level's",
                       "{\"store_fraction\", \"loads_in_flight_bytes_per_sm\", "
                       "\"bandwidth_gbs\"}");
        for (std::size_t i = 0; i < list.value.size(); ++i) {
            const InFlightBandwidth& entry = list.value[i];
            const std::string entry_path = child_pointer(path, i);
            const std::string fraction_path = child_pointer(entry_path, "store_fraction");
            const std::string bytes_path =
                child_pointer(entry_path, "loads_in_flight_bytes_per_sm");
            const std::string bandwidth_path = child_pointer(entry_path, "bandwidth_gbs");
            if (!(entry.store_fraction >= 0 && entry.store_fraction < 1))
                fail(fraction_path, "must be from 0 (loads alone) to below 1 (a mix with loads), "
                                    "got " +
                                        number(entry.store_fraction));
            if (!(entry.loads_in_flight_bytes_per_sm > 0))
                fail(bytes_path,
                     "must be positive, got " + number(entry.loads_in_flight_bytes_per_sm));
            if (!(entry.bandwidth_gbs > 0))
                fail(bandwidth_path, "must be positive, got " + number(entry.bandwidth_gbs));
            not_above_peak(level, entry.bandwidth_gbs, bandwidth_path);
            if (i > 0)
                sorted_by_fraction_then(list.value[i - 1].store_fraction, entry.store_fraction,
                                        fraction_path, "loads_in_flight_bytes_per_sm",
                                        list.value[i - 1].loads_in_flight_bytes_per_sm,
                                        entry.loads_in_flight_bytes_per_sm, bytes_path);
        }
    }

    // Bandwidth by load/store mix: the dram and l2 levels' only (the limiter model reads no
    // other), sorted by store fraction, each fraction in [0, 1] and once, each bandwidth
    // positive and not above the level's peak.
    void mixed_bandwidths(const MemoryLevel& level, const std::string& path) const {
        const auto& list = *level.mixed_bandwidth_by_store_fraction;
        source(list.source, path);
        if (level.name != "dram" && level.name != "l2")
            fail(path, "only the dram and l2 levels take mixed_bandwidth_by_store_fraction (the "
                       "limiter model reads no other level's), not '" +
                           level.name + "'");
        if (list.value.empty())
            fail(path, "expected at least one {\"store_fraction\", \"bandwidth_gbs\"} entry");
        for (std::size_t i = 0; i < list.value.size(); ++i) {
            const MixedBandwidth& entry = list.value[i];
            const std::string entry_path = child_pointer(path, i);
            const std::string fraction_path = child_pointer(entry_path, "store_fraction");
            const std::string bandwidth_path = child_pointer(entry_path, "bandwidth_gbs");
            store_fraction_in_range(entry.store_fraction, fraction_path);
            if (i > 0 && entry.store_fraction <= list.value[i - 1].store_fraction)
                fail(fraction_path, "entries must be sorted by store_fraction, each once (" +
                                        number(entry.store_fraction) + " comes after " +
                                        number(list.value[i - 1].store_fraction) + ")");
            if (!(entry.bandwidth_gbs > 0))
                fail(bandwidth_path, "must be positive, got " + number(entry.bandwidth_gbs));
            not_above_peak(level, entry.bandwidth_gbs, bandwidth_path);
        }
    }

    // Sizes by shared-memory carve-out: sorted by carve-out, each one a carve-out the machine
    // offers, each size positive. (Not bounded by size_bytes: a probed L1's size_bytes is what
    // it measured at one carve-out, and a smaller carve-out leaves a larger L1.)
    void carveout_sizes(const MemoryLevel& level, const std::string& path) const {
        const auto& list = *level.effective_size_by_carveout;
        source(list.source, path);
        if (list.value.empty())
            fail(path, "expected at least one {\"shared_kib\", \"effective_size_bytes\"} entry");
        const auto& offered = m_.compute.shared_memory_carveouts_kib;
        for (std::size_t i = 0; i < list.value.size(); ++i) {
            const CarveoutSize& entry = list.value[i];
            const std::string entry_path = child_pointer(path, i);
            const std::string kib_path = child_pointer(entry_path, "shared_kib");
            const std::string size_path = child_pointer(entry_path, "effective_size_bytes");
            if (entry.shared_kib < 0)
                fail(kib_path, "must not be negative, got " + std::to_string(entry.shared_kib));
            if (i > 0 && entry.shared_kib == list.value[i - 1].shared_kib)
                fail(kib_path,
                     "carve-out " + std::to_string(entry.shared_kib) + " KiB is given twice");
            if (i > 0 && entry.shared_kib < list.value[i - 1].shared_kib)
                fail(kib_path, "entries must be sorted by shared_kib (" +
                                   std::to_string(entry.shared_kib) + " comes after " +
                                   std::to_string(list.value[i - 1].shared_kib) + ")");
            if (offered && std::find(offered->value.begin(), offered->value.end(),
                                     entry.shared_kib) == offered->value.end()) {
                std::string kibs;
                for (int kib : offered->value)
                    kibs += (kibs.empty() ? "" : ", ") + std::to_string(kib);
                fail(kib_path,
                     "carve-out " + std::to_string(entry.shared_kib) +
                         " KiB is not one of the machine's shared_memory_carveouts_kib",
                     {"carve-outs: " + kibs + " KiB"});
            }
            if (entry.effective_size_bytes <= 0)
                fail(size_path,
                     "must be positive, got " + std::to_string(entry.effective_size_bytes));
        }
    }

    // same_cache_as names another level or special memory (a cache, not DRAM), and following
    // the names never comes back to where it started.
    void same_cache() const {
        struct Named {
            const MemoryLevel* level;
            std::string path;
        };
        std::vector<Named> all;
        for (std::size_t i = 0; i < m_.memory.size(); ++i)
            all.push_back({&m_.memory[i], child_pointer("/memory", i)});
        for (std::size_t i = 0; i < m_.special_memories.size(); ++i)
            all.push_back({&m_.special_memories[i], child_pointer("/special_memories", i)});
        auto find = [&](const std::string& name) -> const Named* {
            for (const auto& named : all)
                if (named.level->name == name)
                    return &named;
            return nullptr;
        };
        std::vector<std::string> names;
        for (const auto& named : all)
            if (named.level->name != "dram")
                names.push_back(named.level->name);
        for (const auto& named : all) {
            const auto& target = named.level->same_cache_as;
            if (!target)
                continue;
            const std::string path = child_pointer(named.path, "same_cache_as");
            if (named.level->name == "dram")
                fail(path, "\"dram\" is not a cache; same_cache_as applies to caches");
            if (target->value == named.level->name)
                fail(path, "\"" + named.level->name + "\" cannot be the same cache as itself");
            if (target->value == "dram")
                fail(path, "same_cache_as must name a cache, not \"dram\"");
            if (!find(target->value)) {
                std::vector<std::string> notes;
                const auto close = closest_names(target->value, names, 1);
                if (!close.empty())
                    notes.push_back("did you mean \"" + close.front() + "\"?");
                notes.push_back("levels and special memories of this machine: " +
                                json_reader::quoted_list(names));
                fail(path,
                     "same_cache_as names no memory level or special memory: \"" + target->value +
                         "\"",
                     notes);
            }
            // Follow the chain; coming back to this level is a cycle.
            std::string chain = named.level->name;
            const Named* at = find(target->value);
            for (std::size_t steps = 0; at && steps <= all.size(); ++steps) {
                chain += " -> " + at->level->name;
                if (at == &named)
                    fail(path, "same_cache_as forms a cycle: " + chain,
                         {"name the cache once: e.g. \"texture\": {\"same_cache_as\": \"l1\"} "
                          "and nothing on \"l1\""});
                if (!at->level->same_cache_as)
                    break;
                at = find(at->level->same_cache_as->value);
            }
        }
    }

    void tlbs() const {
        static const std::regex name_pattern("^[a-z0-9][a-z0-9_]*$");
        const std::vector<std::string> scopes(mf::sharing_scopes.begin(), mf::sharing_scopes.end());
        for (std::size_t i = 0; i < m_.tlbs.size(); ++i) {
            const TlbLevel& tlb = m_.tlbs[i];
            const std::string path = child_pointer("/tlbs", i);
            if (!std::regex_match(tlb.name, name_pattern))
                fail(child_pointer(path, "name"),
                     "expected a TLB name of lower-case letters, digits and '_' such as "
                     "\"l1_tlb\", got \"" +
                         tlb.name + "\"");
            for (std::size_t j = 0; j < i; ++j)
                if (m_.tlbs[j].name == tlb.name)
                    fail(child_pointer(path, "name"), "TLB \"" + tlb.name + "\" is given twice");
            if (!tlb.shared_by.empty() &&
                std::find(scopes.begin(), scopes.end(), tlb.shared_by) == scopes.end())
                fail(child_pointer(path, "shared_by"),
                     "expected one of \"sm\", \"tpc\", \"gpc\", \"gpu\", got \"" + tlb.shared_by +
                         "\"");
            section(tlb, path, mf::tlb_fields);
            if (tlb.page_bytes && (tlb.page_bytes->value & (tlb.page_bytes->value - 1)) != 0)
                fail(child_pointer(path, "page_bytes"), "page_bytes must be a power of two, got " +
                                                            std::to_string(tlb.page_bytes->value));
            if (tlb.reach_bytes && tlb.page_bytes && tlb.reach_bytes->value < tlb.page_bytes->value)
                fail(child_pointer(path, "reach_bytes"),
                     "reach_bytes (" + std::to_string(tlb.reach_bytes->value) +
                         ") is less than one page (page_bytes " +
                         std::to_string(tlb.page_bytes->value) + ")");
        }
    }

    void hierarchy() const {
        // Levels from the SM outwards, and the DRAM level every model needs.
        int previous_rank = -1;
        std::size_t dram_index = m_.memory.size();
        for (std::size_t i = 0; i < m_.memory.size(); ++i) {
            const auto begin = mf::hierarchy_level_names.begin();
            const int rank = static_cast<int>(
                std::find(begin, mf::hierarchy_level_names.end(), m_.memory[i].name) - begin);
            if (rank < previous_rank)
                fail(child_pointer(child_pointer("/memory", i), "name"),
                     "memory levels must be listed from the SM outwards (l1, l2, dram); \"" +
                         m_.memory[i].name + "\" comes after \"" +
                         std::string(mf::hierarchy_level_names[previous_rank]) + "\"");
            previous_rank = rank;
            if (m_.memory[i].name == "dram")
                dram_index = i;
        }
        if (dram_index == m_.memory.size())
            fail("/memory", "missing the required memory level \"dram\"");

        const MemoryLevel* l1 = m_.level("l1");
        const MemoryLevel* l2 = m_.level("l2");
        if (l1 && l2 && l1->size_bytes && l2->size_bytes &&
            l1->size_bytes->value >= l2->size_bytes->value) {
            const auto index = static_cast<std::size_t>(l1 - m_.memory.data());
            fail(child_pointer(child_pointer("/memory", index), "size_bytes"),
                 "the L1 (" + std::to_string(l1->size_bytes->value) +
                     " B per SM) must be smaller than the L2 (" +
                     std::to_string(l2->size_bytes->value) + " B)");
        }
        // Since Volta, shared memory is carved out of the unified L1 array of each SM.
        if (m_.identity.cc_major >= 7 && l1 && l1->size_bytes &&
            m_.compute.shared_memory_per_sm_bytes &&
            m_.compute.shared_memory_per_sm_bytes->value > l1->size_bytes->value)
            fail("/compute/shared_memory_per_sm_bytes",
                 "shared_memory_per_sm_bytes (" +
                     std::to_string(m_.compute.shared_memory_per_sm_bytes->value) +
                     ") exceeds the unified L1/shared array of the SM (l1 size_bytes " +
                     std::to_string(l1->size_bytes->value) + ")");
    }

    void capacity_fits() const {
        for (const auto& slot : mf::capacity_fit_slots) {
            const auto& fit = m_.capacity_fits.*slot.member;
            if (!fit)
                continue;
            const std::string path = child_pointer("/capacity_fits", std::string(slot.key));
            for (auto [name, value] :
                 {std::pair{"a", &fit->a}, std::pair{"b", &fit->b}, std::pair{"c", &fit->c}})
                check_value(Known<double>(*value), child_pointer(path, name), mf::Range::any);
            // hit(O) = a exp(-b exp(-c O)) is a hit rate that falls with O only for
            // 0 < a <= 1, b > 0, c < 0 (docs/volume-model.md, Capacity-miss fits); beyond
            // |b|, |c| <= 10^6 exp() over- or underflows at ordinary O.
            if (!(fit->a.value > 0 && fit->a.value <= 1))
                fail(child_pointer(path, "a"),
                     "expected 0 < a <= 1 (the hit rate's level), got " + scientific(fit->a.value));
            if (!(fit->b.value > 0 && fit->b.value <= 1e6))
                fail(child_pointer(path, "b"),
                     "expected 0 < b <= 10^6, got " + scientific(fit->b.value));
            if (!(fit->c.value < 0 && fit->c.value >= -1e6))
                fail(child_pointer(path, "c"),
                     "expected -10^6 <= c < 0 (hits fall as the cache is oversubscribed), got " +
                         scientific(fit->c.value));
        }
    }

    void calibrated_costs() const {
        for (const auto& [name, cost] : m_.calibrated_costs) {
            const std::string path = child_pointer("/calibrated_costs", name);
            if (name.empty() || name == "source")
                fail(path, "a calibrated cost needs a name other than \"\" or \"source\"");
            check_value(Known<double>(cost), path, mf::Range::any);
        }
    }

    void atomic_service_times() const {
        if (!m_.atomic_service_times)
            return;
        const auto& table = *m_.atomic_service_times;
        const std::string path = "/atomic_service_times";
        source(table.source, child_pointer(path, "source"));
        const int warp_size = m_.compute.warp_size ? m_.compute.warp_size->value : 32;
        std::set<std::string> seen;
        for (std::size_t i = 0; i < table.operations.size(); ++i) {
            const auto& grid = table.operations[i];
            const std::string grid_path = child_pointer(child_pointer(path, "operations"), i);
            if (grid.operation != "add" && grid.operation != "popc_inc")
                fail(child_pointer(grid_path, "operation"),
                     "must be \"add\" or \"popc_inc\", got \"" + grid.operation + "\"");
            if (!seen.insert(grid.operation).second)
                fail(child_pointer(grid_path, "operation"),
                     "operation \"" + grid.operation + "\" is given twice");
            auto ascending = [&](const std::vector<int>& axis, const char* key, int low, int high) {
                const std::string axis_path = child_pointer(grid_path, key);
                if (axis.empty())
                    fail(axis_path, "must list at least one value");
                for (std::size_t k = 0; k < axis.size(); ++k) {
                    if (axis[k] < low || axis[k] > high)
                        fail(child_pointer(axis_path, k), "must be between " + std::to_string(low) +
                                                              " and " + std::to_string(high) +
                                                              ", got " + std::to_string(axis[k]));
                    if (k > 0 && axis[k] <= axis[k - 1])
                        fail(child_pointer(axis_path, k),
                             "must be larger than the value before it (" +
                                 std::to_string(axis[k - 1]) + "): the axis ascends");
                }
            };
            ascending(grid.queued_warps, "queued_warps", 1, 4096);
            ascending(grid.active_threads, "active_threads", 1, warp_size);
            for (std::size_t n = 0; n < grid.total_cycles.size(); ++n)
                for (std::size_t e = 0; e < grid.total_cycles[n].size(); ++e)
                    for (std::size_t c = 0; c < grid.total_cycles[n][e].size(); ++c) {
                        const double cycles = grid.total_cycles[n][e][c];
                        if (!(cycles > 0) || !std::isfinite(cycles))
                            fail(child_pointer(
                                     child_pointer(
                                         child_pointer(child_pointer(grid_path, "total_cycles"), n),
                                         e),
                                     c),
                                 "must be positive, got " + number(cycles));
                    }
        }
    }
};

} // namespace

void validate_machine_at(const MachineModel& machine, const JsonPathLocator& locate) {
    Validator(machine, locate).run();
}

void validate_machine(const MachineModel& machine, const std::string& origin) {
    validate_machine_at(machine, [&](const std::string& path) {
        SourceLocation where;
        where.file = origin;
        where.json_path = path;
        return where;
    });
}

} // namespace kerncast
