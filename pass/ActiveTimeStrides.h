//===- ActiveTimeStrides.h - Memory access sites and hint files -*- C++ -*-===//
//
// Part of ActiveTime.
//
//===----------------------------------------------------------------------===//
//
// Stride profiling support shared by the passes: finding the loads and stores
// that get a memory-access probe (or a static stride in the site table), and
// reading the prefetch hint files `activetime export --format=prefetch`
// writes, which ActiveTimePrefetchUsePass applies.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PASS_ACTIVETIMESTRIDES_H
#define ACTIVETIME_PASS_ACTIVETIMESTRIDES_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace activetime {

enum class MemMode { None, Loops, All };

/// -activetime-mem, defaulting to Loops when -activetime-strides is given.
MemMode getMemMode();

/// One load or store of the site table (abi::MemSiteDesc).
struct MemSite {
  llvm::Instruction *Access = nullptr;
  llvm::Value *Ptr = nullptr;
  std::string Func;         // linkage name of the containing function
  std::string File;         // source file of the access's debug location
  uint32_t Line = 0;
  uint32_t Column = 0;
  uint32_t Size = 0;        // bytes
  uint32_t Flags = 0;       // abi::MemSiteFlags
  int64_t StaticStride = 0; // MS_Static only
  uint32_t LoopLine = 0;
  uint32_t LoopDepth = 0;
  uint64_t Hash = 0;        // key of the site across compiles of the source
  /// Copies of one source access (unrolling): sites of one innermost loop
  /// with the same debug location, size and kind whose addresses SCEV
  /// proves to differ by constants share a group (1-based within the
  /// function's sites as found; renumbered per module by the caller), with
  /// their byte offset from the group's first site. 0: no other copy.
  uint32_t CopyGroup = 0;
  int64_t CopyOffset = 0;
  /// Unproven copies (abi::MS_CopyUnproven: same location, size and kind in
  /// one innermost loop, dynamic, offsets SCEV cannot prove, CopyOffset 0):
  /// 1 + the module-local index of the group's previous copy in instruction
  /// order, 0 for the first. The runtime measures the offset from it.
  uint32_t CopyPrev = 0;
  /// A dynamic site measured by another's probe: 1 + the module-local
  /// index of an earlier site of the same basic block, with a probe of its
  /// own, whose address is always LeadOffset bytes below this one's (SCEV
  /// proves the constant difference) and whose every execution reaches this
  /// one (nothing between them may leave the block). Both then see the same
  /// differences in the same iterations: the runtime reports the lead's
  /// figures for it. 0: its own probe, or static.
  uint32_t ProbeLead = 0;
  int64_t LeadOffset = 0;
  const llvm::SCEV *AddrSCEV = nullptr; // find phase only
  llvm::Loop *InnerLoop = nullptr;      // find phase only
  bool isStatic() const;
  bool isLoad() const;
  bool inLoop() const;
};

struct MemSiteCounts {
  unsigned Invariant = 0;   // loop-invariant addresses: no site
  unsigned Stack = 0;       // addresses of allocas: no site
  unsigned SharedProbe = 0; // dynamic sites measured by another's probe
};

/// Find phase: the sites of \p F in instruction order. Static sites (affine
/// with a constant step in the innermost loop) carry their stride and get no
/// probe; loop-invariant and stack addresses are left out.
void findMemSites(llvm::Function &F, llvm::ScalarEvolution &SE,
                  llvm::LoopInfo &LI, MemMode Mode,
                  std::vector<MemSite> &Sites, MemSiteCounts &Counts);
/// The same, with ScalarEvolution and LoopInfo from \p FAM.
void findMemSites(llvm::Function &F, llvm::FunctionAnalysisManager &FAM,
                  MemMode Mode, std::vector<MemSite> &Sites,
                  MemSiteCounts &Counts);
/// The source file of \p DL as sites name it ("dir/file" unless the file
/// name is absolute or either is empty).
std::string locationFile(const llvm::DILocation *DL);

/// The find phase's summary for -activetime-print-decisions.
void printSiteCounts(llvm::raw_ostream &OS, size_t NumSites,
                     const MemSiteCounts &Counts);

/// One prefetch hint of the file `activetime export --format=prefetch`
/// writes (format in docs/user-guide.md).
struct PrefetchHint {
  std::string Module, Function, File;
  uint64_t Line = 0, Column = 0, Hash = 0, Size = 0;
  int64_t Stride = 0, Distance = 0;
  /// How the export chose Distance, when the file says (-activetime-print-
  /// decisions prints it): that many iterations of WorkNs (the loop's
  /// profiled step without the miss) to cover the file's LatencyNs.
  std::optional<int64_t> Iterations;
  std::optional<double> WorkNs, LatencyNs;
  /// Where the file's latency came from ("measured", "--latency-ns").
  std::string LatencySource;
  /// An irregular load to prefetch through its index (a[b[i]] ->
  /// a[b[i + Iterations]]); Stride and Distance are 0 then.
  bool Indirect = false;
  bool Used = false;
};

/// Parses the text of a hint file; \p Name prefixes error messages. Never
/// crashes on malformed input (fuzzed by fuzz/hints_fuzzer.cpp).
llvm::Expected<std::vector<PrefetchHint>>
parsePrefetchHints(llvm::StringRef Text, llvm::StringRef Name);

/// Reads and parses the hint file at \p Path.
llvm::Expected<std::vector<PrefetchHint>>
readPrefetchHints(llvm::StringRef Path);

} // namespace activetime

#endif // ACTIVETIME_PASS_ACTIVETIMESTRIDES_H
