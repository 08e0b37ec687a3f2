//===- ActiveTimeClang.cpp - Clang front-end plugin for ActiveTime --------===//
//
// Part of ActiveTime. Loaded with -fplugin=ActiveTimeClang.so next to the pass
// plugin (-fpass-plugin=ActiveTime.so).
//
// Clang honours __attribute__((no_instrument_function)) only for its own
// -finstrument-functions; the attribute leaves no trace in the IR, so the
// pass cannot see it. This plugin lowers it to something that survives
// CodeGen: an implicit annotate("activetime.no_instrument") attribute, which
// clang emits into @llvm.global.annotations, where the pass looks for it.
//
// The action runs before the main action (AddBeforeMainAction), so its
// consumer sees every declaration before CodeGen's consumer does.
//
//===----------------------------------------------------------------------===//

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclGroup.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>
#include <vector>

using namespace clang;

namespace {

// Must match what the pass looks for in @llvm.global.annotations.
constexpr llvm::StringLiteral kNoInstrumentAnnotation =
    "activetime.no_instrument";

bool hasOurAnnotation(const FunctionDecl *FD) {
  for (const auto *A : FD->specific_attrs<AnnotateAttr>())
    if (A->getAnnotation() == kNoInstrumentAnnotation)
      return true;
  return false;
}

// Walks a declaration (and what is nested in it: class members, namespace
// members, lambdas and local classes inside bodies, template patterns) and
// annotates every function that carries no_instrument_function.
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
    if (!Op->hasAttr<NoInstrumentFunctionAttr>())
      return true;
    addAnnotation(Op);
    for (Decl *D : LE->getLambdaClass()->decls()) {
      if (auto *FTD = dyn_cast<FunctionTemplateDecl>(D))
        D = FTD->getTemplatedDecl();
      if (auto *MD = dyn_cast<CXXMethodDecl>(D))
        if (MD->isLambdaStaticInvoker())
          addAnnotation(MD);
    }
    return true;
  }

  void annotate(FunctionDecl *FD) {
    // The attribute is inheritable, so a definition sees one written on an
    // earlier declaration; each redeclaration is annotated on its own.
    if (FD->hasAttr<NoInstrumentFunctionAttr>())
      addAnnotation(FD);
  }

private:
  void addAnnotation(FunctionDecl *FD) {
    if (hasOurAnnotation(FD))
      return;
    FD->addAttr(AnnotateAttr::CreateImplicit(Ctx, kNoInstrumentAnnotation,
                                             nullptr, 0,
                                             FD->getSourceRange()));
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
    X("activetime", "lower no_instrument_function for the ActiveTime pass");
