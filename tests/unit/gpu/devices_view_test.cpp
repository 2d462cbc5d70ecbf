// The report of the visible GPUs (`kerncast devices`), from a device description.
#include "kerncast/gpu/devices.hpp"

#include <gtest/gtest.h>

using namespace kerncast;

TEST(DevicesView, OneRowPerDeviceWithItsCapability) {
    gpu::DeviceInfo h100;
    h100.ordinal = 0;
    h100.name = "NVIDIA H100 80GB HBM3";
    h100.cc_major = 9;
    h100.cc_minor = 0;
    h100.sm_count = 132;
    h100.sm_clock_peak_mhz = 1980;
    h100.global_memory_bytes = 85'520'809'984;
    h100.pci_bus_id = "0000:17:00.0";
    h100.driver_version = 13000;
    gpu::DeviceInfo second = h100;
    second.ordinal = 1;
    second.cc_minor = 1;
    const report::Document doc = gpu::devices_view({h100, second});
    EXPECT_EQ(doc.schema, "kerncast.devices/1");
    const auto& table = doc.table_at("devices");
    ASSERT_EQ(table.rows.size(), 2u);
    ASSERT_EQ(table.columns.size(), table.rows[0].size());
    EXPECT_EQ(table.columns[2].key, "compute_capability");
    EXPECT_EQ(std::get<std::string>(table.rows[0][2]), "9.0");
    EXPECT_EQ(std::get<std::string>(table.rows[1][2]), "9.1");
    EXPECT_EQ(std::get<std::int64_t>(table.rows[0][3]), 132);
    EXPECT_EQ(std::get<std::int64_t>(table.rows[0][7]), 85'520'809'984);
    EXPECT_EQ(std::get<std::string>(table.rows[0][12]), "0000:17:00.0");
}

TEST(DevicesView, NoDevicesIsAnEmptyTable) {
    const report::Document doc = gpu::devices_view({});
    EXPECT_TRUE(doc.table_at("devices").rows.empty());
}
