// MWP-CWP fit samples from timed records (mwp_fit_samples.hpp).
#include "kerncast/validate/mwp_fit_samples.hpp"

#include "kerncast/error.hpp"
#include "kerncast/validate/mwp_record_predictions.hpp"

namespace kerncast::validate {

std::vector<models::mwp_cwp::FitSample>
mwp_fit_samples(const std::vector<runtime::LoadedRecord>& records,
                const std::vector<kernel::KernelSpec>& specs, const MachineModel& machine,
                std::vector<std::string>& skipped,
                const std::function<void(std::size_t, std::size_t)>& progress) {
    std::vector<models::mwp_cwp::FitSample> samples;
    std::size_t finished = 0;
    for (const auto& record : records) {
        if (progress)
            progress(finished++, records.size());
        const runtime::Measurement& m = record.measurement;
        if (!m.has_times() || !(m.results.median_s > 0)) {
            skipped.push_back(record.path + ": no times");
            continue;
        }
        bool found = false;
        for (const auto& spec : specs) {
            std::optional<models::mwp_cwp::KernelMwpPrediction> p;
            try {
                p = predict_record_mwp(spec, machine, m.kernel);
            } catch (const Error& e) {
                throw_input_error(record.path + ": " + e.message());
            }
            if (!p)
                continue;
            samples.push_back({record.path, runtime::configuration_label(m.kernel),
                               p->derived.workload, m.results.median_s, m.kernel.name});
            found = true;
            break;
        }
        if (!found)
            skipped.push_back(record.path + ": no kernel file named '" + m.kernel.name + "'");
    }
    if (progress)
        progress(records.size(), records.size());

    return samples;
}

} // namespace kerncast::validate
