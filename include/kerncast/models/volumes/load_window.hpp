// How many of its global loads a thread can have in flight at once. A load's value needs a
// register from its issue until its use, so the compiled code issues a window of loads back
// to back, as many as the registers left for values hold, then one load per use: window =
// (registers a thread - reserved) / registers a value, the reserve being the registers the
// code keeps for addresses, indices and sums (a machine-file value read off the SASS,
// compute.load_window_reserved_registers). The volume model's in-flight limit counts a
// thread's DRAM loads of that window, not of its whole fold (docs/volume-model.md, DRAM in
// flight).
#pragma once

#include <optional>

namespace kerncast::models {

// Loads a thread issues before it uses the first: (registers_per_thread - reserved_registers) /
// registers_per_value, at least 1. nullopt when the registers are unknown (0).
// registers_per_value: 1 for values of 4 bytes or fewer, 2 for 8 bytes, ...; >= 1.
std::optional<int> load_window(int registers_per_thread, int reserved_registers,
                               int registers_per_value);

// The fraction of a thread's loads (over all its points) in flight at once: min(loads, window)
// / loads; 1 for a thread without loads.
double loads_in_flight_fraction(double loads_per_thread, int window);

} // namespace kerncast::models
