//===- ShortNames.cpp - Readable C++ names -----------------------------------===//
//
// Part of ActiveTime. See activetime/Report/ShortNames.h.
//
// The Itanium demangler's parser (llvm/Demangle/ItaniumDemangle.h) gives
// the name's tree; a short printer walks the nodes that make up a *name*
// (nested, local, template, ABI-tagged, std:: substitutions) and prints
// every other node, an operator name or a lambda's closure type say, as the
// demangler does. Types inside parameter lists contain no operator names,
// so there eliding `<...>` groups of the printed text is exact.
//
//===----------------------------------------------------------------------===//

#include "activetime/Report/ShortNames.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Demangle/ItaniumDemangle.h"
#include "llvm/Support/Allocator.h"

#include <algorithm>
#include <cstdlib>
#include <map>

using namespace llvm;
using namespace llvm::itanium_demangle;
using namespace activetime;
using namespace activetime::report;

namespace {

/// The node allocator the parser wants (the library's own is private to
/// ItaniumDemangle.cpp).
class NodeAllocator {
public:
  void reset() { Alloc.Reset(); }
  template <typename T, typename... Args> T *makeNode(Args &&...As) {
    return new (Alloc.Allocate(sizeof(T), alignof(T)))
        T(std::forward<Args>(As)...);
  }
  void *allocateNodeArray(size_t N) {
    return Alloc.Allocate(sizeof(Node *) * N, alignof(Node *));
  }

private:
  BumpPtrAllocator Alloc;
};

using Parser = ManglingParser<NodeAllocator>;

/// A node as the demangler prints it.
std::string printed(const Node *N) {
  if (!N)
    return "";
  OutputBuffer OB;
  N->print(OB);
  std::string S(OB.getBuffer(), OB.getCurrentPosition());
  std::free(OB.getBuffer());
  return S;
}

std::string shortFunction(const FunctionEncoding *F, bool WithParams);

/// The short form of a name node: template arguments elided, ABI tags
/// dropped, a local entity's enclosing function short too.
std::string shortNode(const Node *N) {
  if (!N)
    return "";
  std::string Out;
  switch (N->getKind()) {
  case Node::KNestedName: {
    const auto *NN = static_cast<const NestedName *>(N);
    return shortNode(NN->Qual) + "::" + shortNode(NN->Name);
  }
  case Node::KNameWithTemplateArgs: {
    Out = shortNode(static_cast<const NameWithTemplateArgs *>(N)->Name);
    // `operator< <...>`, not `operator<<...>`.
    if (!Out.empty() && (Out.back() == '<' || Out.back() == '>'))
      Out += ' ';
    return Out + "<...>";
  }
  case Node::KAbiTagAttr:
    return shortNode(static_cast<const AbiTagAttr *>(N)->Base);
  case Node::KLocalName: {
    // The enclosing function short too (a function encoding prints as
    // shortFunction without parameters, below).
    const auto *L = static_cast<const LocalName *>(N);
    return shortNode(L->Encoding) + "::" + shortNode(L->Entity);
  }
  case Node::KQualifiedName:
    static_cast<const QualifiedName *>(N)->match(
        [&](const Node *Q, const Node *Name) {
          Out = shortNode(Q) + "::" + shortNode(Name);
        });
    return Out;
  case Node::KGlobalQualifiedName:
    static_cast<const GlobalQualifiedName *>(N)->match(
        [&](const Node *Child) { Out = "::" + shortNode(Child); });
    return Out;
  case Node::KExpandedSpecialSubstitution: {
    // std::basic_string<char, ...> as the prefix of its own members.
    std::string_view Base = N->getBaseName();
    Out = "std::" + std::string(Base);
    if (StringRef(Base.data(), Base.size()).starts_with("basic_"))
      Out += "<...>";
    return Out;
  }
  case Node::KDotSuffix:
    static_cast<const DotSuffix *>(N)->match(
        [&](const Node *Prefix, std::string_view Suffix) {
          Out = shortNode(Prefix) + " (" + std::string(Suffix) + ")";
        });
    return Out;
  case Node::KSpecialName:
    static_cast<const SpecialName *>(N)->match(
        [&](std::string_view Special, const Node *Child) {
          Out = std::string(Special) + shortNode(Child);
        });
    return Out;
  case Node::KFunctionEncoding:
    return shortFunction(static_cast<const FunctionEncoding *>(N), false);
  default:
    // Plain names, operator names, constructors, closure types, std::string.
    return printed(N);
  }
}

/// The parameter list of \p F with the types' template arguments elided,
/// and its qualifiers.
std::string shortParams(const FunctionEncoding *F) {
  std::string Out = "(";
  NodeArray Params = F->getParams();
  for (size_t I = 0; I < Params.size(); ++I) {
    if (I)
      Out += ", ";
    Out += elideTemplateArgs(printed(Params[I]));
  }
  Out += ")";
  Qualifiers Q = F->getCVQuals();
  if (Q & QualConst)
    Out += " const";
  if (Q & QualVolatile)
    Out += " volatile";
  if (F->getRefQual() == FrefQualLValue)
    Out += " &";
  else if (F->getRefQual() == FrefQualRValue)
    Out += " &&";
  return Out;
}

std::string shortFunction(const FunctionEncoding *F, bool WithParams) {
  std::string Name = shortNode(F->getName());
  if (WithParams)
    return Name + shortParams(F);
  return Name + (F->getParams().empty() ? "()" : "(...)");
}

} // namespace

std::string report::elideTemplateArgs(StringRef Text) {
  std::string Out;
  unsigned Depth = 0;
  for (char C : Text) {
    if (C == '<') {
      if (Depth++ == 0)
        Out += "<...>";
      continue;
    }
    if (C == '>' && Depth) {
      --Depth;
      continue;
    }
    if (!Depth)
      Out += C;
  }
  return Out;
}

ShortName report::shortName(StringRef Linkage) {
  std::string Demangled = llvm::demangle(Linkage);
  // Only Itanium names have a tree we read; the parser wants the "_Z" form.
  if (!Linkage.starts_with("_Z"))
    return {Demangled, Demangled};
  Parser P(Linkage.begin(), Linkage.end());
  const Node *AST = P.parse();
  if (!AST)
    return {Demangled, Demangled};
  if (AST->getKind() != Node::KFunctionEncoding) {
    std::string S = shortNode(AST); // a variable, a thunk, a clone
    return {S, S};
  }
  const auto *F = static_cast<const FunctionEncoding *>(AST);
  return {shortFunction(F, false), shortFunction(F, true)};
}

std::vector<std::string>
report::distinctShortNames(ArrayRef<std::string> Linkage) {
  std::vector<ShortName> Forms;
  std::vector<std::string> Full;
  std::map<std::string, std::vector<size_t>> ByShort;
  for (size_t I = 0; I < Linkage.size(); ++I) {
    Forms.push_back(shortName(Linkage[I]));
    Full.push_back(llvm::demangle(Linkage[I]));
    ByShort[Forms.back().Short].push_back(I);
  }
  std::vector<std::string> Out(Linkage.size());
  for (auto &[Short, Members] : ByShort) {
    // Distinct full names in the group (the same function may be listed
    // twice: a local function of two modules), ordered by full name, which
    // numbers the instances.
    std::map<std::string, size_t> Distinct; // full name -> a member
    for (size_t I : Members)
      Distinct.emplace(Full[I], I);
    if (Distinct.size() == 1) {
      for (size_t I : Members)
        Out[I] = Short;
      continue;
    }
    std::map<std::string, unsigned> Uses, Next;
    for (auto &Entry : Distinct)
      ++Uses[Forms[Entry.second].WithParams];
    std::map<std::string, std::string> Printed;
    for (auto &Entry : Distinct) {
      const std::string &WP = Forms[Entry.second].WithParams;
      Printed[Entry.first] =
          Uses[WP] == 1 ? WP : WP + " #" + std::to_string(++Next[WP]);
    }
    for (size_t I : Members)
      Out[I] = Printed[Full[I]];
  }
  return Out;
}
