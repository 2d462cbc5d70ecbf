// Fuzz target: the expression and statement parser, the integer evaluator, and the printer
// (what it prints must parse again).
#include "fuzz_target.hpp"
#include "kerncast/kernel/expression.hpp"

namespace {

void parse_print_evaluate(const std::string& text) {
    using namespace kerncast::kernel;
    ExprPtr expr;
    try {
        expr = parse_expression(text);
    } catch (const ExpressionError&) {
        return;
    }
    const std::string printed = to_string(*expr);
    try {
        (void)parse_expression(printed);
    } catch (const ExpressionError& e) {
        std::fprintf(stderr, "fuzz: '%s' printed as '%s', which does not parse: %s\n", text.c_str(),
                     printed.c_str(), e.what());
        std::abort();
    }
    try {
        (void)evaluate_integer(*expr, [](const std::string&) { return std::int64_t{3}; });
    } catch (const ExpressionError&) {
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return kerncast::fuzz::run_one([&] {
        const std::string text = kerncast::fuzz::text_of(data, size);
        parse_print_evaluate(text);
        try {
            (void)kerncast::kernel::parse_statement(text);
        } catch (const kerncast::kernel::ExpressionError&) {
        }
    });
}
