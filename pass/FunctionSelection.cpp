//===- FunctionSelection.cpp - The functions ActiveTime works on ----------===//
//
// Part of ActiveTime.
//
//===----------------------------------------------------------------------===//
//
// Decides, function by function, whether a function gets probes and, if not,
// records why: declarations, naked functions, the runtime itself, opt-outs
// through attributes, annotations or the user's function list, tiny leaves
// below the size threshold.
//
// The source-level requests arrive as entries of @llvm.global.annotations
// (include/activetime/annotations.h). They are read once and removed, so
// that they do not keep alive a function the optimizer inlined everywhere.
//
//===----------------------------------------------------------------------===//

#include "FunctionSelection.h"
#include "activetime/abi.h"
#include "activetime/annotations.h"
#include "activetime/llvm_compat.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SpecialCaseList.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <utility>

using namespace llvm;
using namespace activetime;
namespace ann = activetime::annotations;

#define DEBUG_TYPE "activetime"

static cl::opt<std::string> ClListFile(
    "activetime-list",
    cl::desc("Special case list selecting the functions to instrument: "
             "[allow] and [deny] sections with fun:GLOB and src:GLOB entries"),
    cl::value_desc("filename"), cl::init(""));

static cl::opt<unsigned> ClMinSize(
    "activetime-min-size",
    cl::desc("Do not instrument leaf functions (no calls other than to "
             "intrinsics) with fewer than this many IR instructions; "
             "0 instruments every function"),
    cl::init(0));

static cl::opt<bool> ClPrintDecisions(
    "activetime-print-decisions",
    cl::desc("Print to stderr, for each function, whether it is instrumented "
             "and if not, why"),
    cl::Hidden, cl::init(false));

STATISTIC(NumSkipped, "Number of function definitions not instrumented");

bool activetime::printDecisions() { return ClPrintDecisions; }

std::string activetime::getSourceFile(const Function &F) {
  const DISubprogram *SP = F.getSubprogram();
  if (!SP)
    return "";
  StringRef Filename = SP->getFilename();
  StringRef Directory = SP->getDirectory();
  if (Filename.empty() || Directory.empty() ||
      sys::path::is_absolute(Filename))
    return Filename.str();
  return (Directory + "/" + Filename).str();
}

namespace activetime {

/// The user's function list (-activetime-list), a SpecialCaseList with
/// [deny] and [allow] sections holding fun: and src: entries. Entries above
/// any section header act as deny entries.
class FunctionList : public SpecialCaseList {
public:
  static std::unique_ptr<FunctionList> create(StringRef Path,
                                              std::string &Error) {
    std::unique_ptr<FunctionList> List(new FunctionList());
    if (!List->createInternal({Path.str()}, *vfs::getRealFileSystem(), Error))
      return nullptr;
    // An allow list changes the default from "everything" to "nothing", so
    // it matters whether one is present at all, not just whether it matches.
    for (const auto &S : ACTIVETIME_SCL_SECTIONS(List))
      if (activetime::compat::isNonEmptyAllowSection(S))
        List->HasAllowEntries = true;
    return List;
  }

  bool hasAllowEntries() const { return HasAllowEntries; }

  /// Whether any of \p FunNames or \p SrcNames is listed in \p Section.
  bool contains(StringRef Section, ArrayRef<StringRef> FunNames,
                ArrayRef<StringRef> SrcNames) const {
    for (StringRef Name : FunNames)
      if (inSection(Section, "fun", Name))
        return true;
    for (StringRef Src : SrcNames)
      if (!Src.empty() && inSection(Section, "src", Src))
        return true;
    return false;
  }

private:
  FunctionList() = default;
  bool HasAllowEntries = false;
};

} // namespace activetime

std::unique_ptr<FunctionSelection> FunctionSelection::create(Module &M) {
  std::unique_ptr<FunctionList> List;
  if (!ClListFile.empty()) {
    std::string Error;
    List = FunctionList::create(ClListFile, Error);
    if (!List) {
      M.getContext().emitError("activetime: cannot use -activetime-list=" +
                               ClListFile + ": " + Error);
      return nullptr;
    }
  }
  return std::unique_ptr<FunctionSelection>(
      new FunctionSelection(M, std::move(List)));
}

FunctionSelection::FunctionSelection(Module &M,
                                     std::unique_ptr<FunctionList> List)
    : M(M), List(std::move(List)) {}

FunctionSelection::~FunctionSelection() = default;

const std::string *
FunctionSelection::regionName(const Function &F) const {
  auto It = RegionNames.find(&F);
  return It == RegionNames.end() ? nullptr : &It->second;
}

bool FunctionSelection::select() {
  collectAnnotations();
  bool Changed = dropOurAnnotations();
  for (Function &F : M) {
    Decision D = decide(F);
    if (D.Instrument)
      Selected.push_back(&F);
    else if (!F.isDeclaration())
      ++NumSkipped;
    if (ClPrintDecisions)
      printDecision(F, D);
  }
  return Changed;
}

void FunctionSelection::printDecision(const Function &F,
                                      const Decision &D) const {
  if (!D.Instrument) {
    errs() << "activetime: skip " << F.getName() << ": " << D.SkipReason
           << "\n";
    return;
  }
  errs() << "activetime: instrument " << F.getName();
  if (const std::string *Region = regionName(F))
    errs() << " as region '" << *Region << "'";
  if (wantsStrides(F))
    errs() << " with strides";
  errs() << "\n";
}

//===----------------------------------------------------------------------===//
// Source annotations
//===----------------------------------------------------------------------===//

/// The function and the string of an entry { fn, string, file, line, args }
/// of llvm.global.annotations, if it has both.
static std::optional<std::pair<Function *, StringRef>>
readAnnotation(const Constant *Entry) {
  if (!isa<ConstantStruct>(Entry) || Entry->getNumOperands() < 2)
    return std::nullopt;
  auto *Fn = dyn_cast<Function>(Entry->getOperand(0)->stripPointerCasts());
  auto *StrGV =
      dyn_cast<GlobalVariable>(Entry->getOperand(1)->stripPointerCasts());
  if (!Fn || !StrGV || !StrGV->hasInitializer())
    return std::nullopt;
  auto *Data = dyn_cast<ConstantDataSequential>(StrGV->getInitializer());
  if (!Data || !Data->isString())
    return std::nullopt;
  StringRef Str =
      Data->isCString() ? Data->getAsCString() : Data->getAsString();
  return std::make_pair(Fn, Str);
}

static ConstantArray *getAnnotations(Module &M, GlobalVariable *&GA) {
  GA = M.getGlobalVariable("llvm.global.annotations");
  if (!GA || !GA->hasInitializer())
    return nullptr;
  return dyn_cast<ConstantArray>(GA->getInitializer());
}

void FunctionSelection::collectAnnotations() {
  // Clang drops __attribute__((no_instrument_function)) before IR; our clang
  // plugin re-expresses it as an annotate attribute, which clang lowers into
  // an entry of llvm.global.annotations.
  GlobalVariable *GA;
  ConstantArray *Entries = getAnnotations(M, GA);
  if (!Entries)
    return;
  for (const Use &U : Entries->operands()) {
    auto Entry = readAnnotation(cast<Constant>(U.get()));
    if (!Entry)
      continue;
    auto [Fn, Str] = *Entry;
    if (Str == ann::kNoInstrument)
      AnnotatedNoInstrument.insert(Fn);
    else if (Str == ann::kInstrument)
      AnnotatedInstrument.insert(Fn);
    else if (Str == ann::kStrides)
      AnnotatedStrides.insert(Fn);
    else if (Str.starts_with(ann::kRegionPrefix) &&
             Str.size() > strlen(ann::kRegionPrefix))
      RegionNames[Fn] = Str.drop_front(strlen(ann::kRegionPrefix)).str();
  }
}

/// Replaces llvm.global.annotations (\p GA) by one holding only \p Kept.
static void replaceAnnotations(Module &M, GlobalVariable *GA,
                               ArrayRef<Constant *> Kept) {
  if (Kept.empty()) {
    GA->eraseFromParent();
    return;
  }
  auto *OldTy = cast<ArrayType>(GA->getValueType());
  auto *Ty = ArrayType::get(OldTy->getElementType(), Kept.size());
  auto *NewGA = new GlobalVariable(M, Ty, GA->isConstant(), GA->getLinkage(),
                                   ConstantArray::get(Ty, Kept), "", GA,
                                   GA->getThreadLocalMode());
  NewGA->setSection(GA->getSection());
  NewGA->takeName(GA);
  GA->eraseFromParent();
}

bool FunctionSelection::isAnnotated(const Function *F) const {
  return AnnotatedNoInstrument.contains(F) || AnnotatedInstrument.contains(F) ||
         AnnotatedStrides.contains(F) || RegionNames.count(F);
}

/// Our annotations are read; remove them so they do not keep alive a function
/// that was inlined everywhere (llvm.global.annotations is a use of it).
bool FunctionSelection::dropOurAnnotations() {
  if (AnnotatedNoInstrument.empty() && AnnotatedInstrument.empty() &&
      AnnotatedStrides.empty() && RegionNames.empty())
    return false;
  GlobalVariable *GA;
  ConstantArray *Entries = getAnnotations(M, GA);
  if (!Entries)
    return false;
  SmallVector<Constant *, 16> Kept;
  SmallPtrSet<Function *, 8> Dropped;
  for (const Use &U : Entries->operands()) {
    auto *Entry = cast<Constant>(U.get());
    auto Read = readAnnotation(Entry);
    if (Read && isAnnotated(Read->first) &&
        Read->second.starts_with(ann::kPrefix)) {
      Dropped.insert(Read->first);
      continue;
    }
    Kept.push_back(Entry);
  }
  if (Kept.size() == Entries->getNumOperands())
    return false;
  replaceAnnotations(M, GA, Kept);
  forgetErased(SmallVector<Function *, 8>(Dropped.begin(), Dropped.end()));
  return true;
}

/// Erases the functions in \p Dropped that only their annotations kept
/// alive, and forgets what the annotations said about them.
void FunctionSelection::forgetErased(ArrayRef<Function *> Dropped) {
  for (Function *Fn : Dropped) {
    Fn->removeDeadConstantUsers();
    if (Fn->use_empty() && Fn->isDiscardableIfUnused()) {
      AnnotatedNoInstrument.erase(Fn);
      AnnotatedInstrument.erase(Fn);
      AnnotatedStrides.erase(Fn);
      RegionNames.erase(Fn);
      Fn->eraseFromParent();
    }
  }
}

//===----------------------------------------------------------------------===//
// Decisions
//===----------------------------------------------------------------------===//

/// A leaf is tiny when it has fewer than \p MinSize real instructions and no
/// calls: the probes would cost more than the body, and with no callees the
/// time spent in it is not hidden from anyone (it stays in its caller).
static bool isTinyLeaf(const Function &F, unsigned MinSize) {
  unsigned Count = 0;
  for (const Instruction &I : instructions(F)) {
    if (I.isDebugOrPseudoInst())
      continue;
    if (const auto *CB = dyn_cast<CallBase>(&I))
      if (!isa<IntrinsicInst>(CB) && !CB->isInlineAsm())
        return false;
    if (++Count >= MinSize)
      return false;
  }
  return true;
}

Decision FunctionSelection::decide(Function &F) const {
  // Structural reasons: there is no body we may touch.
  if (F.isDeclaration())
    return Decision::skip("declaration");
  if (F.hasAvailableExternallyLinkage())
    // The body is a copy for the optimizer; the real one is emitted (and
    // instrumented) elsewhere.
    return Decision::skip("available_externally");
  StringRef Name = F.getName();
  if (Name.starts_with(abi::kRuntimePrefix))
    return Decision::skip("runtime function");
  // Prefix match: LTO may rename our internal constructors when it merges
  // modules.
  if (Name.starts_with(abi::kModuleCtorName) ||
      Name.starts_with(abi::kModuleDtorName))
    return Decision::skip("module constructor/destructor");
  if (F.hasFnAttribute(Attribute::Naked))
    // No prologue: a call would clobber the state the body relies on.
    return Decision::skip("naked");
  if (F.hasFnAttribute(Attribute::DisableSanitizerInstrumentation))
    return Decision::skip("disable_sanitizer_instrumentation");

  // Explicit opt-outs win over opt-ins.
  if (F.hasFnAttribute(ann::kNoInstrumentAttr))
    return Decision::skip("activetime-no-instrument attribute");
  if (AnnotatedNoInstrument.contains(&F))
    return Decision::skip("activetime.no_instrument annotation");

  // Forced functions bypass the list and the size threshold. Naming a
  // function as a region or asking for its strides is asking for it too.
  if (F.hasFnAttribute(ann::kInstrumentAttr) ||
      AnnotatedInstrument.contains(&F) || RegionNames.count(&F) ||
      AnnotatedStrides.contains(&F))
    return Decision::instrument();

  bool Allowed = false;
  if (List) {
    StringRef LinkageName = GlobalValue::dropLLVMManglingEscape(Name);
    std::string Demangled = demangle(LinkageName);
    std::string FnFile = getSourceFile(F);
    StringRef FunNames[] = {LinkageName, Demangled};
    StringRef SrcNames[] = {M.getSourceFileName(), FnFile};
    if (List->contains("deny", FunNames, SrcNames))
      return Decision::skip("denied by list");
    if (List->hasAllowEntries()) {
      if (!List->contains("allow", FunNames, SrcNames))
        return Decision::skip("not in allow list");
      Allowed = true;
    }
  }

  // Being explicitly allowed by name overrides the threshold.
  if (!Allowed && ClMinSize > 0 && isTinyLeaf(F, ClMinSize))
    return Decision::skip("tiny leaf below -activetime-min-size");

  return Decision::instrument();
}
