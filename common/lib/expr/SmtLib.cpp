// The SMT-LIB 2 printer.
//
// Sharing. A node is "closed" when no quantified variable occurs free in it (without
// quantifiers, every node is). Closed nodes mean the same thing wherever they occur, so the ones
// printed more than once become top-level define-funs, in post-order. The others can only be
// shared within the quantifier body (or assertion) they occur in: each body is a scope whose
// nodes used more than once are let-bound at its start. Every closed node that is not defined
// is used exactly once by a closed parent, so it is printed once; a body is printed once per
// printing of its quantifier, which the same rules keep linear unless quantified subterms are
// shared across scopes.
//
// Sorts. Each width-1 node has a natural sort: Bool for comparisons and quantifiers, Bool for
// connectives and ite when an operand is naturally Bool, (_ BitVec 1) otherwise; a use that
// wants the other sort converts with (= e #b1) or (ite e #b1 #b0).
//
// Printing runs on an explicit task stack, never recursing on the expression's depth.
#include "cairn/expr/SmtLib.h"
#include "cairn/expr/Float.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

namespace cairn {

namespace {

enum class Sort : uint8_t { Data, Bool };

bool isQuantifier(Kind k) { return k == Kind::Forall || k == Kind::Exists; }

// Nodes worth naming when shared: everything but constants and symbols.
bool bindable(const Expr *e) {
  return e->kind() != Kind::Constant && e->kind() != Kind::Symbol && e->kind() != Kind::ArraySymbol;
}

std::string bvConstant(u128 v, unsigned width) {
  if (width <= 8) {
    std::string s = "#b";
    for (unsigned i = width; i-- > 0;)
      s.push_back(((v >> i) & 1) ? '1' : '0');
    return s;
  }
  return "(_ bv" + toDecimal(v) + " " + std::to_string(width) + ")";
}

std::string bvSort(unsigned width) { return "(_ BitVec " + std::to_string(width) + ")"; }

std::string dataSort(const Expr *e) {
  if (e->isArray())
    return "(Array " + bvSort(e->domainWidth()) + " " + bvSort(e->width()) + ")";
  return bvSort(e->width());
}

std::string declSort(const SymbolDecl *s) {
  if (s->isArray())
    return "(Array " + bvSort(s->domainWidth) + " " + bvSort(s->width) + ")";
  return bvSort(s->width);
}

const char *bvOperator(Kind k) {
  switch (k) {
  case Kind::Add: return "bvadd";
  case Kind::Sub: return "bvsub";
  case Kind::Mul: return "bvmul";
  case Kind::UDiv: return "bvudiv";
  case Kind::SDiv: return "bvsdiv";
  case Kind::URem: return "bvurem";
  case Kind::SRem: return "bvsrem";
  case Kind::Not: return "bvnot";
  case Kind::And: return "bvand";
  case Kind::Or: return "bvor";
  case Kind::Xor: return "bvxor";
  case Kind::Shl: return "bvshl";
  case Kind::LShr: return "bvlshr";
  case Kind::AShr: return "bvashr";
  case Kind::Ult: return "bvult";
  case Kind::Ule: return "bvule";
  case Kind::Slt: return "bvslt";
  case Kind::Sle: return "bvsle";
  case Kind::Eq: return "=";
  case Kind::Store: return "store";
  case Kind::Select: return "select";
  case Kind::Concat: return "concat";
  case Kind::Ite: return "ite";
  default: return nullptr;
  }
}

const char *boolOperator(Kind k) {
  switch (k) {
  case Kind::Not: return "not";
  case Kind::And: return "and";
  case Kind::Or: return "or";
  case Kind::Xor: return "xor";
  default: return nullptr;
  }
}

// Reserved words and the built-in names of the core, bit-vector and array theories: a declared
// symbol must not be spelled like one.
bool reservedName(std::string_view s) {
  // clang-format off
  static const std::unordered_set<std::string_view> names = {
      "!", "_", "as", "BINARY", "DECIMAL", "exists", "HEXADECIMAL", "forall", "let", "match",
      "NUMERAL", "par", "STRING", "assert", "check-sat", "check-sat-assuming", "declare-const",
      "declare-datatype", "declare-datatypes", "declare-fun", "declare-sort", "define-fun",
      "define-fun-rec", "define-funs-rec", "define-sort", "echo", "exit", "get-assertions",
      "get-assignment", "get-info", "get-model", "get-option", "get-proof",
      "get-unsat-assumptions", "get-unsat-core", "get-value", "pop", "push", "reset",
      "reset-assertions", "set-info", "set-logic", "set-option", "true", "false", "not", "=>",
      "and", "or", "xor", "=", "distinct", "ite", "select", "store", "const", "concat", "extract",
      "repeat", "zero_extend", "sign_extend", "rotate_left", "rotate_right", "bvnot", "bvneg",
      "bvand", "bvor", "bvnand", "bvnor", "bvxor", "bvxnor", "bvcomp", "bvadd", "bvsub", "bvmul",
      "bvudiv", "bvurem", "bvsdiv", "bvsrem", "bvsmod", "bvshl", "bvlshr", "bvashr", "bvult",
      "bvule", "bvugt", "bvuge", "bvslt", "bvsle", "bvsgt", "bvsge", "Bool", "Array", "BitVec"};
  // clang-format on
  return names.count(s) != 0;
}

bool simpleChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("~!@$%^&*_-+=<>.?/").find(c) != std::string_view::npos;
}

// The symbol as SMT-LIB can spell it, before quoting.
std::string legalName(const std::string &name) {
  std::string s;
  for (char c : name)
    s.push_back(c == '|' || c == '\\' || (unsigned char)c < 32 || c == 127 ? '_' : c);
  if (s.empty() || s[0] == '.' || s[0] == '@')
    s.insert(0, "_");
  if (reservedName(s))
    s += "_";
  return s;
}

std::string quoted(const std::string &raw) {
  bool simple =
      !(raw[0] >= '0' && raw[0] <= '9') && std::all_of(raw.begin(), raw.end(), simpleChar);
  return simple ? raw : "|" + raw + "|";
}

struct NodeInfo {
  uint32_t refs = 0;       // parent edges plus uses as an assertion
  bool openParent = false; // some parent is not closed
  bool closed = true;      // no quantified variable occurs free
  Sort natural = Sort::Data;
  std::string name; // the define-fun naming this node, if any
};

class Printer {
public:
  explicit Printer(std::span<const ExprRef> roots) : roots_(roots) {}

  std::string run(std::string_view logic, std::vector<SmtLibName> *declared);

private:
  struct Task {
    enum Type : uint8_t { Text, Node, Scope } type;
    Sort want = Sort::Bool;
    bool force = false; // print the node itself, not the name bound to it
    uint32_t scope = 0;
    const Expr *e = nullptr;
    std::string text;
  };

  void analyse();
  void assignNames();
  void print(Task first);
  void printNode(const Task &t);
  void openScope(const Expr *root, Sort want);
  Sort vote(const Expr *e, unsigned firstKid) const;
  std::string freshName();
  void pushText(std::string s) {
    tasks_.push_back({Task::Text, Sort::Bool, false, 0, nullptr, std::move(s)});
  }
  void pushNode(const Expr *e, Sort want, uint32_t scope, bool force = false) {
    tasks_.push_back({Task::Node, want, force, scope, e, {}});
  }

  std::span<const ExprRef> roots_;
  std::vector<const Expr *> order_; // post-order of every node, bodies included
  std::unordered_map<const Expr *, NodeInfo> info_;
  // Free quantified variables of the nodes that are not closed (sorted).
  std::unordered_map<const Expr *, std::vector<const SymbolDecl *>> free_;
  std::vector<const SymbolDecl *> symbols_; // first-visit order
  std::unordered_set<const SymbolDecl *> quantified_;
  std::unordered_map<const SymbolDecl *, std::string> symbolNames_;
  std::unordered_set<std::string> usedNames_; // raw spellings of symbols
  uint64_t nextName_ = 0;
  bool hasConstArray_ = false;
  std::vector<std::unordered_map<const Expr *, std::string>> scopes_; // let names; 0 is empty
  std::vector<Task> tasks_;
  std::string out_;
};

Sort Printer::vote(const Expr *e, unsigned firstKid) const {
  bool sawData = false;
  for (unsigned i = firstKid; i < e->numKids(); ++i) {
    const Expr *k = e->kid(i);
    if (k->isConstant())
      continue;
    if (info_.at(k).natural == Sort::Bool)
      return Sort::Bool;
    sawData = true;
  }
  return sawData ? Sort::Data : Sort::Bool;
}

void Printer::analyse() {
  std::vector<std::pair<const Expr *, bool>> work;
  for (const ExprRef &root : roots_) {
    if (!root)
      throw std::invalid_argument("toSmtLib2: null assertion");
    if (!root->isBool())
      throw std::invalid_argument("toSmtLib2: assertion of width " + std::to_string(root->width()) +
                                  " is not a boolean");
    work.push_back({root.get(), false});
    while (!work.empty()) {
      auto [e, expanded] = work.back();
      if (info_.count(e)) {
        work.pop_back();
        continue;
      }
      if (!expanded && !isLeaf(e->kind())) {
        work.back().second = true;
        for (unsigned i = e->numKids(); i-- > 0;)
          if (!info_.count(e->kid(i)))
            work.push_back({e->kid(i), false});
        continue;
      }
      // Which NaN a float result is (cairn/expr/Float.h) has no SMT-LIB operator: the solvers
      // take floats through their APIs (solver-pool/lib/FloatTranslation.h), not as text.
      if (isFloatKind(e->kind()))
        throw std::invalid_argument(std::string("toSmtLib2: floating-point expressions (") +
                                    kindName(e->kind()) + ") are not printed as SMT-LIB");
      work.pop_back();
      info_.emplace(e, NodeInfo{});
      order_.push_back(e);
      if (e->kind() == Kind::Symbol || e->kind() == Kind::ArraySymbol)
        symbols_.push_back(e->symbol());
      else if (e->kind() == Kind::ConstArray)
        hasConstArray_ = true;
      else if (isQuantifier(e->kind()))
        quantified_.insert(e->kid(0)->symbol());
    }
  }

  for (const Expr *e : order_) {
    NodeInfo &n = info_.at(e);
    // Natural sort.
    if (e->isBool()) {
      switch (e->kind()) {
      case Kind::Constant:
      case Kind::Eq:
      case Kind::Ult:
      case Kind::Ule:
      case Kind::Slt:
      case Kind::Sle:
      case Kind::Forall:
      case Kind::Exists: n.natural = Sort::Bool; break;
      case Kind::Not:
      case Kind::And:
      case Kind::Or:
      case Kind::Xor: n.natural = vote(e, 0); break;
      case Kind::Ite: n.natural = vote(e, 1); break;
      default: n.natural = Sort::Data;
      }
    }
    // Free quantified variables.
    if (!quantified_.empty()) {
      std::vector<const SymbolDecl *> fv;
      if (e->kind() == Kind::Symbol) {
        if (quantified_.count(e->symbol()))
          fv.push_back(e->symbol());
      } else if (isQuantifier(e->kind())) {
        auto it = free_.find(e->kid(1));
        if (it != free_.end())
          for (const SymbolDecl *s : it->second)
            if (s != e->kid(0)->symbol())
              fv.push_back(s);
      } else if (!isLeaf(e->kind())) {
        for (unsigned i = 0; i < e->numKids(); ++i) {
          auto it = free_.find(e->kid(i));
          if (it != free_.end())
            fv.insert(fv.end(), it->second.begin(), it->second.end());
        }
        std::sort(fv.begin(), fv.end());
        fv.erase(std::unique(fv.begin(), fv.end()), fv.end());
      }
      if (!fv.empty()) {
        n.closed = false;
        free_.emplace(e, std::move(fv));
      }
    }
    // References.
    if (!isLeaf(e->kind()))
      for (unsigned i = 0; i < e->numKids(); ++i) {
        NodeInfo &k = info_.at(e->kid(i));
        ++k.refs;
        if (!n.closed)
          k.openParent = true;
      }
  }
  for (const ExprRef &root : roots_)
    ++info_.at(root.get()).refs;
}

std::string Printer::freshName() {
  while (true) {
    std::string name = "?t" + std::to_string(nextName_++);
    if (!usedNames_.count(name))
      return name;
  }
}

void Printer::assignNames() {
  for (const SymbolDecl *s : symbols_) {
    if (symbolNames_.count(s))
      continue;
    std::string raw = legalName(s->name);
    if (usedNames_.count(raw)) {
      std::string base = raw + "_";
      for (unsigned n = 1; usedNames_.count(raw = base + std::to_string(n)); ++n) {
      }
    }
    usedNames_.insert(raw);
    symbolNames_.emplace(s, quoted(raw));
  }
  for (const Expr *e : order_) {
    NodeInfo &n = info_.at(e);
    if (n.closed && bindable(e) && (n.refs >= 2 || n.openParent))
      n.name = freshName();
  }
}

std::string Printer::run(std::string_view logic, std::vector<SmtLibName> *declared) {
  analyse();
  assignNames();

  out_ += "(set-logic ";
  // Constant arrays are outside the standard array logics (Z3 rejects them in QF_ABV).
  out_ += !logic.empty() ? logic : hasConstArray_ ? "ALL" : quantified_.empty() ? "QF_ABV" : "ABV";
  out_ += ")\n";

  // Free symbols: all but the quantified variables, unless one also occurs free somewhere.
  std::unordered_set<const SymbolDecl *> freeQuantified;
  for (const ExprRef &root : roots_) {
    auto it = free_.find(root.get());
    if (it != free_.end())
      freeQuantified.insert(it->second.begin(), it->second.end());
  }
  if (declared)
    declared->clear();
  for (const SymbolDecl *s : symbols_) {
    if (quantified_.count(s) && !freeQuantified.count(s))
      continue;
    const std::string &name = symbolNames_.at(s);
    out_ += "(declare-fun " + name + " () " + declSort(s) + ")\n";
    if (declared)
      declared->push_back({s, name});
  }

  scopes_.emplace_back(); // scope 0: no let-bindings
  for (const Expr *e : order_) {
    const NodeInfo &n = info_.at(e);
    if (n.name.empty())
      continue;
    out_ += "(define-fun " + n.name + " () " +
            (n.natural == Sort::Bool && e->isBool() ? "Bool" : dataSort(e)) + " ";
    print({Task::Node, n.natural, true, 0, e, {}});
    out_ += ")\n";
  }
  for (const ExprRef &root : roots_) {
    out_ += "(assert ";
    print({Task::Scope, Sort::Bool, false, 0, root.get(), {}});
    out_ += ")\n";
  }
  out_ += "(check-sat)\n";
  return std::move(out_);
}

void Printer::print(Task first) {
  tasks_.push_back(std::move(first));
  while (!tasks_.empty()) {
    Task t = std::move(tasks_.back());
    tasks_.pop_back();
    switch (t.type) {
    case Task::Text: out_ += t.text; break;
    case Task::Node: printNode(t); break;
    case Task::Scope: openScope(t.e, t.want); break;
    }
  }
}

// Prints a quantifier body or an assertion, let-binding the non-closed nodes it shares.
void Printer::openScope(const Expr *root, Sort want) {
  if (info_.at(root).closed) {
    pushNode(root, want, 0);
    return;
  }
  // The non-closed region below `root`, not entering nested quantifiers: edge counts and
  // post-order.
  std::unordered_map<const Expr *, uint32_t> uses;
  std::unordered_set<const Expr *> done;
  std::vector<const Expr *> post;
  std::vector<std::pair<const Expr *, bool>> work{{root, false}};
  auto inRegion = [&](const Expr *e) { return !info_.at(e).closed && bindable(e); };
  while (!work.empty()) {
    auto [e, expanded] = work.back();
    if (done.count(e)) {
      work.pop_back();
      continue;
    }
    if (!expanded && inRegion(e) && !isQuantifier(e->kind())) {
      work.back().second = true;
      for (unsigned i = e->numKids(); i-- > 0;) {
        const Expr *k = e->kid(i);
        if (!inRegion(k))
          continue;
        ++uses[k];
        if (!done.count(k))
          work.push_back({k, false});
      }
      continue;
    }
    work.pop_back();
    done.insert(e);
    if (inRegion(e))
      post.push_back(e);
  }
  const uint32_t scope = uint32_t(scopes_.size());
  scopes_.emplace_back();
  std::vector<const Expr *> bound;
  for (const Expr *e : post)
    if (e != root && uses[e] >= 2)
      bound.push_back(e);
  for (const Expr *e : bound)
    scopes_[scope].emplace(e, freshName());
  // Tasks run last-pushed first.
  pushText(std::string(bound.size(), ')'));
  pushNode(root, want, scope);
  for (size_t i = bound.size(); i-- > 0;) {
    pushText(")) ");
    pushNode(bound[i], info_.at(bound[i]).natural, scope, true);
    pushText("(let ((" + scopes_[scope].at(bound[i]) + " ");
  }
}

void Printer::printNode(const Task &t) {
  const Expr *e = t.e;
  const bool flag = e->isBool(); // only width-1 bit-vectors have two sorts
  const Sort want = flag ? t.want : Sort::Data;
  switch (e->kind()) {
  case Kind::Constant:
    if (want == Sort::Bool)
      out_ += e->value() ? "true" : "false";
    else
      out_ += bvConstant(e->value(), e->width());
    return;
  case Kind::Symbol:
  case Kind::ArraySymbol:
    if (want == Sort::Bool)
      out_ += "(= " + symbolNames_.at(e->symbol()) + " #b1)";
    else
      out_ += symbolNames_.at(e->symbol());
    return;
  default: break;
  }
  const NodeInfo &n = info_.at(e);
  const Sort natural = flag ? n.natural : Sort::Data;
  const char *prefix = "", *suffix = "";
  if (want == Sort::Bool && natural == Sort::Data) {
    prefix = "(= ";
    suffix = " #b1)";
  } else if (want == Sort::Data && natural == Sort::Bool) {
    prefix = "(ite ";
    suffix = " #b1 #b0)";
  }
  if (!t.force) {
    const std::string *name = nullptr;
    if (!n.name.empty())
      name = &n.name;
    else if (auto it = scopes_[t.scope].find(e); it != scopes_[t.scope].end())
      name = &it->second;
    if (name) {
      out_ += prefix;
      out_ += *name;
      out_ += suffix;
      return;
    }
  }
  out_ += prefix;

  if (e->kind() == Kind::ConstArray) {
    const ConstArrayData &d = *e->constArray();
    std::vector<std::pair<u128, u128>> stores;
    const u128 maxIndex = widthMask(d.domainWidth);
    for (size_t i = 0; i < d.values.size() && u128(i) <= maxIndex; ++i)
      if (d.values[i] != d.defaultValue)
        stores.push_back({u128(i), d.values[i]});
    for (size_t i = 0; i < stores.size(); ++i)
      out_ += "(store ";
    out_ += "((as const " + dataSort(e) + ") " + bvConstant(d.defaultValue, d.width) + ")";
    for (auto &[index, value] : stores)
      out_ += " " + bvConstant(index, d.domainWidth) + " " + bvConstant(value, d.width) + ")";
    out_ += suffix;
    return;
  }

  if (isQuantifier(e->kind())) {
    const SymbolDecl *v = e->kid(0)->symbol();
    out_ += e->kind() == Kind::Forall ? "(forall ((" : "(exists ((";
    out_ += symbolNames_.at(v) + " " + declSort(v) + ")) ";
    pushText(std::string(")") + suffix);
    tasks_.push_back({Task::Scope, Sort::Bool, false, 0, e->kid(1), {}});
    return;
  }

  // Operator and the sort each operand is wanted in.
  std::string op;
  Sort kidSort = Sort::Data;
  Sort firstKidSort = Sort::Data; // for ite: the condition
  switch (e->kind()) {
  case Kind::Extract:
    op = "(_ extract " + std::to_string(e->extractOffset() + e->width() - 1) + " " +
         std::to_string(e->extractOffset()) + ")";
    break;
  case Kind::ZExt:
    op = "(_ zero_extend " + std::to_string(e->width() - e->kid(0)->width()) + ")";
    break;
  case Kind::SExt:
    op = "(_ sign_extend " + std::to_string(e->width() - e->kid(0)->width()) + ")";
    break;
  case Kind::Not:
  case Kind::And:
  case Kind::Or:
  case Kind::Xor:
    if (natural == Sort::Bool) {
      op = boolOperator(e->kind());
      kidSort = firstKidSort = Sort::Bool;
    } else {
      op = bvOperator(e->kind());
    }
    break;
  case Kind::Eq:
    op = "=";
    if (e->kid(0)->isBool())
      kidSort = firstKidSort = vote(e, 0);
    break;
  case Kind::Ite:
    op = "ite";
    firstKidSort = Sort::Bool;
    kidSort = natural;
    break;
  default:
    if (const char *o = bvOperator(e->kind()))
      op = o;
    else
      throw std::logic_error(std::string("toSmtLib2: unexpected kind ") + kindName(e->kind()));
  }
  out_ += "(" + op;
  pushText(std::string(")") + suffix);
  for (unsigned i = e->numKids(); i-- > 0;) {
    pushNode(e->kid(i), i == 0 ? firstKidSort : kidSort, t.scope);
    pushText(" ");
  }
}

} // namespace

std::string toSmtLib2(std::span<const ExprRef> assertions, std::string_view logic,
                      std::vector<SmtLibName> *declared) {
  return Printer(assertions).run(logic, declared);
}

std::string toSmtLib2(std::span<const ExprRef> assertions, std::string_view logic) {
  return toSmtLib2(assertions, logic, nullptr);
}

} // namespace cairn
