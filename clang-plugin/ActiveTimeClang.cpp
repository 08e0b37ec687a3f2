//===- ActiveTimeClang.cpp - Clang front-end plugin for ActiveTime --------===//
//
// Part of ActiveTime. Loaded with -fplugin=ActiveTimeClang.so next to the pass
// plugin (-fpass-plugin=ActiveTime.so).
//
// The pass only sees IR, so every source-level request is lowered to an
// implicit annotate attribute, which clang emits into @llvm.global.annotations
// for each function definition; the pass reads (and removes) these entries
// (the strings are defined once, in include/activetime/annotations.h):
//
//   source                                          annotation
//   __attribute__((no_instrument_function))         activetime.no_instrument
//   [[activetime::no_instrument]]                   activetime.no_instrument
//   [[activetime::instrument]]                      activetime.instrument
//   [[activetime::region("name")]]                  activetime.region:name
//   [[activetime::strides]]                         activetime.strides
//   #pragma activetime instrument(off) ... (on)     activetime.no_instrument
//   #pragma activetime strides(on) ... (off)        activetime.strides
//
// Each attribute also has a GNU spelling (__attribute__((activetime_name)))
// and a C23 one. The pragmas act on the functions whose names appear between
// them in translation-unit order; an explicit [[activetime::instrument]]
// wins over instrument(off). Misuse is an error at the attribute (wrong
// subject, wrong argument, contradicting attributes) or a warning at the
// pragma token (unknown or malformed option), never a silent ignore.
//
// The action runs before the main action (AddBeforeMainAction), so its
// consumer sees every declaration before CodeGen's consumer does.
//
//===----------------------------------------------------------------------===//

#include "activetime/annotations.h"
#include "activetime/llvm_compat.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclGroup.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/SemaDiagnostic.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>
#include <vector>

using namespace clang;

namespace {

// What the pass looks for in @llvm.global.annotations.
constexpr llvm::StringLiteral kNoInstrumentAnnotation =
    activetime::annotations::kNoInstrument;
constexpr llvm::StringLiteral kInstrumentAnnotation =
    activetime::annotations::kInstrument;
constexpr llvm::StringLiteral kRegionAnnotationPrefix =
    activetime::annotations::kRegionPrefix;
constexpr llvm::StringLiteral kStridesAnnotation =
    activetime::annotations::kStrides;

bool hasAnnotation(const Decl *D, llvm::StringRef Str) {
  for (const auto *A : D->specific_attrs<AnnotateAttr>())
    if (A->getAnnotation() == Str)
      return true;
  return false;
}

const AnnotateAttr *findRegionAnnotation(const Decl *D) {
  for (const auto *A : D->specific_attrs<AnnotateAttr>())
    if (A->getAnnotation().starts_with(kRegionAnnotationPrefix))
      return A;
  return nullptr;
}

//===----------------------------------------------------------------------===//
// #pragma activetime instrument(on|off) / strides(on|off)
//===----------------------------------------------------------------------===//

enum class PragmaOption { Instrument, Strides };

struct PragmaTransition {
  SourceLocation Loc;
  PragmaOption Option;
  bool On;
};

// The transitions of the translation unit being compiled, in source order.
// The preprocessor owns the handler and the action owns the consumer, so
// they meet here; one -cc1 process compiles one translation unit at a time,
// and the action clears the list before parsing starts.
std::vector<PragmaTransition> &pragmaTransitions() {
  static std::vector<PragmaTransition> Transitions;
  return Transitions;
}

class ActiveTimePragmaHandler : public PragmaHandler {
public:
  ActiveTimePragmaHandler() : PragmaHandler("activetime") {}

  void HandlePragma(Preprocessor &PP, PragmaIntroducer Introducer,
                    Token &FirstToken) override {
    DiagnosticsEngine &DE = PP.getDiagnostics();
    Token Tok;
    PP.Lex(Tok);
    if (Tok.isNot(tok::identifier)) {
      PP.Diag(Tok.getLocation(),
              DE.getCustomDiagID(DiagnosticsEngine::Warning,
                                 "missing option in '#pragma activetime'; "
                                 "expected 'instrument' or 'strides'"));
      return discard(PP, Tok);
    }
    llvm::StringRef Name = Tok.getIdentifierInfo()->getName();
    PragmaOption Option;
    if (Name == "instrument")
      Option = PragmaOption::Instrument;
    else if (Name == "strides")
      Option = PragmaOption::Strides;
    else {
      PP.Diag(Tok.getLocation(),
              DE.getCustomDiagID(DiagnosticsEngine::Warning,
                                 "unknown option '%0' in '#pragma activetime'; "
                                 "expected 'instrument' or 'strides'"))
          << Name;
      return discard(PP, Tok);
    }
    SourceLocation OptionLoc = Tok.getLocation();
    std::string OptionName = Name.str();
    auto BadValue = [&](SourceLocation Loc) {
      PP.Diag(Loc, DE.getCustomDiagID(DiagnosticsEngine::Warning,
                                      "expected '(on)' or '(off)' after "
                                      "'#pragma activetime %0'"))
          << OptionName;
    };
    PP.Lex(Tok);
    if (Tok.isNot(tok::l_paren)) {
      BadValue(Tok.getLocation());
      return discard(PP, Tok);
    }
    PP.Lex(Tok);
    bool On;
    if (Tok.is(tok::identifier) && Tok.getIdentifierInfo()->getName() == "on")
      On = true;
    else if (Tok.is(tok::identifier) &&
             Tok.getIdentifierInfo()->getName() == "off")
      On = false;
    else {
      BadValue(Tok.getLocation());
      return discard(PP, Tok);
    }
    PP.Lex(Tok);
    if (Tok.isNot(tok::r_paren)) {
      BadValue(Tok.getLocation());
      return discard(PP, Tok);
    }
    PP.Lex(Tok);
    if (Tok.isNot(tok::eod)) {
      PP.Diag(Tok.getLocation(),
              DE.getCustomDiagID(DiagnosticsEngine::Warning,
                                 "extra tokens at end of '#pragma activetime "
                                 "%0'; the pragma is ignored"))
          << OptionName;
      return discard(PP, Tok);
    }
    pragmaTransitions().push_back({OptionLoc, Option, On});
  }

private:
  static void discard(Preprocessor &PP, Token &Tok) {
    while (Tok.isNot(tok::eod) && Tok.isNot(tok::eof))
      PP.Lex(Tok);
  }
};

//===----------------------------------------------------------------------===//
// [[activetime::...]] / __attribute__((activetime_...))
//===----------------------------------------------------------------------===//

enum class AtAttr { NoInstrument, Instrument, Region, Strides };

template <AtAttr K> struct AttrNames;
template <> struct AttrNames<AtAttr::NoInstrument> {
  static constexpr const char *GNU = "activetime_no_instrument";
  static constexpr const char *Scoped = "activetime::no_instrument";
  static constexpr const char *Bare = "no_instrument";
};
template <> struct AttrNames<AtAttr::Instrument> {
  static constexpr const char *GNU = "activetime_instrument";
  static constexpr const char *Scoped = "activetime::instrument";
  static constexpr const char *Bare = "instrument";
};
template <> struct AttrNames<AtAttr::Region> {
  static constexpr const char *GNU = "activetime_region";
  static constexpr const char *Scoped = "activetime::region";
  static constexpr const char *Bare = "region";
};
template <> struct AttrNames<AtAttr::Strides> {
  static constexpr const char *GNU = "activetime_strides";
  static constexpr const char *Scoped = "activetime::strides";
  static constexpr const char *Bare = "strides";
};

// clang::hasAttribute(), which decides whether the parser reads a [[...]]
// attribute's arguments, compares plugin spellings with the name without its
// scope; the bare spellings are there for it, and an unscoped use is refused
// in diagAppertainsToDecl.
template <AtAttr K> class ActiveTimeAttrInfo : public ParsedAttrInfo {
  static constexpr Spelling S[] = {
      {ParsedAttr::AS_GNU, AttrNames<K>::GNU},
      {ParsedAttr::AS_C23, AttrNames<K>::Scoped},
      {ParsedAttr::AS_CXX11, AttrNames<K>::Scoped},
      {ParsedAttr::AS_C23, AttrNames<K>::Bare},
      {ParsedAttr::AS_CXX11, AttrNames<K>::Bare}};

public:
  ActiveTimeAttrInfo() {
    Spellings = S;
    // Clang itself diagnoses a wrong number of arguments.
    NumArgs = K == AtAttr::Region ? 1 : 0;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &Attr,
                            const Decl *D) const override {
    if ((Attr.isCXX11Attribute() || Attr.isC23Attribute()) &&
        !Attr.hasScope()) {
      S.Diag(Attr.getLoc(),
             S.getDiagnostics().getCustomDiagID(
                 DiagnosticsEngine::Warning,
                 "unknown attribute '%0' ignored; did you mean "
                 "'activetime::%0'?"))
          << AttrNames<K>::Bare;
      return false;
    }
    if (isa<FunctionDecl>(D))
      return true;
    S.Diag(Attr.getLoc(),
           S.getDiagnostics().getCustomDiagID(
               DiagnosticsEngine::Error,
               "'%0' attribute only applies to functions"))
        << Attr.getNormalizedFullName();
    return false;
  }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &Attr) const override {
    DiagnosticsEngine &DE = S.getDiagnostics();
    std::string Annotation;
    switch (K) {
    case AtAttr::NoInstrument:
      Annotation = kNoInstrumentAnnotation.str();
      break;
    case AtAttr::Instrument:
      Annotation = kInstrumentAnnotation.str();
      break;
    case AtAttr::Strides:
      Annotation = kStridesAnnotation.str();
      break;
    case AtAttr::Region:
      if (!regionAnnotation(S, D, Attr, Annotation))
        return AttributeNotApplied;
      break;
    }
    // Asking for and against instrumentation at once is a mistake.
    llvm::StringRef Opposite;
    if (K == AtAttr::NoInstrument)
      Opposite = kInstrumentAnnotation;
    else if (K == AtAttr::Instrument)
      Opposite = kNoInstrumentAnnotation;
    if (!Opposite.empty() && hasAnnotation(D, Opposite)) {
      S.Diag(Attr.getLoc(),
             DE.getCustomDiagID(DiagnosticsEngine::Error,
                                "'%0' attribute contradicts an earlier "
                                "activetime attribute of this function"))
          << Attr.getNormalizedFullName();
      return AttributeNotApplied;
    }
    if (!hasAnnotation(D, Annotation))
      D->addAttr(AnnotateAttr::Create(S.Context, Annotation, nullptr, 0,
                                      Attr.getRange()));
    return AttributeApplied;
  }
private:
  /// The annotation of region(name) in \p Annotation; false, with the error
  /// reported, if the argument is not a usable name or \p D already has
  /// another one.
  static bool regionAnnotation(Sema &S, const Decl *D, const ParsedAttr &Attr,
                               std::string &Annotation) {
    DiagnosticsEngine &DE = S.getDiagnostics();
    const StringLiteral *SL = nullptr;
    SourceLocation ArgLoc = Attr.getLoc();
    if (Attr.isArgExpr(0) && Attr.getArgAsExpr(0)) {
      ArgLoc = Attr.getArgAsExpr(0)->getBeginLoc();
      SL = dyn_cast<StringLiteral>(Attr.getArgAsExpr(0)->IgnoreParenCasts());
    } else if (Attr.isArgIdent(0)) {
      ArgLoc = activetime::compat::identifierLoc(*Attr.getArgAsIdent(0));
    }
    if (!SL || !SL->isOrdinary()) {
      S.Diag(ArgLoc, DE.getCustomDiagID(DiagnosticsEngine::Error,
                                        "argument of '%0' attribute must be "
                                        "a string literal"))
          << Attr.getNormalizedFullName();
      return false;
    }
    llvm::StringRef Name = SL->getString();
    if (Name.empty() || Name.contains('\0')) {
      S.Diag(ArgLoc, DE.getCustomDiagID(DiagnosticsEngine::Error,
                                        "region name must be non-empty and "
                                        "contain no NUL character"));
      return false;
    }
    Annotation = (kRegionAnnotationPrefix + Name).str();
    if (const AnnotateAttr *Old = findRegionAnnotation(D))
      if (Old->getAnnotation() != Annotation) {
        S.Diag(ArgLoc, DE.getCustomDiagID(DiagnosticsEngine::Error,
                                          "conflicting region names '%0' "
                                          "and '%1' for one function"))
            << Old->getAnnotation().drop_front(kRegionAnnotationPrefix.size())
            << Name;
        return false;
      }
    return true;
  }
};

ParsedAttrInfoRegistry::Add<ActiveTimeAttrInfo<AtAttr::NoInstrument>>
    RegNoInstrument("activetime_no_instrument",
                    "leave the function without ActiveTime probes");
ParsedAttrInfoRegistry::Add<ActiveTimeAttrInfo<AtAttr::Instrument>>
    RegInstrument("activetime_instrument",
                  "give the function ActiveTime probes whatever the lists and "
                  "size threshold say");
ParsedAttrInfoRegistry::Add<ActiveTimeAttrInfo<AtAttr::Region>>
    RegRegion("activetime_region",
              "report the function under the given region name");
ParsedAttrInfoRegistry::Add<ActiveTimeAttrInfo<AtAttr::Strides>>
    RegStrides("activetime_strides",
               "memory-access probes in the function's loops");
PragmaHandlerRegistry::Add<ActiveTimePragmaHandler>
    RegPragma("activetime", "#pragma activetime instrument/strides (on|off)");

//===----------------------------------------------------------------------===//
// Lowering what the pass cannot see
//===----------------------------------------------------------------------===//

// Walks a declaration (and what is nested in it: class members, namespace
// members, lambdas and local classes inside bodies, template patterns),
// annotates every function that carries no_instrument_function and applies
// the pragma ranges.
class AnnotateVisitor : public RecursiveASTVisitor<AnnotateVisitor> {
public:
  explicit AnnotateVisitor(ASTContext &Ctx) : Ctx(Ctx) {}

  // Implicit code holds lambda call operators and defaulted members; an
  // instantiation already present when its pattern is walked is cheap to
  // cover here as well (later ones arrive through the consumer on their own).
  bool shouldVisitImplicitCode() const { return true; }
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBody() const { return true; }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    annotate(FD);
    return true;
  }

  // The traversal enters a lambda's body but not its closure class, so the
  // call operator is never visited as a declaration. The static invoker
  // (used when the lambda decays to a function pointer) only forwards to the
  // operator; it follows the operator's choice.
  bool VisitLambdaExpr(LambdaExpr *LE) {
    CXXMethodDecl *Op = LE->getCallOperator();
    annotate(Op);
    if (!hasAnnotation(Op, kNoInstrumentAnnotation))
      return true;
    for (Decl *D : LE->getLambdaClass()->decls()) {
      if (auto *FTD = dyn_cast<FunctionTemplateDecl>(D))
        D = FTD->getTemplatedDecl();
      if (auto *MD = dyn_cast<CXXMethodDecl>(D))
        if (MD->isLambdaStaticInvoker())
          addAnnotation(MD, kNoInstrumentAnnotation);
    }
    return true;
  }

  void annotate(FunctionDecl *FD) {
    // The attribute is inheritable, so a definition sees one written on an
    // earlier declaration; each redeclaration is annotated on its own.
    if (FD->hasAttr<NoInstrumentFunctionAttr>())
      addAnnotation(FD, kNoInstrumentAnnotation);
    applyPragmas(FD);
  }

private:
  // The state of each pragma option at the function's name, in translation
  // unit order (so a header included inside an off range is off too).
  void applyPragmas(FunctionDecl *FD) {
    const std::vector<PragmaTransition> &Ts = pragmaTransitions();
    if (Ts.empty())
      return;
    SourceManager &SM = Ctx.getSourceManager();
    SourceLocation Loc = SM.getExpansionLoc(FD->getLocation());
    if (Loc.isInvalid())
      return;
    bool InstrumentOn = true, StridesOn = false;
    for (const PragmaTransition &T : Ts) {
      if (!SM.isBeforeInTranslationUnit(T.Loc, Loc))
        continue;
      (T.Option == PragmaOption::Instrument ? InstrumentOn : StridesOn) = T.On;
    }
    // An explicit [[activetime::instrument]] wins over the range.
    if (!InstrumentOn && !hasAnnotation(FD, kInstrumentAnnotation))
      addAnnotation(FD, kNoInstrumentAnnotation);
    if (StridesOn)
      addAnnotation(FD, kStridesAnnotation);
  }

  void addAnnotation(FunctionDecl *FD, llvm::StringRef Str) {
    if (hasAnnotation(FD, Str))
      return;
    FD->addAttr(
        AnnotateAttr::CreateImplicit(Ctx, Str, nullptr, 0, FD->getSourceRange()));
  }

  ASTContext &Ctx;
};

class ActiveTimeConsumer : public ASTConsumer {
public:
  explicit ActiveTimeConsumer(ASTContext &Ctx) : Visitor(Ctx) {}

  // Runs ahead of CodeGen's HandleTopLevelDecl for the same group. Sema also
  // hands each instantiated function definition (made at end of TU) here.
  bool HandleTopLevelDecl(DeclGroupRef DG) override {
    for (Decl *D : DG)
      Visitor.TraverseDecl(D);
    return true;
  }

  // Member functions defined in a class body are reported when the class is
  // complete, possibly before the class itself reaches HandleTopLevelDecl;
  // CodeGen may queue them for emission from here.
  void HandleInlineFunctionDefinition(FunctionDecl *FD) override {
    Visitor.TraverseDecl(FD);
  }

  // Instantiations copy the pattern's attributes, including ours, but one
  // whose pattern was never walked (e.g. declared in a way we did not reach)
  // is still caught here before CodeGen emits it.
  void HandleCXXImplicitFunctionInstantiation(FunctionDecl *FD) override {
    Visitor.annotate(FD);
  }

private:
  AnnotateVisitor Visitor;
};

class ActiveTimeAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    pragmaTransitions().clear();
    return std::make_unique<ActiveTimeConsumer>(CI.getASTContext());
  }

  // No options yet; -fplugin-arg-activetime-* is accepted and ignored.
  bool ParseArgs(const CompilerInstance &,
                 const std::vector<std::string> &) override {
    return true;
  }

  // Before the main action: loading with -fplugin= is enough, and our
  // consumer runs ahead of CodeGen's.
  ActionType getActionType() override { return AddBeforeMainAction; }
};

} // namespace

static FrontendPluginRegistry::Add<ActiveTimeAction>
    X("activetime", "lower ActiveTime source annotations for the pass");
