// The volume model's prediction as the shared models::Prediction (volume_summary.hpp).
#include "kerncast/models/volumes/volume_summary.hpp"

namespace kerncast::models {

Prediction to_prediction(const VolumePrediction& volumes, std::optional<double> l2_sector_bytes) {
    const auto points = static_cast<double>(volumes.points);
    Prediction prediction;
    prediction.model = "volumes";
    prediction.time_s = volumes.limiter.seconds_per_launch;
    prediction.limiter = limiter_name(volumes.limiter.binding);
    prediction.counters["dram__bytes_read.sum"] = volumes.dram_load_bytes * points;
    prediction.counters["dram__bytes_write.sum"] = volumes.dram_store_bytes * points;
    if (l2_sector_bytes) {
        const double read_sectors = volumes.l2_load_bytes * points / *l2_sector_bytes;
        const double write_sectors = volumes.l2_store_bytes * points / *l2_sector_bytes;
        prediction.counters["lts__t_sectors_srcunit_tex_op_read.sum"] = read_sectors;
        prediction.counters["lts__t_sectors_srcunit_tex_op_write.sum"] = write_sectors;
        // Every L2 sector of these kernels is requested by L1/TEX (volume_summary.hpp).
        prediction.counters["lts__t_sectors_op_read.sum"] = read_sectors;
        prediction.counters["lts__t_sectors_op_write.sum"] = write_sectors;
    }
    prediction.flops = volumes.flops_per_point * points;
    return prediction;
}

} // namespace kerncast::models
