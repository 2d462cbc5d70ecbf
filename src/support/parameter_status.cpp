#include "kerncast/support/parameter_status.hpp"

namespace kerncast::support {

const char* parameter_status_name(ParameterStatus status) {
    switch (status) {
    case ParameterStatus::fitted:
        return "fitted";
    case ParameterStatus::at_bound:
        return "at bound";
    case ParameterStatus::undetermined:
        return "undetermined";
    case ParameterStatus::not_separable:
        return "not separable";
    }
    return "?";
}

} // namespace kerncast::support
