// The report of MWP-CWP for a kernel file: the derived tables come first, the model's after, and
// the cells carry the derived values (hk_matmul_table2 on the Table 2 machine).
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/mwp_cwp/kernel_mwp_view.hpp"
#include "kerncast/models/mwp_cwp/kernel_prediction.hpp"

#include <gtest/gtest.h>

namespace kerncast::models::mwp_cwp {
namespace {

double number(const report::Table& table, const std::string& first, const std::string& column) {
    std::size_t index = 0;
    while (index < table.columns.size() && table.columns[index].key != column)
        ++index;
    for (const auto& row : table.rows)
        if (std::get<std::string>(row.at(0)) == first)
            return std::get<double>(row.at(index));
    ADD_FAILURE() << "no row " << first;
    return 0;
}

TEST(KernelMwpView, TablesInOrderWithTheDerivedValues) {
    const auto spec = kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) +
                                               "/examples/kernels/hk_matmul_table2.yaml");
    KernelMwpOptions options;
    options.registers = {12, RegisterSource::kernel_file};
    const auto doc = kernel_mwp_view(
        predict_kernel_mwp(spec, spec.launch, {}, resolve_machine("hk-example"), options));
    std::vector<std::string> keys;
    for (const auto& t : doc.tables)
        keys.push_back(t.key);
    EXPECT_EQ(keys, (std::vector<std::string>{"instructions", "accesses", "loops", "workload",
                                              "machine", "occupancy", "intermediates", "result"}));
    EXPECT_EQ(doc.schema, "kerncast.mwp/1");
    EXPECT_DOUBLE_EQ(number(doc.table_at("instructions"), "barriers", "per_thread"), 6);
    EXPECT_DOUBLE_EQ(
        number(doc.table_at("accesses"), "M[row, 16 * iter + tx]", "transactions_per_warp"), 32);
    EXPECT_DOUBLE_EQ(number(doc.table_at("loops"), "iter", "control_per_thread"), 6);
}

} // namespace
} // namespace kerncast::models::mwp_cwp
