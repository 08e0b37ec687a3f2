//===- ActiveTimeStrides.cpp - Memory access sites and hint files ---------===//
//
// Part of ActiveTime.
//
//===----------------------------------------------------------------------===//
//
// Stride profiling's find phase, which both passes share, and the reader of
// the prefetch hint files that close its feedback loop.
//
// The passes run at OptimizerLast, after the loop optimizations and the
// vectorizers, so a probe can never stop a loop from being vectorized or
// unrolled; what they see is the final loop structure, and ScalarEvolution
// still proves most addresses of those loops affine. Only the accesses SCEV
// cannot describe as {start,+,constant} in their innermost loop get a probe.
//
// The hint file (docs/user-guide.md, "Prefetch feedback") is JSON:
//   {"format": "activetime-prefetch-hints", "version": 1,
//    "hints": [{"module", "function", "file", "line", "column", "hash",
//               "access_size", "stride", "distance_bytes", ...}]}
// Its reader lives here rather than with the prefetch-use pass so that the
// fuzzer (fuzz/hints_fuzzer.cpp) builds it without either pass.
//
//===----------------------------------------------------------------------===//

#include "ActiveTimeStrides.h"
#include "activetime/abi.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#include <map>
#include <optional>
#include <tuple>

using namespace llvm;
using namespace activetime;

#define DEBUG_TYPE "activetime"

static cl::opt<bool> ClStrides(
    "activetime-strides",
    cl::desc("Stride profiling: give loads and stores whose stride the "
             "compiler cannot see a memory-access probe (see "
             "-activetime-mem)"),
    cl::init(false));

static cl::opt<MemMode> ClMem(
    "activetime-mem",
    cl::desc("Which loads and stores get memory-access probes (default: "
             "loops with -activetime-strides, else none)"),
    cl::values(clEnumValN(MemMode::None, "none", "no memory probes"),
               clEnumValN(MemMode::Loops, "loops", "accesses inside loops"),
               clEnumValN(MemMode::All, "all", "every access")),
    cl::init(MemMode::None));

STATISTIC(NumMemProbeSites, "Number of memory access sites given a probe");
STATISTIC(NumStaticSites, "Number of memory access sites with a static stride");
STATISTIC(NumSharedProbeSites,
          "Number of dynamic sites measured by another site's probe");

MemMode activetime::getMemMode() {
  if (ClMem.getNumOccurrences())
    return ClMem;
  return ClStrides ? MemMode::Loops : MemMode::None;
}

bool MemSite::isStatic() const { return Flags & abi::MS_Static; }
bool MemSite::isLoad() const { return !(Flags & abi::MS_Store); }
bool MemSite::inLoop() const { return Flags & abi::MS_InLoop; }

std::string activetime::locationFile(const DILocation *DL) {
  StringRef Filename = DL->getFilename();
  StringRef Directory = DL->getDirectory();
  if (Filename.empty() || Directory.empty() ||
      sys::path::is_absolute(Filename))
    return Filename.str();
  return (Directory + "/" + Filename).str();
}

namespace {
/// A load or store, as far as a site is concerned.
struct Access {
  Value *Ptr;
  Type *Ty;
  bool Store;
};
} // namespace

static std::optional<Access> getAccess(Instruction &I) {
  if (auto *Load = dyn_cast<LoadInst>(&I))
    return Access{Load->getPointerOperand(), Load->getType(), false};
  if (auto *Store = dyn_cast<StoreInst>(&I))
    return Access{Store->getPointerOperand(),
                  Store->getValueOperand()->getType(), true};
  return std::nullopt;
}

/// Marks \p Site as inside \p L, and as static when its address \p S is
/// {start,+,constant} in L itself: the stride is known at compile time.
static void setLoop(MemSite &Site, Loop *L, const SCEV *S,
                    ScalarEvolution &SE) {
  Site.Flags |= abi::MS_InLoop;
  Site.LoopDepth = L->getLoopDepth();
  Site.LoopLine = L->getStartLoc() ? L->getStartLoc().getLine() : 0;
  auto *AR = dyn_cast<SCEVAddRecExpr>(S);
  if (!AR || AR->getLoop() != L || !AR->isAffine())
    return;
  auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
  if (!Step || Step->getAPInt().getSignificantBits() > 64)
    return;
  Site.Flags |= abi::MS_Static;
  Site.StaticStride = Step->getAPInt().getSExtValue();
}

/// The key of a site across compiles of the same source: where the access is
/// in the source and what it does, and \p Copy, which of the copies of one
/// source access (unrolling, inlining) it is.
static uint64_t siteKey(const MemSite &Site, bool Store, unsigned Copy) {
  SmallString<256> Key;
  raw_svector_ostream(Key) << Site.Func << '\0' << Site.File << '\0'
                           << Site.Line << ':' << Site.Column << '\0'
                           << Site.Size << (Store ? 'S' : 'L') << '\0'
                           << Copy;
  return xxh3_64bits(Key.str());
}

/// Sites \p A and \p B could be copies of one source access: the same
/// location, size and kind, in the same innermost loop.
static bool sameSourceAccess(const MemSite &A, const MemSite &B) {
  return A.InnerLoop && A.InnerLoop == B.InnerLoop && A.Line && 
         A.Line == B.Line && A.Column == B.Column && A.File == B.File &&
         A.Size == B.Size && (A.Flags & abi::MS_Store) == (B.Flags & abi::MS_Store);
}

/// Sites \p A and \p B are inlined at the same call (or neither is): two
/// inlined calls of one function share the callee's locations but are not
/// copies of one access.
static bool sameInlining(const MemSite &A, const MemSite &B) {
  return A.Access->getDebugLoc().getInlinedAt() ==
         B.Access->getDebugLoc().getInlinedAt();
}

/// Groups the copies of one source access among Sites[First..]: a loop
/// unrolled n times has n sites at one location whose addresses differ by
/// constants (SCEV proves it: {a+56,+,224} - {a,+,224} = 56), which the tool
/// folds back into one row. The group's id is its first site's index in the
/// module's table plus 1, so it is unique in the module without renumbering.
///
/// Copies whose difference SCEV cannot fold to a constant (a[idx[i]] and
/// a[idx[i+1]], p[i]->v and p[i+1]->v) may still be an unrolled stride at
/// run time. The dynamic ones left over form an unproven group
/// (MS_CopyUnproven) in instruction order, each naming the copy before it
/// (CopyPrev), against which the runtime measures its offset; the tool folds
/// the group only if those offsets prove constant steps of the stride.
static void groupCopies(std::vector<MemSite> &Sites, size_t First,
                        ScalarEvolution &SE) {
  for (size_t I = First; I < Sites.size(); ++I) {
    MemSite &Lead = Sites[I];
    if (Lead.CopyGroup || !Lead.AddrSCEV)
      continue;
    for (size_t J = I + 1; J < Sites.size(); ++J) {
      MemSite &C = Sites[J];
      if (C.CopyGroup || !C.AddrSCEV || !sameSourceAccess(Lead, C))
        continue;
      auto *D = dyn_cast<SCEVConstant>(SE.getMinusSCEV(C.AddrSCEV, Lead.AddrSCEV));
      if (!D || D->getAPInt().getSignificantBits() > 64)
        continue;
      Lead.CopyGroup = C.CopyGroup = uint32_t(I + 1);
      C.CopyOffset = D->getAPInt().getSExtValue();
    }
  }
  // Static sites have an exact stride already; a static one SCEV cannot
  // relate to its namesakes is another access, not a copy to measure.
  for (size_t I = First; I < Sites.size(); ++I) {
    MemSite &Lead = Sites[I];
    if (Lead.CopyGroup || !Lead.AddrSCEV || Lead.isStatic())
      continue;
    size_t Prev = I;
    for (size_t J = I + 1; J < Sites.size(); ++J) {
      MemSite &C = Sites[J];
      if (C.CopyGroup || !C.AddrSCEV || C.isStatic() ||
          !sameSourceAccess(Lead, C) || !sameInlining(Lead, C))
        continue;
      Lead.CopyGroup = C.CopyGroup = uint32_t(I + 1);
      Lead.Flags |= abi::MS_CopyUnproven;
      C.Flags |= abi::MS_CopyUnproven;
      C.CopyPrev = uint32_t(Prev + 1);
      Prev = J;
    }
  }
}

/// How many of a block's latest probed sites a site is compared with: the
/// lead is nearly always among a few (the fields of one structure), and
/// this bounds the SCEV subtractions in the largest blocks.
static constexpr unsigned kLeadCandidates = 16;

/// Every execution of \p From reaches \p To, later in its block.
static bool alwaysReaches(const Instruction *From, const Instruction *To) {
  for (auto It = From->getIterator(); &*It != To; ++It)
    if (!isGuaranteedToTransferExecutionToSuccessor(&*It))
      return false;
  return true;
}

/// Gives each dynamic site of Sites[First..] a probe lead where one exists
/// (MemSite::ProbeLead): an earlier probed site of its block at a constant
/// offset that always reaches it. The fields of one structure (p->a, p->b)
/// and a loop's unrolled copies then pay for one probe. An unproven copy
/// keeps its own: the runtime measures its offset from its previous copy at
/// its own probe.
static void shareProbes(std::vector<MemSite> &Sites, size_t First,
                        ScalarEvolution &SE, MemSiteCounts &Counts) {
  const BasicBlock *Block = nullptr;
  SmallVector<size_t, kLeadCandidates> Probed; // this block's, latest last
  for (size_t I = First; I < Sites.size(); ++I) {
    MemSite &C = Sites[I];
    if (C.isStatic())
      continue;
    if (C.Access->getParent() != Block) {
      Block = C.Access->getParent();
      Probed.clear();
    }
    if (!(C.Flags & abi::MS_CopyUnproven))
      for (size_t J : llvm::reverse(Probed)) {
        const MemSite &L = Sites[J];
        auto *D =
            dyn_cast<SCEVConstant>(SE.getMinusSCEV(C.AddrSCEV, L.AddrSCEV));
        if (!D || D->getAPInt().getSignificantBits() > 64 ||
            !alwaysReaches(L.Access, C.Access))
          continue;
        C.ProbeLead = uint32_t(J + 1);
        C.LeadOffset = D->getAPInt().getSExtValue();
        ++Counts.SharedProbe;
        ++NumSharedProbeSites;
        break;
      }
    if (C.ProbeLead)
      continue;
    if (Probed.size() == kLeadCandidates)
      Probed.erase(Probed.begin());
    Probed.push_back(I);
  }
}

void activetime::findMemSites(Function &F, ScalarEvolution &SE, LoopInfo &LI,
                              MemMode Mode, std::vector<MemSite> &Sites,
                              MemSiteCounts &Counts) {
  size_t FirstSite = Sites.size();
  const DataLayout &DLay = F.getParent()->getDataLayout();
  // Copies of one source access (unrolling, inlining) share a location: the
  // n-th copy in instruction order keys them apart.
  std::map<std::tuple<std::string, uint32_t, uint32_t, uint32_t, bool>,
           unsigned>
      Copies;
  StringRef FuncName = GlobalValue::dropLLVMManglingEscape(F.getName());
  for (Instruction &I : instructions(F)) {
    std::optional<Access> A = getAccess(I);
    if (!A || A->Ptr->getType()->getPointerAddressSpace() != 0 ||
        !A->Ty->isSized() || DLay.getTypeStoreSize(A->Ty).isScalable())
      continue;
    // The key is computed before any filtering, over every load and store,
    // so it does not depend on the mode or on what SCEV proves.
    MemSite Site;
    Site.Size = uint32_t(DLay.getTypeStoreSize(A->Ty).getFixedValue());
    if (const DILocation *DL = I.getDebugLoc().get()) {
      Site.File = locationFile(DL);
      Site.Line = DL->getLine();
      Site.Column = DL->getColumn();
    }
    unsigned Copy =
        Copies[{Site.File, Site.Line, Site.Column, Site.Size, A->Store}]++;

    Loop *L = LI.getLoopFor(I.getParent());
    if (!L && Mode != MemMode::All)
      continue;
    if (isa<AllocaInst>(getUnderlyingObject(A->Ptr))) {
      ++Counts.Stack;
      continue;
    }
    const SCEV *S = SE.getSCEV(A->Ptr);
    if ((L && SE.isLoopInvariant(S, L)) || isa<SCEVConstant>(S) ||
        isa<GlobalValue>(A->Ptr->stripPointerCasts())) {
      ++Counts.Invariant;
      continue;
    }
    Site.Access = &I;
    Site.Ptr = A->Ptr;
    Site.Func = FuncName.str();
    Site.Flags = A->Store ? abi::MS_Store : 0;
    if (L)
      setLoop(Site, L, S, SE);
    Site.Hash = siteKey(Site, A->Store, Copy);
    Site.AddrSCEV = S;
    Site.InnerLoop = L;
    if (Site.isStatic())
      ++NumStaticSites;
    else
      ++NumMemProbeSites;
    Sites.push_back(std::move(Site));
  }
  groupCopies(Sites, FirstSite, SE);
  shareProbes(Sites, FirstSite, SE, Counts);
}

void activetime::findMemSites(Function &F, FunctionAnalysisManager &FAM,
                              MemMode Mode, std::vector<MemSite> &Sites,
                              MemSiteCounts &Counts) {
  findMemSites(F, FAM.getResult<ScalarEvolutionAnalysis>(F),
               FAM.getResult<LoopAnalysis>(F), Mode, Sites, Counts);
}

void activetime::printSiteCounts(raw_ostream &OS, size_t NumSites,
                                 const MemSiteCounts &Counts) {
  OS << "activetime: " << NumSites << " memory sites, " << Counts.Invariant
     << " loop-invariant and " << Counts.Stack
     << " stack accesses left out, " << Counts.SharedProbe
     << " measured by another site's probe\n";
}

//===----------------------------------------------------------------------===//
// Prefetch hint files
//===----------------------------------------------------------------------===//

Expected<std::vector<PrefetchHint>>
activetime::readPrefetchHints(StringRef Path) {
  auto Buf = MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return createStringError(Buf.getError(), Path + ": " +
                                                 Buf.getError().message());
  return parsePrefetchHints((*Buf)->getBuffer(), Path);
}

Expected<std::vector<PrefetchHint>>
activetime::parsePrefetchHints(StringRef Text, StringRef Path) {
  using namespace llvm;
  Expected<json::Value> V = json::parse(Text);
  if (!V)
    return createStringError(inconvertibleErrorCode(),
                             Path + ": " + toString(V.takeError()));
  const json::Object *O = V->getAsObject();
  if (!O || O->getString("format") != "activetime-prefetch-hints")
    return createStringError(inconvertibleErrorCode(),
                             Path + ": not an ActiveTime prefetch hint file");
  // Version 1 has stride hints only; 2 adds indirect ones and says where
  // the latency came from.
  std::optional<int64_t> Version = O->getInteger("version");
  if (Version != 1 && Version != 2)
    return createStringError(inconvertibleErrorCode(),
                             Path + ": unsupported hint file version");
  std::string LatencySource;
  if (const json::Object *Lat = O->getObject("latency"))
    if (std::optional<StringRef> Src = Lat->getString("source"))
      LatencySource = Src->str();
  const json::Array *A = O->getArray("hints");
  if (!A)
    return createStringError(inconvertibleErrorCode(),
                             Path + ": no \"hints\" array");
  std::optional<double> LatencyNs = O->getNumber("latency_ns");
  std::vector<PrefetchHint> Hints;
  for (size_t I = 0; I < A->size(); ++I) {
    const json::Object *H = (*A)[I].getAsObject();
    PrefetchHint R;
    std::optional<StringRef> Mod, Fn, File, HashStr;
    std::optional<int64_t> Line, Col, Size, Stride, Dist;
    if (H) {
      Mod = H->getString("module");
      Fn = H->getString("function");
      File = H->getString("file");
      HashStr = H->getString("hash");
      Line = H->getInteger("line");
      Col = H->getInteger("column");
      Size = H->getInteger("access_size");
      Stride = H->getInteger("stride");
      Dist = H->getInteger("distance_bytes");
    }
    if (!H || !Mod || !Fn || !File || !HashStr || !Line || !Col || !Size ||
        !Stride || !Dist || HashStr->getAsInteger(0, R.Hash) || *Line < 0 ||
        *Col < 0 || *Size <= 0)
      return createStringError(
          inconvertibleErrorCode(),
          formatv("{0}: hint {1}: missing or malformed field", Path, I));
    R.Module = Mod->str();
    R.Function = Fn->str();
    R.File = File->str();
    R.Line = *Line;
    R.Column = *Col;
    R.Size = *Size;
    R.Stride = *Stride;
    R.Distance = *Dist;
    // How the distance was chosen: optional, for the decisions' printout.
    R.Iterations = H->getInteger("distance_iterations");
    R.WorkNs = H->getNumber("work_ns");
    R.LatencyNs = LatencyNs;
    R.LatencySource = LatencySource;
    std::optional<StringRef> Kind = H->getString("kind");
    R.Indirect = Kind == "indirect";
    if ((Kind && *Kind != "stride" && !R.Indirect) ||
        (R.Indirect && (!R.Iterations || *R.Iterations <= 0 ||
                        *R.Iterations > (1 << 16))))
      return createStringError(
          inconvertibleErrorCode(),
          formatv("{0}: hint {1}: bad kind or indirect distance", Path, I));
    Hints.push_back(std::move(R));
  }
  return Hints;
}
