// The volume model's prediction as the shared models::Prediction (volume_summary.hpp).
#include "kerncast/models/volumes/volume_summary.hpp"

namespace kerncast::models {

Prediction to_prediction(const VolumePrediction& volumes, std::optional<double> l2_sector_bytes) {
    const auto points = static_cast<double>(volumes.points);
    Prediction prediction;
    prediction.model = "volumes";
    prediction.time_s = volumes.limiter.seconds_per_launch;
    prediction.tie_break_s = volumes.limiter.next_seconds_per_launch;
    prediction.limiter = limiter_name(volumes.limiter.binding);
    prediction.counters["dram__bytes_read.sum"] = volumes.dram_load_bytes * points;
    prediction.counters["dram__bytes_write.sum"] = volumes.dram_store_bytes * points;
    // L1: the wavefronts of every global and shared access (sec. 4.2; fig. 12 compares them
    // with this counter) and the sectors the global loads request.
    prediction.counters["l1tex__data_pipe_lsu_wavefronts.sum"] =
        volumes.l1.cycles_per_point * points;
    if (volumes.l1.sector_bytes > 0)
        prediction.counters["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] =
            volumes.l1.load_request_bytes_per_point * points /
            static_cast<double>(volumes.l1.sector_bytes);
    if (l2_sector_bytes) {
        const double read_sectors = volumes.l2_load_bytes * points / *l2_sector_bytes;
        const double write_sectors = volumes.l2_store_bytes * points / *l2_sector_bytes;
        prediction.counters["lts__t_sectors_srcunit_tex_op_read.sum"] = read_sectors;
        prediction.counters["lts__t_sectors_srcunit_tex_op_write.sum"] = write_sectors;
        // Every L2 sector of these kernels is requested by L1/TEX (volume_summary.hpp).
        prediction.counters["lts__t_sectors_op_read.sum"] = read_sectors;
        prediction.counters["lts__t_sectors_op_write.sum"] = write_sectors;
    }
    prediction.flops = volumes.fp.flops_per_point * points;
    return prediction;
}

} // namespace kerncast::models
