// L1 load/store throughput: how many wavefronts (L1 cycles) the load/store instructions of a
// kernel need per warp, from the bank model of Ernst et al. 2023, sec. 4.2. The bank count,
// the bank width and the pairing distance are machine data, so other layouts are data too.
#pragma once

#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/machine/machine_model.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace kerncast::models {

struct L1BankLayout {
    int banks = 0;                  // shared_memory_banks.banks
    int bank_width_bytes = 0;       // shared_memory_banks.bank_width_bytes
    int wavefront_window_bytes = 0; // addresses farther apart never share a wavefront;
                                    // 0: no such distance (Hopper)
    int warp_size = 0;
    int sector_bytes = 0; // L1 transfer granularity (memory level l1, sector_bytes)
};

// Reads the layout from the machine; an input Error names the missing field.
L1BankLayout l1_bank_layout(const MachineModel& machine);

struct WarpInstructionCost {
    std::int64_t wavefronts = 0; // L1 cycles of the instruction
    std::int64_t sectors = 0;    // distinct sectors it requests
};

// One warp-wide load or store: lane_addresses[k] is lane k's byte address (an inactive lane is
// simply absent), each access `access_bytes` wide. Lanes are served in groups that together
// could fill all banks once (half-warps for 8 B values on 32 x 4 B banks, sec. 4.2); inside a
// group the distinct values are split into clusters no wider than the pairing window, and each
// cluster needs as many wavefronts as its most-used bank has distinct values.
WarpInstructionCost warp_instruction_cost(std::span<const std::int64_t> lane_addresses,
                                          int access_bytes, const L1BankLayout& layout);

// One warp-wide load served in two passes (measured on Hopper, docs/volume-model.md, "L1
// wavefronts of missing loads"): first the lanes whose lines are in L1, then those whose lines
// miss or are still being filled (`late[k]` non-zero for lane k). Each pass costs what
// warp_instruction_cost gives its lanes within each lane group (half-warps for 8 B values), so
// a request whose lines all hit, or all miss, costs what the bank rule gives it alone.
std::int64_t two_pass_wavefronts(std::span<const std::int64_t> lane_addresses,
                                 std::span<const unsigned char> late, int access_bytes,
                                 const L1BankLayout& layout);

// The bank rule's period for `access_bytes` wide accesses: warp_instruction_cost and
// two_pass_wavefronts see addresses only through sectors, bank units and rows of all banks, so
// shifting every lane by a multiple of this many bytes changes neither (the least common
// multiple of the sector and the row of bank units).
std::int64_t bank_rule_period(int access_bytes, const L1BankLayout& layout);

// An access's byte address as a function of one thread: the coefficients of threadIdx, of
// the fold index and of blockIdx along x, y, z (ByteAddress::constant is the rest).
struct AxisCoefficients {
    std::array<std::int64_t, 3> thread{0, 0, 0};
    std::array<std::int64_t, 3> fold{0, 0, 0};
    std::array<std::int64_t, 3> block{0, 0, 0};
};
AxisCoefficients axis_coefficients(const analysis::KernelAnalysis& analysis,
                                   const analysis::ByteAddress& address);

// The byte address of thread `t` of a block (threadIdx = (t % Bx, (t / Bx) % By,
// t / (Bx*By))) for an access whose address is `constant` at threadIdx 0.
inline std::int64_t lane_address(const AxisCoefficients& axes, const kernel::Dim3& block,
                                 std::int64_t t, std::int64_t constant) {
    return constant + (t % block[0]) * axes.thread[0] + (t / block[0]) % block[1] * axes.thread[1] +
           t / (block[0] * block[1]) * axes.thread[2];
}

// Every thread's address less the constant, for accesses whose thread coefficients are
// `thread`: lane_address(axes, block, t, constant) = constant + offsets[t] (computed once, so
// that each fold instance and access of one pattern adds a constant instead of dividing).
std::vector<std::int64_t> thread_offsets(const std::array<std::int64_t, 3>& thread,
                                         const kernel::Dim3& block);

// The cost of one access of the kernel, averaged over the warps of one thread block.
struct L1AccessCost {
    std::string array;
    std::string text;  // the reference as written
    int statement = 0; // index into KernelSpec::statements (barrier phases: DRAM in flight)
    analysis::Direction direction = analysis::Direction::load;
    kernel::MemorySpace space = kernel::MemorySpace::global; // global or shared
    int instructions_per_thread = 0;   // distinct fold instances (register reuse removed)
    double executions_per_point = 0;   // executions of the access per point (loops)
    double wavefronts_per_point = 0;   // L1 cycles per point
    double sector_bytes_per_point = 0; // bytes the warps request from L1 (or write through)
};

// Fold instances per thread up to which estimate_l1 unites each warp's sectors.
inline constexpr std::int64_t warp_unique_fold_limit = 1024;

struct L1Estimate {
    std::vector<L1AccessCost> accesses;
    double cycles_per_point = 0; // all accesses, L1 cycles of one SM per point
    // Of cycles_per_point, what the simulated L1 adds to the global loads' bank rule when a
    // load's missing lanes take a pass of their own (L1MissPasses; 0 without).
    double miss_pass_cycles_per_point = 0;
    double load_request_bytes_per_point = 0;  // global-load sectors requested (V_up of L1)
    double store_request_bytes_per_point = 0; // sectors written through to L2
    std::int64_t sector_bytes = 0;            // the L1 sector size both volumes count in
    // Per array: load sectors requested by each warp with its own repeats counted once,
    // summed over the warps (accesses executed equally often are united). Arrays loaded with
    // more than warp_unique_fold_limit fold instances per thread are absent (not computed).
    std::vector<std::pair<std::string, double>> warp_unique_load_bytes_per_point;
};

// Every warp of one block, every global and shared access. Thread `t` of the block has
// threadIdx = (t % Bx, (t / Bx) % By, t / (Bx*By)); blocks and sequential indices at 0 (bank
// patterns do not depend on a uniform shift of whole lines). Loads of the same array whose
// addresses coincide for every thread (folded neighbours) are counted once: the value stays
// in a register (sec. 4.2, fig. 12). `points_per_access_execution` converts executions into
// points: executions of an access over the launch / points of the launch.
L1Estimate estimate_l1(const analysis::KernelAnalysis& analysis,
                       const std::vector<std::int64_t>& params, const L1BankLayout& layout,
                       const std::vector<double>& executions_per_point);

} // namespace kerncast::models
