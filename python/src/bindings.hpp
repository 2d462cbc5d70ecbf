// The pieces of the extension module kerncast._kerncast (docs/python.md): each bind_* adds its
// classes and functions to the module; module.cpp calls them in order.
#pragma once

#include "kerncast/report/document.hpp"

#include <pybind11/pybind11.h>

namespace kerncast::python {

// kerncast.Error (a ValueError) carrying kerncast::Error's message, kind and position.
void bind_errors(pybind11::module_& module);

// Kernel (from a file or YAML text), Machine (built-in id or file), machines().
void bind_inputs(pybind11::module_& module);

// count, predict, explore, mwp, validate: each returns its report as document_to_python does.
void bind_commands(pybind11::module_& module);

// A report Document as plain Python objects, the shape of the CLI's --json (docs/output.md):
// {"schema", "title", "tables": {key: {"title", "columns": [{"key", "header", "unit"}],
// "rows": [{column key: value}]}}, "notes"}. Blank cells are None; numbers keep full precision
// (non-finite ones are float inf/nan, where JSON has the strings "inf", "nan").
pybind11::dict document_to_python(const report::Document& document);

} // namespace kerncast::python
