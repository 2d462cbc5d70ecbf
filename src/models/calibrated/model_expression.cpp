// Parsing and compiling model expressions (model_expression.hpp; docs/model-format.md).
#include "kerncast/models/calibrated/model_expression.hpp"

#include "kerncast/closest_names.hpp"
#include "kerncast/kernel/expression.hpp"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

namespace kerncast::models::calibrated {

int ModelSymbols::feature_index(const FeatureSpec& feature) {
    for (std::size_t i = 0; i < features.size(); ++i)
        if (features[i].name == feature.name)
            return static_cast<int>(i);
    features.push_back(feature);
    return static_cast<int>(features.size() - 1);
}

int ModelSymbols::parameter_index(const std::string& name) {
    const auto at = std::find(parameters.begin(), parameters.end(), name);
    if (at != parameters.end())
        return static_cast<int>(at - parameters.begin());
    parameters.push_back(name);
    return static_cast<int>(parameters.size() - 1);
}

namespace {

enum class Token {
    end,
    number,
    feature,
    name,
    plus,
    minus,
    star,
    slash,
    caret,
    open,
    close,
    comma
};

struct Lexeme {
    Token kind = Token::end;
    std::string text;
    int offset = 0;
};

bool name_start(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
// Characters a feature name may hold besides letters, digits and '_' (its fields and bounds:
// "tag:aLD", "afr:>1.5"); braces hold stride constraints.
bool feature_char(char c) {
    return name_char(c) || c == ':' || c == '.' || c == '<' || c == '>' || c == '=' || c == '!';
}

std::vector<Lexeme> lex(const std::string& text) {
    std::vector<Lexeme> tokens;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const char c = text[pos];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++pos;
            continue;
        }
        const std::size_t start = pos;
        auto push = [&](Token kind) {
            tokens.push_back(
                Lexeme{kind, text.substr(start, pos - start), static_cast<int>(start)});
        };
        if (std::isdigit(static_cast<unsigned char>(c)) ||
            (c == '.' && pos + 1 < text.size() &&
             std::isdigit(static_cast<unsigned char>(text[pos + 1])))) {
            while (pos < text.size() &&
                   (std::isdigit(static_cast<unsigned char>(text[pos])) || text[pos] == '.'))
                ++pos;
            if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
                std::size_t exponent = pos + 1;
                if (exponent < text.size() && (text[exponent] == '+' || text[exponent] == '-'))
                    ++exponent;
                if (exponent < text.size() &&
                    std::isdigit(static_cast<unsigned char>(text[exponent]))) {
                    pos = exponent;
                    while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])))
                        ++pos;
                }
            }
            if (pos < text.size() && name_start(text[pos]))
                throw ModelSyntaxError("malformed number '" + text.substr(start, pos - start + 1) +
                                           "'",
                                       static_cast<int>(start));
            push(Token::number);
            continue;
        }
        if (text.compare(pos, 2, "f_") == 0) {
            while (pos < text.size() && (feature_char(text[pos]) || text[pos] == '{')) {
                if (text[pos] == '{') {
                    const std::size_t close = text.find('}', pos);
                    if (close == std::string::npos)
                        throw ModelSyntaxError("missing '}' in feature name",
                                               static_cast<int>(pos));
                    pos = close + 1;
                } else {
                    ++pos;
                }
            }
            push(Token::feature);
            continue;
        }
        if (name_start(c)) {
            while (pos < text.size() && name_char(text[pos]))
                ++pos;
            push(Token::name);
            continue;
        }
        Token kind = Token::end;
        switch (c) {
        case '+':
            kind = Token::plus;
            break;
        case '-':
            kind = Token::minus;
            break;
        case '*':
            kind = Token::star;
            break;
        case '/':
            kind = Token::slash;
            break;
        case '^':
            kind = Token::caret;
            break;
        case '(':
            kind = Token::open;
            break;
        case ')':
            kind = Token::close;
            break;
        case ',':
            kind = Token::comma;
            break;
        default:
            throw ModelSyntaxError("unexpected character " + kernel::describe_character(text, pos),
                                   static_cast<int>(start));
        }
        ++pos;
        push(kind);
    }
    tokens.push_back(Lexeme{Token::end, "", static_cast<int>(text.size())});
    return tokens;
}

struct Function {
    const char* name;
    ModelOp op;
    int arguments;
};
// overlap(a, b, edge) is expanded by the parser (eq. 5).
const std::vector<Function> functions{
    {"exp", ModelOp::exp, 1},         {"log", ModelOp::log, 1},    {"tanh", ModelOp::tanh, 1},
    {"sqrt", ModelOp::sqrt, 1},       {"step", ModelOp::step, 2},  {"smax", ModelOp::smooth_max, 3},
    {"smin", ModelOp::smooth_min, 3}, {"overlap", ModelOp::add, 3}};

class Parser {
public:
    Parser(const std::string& text, ModelSymbols& symbols)
        : tokens_(lex(text)), symbols_(symbols) {}

    ModelNodePtr parse() {
        ModelNodePtr root = sum();
        if (peek().kind != Token::end)
            fail(peek().kind == Token::close
                     ? "unmatched ')'"
                     : "expected an operator (+ - * / ^) before '" + peek().text + "'",
                 peek().offset);
        return root;
    }

private:
    std::vector<Lexeme> tokens_;
    std::size_t at_ = 0;
    ModelSymbols& symbols_;

    // Nesting guard: sum() and unary() recurse; each counts one level while alive.
    static constexpr int max_nesting = 256;
    int nesting_ = 0;
    struct Nesting {
        explicit Nesting(Parser& parser) : parser_(parser) {
            if (++parser_.nesting_ > max_nesting)
                fail("expression nested more than " + std::to_string(max_nesting) +
                         " levels deep (parentheses, unary operators, calls)",
                     parser_.peek().offset);
        }
        ~Nesting() { --parser_.nesting_; }
        Nesting(const Nesting&) = delete;
        Nesting& operator=(const Nesting&) = delete;
        Parser& parser_;
    };

    const Lexeme& peek() const { return tokens_[at_]; }
    const Lexeme& next() { return tokens_[at_++]; }
    [[noreturn]] static void fail(const std::string& message, int offset,
                                  std::vector<std::string> suggestions = {}) {
        throw ModelSyntaxError(message, offset, std::move(suggestions));
    }
    static ModelNodePtr node(ModelOp op, int offset, std::vector<ModelNodePtr> operands = {}) {
        auto n = std::make_shared<ModelNode>();
        n->op = op;
        n->offset = offset;
        n->operands = std::move(operands);
        return n;
    }

    ModelNodePtr sum() {
        const Nesting level(*this);
        ModelNodePtr left = product();
        while (peek().kind == Token::plus || peek().kind == Token::minus) {
            const Lexeme op = next();
            left = node(op.kind == Token::plus ? ModelOp::add : ModelOp::subtract, op.offset,
                        {left, product()});
        }
        return left;
    }
    ModelNodePtr product() {
        ModelNodePtr left = unary();
        while (peek().kind == Token::star || peek().kind == Token::slash) {
            const Lexeme op = next();
            left = node(op.kind == Token::star ? ModelOp::multiply : ModelOp::divide, op.offset,
                        {left, unary()});
        }
        return left;
    }
    // -x^2 is -(x^2); a^b^c is a^(b^c).
    ModelNodePtr unary() {
        const Nesting level(*this);
        if (peek().kind == Token::minus) {
            const Lexeme op = next();
            return node(ModelOp::negate, op.offset, {unary()});
        }
        if (peek().kind == Token::plus) {
            next();
            return unary();
        }
        ModelNodePtr base = primary();
        if (peek().kind == Token::caret) {
            const Lexeme op = next();
            return node(ModelOp::power, op.offset, {base, unary()});
        }
        return base;
    }
    ModelNodePtr primary() {
        const Lexeme token = next();
        switch (token.kind) {
        case Token::number: {
            auto n = std::make_shared<ModelNode>();
            n->op = ModelOp::constant;
            n->offset = token.offset;
            try {
                std::size_t used = 0;
                n->value = std::stod(token.text, &used);
                if (used != token.text.size())
                    throw std::invalid_argument(token.text);
            } catch (const std::exception&) {
                fail("malformed number '" + token.text + "'", token.offset);
            }
            return n;
        }
        case Token::feature: {
            FeatureSpec feature;
            try {
                feature = parse_feature(token.text);
            } catch (const FeatureError& e) {
                fail(e.what(), token.offset + e.offset(), e.suggestions());
            }
            auto n = std::make_shared<ModelNode>();
            n->op = ModelOp::feature;
            n->offset = token.offset;
            n->index = symbols_.feature_index(feature);
            return n;
        }
        case Token::name:
            return name(token);
        case Token::open: {
            ModelNodePtr inner = sum();
            expect(Token::close, "')'", token);
            return inner;
        }
        case Token::end:
            fail("expression ends early: expected a number, feature, parameter or '('",
                 token.offset);
        default:
            fail("expected a number, feature (f_...), parameter (p_...), name or '(', got '" +
                     token.text + "'",
                 token.offset);
        }
    }
    void expect(Token kind, const char* what, const Lexeme& opened) {
        if (peek().kind == kind) {
            next();
            return;
        }
        fail(std::string("expected ") + what + " (to match the one at offset " +
                 std::to_string(opened.offset + 1) + ")" +
                 (peek().kind == Token::end ? ", got the end" : ", got '" + peek().text + "'"),
             peek().offset);
    }
    ModelNodePtr name(const Lexeme& token) {
        if (peek().kind == Token::open)
            return call(token);
        if (token.text.rfind("p_", 0) == 0 && token.text.size() > 2) {
            auto n = std::make_shared<ModelNode>();
            n->op = ModelOp::parameter;
            n->offset = token.offset;
            n->index = symbols_.parameter_index(token.text);
            return n;
        }
        const auto found = symbols_.definitions.find(token.text);
        if (found != symbols_.definitions.end())
            return found->second;
        std::vector<std::string> names;
        for (const auto& [name, definition] : symbols_.definitions)
            names.push_back(name);
        for (const auto& f : functions)
            names.emplace_back(f.name);
        fail("unknown name '" + token.text +
                 "': features start with f_, parameters with p_, other names must be defined "
                 "(let) before they are used",
             token.offset, closest_names(token.text, names));
    }
    ModelNodePtr call(const Lexeme& token) {
        const auto f = std::find_if(functions.begin(), functions.end(),
                                    [&](const Function& fn) { return token.text == fn.name; });
        if (f == functions.end()) {
            std::vector<std::string> names;
            for (const auto& fn : functions)
                names.emplace_back(fn.name);
            fail("unknown function '" + token.text +
                     "' (exp, log, tanh, sqrt, step, overlap, smax, smin)",
                 token.offset, closest_names(token.text, names));
        }
        const Lexeme open = next();
        std::vector<ModelNodePtr> arguments{sum()};
        while (peek().kind == Token::comma) {
            next();
            arguments.push_back(sum());
        }
        expect(Token::close, "')'", open);
        if (static_cast<int>(arguments.size()) != f->arguments)
            fail(fmt::format("{} takes {} argument{}, got {}", f->name, f->arguments,
                             f->arguments == 1 ? "" : "s", arguments.size()),
                 token.offset);
        if (std::string(f->name) == "overlap") {
            // Stevens & Klöckner eq. (5): a s(a - b) + b s(b - a).
            const auto& a = arguments[0];
            const auto& b = arguments[1];
            const auto& edge = arguments[2];
            auto step_of = [&](const ModelNodePtr& x, const ModelNodePtr& y) {
                return node(ModelOp::step, token.offset,
                            {node(ModelOp::subtract, token.offset, {x, y}), edge});
            };
            return node(ModelOp::add, token.offset,
                        {node(ModelOp::multiply, token.offset, {a, step_of(a, b)}),
                         node(ModelOp::multiply, token.offset, {b, step_of(b, a)})});
        }
        return node(f->op, token.offset, std::move(arguments));
    }
};

// Instructions and depth of a tree whose definitions are shared sub-trees (inlined at each
// use), memoised per node: a chain of definitions can double the size at each step.
struct TreeSize {
    double instructions = 0;
    std::size_t depth = 0;
};
TreeSize tree_size(const ModelNode* n, std::map<const ModelNode*, TreeSize>& memo) {
    if (const auto found = memo.find(n); found != memo.end())
        return found->second;
    TreeSize size{1, 1};
    for (const auto& operand : n->operands) {
        const TreeSize inner = tree_size(operand.get(), memo);
        size.instructions += inner.instructions;
        size.depth = std::max(size.depth, inner.depth + 1);
    }
    memo[n] = size;
    return size;
}

void compile(const ModelNodePtr& n, std::vector<ModelInstruction>& code, std::size_t depth,
             std::size_t& max_depth) {
    max_depth = std::max(max_depth, depth + 1);
    if (n->op == ModelOp::power && n->operands[1]->op == ModelOp::constant) {
        compile(n->operands[0], code, depth, max_depth);
        code.push_back(ModelInstruction{ModelOp::power, 1, n->operands[1]->value});
        return;
    }
    for (std::size_t i = 0; i < n->operands.size(); ++i)
        compile(n->operands[i], code, depth + i, max_depth);
    code.push_back(ModelInstruction{n->op, n->index, n->value});
}

const char* op_text(ModelOp op) {
    switch (op) {
    case ModelOp::add:
        return "+";
    case ModelOp::subtract:
        return "-";
    case ModelOp::multiply:
        return "*";
    case ModelOp::divide:
        return "/";
    case ModelOp::power:
        return "^";
    case ModelOp::exp:
        return "exp";
    case ModelOp::log:
        return "log";
    case ModelOp::tanh:
        return "tanh";
    case ModelOp::sqrt:
        return "sqrt";
    case ModelOp::step:
        return "step";
    case ModelOp::smooth_max:
        return "smax";
    case ModelOp::smooth_min:
        return "smin";
    default:
        return "?";
    }
}

} // namespace

ModelNodePtr parse_model_expression(const std::string& text, ModelSymbols& symbols) {
    ModelNodePtr root = Parser(text, symbols).parse();
    std::map<const ModelNode*, TreeSize> memo;
    const TreeSize size = tree_size(root.get(), memo);
    // Bounds on what evaluation and printing do with the inlined tree.
    if (size.instructions > 1e6 || size.depth > 4096)
        throw ModelSyntaxError("the expression with its definitions inlined is too large (" +
                                   fmt::format("{:.3g}", size.instructions) +
                                   " operations, nesting " + std::to_string(size.depth) +
                                   "; at most 1e6 and 4096)",
                               0);
    return root;
}

CompiledExpression::CompiledExpression(const ModelNodePtr& root) {
    compile(root, code_, 0, max_stack_);
}

std::string model_expression_text(const ModelNodePtr& n, const ModelSymbols& symbols) {
    switch (n->op) {
    case ModelOp::constant:
        return fmt::format("{}", n->value);
    case ModelOp::feature:
        return symbols.features[static_cast<std::size_t>(n->index)].name;
    case ModelOp::parameter:
        return symbols.parameters[static_cast<std::size_t>(n->index)];
    case ModelOp::negate: {
        std::string text = "(-";
        text += model_expression_text(n->operands[0], symbols);
        return text + ")";
    }
    case ModelOp::add:
    case ModelOp::subtract:
    case ModelOp::multiply:
    case ModelOp::divide:
    case ModelOp::power: {
        std::string text = "(";
        text += model_expression_text(n->operands[0], symbols);
        text += std::string(" ") + op_text(n->op) + " ";
        text += model_expression_text(n->operands[1], symbols);
        return text + ")";
    }
    default: {
        std::string text = std::string(op_text(n->op)) + "(";
        for (std::size_t i = 0; i < n->operands.size(); ++i) {
            if (i > 0)
                text += ", ";
            text += model_expression_text(n->operands[i], symbols);
        }
        return text + ")";
    }
    }
}

} // namespace kerncast::models::calibrated
