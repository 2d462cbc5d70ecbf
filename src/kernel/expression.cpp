#include "kerncast/kernel/expression.hpp"

#include "kerncast/kernel/builtin_functions.hpp"
#include "kerncast/kernel/comparison.hpp"
#include "kerncast/kernel/expression_evaluator.hpp"
#include "kerncast/support/integer.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <limits>
#include <optional>
#include <unordered_map>

namespace kerncast::kernel {

// ---- lexer ---------------------------------------------------------------------------------

static bool is_identifier_start(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
static bool is_identifier_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

bool is_identifier(std::string_view name) {
    return !name.empty() && is_identifier_start(name.front()) &&
           std::all_of(name.begin(), name.end(), is_identifier_char);
}

std::string describe_character(std::string_view text, size_t pos) {
    const auto lead = static_cast<unsigned char>(text[pos]);
    if (lead < 0x80)
        return std::string("'") + static_cast<char>(lead) + "'";
    const size_t length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    std::uint32_t code = length == 4 ? lead & 0x07 : length == 3 ? lead & 0x0f : lead & 0x1f;
    bool valid = length > 1 && pos + length <= text.size();
    for (size_t k = 1; valid && k < length; ++k) {
        const auto next = static_cast<unsigned char>(text[pos + k]);
        valid = (next & 0xc0) == 0x80;
        code = (code << 6) | (next & 0x3f);
    }
    if (!valid)
        return fmt::format("byte 0x{:02x}", lead);
    return fmt::format("'{}' (U+{:04X})", text.substr(pos, length), code);
}

namespace {

bool is_digit_at(std::string_view text, size_t pos) {
    return pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]));
}

// A number starting at `pos` (a digit, or '.' before a digit): digits, an optional fraction,
// an optional exponent. Returns its end; `is_real` says whether it has a fraction or exponent.
size_t scan_number(std::string_view text, size_t pos, bool& is_real) {
    const size_t start = pos;
    is_real = false;
    while (is_digit_at(text, pos))
        ++pos;
    if (pos < text.size() && text[pos] == '.') {
        is_real = true;
        ++pos;
        while (is_digit_at(text, pos))
            ++pos;
    }
    if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
        size_t exponent = pos + 1;
        if (exponent < text.size() && (text[exponent] == '+' || text[exponent] == '-'))
            ++exponent;
        if (is_digit_at(text, exponent)) {
            is_real = true;
            pos = exponent;
            while (is_digit_at(text, pos))
                ++pos;
        }
    }
    if (pos < text.size() && is_identifier_start(text[pos]))
        throw ExpressionError("malformed number '" +
                                  std::string(text.substr(start, pos - start + 1)) + "'",
                              static_cast<int>(start));
    return pos;
}

// The operator or punctuation token at `pos` and its length (1 or 2 characters).
std::pair<TokenKind, size_t> scan_operator(std::string_view text, size_t pos) {
    const char c = text[pos];
    const auto start = static_cast<int>(pos);
    const bool then_equal = pos + 1 < text.size() && text[pos + 1] == '=';
    auto with_equal = [&](TokenKind longer, TokenKind shorter) {
        return then_equal ? std::pair{longer, size_t{2}} : std::pair{shorter, size_t{1}};
    };
    switch (c) {
    case '+':
        return with_equal(TokenKind::plus_assign, TokenKind::plus);
    case '-':
        return with_equal(TokenKind::minus_assign, TokenKind::minus);
    case '*':
        return with_equal(TokenKind::star_assign, TokenKind::star);
    case '/':
        return with_equal(TokenKind::slash_assign, TokenKind::slash);
    case '=':
        return with_equal(TokenKind::equal, TokenKind::assign);
    case '<':
        return with_equal(TokenKind::less_equal, TokenKind::less);
    case '>':
        return with_equal(TokenKind::greater_equal, TokenKind::greater);
    case '!':
        return with_equal(TokenKind::not_equal, TokenKind::bang);
    case '&':
    case '|':
        if (pos + 1 >= text.size() || text[pos + 1] != c)
            throw ExpressionError(
                std::string("unexpected '") + c + "' (did you mean '" + c + c + "'?)", start);
        return {c == '&' ? TokenKind::and_and : TokenKind::or_or, 2};
    default:
        break;
    }
    static const std::string_view singles = "%()[],?:";
    static const TokenKind single_kinds[] = {
        TokenKind::percent,  TokenKind::lparen, TokenKind::rparen,   TokenKind::lbracket,
        TokenKind::rbracket, TokenKind::comma,  TokenKind::question, TokenKind::colon};
    if (const size_t at = singles.find(c); at != std::string_view::npos)
        return {single_kinds[at], 1};
    throw ExpressionError("unexpected character " + describe_character(text, pos), start);
}

} // namespace

std::vector<Token> tokenize(std::string_view text) {
    std::vector<Token> tokens;
    size_t pos = 0;
    auto push = [&](TokenKind kind, size_t start, size_t length) {
        tokens.push_back(
            Token{kind, std::string(text.substr(start, length)), static_cast<int>(start)});
    };
    while (pos < text.size()) {
        const char c = text[pos];
        const size_t start = pos;
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++pos;
        } else if (is_digit_at(text, pos) || (c == '.' && is_digit_at(text, pos + 1))) {
            bool is_real = false;
            pos = scan_number(text, pos, is_real);
            push(is_real ? TokenKind::real : TokenKind::integer, start, pos - start);
        } else if (is_identifier_start(c)) {
            while (pos < text.size() && is_identifier_char(text[pos]))
                ++pos;
            push(TokenKind::identifier, start, pos - start);
        } else if (c == '$') {
            ++pos;
            if (pos >= text.size() || !is_identifier_start(text[pos]))
                throw ExpressionError("'$' must be followed by a tag name, as in a$aLD[i]",
                                      static_cast<int>(start));
            while (pos < text.size() && is_identifier_char(text[pos]))
                ++pos;
            tokens.push_back(Token{TokenKind::tag,
                                   std::string(text.substr(start + 1, pos - start - 1)),
                                   static_cast<int>(start)});
        } else {
            const auto [kind, length] = scan_operator(text, pos);
            pos += length;
            push(kind, start, length);
        }
    }
    tokens.push_back(Token{TokenKind::end, "", static_cast<int>(text.size())});
    return tokens;
}

// ---- parser --------------------------------------------------------------------------------

namespace {

std::shared_ptr<Expr> make(ExprKind kind, int offset) {
    auto e = std::make_shared<Expr>();
    e->kind = kind;
    e->offset = offset;
    return e;
}

const char* describe(const Token& token) {
    switch (token.kind) {
    case TokenKind::end:
        return "end of text";
    case TokenKind::integer:
    case TokenKind::real:
        return "number";
    case TokenKind::identifier:
        return "name";
    case TokenKind::tag:
        return "tag";
    default:
        return "operator";
    }
}

class Parser {
public:
    explicit Parser(std::string_view text) : tokens_(tokenize(text)) {}

    const Token& peek(size_t ahead = 0) const {
        return tokens_[std::min(index_ + ahead, tokens_.size() - 1)];
    }
    const Token& next() { return tokens_[index_ < tokens_.size() - 1 ? index_++ : index_]; }
    bool accept(TokenKind kind) {
        if (peek().kind != kind)
            return false;
        next();
        return true;
    }
    [[noreturn]] void fail_here(const std::string& expected) const {
        const Token& t = peek();
        std::string got = t.kind == TokenKind::end ? std::string("end of text")
                                                   : std::string(describe(t)) + " '" + t.text + "'";
        throw ExpressionError("expected " + expected + ", found " + got, t.offset);
    }
    const Token& expect(TokenKind kind, const std::string& what) {
        if (peek().kind != kind)
            fail_here(what);
        return next();
    }

    // Counts one level of nesting while alive; the parser recurses through expression() and
    // unary(), so guarding both bounds its own stack depth.
    class Nesting {
    public:
        explicit Nesting(Parser& parser) : parser_(parser) {
            if (++parser_.nesting_ > max_expression_nesting)
                throw ExpressionError("expression nested more than " +
                                          std::to_string(max_expression_nesting) +
                                          " levels deep (parentheses, unary operators, calls "
                                          "or subscripts)",
                                      parser_.peek().offset);
        }
        ~Nesting() { --parser_.nesting_; }
        Nesting(const Nesting&) = delete;
        Nesting& operator=(const Nesting&) = delete;

    private:
        Parser& parser_;
    };

    // Records the height of a node built from its operands; throws over the limit.
    ExprPtr built(std::shared_ptr<Expr> e) {
        int height = 1;
        for (const auto& operand : e->operands) {
            const auto found = heights_.find(operand.get());
            height = std::max(height, 1 + (found == heights_.end() ? 1 : found->second));
        }
        if (height > max_expression_height)
            throw ExpressionError("expression more than " + std::to_string(max_expression_height) +
                                      " operators deep (a chain such as a flat sum of over " +
                                      std::to_string(max_expression_height) +
                                      " terms); split it into several statements, as in "
                                      "s = ...; s += ...",
                                  e->offset);
        if (height > 1)
            heights_[e.get()] = height;
        return e;
    }

    ExprPtr expression() {
        Nesting nesting(*this);
        return conditional();
    }

    ExprPtr conditional() {
        ExprPtr condition = logical_or();
        if (peek().kind != TokenKind::question)
            return condition;
        const int offset = condition->offset;
        next();
        ExprPtr if_true = expression();
        expect(TokenKind::colon, "':' of a conditional 'c ? x : y'");
        ExprPtr if_false = expression();
        auto e = make(ExprKind::conditional, offset);
        e->operands = {condition, if_true, if_false};
        return built(e);
    }

    // Operators binding at `level` (binary_op_info), left-associative, over tighter levels.
    ExprPtr binary_level(int level) {
        if (level > tightest_binary_binding)
            return unary();
        ExprPtr left = binary_level(level + 1);
        for (;;) {
            const Token& t = peek();
            std::optional<BinaryOp> op;
            for (int o = 0; o <= static_cast<int>(BinaryOp::logical_or); ++o) {
                const BinaryOpInfo& info = binary_op_info(static_cast<BinaryOp>(o));
                if (info.binding == level && t.text == info.symbol)
                    op = info.op;
            }
            if (!op)
                return left;
            next();
            ExprPtr right = binary_level(level + 1);
            auto e = make(ExprKind::binary, left->offset);
            e->op = *op;
            e->operands = {left, right};
            left = built(e);
        }
    }
    ExprPtr logical_or() { return binary_level(1); }

    ExprPtr unary() {
        const Token& t = peek();
        if (t.kind != TokenKind::minus && t.kind != TokenKind::plus && t.kind != TokenKind::bang)
            return primary();
        Nesting nesting(*this);
        if (t.kind == TokenKind::minus) {
            next();
            ExprPtr operand = unary();
            // Fold negative literals so that "-1" is one number.
            if (operand->kind == ExprKind::integer || operand->kind == ExprKind::real) {
                auto e = std::make_shared<Expr>(*operand);
                e->integer_value = -e->integer_value;
                e->real_value = -e->real_value;
                e->offset = t.offset;
                return e;
            }
            auto e = make(ExprKind::negate, t.offset);
            e->operands = {operand};
            return built(e);
        }
        if (t.kind == TokenKind::plus) {
            next();
            return unary();
        }
        if (t.kind == TokenKind::bang) {
            next();
            auto e = make(ExprKind::logical_not, t.offset);
            e->operands = {unary()};
            return built(e);
        }
        return primary();
    }

    ExprPtr primary() {
        const Token t = peek();
        switch (t.kind) {
        case TokenKind::integer: {
            next();
            auto e = make(ExprKind::integer, t.offset);
            errno = 0;
            char* end = nullptr;
            const long long value = std::strtoll(t.text.c_str(), &end, 10);
            if (errno != 0)
                throw ExpressionError("integer '" + t.text + "' is too large", t.offset);
            e->integer_value = value;
            e->real_value = static_cast<double>(value);
            return e;
        }
        case TokenKind::real: {
            next();
            auto e = make(ExprKind::real, t.offset);
            e->real_value = std::strtod(t.text.c_str(), nullptr);
            if (!std::isfinite(e->real_value))
                throw ExpressionError("number '" + t.text +
                                          "' is too large (beyond the largest "
                                          "double, about 1.8e308)",
                                      t.offset);
            return e;
        }
        case TokenKind::lparen: {
            next();
            ExprPtr inner = expression();
            expect(TokenKind::rparen, "')'");
            return inner;
        }
        case TokenKind::identifier:
            return name_expression();
        default:
            fail_here("a number, a name or '('");
        }
    }

    ExprPtr name_expression() {
        const Token name = next();
        if (peek().kind == TokenKind::lparen) {
            if (name.text == "sum" || name.text == "prod")
                return reduction(name);
            next();
            auto e = make(ExprKind::call, name.offset);
            e->name = name.text;
            if (!accept(TokenKind::rparen)) {
                do
                    e->operands.push_back(expression());
                while (accept(TokenKind::comma));
                expect(TokenKind::rparen, "',' or ')' in the argument list of " + name.text);
            }
            return built(e);
        }
        std::string tag;
        if (peek().kind == TokenKind::tag) {
            tag = next().text;
            if (peek().kind != TokenKind::lbracket)
                fail_here("'[' after the tagged array name " + name.text + "$" + tag);
        }
        if (peek().kind == TokenKind::lbracket) {
            next();
            auto e = make(ExprKind::array_ref, name.offset);
            e->name = name.text;
            e->tag = tag;
            if (!accept(TokenKind::rbracket)) {
                do
                    e->operands.push_back(expression());
                while (accept(TokenKind::comma));
                expect(TokenKind::rbracket, "',' or ']' in the subscript of " + name.text);
            }
            return built(e);
        }
        auto e = make(ExprKind::variable, name.offset);
        e->name = name.text;
        return e;
    }

    ExprPtr reduction(const Token& name) {
        next(); // '('
        auto e = make(ExprKind::reduction, name.offset);
        e->name = name.text;
        auto index = [&] {
            const Token& t = expect(TokenKind::identifier, "a reduction index");
            e->reduction_indices.push_back(t.text);
            e->reduction_index_offsets.push_back(t.offset);
        };
        if (accept(TokenKind::lbracket)) {
            do
                index();
            while (accept(TokenKind::comma));
            expect(TokenKind::rbracket, "',' or ']' in the reduction index list");
        } else {
            index();
        }
        expect(TokenKind::comma, "',' after the reduction index, as in sum(k, a[k])");
        e->operands.push_back(expression());
        expect(TokenKind::rparen, "')' closing " + name.text + "(...)");
        return built(e);
    }

    void finish() {
        if (peek().kind != TokenKind::end)
            fail_here("end of expression");
    }

    Statement statement() {
        Statement s;
        if (peek().kind == TokenKind::identifier && peek().text.rfind("atomic_", 0) == 0 &&
            peek(1).kind == TokenKind::lparen) {
            const Token name = next();
            static const std::map<std::string, AtomicKind> kinds = {
                {"add", AtomicKind::add},   {"sub", AtomicKind::sub},
                {"min", AtomicKind::min},   {"max", AtomicKind::max},
                {"inc", AtomicKind::inc},   {"exch", AtomicKind::exch},
                {"cas", AtomicKind::cas},   {"and", AtomicKind::bit_and},
                {"or", AtomicKind::bit_or}, {"xor", AtomicKind::bit_xor}};
            auto kind = kinds.find(name.text.substr(7));
            if (kind == kinds.end())
                throw ExpressionError("unknown atomic '" + name.text +
                                          "' (known: atomic_add, atomic_sub, atomic_min, "
                                          "atomic_max, atomic_inc, atomic_exch, atomic_cas, "
                                          "atomic_and, atomic_or, atomic_xor)",
                                      name.offset);
            s.atomic = kind->second;
            next(); // '('
            s.target = target();
            if (kind->second == AtomicKind::cas) {
                // atomic_cas(target, compare, value): both operands are required.
                const std::string form = "atomic_cas(target, compare, value)";
                expect(TokenKind::comma, "',' and the compare operand of " + form);
                s.compare = expression();
                if (peek().kind == TokenKind::rparen)
                    throw ExpressionError("atomic_cas takes three operands, " + form +
                                              ": the value to store is missing",
                                          peek().offset);
                expect(TokenKind::comma, "',' and the value operand of " + form);
                s.value = expression();
            } else if (kind->second != AtomicKind::inc) {
                expect(TokenKind::comma, "',' and the operand of " + name.text);
                s.value = expression();
            }
            expect(TokenKind::rparen, "')' closing " + name.text + "(...)");
            finish();
            return s;
        }
        s.target = target();
        const Token op = next();
        switch (op.kind) {
        case TokenKind::assign:
            s.op = AssignOp::assign;
            break;
        case TokenKind::plus_assign:
            s.op = AssignOp::add_assign;
            break;
        case TokenKind::minus_assign:
            s.op = AssignOp::sub_assign;
            break;
        case TokenKind::star_assign:
            s.op = AssignOp::mul_assign;
            break;
        case TokenKind::slash_assign:
            s.op = AssignOp::div_assign;
            break;
        default:
            throw ExpressionError("expected '=', '+=', '-=', '*=' or '/=' after the assigned "
                                  "array, found '" +
                                      op.text + "'",
                                  op.offset);
        }
        s.value = expression();
        finish();
        return s;
    }

    ExprPtr target() {
        const Token t = peek();
        if (t.kind != TokenKind::identifier)
            fail_here("the name of the array written by the statement");
        ExprPtr e = name_expression();
        if (e->kind == ExprKind::variable) { // a scalar: a rank-0 array
            auto ref = std::make_shared<Expr>(*e);
            ref->kind = ExprKind::array_ref;
            return ref;
        }
        if (e->kind != ExprKind::array_ref)
            throw ExpressionError("a statement must write an array element, as in a[i] = ...",
                                  t.offset);
        return e;
    }

private:
    std::vector<Token> tokens_;
    size_t index_ = 0;
    int nesting_ = 0;
    std::unordered_map<const Expr*, int> heights_; // nodes taller than 1
};

} // namespace

ExprPtr parse_expression(std::string_view text) {
    Parser parser(text);
    if (parser.peek().kind == TokenKind::end)
        throw ExpressionError("empty expression", 0);
    ExprPtr e = parser.expression();
    parser.finish();
    return e;
}

Statement parse_statement(std::string_view text) {
    Parser parser(text);
    if (parser.peek().kind == TokenKind::end)
        throw ExpressionError("empty statement", 0);
    return parser.statement();
}

namespace {

// In BinaryOp order (checked below).
constexpr BinaryOpInfo binary_op_table[] = {
    {BinaryOp::add, "+", 5, 4, false},           {BinaryOp::sub, "-", 5, 4, false},
    {BinaryOp::mul, "*", 6, 3, false},           {BinaryOp::div, "/", 6, 3, false},
    {BinaryOp::mod, "%", 6, 3, false},           {BinaryOp::less, "<", 4, 6, true},
    {BinaryOp::less_equal, "<=", 4, 6, true},    {BinaryOp::greater, ">", 4, 6, true},
    {BinaryOp::greater_equal, ">=", 4, 6, true}, {BinaryOp::equal, "==", 3, 7, true},
    {BinaryOp::not_equal, "!=", 3, 7, true},     {BinaryOp::logical_and, "&&", 2, 11, false},
    {BinaryOp::logical_or, "||", 1, 12, false},
};

constexpr bool table_in_enum_order() {
    for (std::size_t i = 0; i < std::size(binary_op_table); ++i)
        if (static_cast<std::size_t>(binary_op_table[i].op) != i)
            return false;
    return std::size(binary_op_table) == static_cast<std::size_t>(BinaryOp::logical_or) + 1;
}
static_assert(table_in_enum_order(), "binary_op_table lists every BinaryOp once, in order");

} // namespace

const BinaryOpInfo& binary_op_info(BinaryOp op) {
    return binary_op_table[static_cast<std::size_t>(op)];
}

const char* binary_op_symbol(BinaryOp op) {
    return binary_op_info(op).symbol;
}

bool is_comparison(BinaryOp op) {
    return binary_op_info(op).comparison;
}

const char* atomic_kind_name(AtomicKind kind) {
    switch (kind) {
    case AtomicKind::add:
        return "add";
    case AtomicKind::sub:
        return "sub";
    case AtomicKind::min:
        return "min";
    case AtomicKind::max:
        return "max";
    case AtomicKind::inc:
        return "inc";
    case AtomicKind::exch:
        return "exch";
    case AtomicKind::cas:
        return "cas";
    case AtomicKind::bit_and:
        return "and";
    case AtomicKind::bit_or:
        return "or";
    case AtomicKind::bit_xor:
        return "xor";
    }
    return "?";
}

// ---- printing ------------------------------------------------------------------------------

static int precedence(const Expr& e) {
    if (e.kind == ExprKind::conditional)
        return 0;
    if (e.kind != ExprKind::binary)
        return 10;
    return binary_op_info(e.op).binding;
}

static std::string format_real(double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.17g", value);
    std::string text = buffer;
    if (text.find_first_of(".eEn") == std::string::npos)
        text += ".0";
    return text;
}

std::string to_string(const Expr& e) {
    auto wrap = [&](const Expr& child, bool strict) {
        const bool need =
            strict ? precedence(child) <= precedence(e) : precedence(child) < precedence(e);
        return need ? "(" + to_string(child) + ")" : to_string(child);
    };
    auto list = [](const std::vector<ExprPtr>& items) {
        std::string text;
        for (size_t k = 0; k < items.size(); ++k)
            text += (k ? ", " : "") + to_string(*items[k]);
        return text;
    };
    switch (e.kind) {
    case ExprKind::integer:
        return std::to_string(e.integer_value);
    case ExprKind::real:
        return format_real(e.real_value);
    case ExprKind::variable:
        return e.name;
    case ExprKind::array_ref:
        return e.name + (e.tag.empty() ? "" : "$" + e.tag) + "[" + list(e.operands) + "]";
    case ExprKind::negate:
        return "-" + wrap(*e.operands[0], false);
    case ExprKind::logical_not:
        return "!" + wrap(*e.operands[0], false);
    case ExprKind::binary:
        return wrap(*e.operands[0], false) + " " + binary_op_symbol(e.op) + " " +
               wrap(*e.operands[1], true);
    case ExprKind::call:
        return e.name + "(" + list(e.operands) + ")";
    case ExprKind::reduction: {
        std::string indices;
        for (size_t k = 0; k < e.reduction_indices.size(); ++k)
            indices += (k ? ", " : "") + e.reduction_indices[k];
        if (e.reduction_indices.size() != 1)
            indices = "[" + indices + "]";
        return e.name + "(" + indices + ", " + to_string(*e.operands[0]) + ")";
    }
    case ExprKind::conditional:
        return wrap(*e.operands[0], true) + " ? " + to_string(*e.operands[1]) + " : " +
               to_string(*e.operands[2]);
    }
    return "?";
}

// ---- affine forms --------------------------------------------------------------------------

std::int64_t AffineForm::coefficient(const std::string& symbol) const {
    auto found = coefficients.find(symbol);
    return found == coefficients.end() ? 0 : found->second;
}

void AffineForm::add_term(const std::string& symbol, std::int64_t value) {
    std::int64_t& slot = coefficients[symbol];
    slot += value;
    if (slot == 0)
        coefficients.erase(symbol);
}

AffineForm& AffineForm::operator+=(const AffineForm& other) {
    for (const auto& [symbol, value] : other.coefficients)
        add_term(symbol, value);
    constant += other.constant;
    return *this;
}

AffineForm AffineForm::scaled(std::int64_t factor) const {
    AffineForm result;
    if (factor == 0)
        return result;
    for (const auto& [symbol, value] : coefficients)
        result.coefficients[symbol] = value * factor;
    result.constant = constant * factor;
    return result;
}

std::string to_string(const Statement& s) {
    const std::string target = to_string(*s.target);
    if (s.atomic) {
        const std::string name = std::string("atomic_") + atomic_kind_name(*s.atomic);
        if (*s.atomic == AtomicKind::inc)
            return name + "(" + target + ")";
        if (*s.atomic == AtomicKind::cas)
            return name + "(" + target + ", " + to_string(*s.compare) + ", " + to_string(*s.value) +
                   ")";
        return name + "(" + target + ", " + to_string(*s.value) + ")";
    }
    static const char* const ops[] = {"=", "+=", "-=", "*=", "/="};
    return target + " " + ops[static_cast<int>(s.op)] + " " + to_string(*s.value);
}

ExprPtr replace_subexpressions(const ExprPtr& expr,
                               const std::function<ExprPtr(const Expr&)>& replace) {
    if (!expr)
        return expr;
    if (ExprPtr replaced = replace(*expr))
        return replaced;
    bool changed = false;
    std::vector<ExprPtr> operands;
    for (const ExprPtr& operand : expr->operands) {
        operands.push_back(replace_subexpressions(operand, replace));
        changed = changed || operands.back() != operand;
    }
    if (!changed)
        return expr;
    auto copy = std::make_shared<Expr>(*expr);
    copy->operands = std::move(operands);
    return copy;
}

std::string AffineForm::to_string() const {
    std::string text;
    for (const auto& [symbol, value] : coefficients) {
        if (text.empty())
            text += value < 0 ? "-" : "";
        else
            text += value < 0 ? " - " : " + ";
        const std::int64_t magnitude = value < 0 ? -value : value;
        if (magnitude != 1)
            text += std::to_string(magnitude) + "*";
        text += symbol;
    }
    if (text.empty())
        return std::to_string(constant);
    if (constant > 0)
        text += " + " + std::to_string(constant);
    else if (constant < 0)
        text += " - " + std::to_string(-constant);
    return text;
}

AffineForm to_affine(const Expr& e, const std::map<std::string, std::int64_t>& constants) {
    switch (e.kind) {
    case ExprKind::integer: {
        AffineForm form;
        form.constant = e.integer_value;
        return form;
    }
    case ExprKind::variable: {
        AffineForm form;
        auto known = constants.find(e.name);
        if (known != constants.end())
            form.constant = known->second;
        else
            form.add_term(e.name, 1);
        return form;
    }
    case ExprKind::negate:
        return to_affine(*e.operands[0], constants).scaled(-1);
    case ExprKind::binary: {
        if (e.op == BinaryOp::add || e.op == BinaryOp::sub) {
            AffineForm left = to_affine(*e.operands[0], constants);
            left += to_affine(*e.operands[1], constants).scaled(e.op == BinaryOp::add ? 1 : -1);
            return left;
        }
        if (e.op == BinaryOp::mul) {
            AffineForm left = to_affine(*e.operands[0], constants);
            AffineForm right = to_affine(*e.operands[1], constants);
            if (left.is_constant())
                return right.scaled(left.constant);
            if (right.is_constant())
                return left.scaled(right.constant);
            throw ExpressionError(
                "not affine: '" + to_string(e) + "' multiplies two non-constant terms", e.offset);
        }
        throw ExpressionError(std::string("not affine: '") + to_string(e) + "' uses '" +
                                  binary_op_symbol(e.op) +
                                  "' (affine expressions use +, - and * by an integer)",
                              e.offset);
    }
    case ExprKind::real:
        throw ExpressionError("not affine: '" + to_string(e) + "' is not an integer", e.offset);
    case ExprKind::array_ref:
        throw ExpressionError("not affine: '" + to_string(e) + "' reads an array", e.offset);
    default:
        throw ExpressionError("not affine: '" + to_string(e) + "'", e.offset);
    }
}

// ---- evaluation ----------------------------------------------------------------------------

namespace {

// Formula evaluation in double precision (expression_evaluator.hpp).
struct FloatingSemantics {
    using Value = double;
    static constexpr bool short_circuit = false;
    const VariableLookup& lookup;

    double integer(const Expr& e) { return static_cast<double>(e.integer_value); }
    double real(const Expr& e) { return e.real_value; }
    double variable(const Expr& e) {
        auto value = lookup(e.name);
        if (!value)
            throw ExpressionError("unknown name '" + e.name + "'", e.offset);
        return *value;
    }
    double array_ref(const Expr& e) {
        throw ExpressionError("an array reference cannot be evaluated here", e.offset);
    }
    double reduction(const Expr& e) {
        throw ExpressionError("a reduction cannot be evaluated here", e.offset);
    }
    double negate(const Expr&, double a) { return -a; }
    bool truth(double a) { return a != 0.0; }
    double boolean(bool b) { return b ? 1.0 : 0.0; }
    double binary(const Expr& e, double a, double b) {
        if (is_comparison(e.op))
            return compare(e.op, a, b);
        switch (e.op) {
        case BinaryOp::add:
            return a + b;
        case BinaryOp::sub:
            return a - b;
        case BinaryOp::mul:
            return a * b;
        case BinaryOp::div:
            return a / b;
        case BinaryOp::mod:
            return std::fmod(a, b);
        default: // && and || are the core's
            return 0.0;
        }
    }
    template <class Arguments> double call(const Expr& e, const Arguments& arguments) {
        const BuiltinFunction* function = find_builtin_function(e.name);
        if (!function)
            throw ExpressionError("unknown function '" + e.name + "'", e.offset);
        const size_t n = e.operands.size();
        if (!function->accepts(n)) {
            if (function->max_arguments < 0)
                throw ExpressionError(e.name + "() needs at least one argument", e.offset);
            throw ExpressionError(e.name + "() takes " + std::to_string(function->min_arguments) +
                                      " argument(s), got " + std::to_string(n),
                                  e.offset);
        }
        const std::vector<double> values = arguments();
        return function->host(values);
    }
};

// Exact 64-bit integer evaluation: floor division, overflow is an error.
struct IntegerSemantics {
    using Value = std::int64_t;
    static constexpr bool short_circuit = false;
    const IntegerLookup& lookup;

    [[noreturn]] static std::int64_t not_integer(const Expr& e) {
        throw ExpressionError("'" + to_string(e) + "' is not an integer expression", e.offset);
    }
    [[noreturn]] static std::int64_t overflow(const Expr& e) {
        throw ExpressionError("'" + to_string(e) + "' overflows 64-bit integers", e.offset);
    }
    std::int64_t integer(const Expr& e) { return e.integer_value; }
    std::int64_t real(const Expr& e) { return not_integer(e); }
    std::int64_t array_ref(const Expr& e) { return not_integer(e); }
    std::int64_t reduction(const Expr& e) { return not_integer(e); }
    std::int64_t variable(const Expr& e) {
        auto value = lookup(e.name);
        if (!value)
            throw ExpressionError("unknown name '" + e.name + "'", e.offset);
        return *value;
    }
    std::int64_t negate(const Expr& e, std::int64_t a) {
        if (a == std::numeric_limits<std::int64_t>::min())
            overflow(e);
        return -a;
    }
    bool truth(std::int64_t a) { return a != 0; }
    std::int64_t boolean(bool b) { return b ? 1 : 0; }
    std::int64_t binary(const Expr& e, std::int64_t a, std::int64_t b) {
        if (is_comparison(e.op))
            return compare(e.op, a, b);
        std::int64_t result = 0;
        switch (e.op) {
        case BinaryOp::add:
            return __builtin_add_overflow(a, b, &result) ? overflow(e) : result;
        case BinaryOp::sub:
            return __builtin_sub_overflow(a, b, &result) ? overflow(e) : result;
        case BinaryOp::mul:
            return __builtin_mul_overflow(a, b, &result) ? overflow(e) : result;
        case BinaryOp::div:
        case BinaryOp::mod:
            if (b == 0)
                throw ExpressionError("division by zero in '" + to_string(e) + "'", e.offset);
            if (b == -1)
                return e.op == BinaryOp::mod                           ? 0
                       : a == std::numeric_limits<std::int64_t>::min() ? overflow(e)
                                                                       : -a;
            return e.op == BinaryOp::div ? support::floor_div(a, b) : support::floor_mod(a, b);
        default: // && and || are the core's
            return 0;
        }
    }
    template <class Arguments> std::int64_t call(const Expr& e, const Arguments& arguments) {
        const BuiltinFunction* function = find_builtin_function(e.name);
        if (!function || !function->integer_evaluation || e.operands.empty())
            throw ExpressionError("'" + e.name + "()' is not an integer function (min, max)",
                                  e.offset);
        const std::vector<std::int64_t> values = arguments();
        return function->counted_as == "min" ? *std::min_element(values.begin(), values.end())
                                             : *std::max_element(values.begin(), values.end());
    }
};

} // namespace

double evaluate(const Expr& e, const VariableLookup& lookup) {
    FloatingSemantics semantics{lookup};
    return evaluate_with(e, semantics);
}

std::int64_t evaluate_integer(const Expr& e, const IntegerLookup& lookup) {
    IntegerSemantics semantics{lookup};
    return evaluate_with(e, semantics);
}

void collect_variables(const Expr& e, std::vector<std::string>& names) {
    if (e.kind == ExprKind::variable) {
        if (std::find(names.begin(), names.end(), e.name) == names.end())
            names.push_back(e.name);
        return;
    }
    if (e.kind == ExprKind::reduction) {
        std::vector<std::string> inner;
        collect_variables(*e.operands[0], inner);
        for (const auto& name : inner)
            if (std::find(e.reduction_indices.begin(), e.reduction_indices.end(), name) ==
                    e.reduction_indices.end() &&
                std::find(names.begin(), names.end(), name) == names.end())
                names.push_back(name);
        return;
    }
    for (const auto& operand : e.operands)
        collect_variables(*operand, names);
}

} // namespace kerncast::kernel
