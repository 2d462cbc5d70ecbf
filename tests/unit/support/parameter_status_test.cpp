#include "kerncast/support/parameter_status.hpp"

#include <gtest/gtest.h>
#include <string>

using kerncast::support::parameter_status_name;
using kerncast::support::ParameterStatus;

TEST(ParameterStatus, NamesAreTheWordsTheFitReportsPrint) {
    EXPECT_EQ(std::string(parameter_status_name(ParameterStatus::fitted)), "fitted");
    EXPECT_EQ(std::string(parameter_status_name(ParameterStatus::at_bound)), "at bound");
    EXPECT_EQ(std::string(parameter_status_name(ParameterStatus::undetermined)), "undetermined");
    EXPECT_EQ(std::string(parameter_status_name(ParameterStatus::not_separable)), "not separable");
}
