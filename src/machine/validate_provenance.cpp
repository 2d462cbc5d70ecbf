// The machine's identity and its sources: citations, measured runs, uncertainties, and the
// provenance that fit-volumes and calibrate write (machine_checks.hpp; docs/machine-format.md).
#include "kerncast/closest_names.hpp"
#include "machine_checks.hpp"

#include <algorithm>
#include <regex>
#include <set>

namespace kerncast::machine_checks {
namespace {

class ProvenanceChecks : public MachineChecks {
public:
    using MachineChecks::MachineChecks;

    // Values a fit or calibration wrote: errors are not negative, digests are SHA-256 digits, and
    // the date and kerncast version say when and by what.
    void non_negative(const std::string& path, const char* key, double value) const {
        if (!std::isfinite(value) || value < 0)
            fail(child_pointer(path, key), "must not be negative, got " + number(value));
    }

    void sha256_digits(const std::string& path, const char* key, const std::string& value) const {
        static const std::regex sha_pattern("^[0-9a-f]{64}$");
        if (!std::regex_match(value, sha_pattern))
            fail(child_pointer(path, key),
                 "expected 64 lower-case hexadecimal digits, got \"" + value + "\"");
    }

    void written_by(const std::string& path, const std::string& date,
                    const std::string& kerncast_version) const {
        static const std::regex date_pattern(
            R"(^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z$)");
        if (!std::regex_match(date, date_pattern))
            fail(child_pointer(path, "date"),
                 "expected an ISO 8601 UTC date such as \"2026-11-24T21:00:00Z\", got \"" + date +
                     "\"");
        if (kerncast_version.empty())
            fail(child_pointer(path, "kerncast_version"), "expected the kerncast version");
    }

    void identity() const {
        static const std::regex id_pattern("^[a-z0-9][a-z0-9._+-]*$");
        const auto& id = m_.identity;
        if (!std::regex_match(id.id, id_pattern))
            fail("/identity/id",
                 "expected an id of lower-case letters, digits, '.', '_', '+' and '-' (starting "
                 "with a letter or digit), got \"" +
                     id.id + "\"");
        if (id.name.empty())
            fail("/identity/name", "expected a non-empty name");
        if (id.vendor.empty())
            fail("/identity/vendor", "expected a non-empty vendor");
        if (id.architecture.empty())
            fail("/identity/architecture", "expected a non-empty architecture");
        if (id.cc_major < 1 || id.cc_minor < 0)
            fail("/identity/compute_capability", "compute capability must be at least 1.0, got " +
                                                     std::to_string(id.cc_major) + "." +
                                                     std::to_string(id.cc_minor));
    }

    void sources() const {
        for (const auto& [key, provenance] : m_.sources) {
            const std::string path = child_pointer("/sources", key);
            if (key.empty())
                fail(path, "a source needs a non-empty key");
            if (provenance.citation.empty())
                fail(child_pointer(path, "citation"),
                     "expected a citation (document and table/section the values come from)");
            if (provenance.kind == SourceKind::measured && provenance.run.empty())
                fail(child_pointer(path, "run"),
                     "a \"measured\" source must name the run that measured it (\"run\")");
            if (provenance.uncertainty)
                uncertainty(*provenance.uncertainty, child_pointer(path, "uncertainty"));
            if (provenance.fit)
                fit_provenance(*provenance.fit, child_pointer(path, "fit"));
            if (provenance.calibration)
                calibration_provenance(*provenance.calibration, child_pointer(path, "calibration"));
        }
    }

    // `kerncast calibrate`'s provenance (docs/model-format.md, "Calibrated parameters").
    void calibration_provenance(const CalibrationProvenance& c, const std::string& path) const {
        if (c.model.empty())
            fail(child_pointer(path, "model"), "expected the model's name");
        if (c.parameters.empty())
            fail(child_pointer(path, "parameters"),
                 "expected the names of the parameters it calibrated");
        std::set<std::string> seen;
        for (std::size_t i = 0; i < c.parameters.size(); ++i) {
            const std::string at = child_pointer(child_pointer(path, "parameters"), i);
            if (c.parameters[i].rfind("p_", 0) != 0 || c.parameters[i].size() < 3)
                fail(at, "expected a parameter name (p_...), got \"" + c.parameters[i] + "\"");
            if (!seen.insert(c.parameters[i]).second)
                fail(at, "parameter \"" + c.parameters[i] + "\" is listed twice");
        }
        if (c.records < 1)
            fail(child_pointer(path, "records"),
                 "must be at least 1, got " + std::to_string(c.records));
        non_negative(path, "residual_norm", c.residual_norm);
        non_negative(path, "geometric_mean_abs_relative_error",
                     c.geometric_mean_abs_relative_error);
        non_negative(path, "max_abs_relative_error", c.max_abs_relative_error);
        sha256_digits(path, "model_sha256", c.model_sha256);
        sha256_digits(path, "records_sha256", c.records_sha256);
        written_by(path, c.date, c.kerncast_version);
    }

    void fit_provenance(const FitProvenance& f, const std::string& path) const {
        std::vector<std::string> known;
        for (const auto& slot : mf::capacity_fit_slots)
            known.emplace_back(slot.key);
        if (f.fits.empty())
            fail(child_pointer(path, "fits"), "expected the names of the fits it determined");
        std::set<std::string> seen;
        for (std::size_t i = 0; i < f.fits.size(); ++i) {
            const std::string at = child_pointer(child_pointer(path, "fits"), i);
            if (std::find(known.begin(), known.end(), f.fits[i]) == known.end()) {
                std::vector<std::string> notes;
                const auto close = closest_names(f.fits[i], known, 1);
                if (!close.empty())
                    notes.push_back("did you mean \"" + close.front() + "\"?");
                fail(at, "unknown capacity fit \"" + f.fits[i] + "\"", notes);
            }
            if (!seen.insert(f.fits[i]).second)
                fail(at, "fit \"" + f.fits[i] + "\" is listed twice");
        }
        if (f.records < 1)
            fail(child_pointer(path, "records"),
                 "must be at least 1, got " + std::to_string(f.records));
        if (f.samples < 1)
            fail(child_pointer(path, "samples"),
                 "must be at least 1, got " + std::to_string(f.samples));
        non_negative(path, "median_abs_relative_error", f.median_abs_relative_error);
        non_negative(path, "p90_abs_relative_error", f.p90_abs_relative_error);
        if (f.held_out_median_abs_relative_error)
            non_negative(path, "held_out_median_abs_relative_error",
                         *f.held_out_median_abs_relative_error);
        if (f.held_out_p90_abs_relative_error)
            non_negative(path, "held_out_p90_abs_relative_error",
                         *f.held_out_p90_abs_relative_error);
        sha256_digits(path, "records_sha256", f.records_sha256);
        written_by(path, f.date, f.kerncast_version);
        for (const auto& [name, range] : f.oversubscription_ranges) {
            const std::string at =
                child_pointer(child_pointer(path, "oversubscription_ranges"), name);
            if (std::find(f.fits.begin(), f.fits.end(), name) == f.fits.end())
                fail(at, "\"" + name + "\" is not one of the fits this source determined");
            if (!std::isfinite(range[0]) || !std::isfinite(range[1]) || range[0] < 0 ||
                range[0] > range[1])
                fail(at, "expected 0 <= smallest O <= largest O, got [" + number(range[0]) + ", " +
                             number(range[1]) + "]");
        }
    }

    void uncertainty(const Uncertainty& u, const std::string& path) const {
        if (!std::isfinite(u.relative_spread) || u.relative_spread < 0)
            fail(child_pointer(path, "relative_spread"),
                 "must not be negative, got " + number(u.relative_spread));
        const std::vector<std::string> verdicts{"high", "medium", "low"};
        if (std::find(verdicts.begin(), verdicts.end(), u.confidence) == verdicts.end()) {
            std::vector<std::string> notes;
            const auto close = closest_names(u.confidence, verdicts, 1);
            if (!close.empty())
                notes.push_back("did you mean \"" + close.front() + "\"?");
            fail(child_pointer(path, "confidence"),
                 "expected \"high\", \"medium\" or \"low\", got \"" + u.confidence + "\"", notes);
        }
        if (u.repetitions < 1)
            fail(child_pointer(path, "repetitions"),
                 "must be at least 1, got " + std::to_string(u.repetitions));
    }
};

} // namespace

void check_identity(const MachineModel& machine, const JsonPathLocator& locate) {
    ProvenanceChecks(machine, locate).identity();
}

void check_sources(const MachineModel& machine, const JsonPathLocator& locate) {
    ProvenanceChecks(machine, locate).sources();
}

} // namespace kerncast::machine_checks
