// validate_machine as a whole: a valid machine passes, the probed fixture is valid, and every
// value is physical for its unit (the checks all sections share, machine_checks.hpp).
#include "validate_fixture.hpp"

#include <fmt/format.h>

using namespace kerncast;
using namespace kerncast::machine_test;

TEST(ValidateMachine, AcceptsAValidMachine) {
    EXPECT_NO_THROW(validate_machine(valid_machine(), "x"));
}

TEST(ValidateMachine, TheProbedFixtureIsValid) {
    EXPECT_NO_THROW(parse_machine_json(probed(), "probed.json"));
}

TEST(ValidateMachine, ValuesMustBePhysical) {
    // Denormal, out-of-unit and overflowed values would pass a sign check and give infinite or
    // negative times (issue 47): each is refused with its path.
    const auto message_at = [](MachineModel m, const std::string& path) {
        const auto error = validation_error(m);
        EXPECT_TRUE(error.has_value()) << path;
        if (!error)
            return std::string();
        EXPECT_EQ(error->where().json_path, path);
        return error->message();
    };
    MachineModel clock = valid_machine();
    clock.compute.boost_clock_mhz = Sourced<double>{1e-310, "sheet"};
    EXPECT_EQ(message_at(clock, "/compute/boost_clock_mhz"),
              "expected a normal number, got the denormal 1e-310");
    clock.compute.boost_clock_mhz->value = 1.41e9; // Hz, not MHz
    EXPECT_EQ(message_at(clock, "/compute/boost_clock_mhz"),
              "expected a clock in MHz (1 to 100000), got 1.41e+09");
    MachineModel bandwidth = valid_machine();
    bandwidth.memory[2].sustained_bandwidth_gbs = Sourced<double>{1.5e12, "sheet"}; // B/s
    EXPECT_NE(message_at(bandwidth, "/memory/2/sustained_bandwidth_gbs")
                  .find("expected a bandwidth in GB/s"),
              std::string::npos);
    MachineModel delay = valid_machine();
    delay.mwp_cwp.departure_del_coal_cycles = Sourced<double>{1e300, "sheet"};
    EXPECT_NE(message_at(delay, "/mwp_cwp/departure_del_coal_cycles").find("at most 10^9"),
              std::string::npos);
}
