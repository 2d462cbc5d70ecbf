// The kerncast expression language: one small C-like language for kernel statements,
// array subscripts, shapes and (later) cost-model formulas. A lexer with byte offsets, a
// recursive-descent parser to an immutable AST, affine-form extraction and evaluation.
// Syntax and semantics are documented in docs/kernel-format.md ("Expressions").
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace kerncast::kernel {

// A syntax or semantic error inside one expression text. `offset` is the 0-based byte offset
// of the offending character in that text; callers that know where the text sits in a file
// (the kernel-file parser) turn it into file:line:column.
class ExpressionError : public std::runtime_error {
public:
    ExpressionError(std::string message, int offset)
        : std::runtime_error(std::move(message)), offset_(offset) {}
    int offset() const { return offset_; }

private:
    int offset_;
};

// The character at byte `pos` of `text` for a message ("unexpected character ..."): its UTF-8
// sequence whole (never a lone lead byte, which would make the message invalid UTF-8) with its
// code point beyond ASCII ("'\u200b' (U+200B)": a zero-width space is invisible, its code
// point is not); a malformed sequence as "byte 0xe2".
std::string describe_character(std::string_view text, size_t pos);

// Whether `name` is a name of the kernel language: a letter or _, then letters, digits and _
// (what the lexer reads as one identifier token).
bool is_identifier(std::string_view name);

enum class TokenKind {
    end,
    integer,
    real,
    identifier,
    tag, // "$name" directly after an array name: a PERFLEX access tag (Stevens & Klöckner 6.1.1)
    plus,
    minus,
    star,
    slash,
    percent,
    lparen,
    rparen,
    lbracket,
    rbracket,
    comma,
    assign,
    plus_assign,
    minus_assign,
    star_assign,
    slash_assign,
    less,
    less_equal,
    greater,
    greater_equal,
    equal,
    not_equal,
    and_and,
    or_or,
    bang,
    question,
    colon,
};

struct Token {
    TokenKind kind = TokenKind::end;
    std::string text;
    int offset = 0; // 0-based byte offset of the first character
};

// Splits text into tokens (the last one is TokenKind::end); throws ExpressionError.
std::vector<Token> tokenize(std::string_view text);

enum class ExprKind {
    integer,     // 42
    real,        // 0.25, 1e-3
    variable,    // a parameter, loop index, builtin (tx, bx, ...) or scalar
    array_ref,   // a[i, j+1] or a$tag[i]
    negate,      // -x
    logical_not, // !x
    binary,      // x op y
    call,        // f(x, y): sqrt, exp, min, max, select, ...
    reduction,   // sum(k, body) / sum([k, l], body) / prod(k, body)
    conditional, // c ? x : y
};

enum class BinaryOp {
    add,
    sub,
    mul,
    div,
    mod,
    less,
    less_equal,
    greater,
    greater_equal,
    equal,
    not_equal,
    logical_and,
    logical_or,
};

// Every binary operator once: its spelling (kernel files and C alike), how tightly it binds
// (kernel files and C agree: 1 for ||, 2 &&, 3 == !=, 4 < <= > >=, 5 + -, 6 * / %) and its C
// precedence level (smaller binds tighter). The parser, the printer, the CUDA generator and the
// analysis read this one table.
struct BinaryOpInfo {
    BinaryOp op;
    const char* symbol;
    int binding; // 1 (loosest) .. tightest_binary_binding
    int c_level; // C's precedence level: 3 (* / %) .. 12 (||)
    bool comparison;
};
inline constexpr int tightest_binary_binding = 6;
const BinaryOpInfo& binary_op_info(BinaryOp op);

const char* binary_op_symbol(BinaryOp op); // binary_op_info(op).symbol
bool is_comparison(BinaryOp op);           // binary_op_info(op).comparison

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

struct Expr {
    ExprKind kind = ExprKind::integer;
    int offset = 0; // where the expression starts in its text
    std::int64_t integer_value = 0;
    double real_value = 0.0;
    std::string name; // variable / array / function / reduction operator ("sum", "prod")
    std::string tag;  // array_ref only: the access tag without '$' ("" when untagged)
    BinaryOp op = BinaryOp::add;
    std::vector<ExprPtr> operands;              // subscripts, call arguments, [lhs, rhs], ...
    std::vector<std::string> reduction_indices; // reduction only
    std::vector<int> reduction_index_offsets;   // where each reduction index is written
};

// Limits that keep every recursive walk of an expression tree (checks, analysis, code
// generation, destruction) within the stack: parentheses, unary operators, calls and
// subscripts nest at most max_expression_nesting levels, and no tree is taller than
// max_expression_height nodes (a flat sum of N terms is N - 1 levels tall). Over either
// limit, the parser throws ExpressionError at the token where the limit is passed.
inline constexpr int max_expression_nesting = 200;
inline constexpr int max_expression_height = 1000;

// Parses a whole text as one expression; throws ExpressionError (with the offset).
ExprPtr parse_expression(std::string_view text);

enum class AssignOp { assign, add_assign, sub_assign, mul_assign, div_assign };

// Atomic read-modify-write kinds (Dong & Pai sec. 2: shared-memory atomics).
enum class AtomicKind { add, sub, min, max, inc, exch, cas, bit_and, bit_or, bit_xor };
const char* atomic_kind_name(AtomicKind kind);

// One statement: "target op value", "atomic_<kind>(target, value)", "atomic_inc(target)" or
// "atomic_cas(target, compare, value)" (the target becomes value where it equals compare).
struct Statement {
    ExprPtr target; // always an array_ref (a scalar is a rank-0 array: "acc[]" or "acc")
    AssignOp op = AssignOp::assign;
    ExprPtr value;   // nullptr only for atomic_inc
    ExprPtr compare; // atomic_cas only
    std::optional<AtomicKind> atomic;
};

Statement parse_statement(std::string_view text);

// Prints an expression back in the language's syntax (fully parenthesised where needed).
std::string to_string(const Expr& expr);

// Prints a statement back in the language's syntax: parse_statement(to_string(s)) is `s`.
std::string to_string(const Statement& statement);

// `expr` with every sub-expression for which `replace` returns an expression replaced by it
// (`replace` returns null to keep one; a replaced node's operands are not visited), sharing
// each unchanged subtree with `expr`. Null stays null.
ExprPtr replace_subexpressions(const ExprPtr& expr,
                               const std::function<ExprPtr(const Expr&)>& replace);

// An integer affine form: constant + sum(coefficient * symbol).
struct AffineForm {
    std::map<std::string, std::int64_t> coefficients; // zero coefficients are never stored
    std::int64_t constant = 0;

    std::int64_t coefficient(const std::string& symbol) const;
    void add_term(const std::string& symbol, std::int64_t coefficient);
    AffineForm& operator+=(const AffineForm& other);
    AffineForm scaled(std::int64_t factor) const;
    bool is_constant() const { return coefficients.empty(); }
    std::string to_string() const; // "2*i + j - 1", isl-compatible
};

// The affine form of expr in its variables; throws ExpressionError pointing at the first
// sub-expression that is not affine (a product of two variables, a division, an array
// reference, a call, ...). `constants` supplies values for names that are known numbers
// (e.g. launch sizes); every other variable stays symbolic.
AffineForm to_affine(const Expr& expr, const std::map<std::string, std::int64_t>& constants = {});

// Numeric evaluation (for shapes, offsets and cost formulas). `lookup` returns the value of a
// variable or nullopt when unknown (-> ExpressionError naming it). Array references and
// reductions are errors. Functions: every built-in (builtin_functions.hpp). Both evaluations
// run the one core of expression_evaluator.hpp.
using VariableLookup = std::function<std::optional<double>(const std::string&)>;
double evaluate(const Expr& expr, const VariableLookup& lookup);

// Integer evaluation: +, -, *, / (floor division; error when the divisor is 0), %, min, max.
using IntegerLookup = std::function<std::optional<std::int64_t>(const std::string&)>;
std::int64_t evaluate_integer(const Expr& expr, const IntegerLookup& lookup);

// Every variable name (not array names, not reduction indices bound inside) in expr.
void collect_variables(const Expr& expr, std::vector<std::string>& names);

} // namespace kerncast::kernel
