// The workload derived from kernel files: Table 2's inputs from hk_matmul_table2.yaml (Hong &
// Kim 2009, sec. 3.6), the instruction classes of Fig. 12/13 from hk_matmul.yaml, and the
// coalescing of the micro-benchmarks (Table 4) on each compute-capability family.
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/mwp_cwp/kernel_prediction.hpp"
#include "kerncast/models/mwp_cwp/mwp_cwp.hpp"

#include <gtest/gtest.h>

namespace kerncast::models::mwp_cwp {
namespace {

KernelMwpPrediction predict(const std::string& kernel, const std::string& machine,
                            Variant variant = Variant::classic,
                            const kernel::ParameterOverrides& overrides = {}) {
    const auto spec = kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) +
                                               "/examples/kernels/" + kernel + ".yaml");
    KernelMwpOptions options;
    options.variant = variant;
    if (spec.registers_per_thread)
        options.registers = {*spec.registers_per_thread, RegisterSource::kernel_file};
    return predict_kernel_mwp(spec, spec.launch, overrides, resolve_machine(machine), options);
}

TEST(DerivedWorkload, Table2InputsFromTheKernelFile) {
    const auto p = predict("hk_matmul_table2", "hk-example");
    const Workload& w = p.derived.workload;
    const InstructionMix& m = p.derived.mix;
    EXPECT_EQ(w.threads_per_block, 128);
    EXPECT_EQ(w.blocks, 80);
    EXPECT_DOUBLE_EQ(w.uncoal_mem_insts, 6);      // Table 2: Figure 12 lines 13, 14
    EXPECT_DOUBLE_EQ(w.synch_insts, 6);           // 2 x 3
    EXPECT_DOUBLE_EQ(w.uncoal_per_mw, 32);        // CC 1.0, misaligned half-warps
    EXPECT_DOUBLE_EQ(w.load_bytes_per_warp, 128); // 4 B x 32
    // Table 2's 27 = 9 x 3: st.shared x2, bar.sync x2, ld.shared x2, mad, setp, bra (Fig. 13
    // lines 5, 7-11, 13-15) per outer iteration, the inner loop once.
    EXPECT_DOUBLE_EQ(m.shared_memory, 12);
    EXPECT_DOUBLE_EQ(m.floating_point, 3);
    EXPECT_DOUBLE_EQ(m.barriers, 6);
    EXPECT_DOUBLE_EQ(m.loop_control, 6);
    EXPECT_DOUBLE_EQ(m.shared_memory + m.floating_point + m.barriers + m.loop_control, 27);
    // What Table 2 leaves out: the store of P (coalesced), index arithmetic, thread setup.
    EXPECT_DOUBLE_EQ(w.coal_mem_insts, 1);
    EXPECT_DOUBLE_EQ(m.global_stores, 1);
    EXPECT_GT(m.integer + m.address + m.thread_setup, 0);
    // Occupancy from 12 registers per thread: 5 blocks, N = 20 (Table 2).
    EXPECT_EQ(p.model.active_blocks_per_sm, 5);
    EXPECT_EQ(p.model.active_warps_per_sm, 20);
    EXPECT_EQ(p.model.active_sms, 16);
    // With Table 2's accounting (loop body only) the equations give the documented total.
    Workload table2 = w;
    table2.comp_insts = 27;
    table2.coal_mem_insts = 0;
    EXPECT_DOUBLE_EQ(predict_mwp_cwp(table2, resolve_machine("hk-example")).exec_cycles_with_synch,
                     50728.1875);
}

TEST(DerivedWorkload, FigureTwelveClassesPerOuterIteration) {
    // hk_matmul: 16x16 tiles, wM = 48 (3 outer iterations), aligned arrays.
    const auto p = predict("hk_matmul", "fx5600");
    const InstructionMix& m = p.derived.mix;
    EXPECT_DOUBLE_EQ(m.global_loads, 6);
    EXPECT_DOUBLE_EQ(m.global_stores, 1);
    EXPECT_DOUBLE_EQ(m.barriers, 6);
    EXPECT_DOUBLE_EQ(m.loop_control, 6); // the k loop (16, constant) is unrolled (Fig. 13 l. 9)
    EXPECT_DOUBLE_EQ(m.shared_memory, 2 * 3 + 2 * 16 * 3);
    EXPECT_DOUBLE_EQ(m.floating_point, 16 * 3); // one fma per product
    ASSERT_EQ(p.derived.loops.size(), 2u);
    EXPECT_FALSE(p.derived.loops[0].unrolled);
    EXPECT_TRUE(p.derived.loops[1].unrolled);
    // Aligned rows of 16 floats: one 64 B transaction per half-warp, coalesced on CC 1.0.
    for (const auto& access : p.derived.accesses) {
        EXPECT_TRUE(access.coalesced) << access.text;
        EXPECT_DOUBLE_EQ(access.transactions_per_warp, 2) << access.text;
    }
    EXPECT_DOUBLE_EQ(p.derived.workload.coal_mem_insts, 7);
    EXPECT_DOUBLE_EQ(p.derived.workload.uncoal_mem_insts, 0);
}

TEST(DerivedWorkload, MicroBenchmarkCoalescingPerComputeCapability) {
    // Mb3: 1 load and 20 FP instructions per iteration, 1000 iterations (Table 4).
    for (const char* machine : {"fx5600", "gtx280", "v100-pcie-32gb"}) {
        const auto c = predict("hk_micro_mb3_c", machine).derived;
        const auto uc = predict("hk_micro_mb3_uc", machine).derived;
        EXPECT_DOUBLE_EQ(c.mix.global_loads, 1000) << machine;
        EXPECT_DOUBLE_EQ(c.mix.floating_point, 20 * 1000) << machine;
        EXPECT_DOUBLE_EQ(c.mix.loop_control, 2 * 1000) << machine;
        EXPECT_DOUBLE_EQ(c.workload.coal_mem_insts, 1000 + 1) << machine; // + the store
        EXPECT_DOUBLE_EQ(uc.workload.uncoal_mem_insts, 1000) << machine;
        // 4000 B apart: one transaction (segment, sector) per thread on every family.
        EXPECT_DOUBLE_EQ(uc.workload.uncoal_per_mw, 32) << machine;
    }
}

TEST(DerivedWorkload, Table5CountsWhereTheSourceIsKnown) {
    // Mat. (naive), 2000 x 2000: 2 x 2000 loads + 1 store = Table 5's 4001 memory instructions.
    const auto naive = predict("hk_mat_naive", "fx5600").derived;
    EXPECT_DOUBLE_EQ(naive.workload.mem_insts(), 4001);
    // A[i, k] is the same word for all lanes: uncoalesced on CC 1.0, one transaction on 1.3.
    EXPECT_DOUBLE_EQ(naive.workload.uncoal_mem_insts, 2000);
    EXPECT_DOUBLE_EQ(predict("hk_mat_naive", "gtx280").derived.workload.uncoal_mem_insts, 0);
    // Sepia and Linear: 6 and 30 memory instructions per pixel (averaged over the launched
    // threads, of which the partial blocks at the image edge do nothing). The default images
    // in f32 RGB need more than the FX5600's 1.5 GiB (the paper's channels must have been
    // narrower): a smaller image has the same counts per pixel.
    const kernel::ParameterOverrides image{{"w", 5120}, {"h", 5000}}; // whole blocks of 128
    const auto sepia = predict("hk_sepia", "fx5600", Variant::classic, image).derived;
    EXPECT_NEAR(sepia.workload.mem_insts(), 6, 0.05);
    EXPECT_DOUBLE_EQ(sepia.workload.uncoal_per_mw, 32);
    EXPECT_NEAR(
        predict("hk_linear", "fx5600", Variant::classic, image).derived.workload.mem_insts(), 30,
        0.5);
    EXPECT_THROW(predict("hk_linear", "fx5600"), Error);
}

} // namespace
} // namespace kerncast::models::mwp_cwp
