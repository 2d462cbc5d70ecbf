// The machines validate_machine's tests break one rule at a time: a valid machine built in code,
// and the probed fixture (machines/probed_fields.json) as text with its JSON positions.
#pragma once

#include "expect_error.hpp"
#include "kerncast/machine/machine_json.hpp"
#include "kerncast/machine/validate.hpp"
#include "machine_fixture.hpp"

#include <gtest/gtest.h>
#include <optional>
#include <string>

namespace kerncast::machine_test {

inline MemoryLevel level(const std::string& name, const std::string& shared_by) {
    MemoryLevel result;
    result.name = name;
    result.shared_by = shared_by;
    return result;
}

// A valid machine built in code; each test breaks one rule.
inline MachineModel valid_machine() {
    MachineModel m;
    m.identity = {"toy", "Toy GPU", "test", "Toy", 8, 0, false, ""};
    m.sources["sheet"] = Provenance{SourceKind::datasheet, "Toy datasheet", ""};
    m.compute.sm_count = Sourced<int>{4, "sheet"};
    m.compute.warp_size = Sourced<int>{32, "sheet"};
    MemoryLevel l1 = level("l1", "sm");
    l1.size_bytes = Sourced<std::int64_t>{128 * 1024, "sheet"};
    l1.line_bytes = Sourced<int>{128, "sheet"};
    l1.sector_bytes = Sourced<int>{32, "sheet"};
    MemoryLevel l2 = level("l2", "gpu");
    l2.size_bytes = Sourced<std::int64_t>{4 << 20, "sheet"};
    MemoryLevel dram = level("dram", "gpu");
    dram.peak_bandwidth_gbs = Sourced<double>{500, "sheet"};
    m.memory = {l1, l2, dram};
    return m;
}

inline std::optional<Error> validation_error(const MachineModel& m) {
    return caught_error([&] { validate_machine(m, "toy.json"); });
}

inline const std::string& probed() {
    static const std::string text = machine_fixture("probed_fields.json");
    return text;
}

// Loading `text` fails with `message` at `json_path`, pointing at the text `needle`.
inline std::optional<Error> expect_invalid(const std::string& text, const std::string& message,
                                           const std::string& json_path,
                                           const std::string& needle) {
    const auto error = caught_error([&] { parse_machine_json(text, "probed.json"); });
    if (!error)
        return error;
    EXPECT_EQ(error->message(), message);
    EXPECT_EQ(error->kind(), ErrorKind::input);
    EXPECT_EQ(error->where().file, "probed.json");
    EXPECT_EQ(error->where().json_path, json_path);
    EXPECT_EQ((LineColumn{error->where().line, error->where().column}), position_of(text, needle))
        << error->describe();
    return error;
}

// The probed fixture with the list `key` of these entries on the level `name` (the dram level
// by default, whose peak is 500 GB/s; the l2 and l1 levels have none).
inline std::string with_level_list(const std::string& key, const std::string& entries,
                                   const std::string& name) {
    const std::string table = ", \"" + key + "\": [" + entries + "]}";
    if (name == "dram")
        return replaced(probed(), "\"peak_bandwidth_gbs\": 500}",
                        "\"peak_bandwidth_gbs\": 500" + table);
    if (name == "l1")
        return replaced(probed(), "\"64 KiB\"}]}", "\"64 KiB\"}]" + table);
    return replaced(probed(), "\"store_bandwidth_gbs\": 900.5}",
                    "\"store_bandwidth_gbs\": 900.5" + table);
}

} // namespace kerncast::machine_test
