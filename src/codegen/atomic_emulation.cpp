// Compare-and-swap loops for the atomics CUDA lacks (atomic_emulation.hpp).
#include "atomic_emulation.hpp"

#include "kerncast/codegen/cuda_codegen.hpp"
#include "kerncast/error.hpp"

#include <functional>
#include <sstream>

namespace kerncast::codegen::detail {

using kernel::DataType;

// CUDA has no atomic function for 1- or 2-byte elements except the f16 add (atomicAdd(__half*),
// sm_70+), none for real min and max, and its atomicCAS compares bit patterns where the kernel
// language compares values (-0.0 == 0.0, NaN != NaN).
bool needs_cas_loop(DataType type, kernel::AtomicKind kind) {
    using kernel::AtomicKind;
    const bool adds = kind == AtomicKind::add || kind == AtomicKind::inc || kind == AtomicKind::sub;
    if (type == DataType::f16)
        return !adds;
    if (kernel::data_type_bytes(type) < 4)
        return true;
    return kernel::is_floating(type) &&
           (kind == AtomicKind::min || kind == AtomicKind::max || kind == AtomicKind::cas);
}

const char* atomic_operand_type_name(DataType type) {
    return type == DataType::f16 ? "float" : cuda_type_name(type);
}

std::string atomic_helper_name(DataType type, kernel::AtomicKind kind) {
    return std::string("kc_atomic_") + kernel::atomic_kind_name(kind) + "_" +
           kernel::data_type_name(type);
}

// The helper of needs_cas_loop: read the word, compute the new element, swap the word in when
// nobody changed it meanwhile, else retry with what is there now. 1- and 2-byte elements work on
// the aligned 32-bit word that contains them (the other bytes of the word are kept as read),
// reals on their bit pattern.
std::string atomic_helper_source(DataType type, kernel::AtomicKind kind) {
    using kernel::AtomicKind;
    const std::string element = cuda_type_name(type);
    const std::string value_type = atomic_operand_type_name(type);
    const int bytes = kernel::data_type_bytes(type);
    std::string word_type = "unsigned int", setup, where;
    std::function<std::string(const std::string&)> unpack;
    std::function<std::string(const std::string&, const std::string&)> pack;
    if (bytes < 4) {
        where = "the aligned 32-bit word holding the element";
        setup =
            "    const unsigned long long byte = reinterpret_cast<unsigned long long>(address);\n"
            "    unsigned int* word = reinterpret_cast<unsigned int*>(byte & ~3ull);\n"
            "    const unsigned int shift = static_cast<unsigned int>(byte & 3ull) * 8u;\n"
            "    const unsigned int mask = " +
            std::string(bytes == 1 ? "0xffu" : "0xffffu") + " << shift;\n";
        unpack = [&](const std::string& bits) {
            const std::string field = "((" + bits + " & mask) >> shift)";
            if (type == DataType::f16)
                return "__half2float(__ushort_as_half(static_cast<unsigned short>" + field + "))";
            return "static_cast<" + element + ">" + field;
        };
        pack = [&](const std::string& bits, const std::string& next) {
            const std::string raw =
                type == DataType::f16 ? "__half_as_ushort(__float2half_rn(" + next + "))" : next;
            return "(" + bits + " & ~mask) | ((static_cast<unsigned int>(" + raw +
                   ") << shift) & mask)";
        };
    } else if (type == DataType::f32) {
        where = "its bit pattern";
        setup = "    unsigned int* word = reinterpret_cast<unsigned int*>(address);\n";
        unpack = [](const std::string& bits) { return "__uint_as_float(" + bits + ")"; };
        pack = [](const std::string&, const std::string& next) {
            return "__float_as_uint(" + next + ")";
        };
    } else {
        KERNCAST_CHECK(type == DataType::f64, "CAS-loop atomics are for small types and reals");
        where = "its bit pattern";
        word_type = "unsigned long long";
        setup = "    unsigned long long* word = reinterpret_cast<unsigned long long*>(address);\n";
        unpack = [](const std::string& bits) {
            return "__longlong_as_double(static_cast<long long>(" + bits + "))";
        };
        pack = [](const std::string&, const std::string& next) {
            return "static_cast<unsigned long long>(__double_as_longlong(" + next + "))";
        };
    }
    std::string update;
    switch (kind) {
    case AtomicKind::add:
    case AtomicKind::inc:
        update = "current + value";
        break;
    case AtomicKind::sub:
        update = "current - value";
        break;
    case AtomicKind::min: // the reference's std::min(current, value)
        update = "value < current ? value : current";
        break;
    case AtomicKind::max: // std::max(current, value)
        update = "current < value ? value : current";
        break;
    case AtomicKind::exch:
        update = "value";
        break;
    case AtomicKind::cas:
        update = "current == compare ? value : current";
        break;
    case AtomicKind::bit_and:
        update = "current & value";
        break;
    case AtomicKind::bit_or:
        update = "current | value";
        break;
    case AtomicKind::bit_xor:
        update = "current ^ value";
        break;
    }
    const std::string name = atomic_helper_name(type, kind);
    // f16 operands arrive as __half (rounded like a store) and compute in float.
    const bool half = type == DataType::f16;
    const std::string suffix = half ? "_half" : "";
    std::ostringstream out;
    out << "// atomic_" << kernel::atomic_kind_name(kind) << " on " << kernel::data_type_name(type)
        << ": a compare-and-swap loop on " << where << ".\n"
        << "__device__ __forceinline__ " << value_type << " " << name << "(" << element
        << "* address, " << (kind == AtomicKind::cas ? element + " compare" + suffix + ", " : "")
        << element << " value" << suffix << ") {\n";
    if (half && kind == AtomicKind::cas)
        out << "    const float compare = __half2float(compare_half);\n";
    if (half)
        out << "    const float value = __half2float(value_half);\n";
    out << setup << "    " << word_type << " old = *word;\n"
        << "    " << word_type << " assumed;\n"
        << "    do {\n"
        << "        assumed = old;\n"
        << "        const " << value_type << " current = " << unpack("assumed") << ";\n"
        << "        const " << value_type << " next = static_cast<" << value_type << ">(" << update
        << ");\n"
        << "        const " << word_type << " replaced = " << pack("assumed", "next") << ";\n"
        << "        if (replaced == assumed)\n"
        << "            break;\n"
        << "        old = atomicCAS(word, assumed, replaced);\n"
        << "    } while (old != assumed);\n"
        << "    return " << unpack("old") << ";\n"
        << "}\n";
    return out.str();
}

} // namespace kerncast::codegen::detail
