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

namespace {

// The word a compare-and-swap loop swaps for one element type, and how the element's value is
// read from (unpack) and written into (pack) that word.
struct CasWord {
    std::string type = "unsigned int";
    std::string where; // for the helper's comment
    std::string setup; // declares `word` (and mask / shift for sub-word elements)
    std::function<std::string(const std::string&)> unpack;
    std::function<std::string(const std::string&, const std::string&)> pack;
};

// 1- and 2-byte elements work on the aligned 32-bit word that contains them (the other bytes of
// the word are kept as read).
CasWord sub_word(DataType type) {
    const std::string element = cuda_type_name(type);
    const int bytes = kernel::data_type_bytes(type);
    CasWord word;
    word.where = "the aligned 32-bit word holding the element";
    word.setup =
        "    const unsigned long long byte = reinterpret_cast<unsigned long long>(address);\n"
        "    unsigned int* word = reinterpret_cast<unsigned int*>(byte & ~3ull);\n"
        "    const unsigned int shift = static_cast<unsigned int>(byte & 3ull) * 8u;\n"
        "    const unsigned int mask = " +
        std::string(bytes == 1 ? "0xffu" : "0xffffu") + " << shift;\n";
    word.unpack = [type, element](const std::string& bits) {
        const std::string field = "((" + bits + " & mask) >> shift)";
        if (type == DataType::f16)
            return "__half2float(__ushort_as_half(static_cast<unsigned short>" + field + "))";
        return "static_cast<" + element + ">" + field;
    };
    word.pack = [type](const std::string& bits, const std::string& next) {
        const std::string raw =
            type == DataType::f16 ? "__half_as_ushort(__float2half_rn(" + next + "))" : next;
        return "(" + bits + " & ~mask) | ((static_cast<unsigned int>(" + raw +
               ") << shift) & mask)";
    };
    return word;
}

// Reals work on their bit pattern.
CasWord cas_word(DataType type) {
    if (kernel::data_type_bytes(type) < 4)
        return sub_word(type);
    CasWord word;
    word.where = "its bit pattern";
    if (type == DataType::f32) {
        word.setup = "    unsigned int* word = reinterpret_cast<unsigned int*>(address);\n";
        word.unpack = [](const std::string& bits) { return "__uint_as_float(" + bits + ")"; };
        word.pack = [](const std::string&, const std::string& next) {
            return "__float_as_uint(" + next + ")";
        };
        return word;
    }
    KERNCAST_CHECK(type == DataType::f64, "CAS-loop atomics are for small types and reals");
    word.type = "unsigned long long";
    word.setup = "    unsigned long long* word = reinterpret_cast<unsigned long long*>(address);\n";
    word.unpack = [](const std::string& bits) {
        return "__longlong_as_double(static_cast<long long>(" + bits + "))";
    };
    word.pack = [](const std::string&, const std::string& next) {
        return "static_cast<unsigned long long>(__double_as_longlong(" + next + "))";
    };
    return word;
}

// The new element value from `current` (and `value`, `compare`), as the reference computes it.
std::string update_expression(kernel::AtomicKind kind) {
    using kernel::AtomicKind;
    switch (kind) {
    case AtomicKind::add:
    case AtomicKind::inc:
        return "current + value";
    case AtomicKind::sub:
        return "current - value";
    case AtomicKind::min: // the reference's std::min(current, value)
        return "value < current ? value : current";
    case AtomicKind::max: // std::max(current, value)
        return "current < value ? value : current";
    case AtomicKind::exch:
        return "value";
    case AtomicKind::cas:
        return "current == compare ? value : current";
    case AtomicKind::bit_and:
        return "current & value";
    case AtomicKind::bit_or:
        return "current | value";
    case AtomicKind::bit_xor:
        return "current ^ value";
    }
    return "";
}

} // namespace

// The helper of needs_cas_loop: read the word, compute the new element, swap the word in when
// nobody changed it meanwhile, else retry with what is there now.
std::string atomic_helper_source(DataType type, kernel::AtomicKind kind) {
    using kernel::AtomicKind;
    const std::string element = cuda_type_name(type);
    const std::string value_type = atomic_operand_type_name(type);
    const CasWord word = cas_word(type);
    const std::string update = update_expression(kind);
    const std::string name = atomic_helper_name(type, kind);
    // f16 operands arrive as __half (rounded like a store) and compute in float.
    const bool half = type == DataType::f16;
    const std::string suffix = half ? "_half" : "";
    std::ostringstream out;
    out << "// atomic_" << kernel::atomic_kind_name(kind) << " on " << kernel::data_type_name(type)
        << ": a compare-and-swap loop on " << word.where << ".\n"
        << "__device__ __forceinline__ " << value_type << " " << name << "(" << element
        << "* address, " << (kind == AtomicKind::cas ? element + " compare" + suffix + ", " : "")
        << element << " value" << suffix << ") {\n";
    if (half && kind == AtomicKind::cas)
        out << "    const float compare = __half2float(compare_half);\n";
    if (half)
        out << "    const float value = __half2float(value_half);\n";
    out << word.setup << "    " << word.type << " old = *word;\n"
        << "    " << word.type << " assumed;\n"
        << "    do {\n"
        << "        assumed = old;\n"
        << "        const " << value_type << " current = " << word.unpack("assumed") << ";\n"
        << "        const " << value_type << " next = static_cast<" << value_type << ">(" << update
        << ");\n"
        << "        const " << word.type << " replaced = " << word.pack("assumed", "next") << ";\n"
        << "        if (replaced == assumed)\n"
        << "            break;\n"
        << "        old = atomicCAS(word, assumed, replaced);\n"
        << "    } while (old != assumed);\n"
        << "    return " << word.unpack("old") << ";\n"
        << "}\n";
    return out.str();
}

} // namespace kerncast::codegen::detail
