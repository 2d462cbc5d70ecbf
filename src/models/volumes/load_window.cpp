#include "kerncast/models/volumes/load_window.hpp"

#include "kerncast/error.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace kerncast::models {

std::optional<int> load_window(int registers_per_thread, int reserved_registers,
                               int registers_per_value) {
    KERNCAST_CHECK(registers_per_thread >= 0 && reserved_registers >= 0 && registers_per_value >= 1,
                   fmt::format("load window of {} registers, {} reserved, {} a value",
                               registers_per_thread, reserved_registers, registers_per_value));
    if (registers_per_thread == 0)
        return std::nullopt;
    return std::max(1, (registers_per_thread - reserved_registers) / registers_per_value);
}

double loads_in_flight_fraction(double loads_per_thread, int window) {
    KERNCAST_CHECK(window >= 1 && loads_per_thread >= 0,
                   fmt::format("{} loads in a window of {}", loads_per_thread, window));
    if (loads_per_thread <= 0)
        return 1;
    return std::min(loads_per_thread, static_cast<double>(window)) / loads_per_thread;
}

} // namespace kerncast::models
