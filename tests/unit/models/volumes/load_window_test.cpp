// The loads a thread can have in flight (load_window.hpp): the windows the SASS of the
// generated stencils shows (lab/measured/h100-2026-11-26c/README.md, "SASS load batches").
#include "kerncast/error.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/volumes/load_window.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::models;

TEST(LoadWindow, MatchesTheCompiledStencilsWindows) {
    // 8-byte values, two registers each, 8 registers reserved (the Hopper files' value): the
    // box r3 and the star at 30 registers issue 11 loads first, the box r3's 1x32 blocks at 62
    // registers 27.
    EXPECT_EQ(load_window(30, 8, 2), 11);
    EXPECT_EQ(load_window(62, 8, 2), 27);
    EXPECT_EQ(load_window(32, 8, 2), 12); // the star's fold of 4
    EXPECT_EQ(load_window(30, 8, 1), 22); // 4-byte values
}

TEST(LoadWindow, UnknownRegistersGiveNoWindowAndFewGiveOne) {
    EXPECT_FALSE(load_window(0, 8, 2).has_value());
    EXPECT_EQ(load_window(8, 8, 2), 1);
    EXPECT_EQ(load_window(9, 8, 2), 1);
    EXPECT_EQ(load_window(12, 8, 2), 2);
    EXPECT_EQ(load_window(12, 0, 2), 6); // nothing reserved
}

TEST(LoadWindow, TheHopperFilesReserveWhatTheSassKeeps) {
    for (const char* id : {"h100-sxm5-80gb", "h200-sxm-141gb"}) {
        const MachineModel m = builtin_machine(id);
        ASSERT_TRUE(m.compute.load_window_reserved_registers.has_value()) << id;
        EXPECT_EQ(m.compute.load_window_reserved_registers->value, 8) << id;
        EXPECT_EQ(m.sources.at(m.compute.load_window_reserved_registers->source).kind,
                  SourceKind::measured)
            << id;
    }
}

TEST(LoadWindow, FractionOfTheLoadsInFlight) {
    EXPECT_DOUBLE_EQ(loads_in_flight_fraction(13, 11), 11.0 / 13); // the unfolded star
    EXPECT_DOUBLE_EQ(loads_in_flight_fraction(40, 12), 0.3);       // its fold of 4: 13 + 3 x 9
    EXPECT_DOUBLE_EQ(loads_in_flight_fraction(9, 11), 1.0);        // fewer loads than the window
    EXPECT_DOUBLE_EQ(loads_in_flight_fraction(0, 11), 1.0);        // no loads
}

TEST(LoadWindow, InvalidArgumentsAreInternalErrors) {
    for (const auto& call : {+[] { return load_window(-1, 8, 2).value_or(0) + 0.0; },
                             +[] { return load_window(30, 8, 0).value_or(0) + 0.0; },
                             +[] { return load_window(30, -1, 2).value_or(0) + 0.0; },
                             +[] { return loads_in_flight_fraction(10, 0); },
                             +[] { return loads_in_flight_fraction(-1, 4); }}) {
        try {
            call();
            ADD_FAILURE() << "no error";
        } catch (const Error& error) {
            EXPECT_EQ(error.kind(), ErrorKind::internal);
        }
    }
}
