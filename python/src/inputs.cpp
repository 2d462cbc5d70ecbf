// The two inputs of every model (DESIGN.md): a kernel description and a machine model, as
// immutable Python objects that the commands take.
#include "bindings.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/machine/machine_json.hpp"

#include <memory>
#include <pybind11/stl.h>
#include <tuple>

namespace py = pybind11;

namespace kerncast::python {

namespace {

using Triple = std::tuple<std::int64_t, std::int64_t, std::int64_t>;

Triple as_tuple(const std::array<std::int64_t, kernel::axis_count>& values) {
    return {values[0], values[1], values[2]};
}

void bind_kernel(py::module_& module) {
    py::class_<kernel::KernelSpec, std::shared_ptr<kernel::KernelSpec>>(
        module, "Kernel",
        "A kernel description (docs/kernel-format.md), read from a file or from YAML text.")
        .def_static(
            "from_file",
            [](const std::string& path) {
                return std::make_shared<kernel::KernelSpec>(kernel::load_kernel_file(path));
            },
            py::arg("path"), "Reads a kernel file (YAML).")
        .def_static(
            "from_yaml",
            [](const std::string& text, const std::string& name) {
                return std::make_shared<kernel::KernelSpec>(kernel::parse_kernel_text(text, name));
            },
            py::arg("text"), py::arg("name") = "<string>",
            "Parses kernel YAML text; `name` stands for the file in error messages.")
        .def_property_readonly("name", [](const kernel::KernelSpec& k) { return k.name; })
        .def_property_readonly("file", [](const kernel::KernelSpec& k) { return k.file; })
        .def_property_readonly("description",
                               [](const kernel::KernelSpec& k) { return k.description; })
        .def_property_readonly(
            "params",
            [](const kernel::KernelSpec& k) {
                py::dict values;
                for (const auto& param : k.params)
                    values[py::str(param.name)] = param.default_value;
                return values;
            },
            "Parameter name -> the file's value.")
        .def_property_readonly("block",
                               [](const kernel::KernelSpec& k) { return as_tuple(k.launch.block); })
        .def_property_readonly("fold",
                               [](const kernel::KernelSpec& k) { return as_tuple(k.launch.fold); })
        .def_property_readonly("fold_placement",
                               [](const kernel::KernelSpec& k) {
                                   return std::string(
                                       kernel::fold_placement_name(k.launch.fold_placement));
                               })
        .def_property_readonly("registers_per_thread",
                               [](const kernel::KernelSpec& k) { return k.registers_per_thread; })
        .def("__repr__", [](const kernel::KernelSpec& k) {
            return "<kerncast.Kernel " + k.name + (k.file.empty() ? "" : " from " + k.file) + ">";
        });
}

void bind_machine(py::module_& module) {
    py::class_<MachineModel, std::shared_ptr<MachineModel>>(
        module, "Machine", "A machine model (docs/machine-format.md): a built-in id or a file.")
        .def(py::init([](const std::string& id_or_path) {
                 return std::make_shared<MachineModel>(resolve_machine(id_or_path));
             }),
             py::arg("id_or_path"), "A built-in id (kerncast.machines()) or a machine file.")
        .def_static(
            "from_json",
            [](const std::string& text, const std::string& name) {
                return std::make_shared<MachineModel>(parse_machine_json(text, name));
            },
            py::arg("text"), py::arg("name") = "<string>",
            "Parses machine JSON text; `name` stands for the file in error messages.")
        .def_property_readonly("id", [](const MachineModel& m) { return m.identity.id; })
        .def_property_readonly("name", [](const MachineModel& m) { return m.identity.name; })
        .def_property_readonly("architecture",
                               [](const MachineModel& m) { return m.identity.architecture; })
        .def_property_readonly("compute_capability",
                               [](const MachineModel& m) {
                                   return std::make_tuple(m.identity.cc_major, m.identity.cc_minor);
                               })
        .def("to_json", &machine_json_text, "The machine file's JSON text.")
        .def("__repr__",
             [](const MachineModel& m) { return "<kerncast.Machine " + m.identity.id + ">"; });
    module.def("machines", &builtin_machine_ids, "The built-in machine ids, in catalogue order.");
}

} // namespace

void bind_inputs(py::module_& module) {
    bind_kernel(module);
    bind_machine(module);
}

} // namespace kerncast::python
