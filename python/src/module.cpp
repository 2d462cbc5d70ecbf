// kerncast._kerncast: the extension module under the kerncast package (python/kerncast/).
#include "bindings.hpp"

PYBIND11_MODULE(_kerncast, module) {
    module.doc() = "kerncast's library for Python: see the kerncast package (docs/python.md)";
    module.attr("__version__") = KERNCAST_VERSION;
    kerncast::python::bind_errors(module);
    kerncast::python::bind_inputs(module);
    kerncast::python::bind_commands(module);
}
