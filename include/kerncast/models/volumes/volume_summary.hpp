// The volume model's prediction (Ernst et al. 2023) as the shared models::Prediction.
#pragma once

#include "kerncast/models/prediction/prediction.hpp"
#include "kerncast/models/volumes/volumes.hpp"

#include <optional>

namespace kerncast::models {

// model "volumes"; time_s: the binding limiter's time per launch (sec. 4); limiter: its name
// (limiter_name: "DRAM", "L2", "L1", "FP", "launch", "DRAM in flight"); flops: flops per point x
// points. Counters, in the Nsight Compute metrics they compare with (volumes per point x points):
//   dram__bytes_read.sum / dram__bytes_write.sum      = DRAM load / store bytes
//   l1tex__data_pipe_lsu_wavefronts.sum               = L1 cycles (wavefronts) per point, all
//                                                       global and shared accesses (sec. 4.2)
//   l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum    = global-load sector bytes the warps
//                                                       request from L1 / the L1 sector size
//                                                       (only when the estimate has one)
//   lts__t_sectors_srcunit_tex_op_read/write.sum      = L2 load / store bytes / l2_sector_bytes
//   lts__t_sectors_op_read/write.sum                  = the same values: the model's L2 traffic
//                                                       is the L1/TEX unit's, and for the
//                                                       stencils modelled every L2 read or write
//                                                       sector comes from L1/TEX (no other
//                                                       client), so the all-units metrics that
//                                                       the published notebooks recorded equal
//                                                       the srcunit_tex ones
// The four L2 sector counters only with `l2_sector_bytes` (the machine's l2 sector_bytes).
Prediction to_prediction(const VolumePrediction& volumes, std::optional<double> l2_sector_bytes);

} // namespace kerncast::models
