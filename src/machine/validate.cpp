// Semantic checks of a MachineModel, section by section (machine_checks.hpp); the rules are
// listed in docs/machine-format.md.
#include "kerncast/machine/validate.hpp"

#include "machine_checks.hpp"

namespace kerncast {

void validate_machine_at(const MachineModel& machine, const JsonPathLocator& locate) {
    using namespace machine_checks;
    check_identity(machine, locate);
    check_sources(machine, locate);
    check_compute(machine, locate);
    check_levels(machine, locate);
    check_hierarchy(machine, locate);
    check_same_cache(machine, locate);
    check_tlbs(machine, locate);
    check_banks(machine, locate);
    check_mwp_cwp(machine, locate);
    check_tables(machine, locate);
}

void validate_machine(const MachineModel& machine, const std::string& origin) {
    validate_machine_at(machine, [&](const std::string& path) {
        SourceLocation where;
        where.file = origin;
        where.json_path = path;
        return where;
    });
}

} // namespace kerncast
