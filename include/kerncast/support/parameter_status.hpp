// Whether the data of a least-squares fit determine each of its parameters: the statuses that
// calibrate (Stevens & Klöckner cost models) and mwp-fit (MWP-CWP memory parameters) report,
// computed for both by support::parameter_statuses (src/support/least_squares.hpp).
#pragma once

namespace kerncast::support {

enum class ParameterStatus {
    fitted,       // determined by the data
    at_bound,     // ended on its min or max: the data pull it further
    undetermined, // no datum depends on it (a zero Jacobian column): left at its start
    // The data fix only a combination of it with other parameters (its Jacobian column lies in
    // the span of theirs at the solution: fewer data than parameters, or features that move
    // together), so its value is one of many that fit as well.
    not_separable,
};

// "fitted", "at bound", "undetermined", "not separable".
const char* parameter_status_name(ParameterStatus status);

} // namespace kerncast::support
