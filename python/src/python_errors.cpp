// kerncast::Error -> kerncast.Error: the exception's text is describe() (file:line:column:
// error: message, the source line with a caret, notes), and its attributes carry each part.
#include "bindings.hpp"
#include "kerncast/error.hpp"

#include <pybind11/stl.h>

namespace py = pybind11;

namespace kerncast::python {

namespace {

const char* kind_name(ErrorKind kind) {
    switch (kind) {
    case ErrorKind::input:
        return "input";
    case ErrorKind::usage:
        return "usage";
    case ErrorKind::unavailable:
        return "unavailable";
    case ErrorKind::internal:
        return "internal";
    }
    return "internal";
}

py::object positive_or_none(int value) {
    return value > 0 ? py::object(py::int_(value)) : py::object(py::none());
}

py::object text_or_none(const std::string& text) {
    return text.empty() ? py::object(py::none()) : py::object(py::str(text));
}

} // namespace

void bind_errors(py::module_& module) {
    // Lives as long as the module (pybind11's documented pattern for exception types).
    static py::exception<Error> error_type(module, "Error", PyExc_ValueError);
    error_type.doc() =
        "A kerncast error: bad input (kind 'input'), a bad argument ('usage'), something this "
        "build or machine lacks ('unavailable') or a broken invariant ('internal'). str() is "
        "the CLI's message; message, kind, file, line, column, json_path, source_line and "
        "notes carry its parts (None where unknown).";
    py::register_exception_translator([](std::exception_ptr pointer) {
        try {
            if (pointer)
                std::rethrow_exception(pointer);
        } catch (const Error& error) {
            const SourceLocation& where = error.where();
            const py::handle type = error_type;
            std::string text = error.describe();
            while (!text.empty() && text.back() == '\n')
                text.pop_back();
            py::object instance = type(text); // an instance, to set attributes on
            instance.attr("message") = error.message();
            instance.attr("kind") = kind_name(error.kind());
            instance.attr("file") = text_or_none(where.file);
            instance.attr("line") = positive_or_none(where.line);
            instance.attr("column") = positive_or_none(where.column);
            instance.attr("json_path") = text_or_none(where.json_path);
            instance.attr("source_line") = text_or_none(where.source_line);
            instance.attr("notes") = py::cast(error.notes());
            PyErr_SetObject(error_type.ptr(), instance.ptr());
        }
    });
}

} // namespace kerncast::python
