// How many of its global loads a thread can have in flight at once. A load's value needs a
// register from its issue until its use, so the compiled code issues a window of loads back
// to back, as many as the registers left for values hold, then one load per use (the SASS of
// kerncast's generated stencils on an H100, lab/measured/h100-2026-11-26c/sass and its README:
// the box r3 issues 11 of its 49 loads first at 30 registers a thread, 27 at 62; the star r2 11
// of its 13 at 30, its z-fold of 2 11 of 35). All three follow (registers - 8) / registers a
// value: 8 registers stay with addresses and indices. The volume model's in-flight limit counts
// a thread's DRAM loads of that window, not of its whole fold (docs/volume-model.md, Limiters).
#pragma once

#include <optional>

namespace kerncast::models {

// Registers the compiled stencils keep for addresses, indices and the sum (the SASS above).
inline constexpr int registers_kept_for_addresses = 8;

// Loads a thread issues before it uses the first: (registers_per_thread - 8) /
// registers_per_value, at least 1. nullopt when the registers are unknown (0).
// registers_per_value: 1 for values of 4 bytes or fewer, 2 for 8 bytes, ...; >= 1.
std::optional<int> load_window(int registers_per_thread, int registers_per_value);

// The fraction of a thread's loads (over all its points) in flight at once: min(loads, window)
// / loads; 1 for a thread without loads.
double loads_in_flight_fraction(double loads_per_thread, int window);

} // namespace kerncast::models
