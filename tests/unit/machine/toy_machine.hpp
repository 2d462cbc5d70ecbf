// Test helpers of the machine-file tests: a small valid machine file to edit one mistake into,
// the fixture with every probed field, and parsing them as "toy.json".
#pragma once

#include "expect_error.hpp"
#include "kerncast/machine/machine_json.hpp"
#include "machine_fixture.hpp"

#include <string>

// A small valid machine file; tests edit it with replace() to make one mistake each.
inline const std::string minimal = R"({
  "schema": "kerncast.machine/1",
  "identity": {"id": "toy", "name": "Toy GPU", "vendor": "test", "architecture": "Toy",
               "compute_capability": "8.0"},
  "sources": {
    "sheet": {"kind": "datasheet", "citation": "Toy datasheet, Table 1"},
    "run": {"kind": "measured", "citation": "probe", "run": "data/probe/toy-1.json"}
  },
  "compute": {
    "source": "sheet",
    "sm_count": 4,
    "warp_size": 32,
    "max_threads_per_sm": 2048,
    "max_warps_per_sm": 64,
    "shared_memory_per_sm_bytes": "100 KiB"
  },
  "memory": [
    {"name": "l1", "shared_by": "sm", "source": "sheet", "size_bytes": "128 KiB"},
    {"name": "l2", "shared_by": "gpu", "source": "sheet", "size_bytes": "4 MiB"},
    {"name": "dram", "shared_by": "gpu", "source": "sheet", "peak_bandwidth_gbs": 500,
     "sustained_bandwidth_gbs": {"value": 430.5, "source": "run"}}
  ]
}
)";

inline kerncast::MachineModel parse(const std::string& text) {
    return kerncast::parse_machine_json(text, "toy.json");
}

// docs/machine-format.md, "Probed topology": a file with every field the topology probe fills.
inline const std::string& probed() {
    static const std::string text = machine_fixture("probed_fields.json");
    return text;
}

// The error of parsing `text`, which must name the JSON path and the text at `needle`.
inline void expect_error_at(const std::string& text, const std::string& message,
                            const std::string& json_path, const std::string& needle) {
    const auto error = caught_error([&] { parse(text); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), message);
    EXPECT_EQ(error->where().file, "toy.json");
    EXPECT_EQ(error->where().json_path, json_path);
    EXPECT_EQ((LineColumn{error->where().line, error->where().column}), position_of(text, needle))
        << error->describe();
}
