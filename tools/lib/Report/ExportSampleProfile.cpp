//===- ExportSampleProfile.cpp - `export --format=sample-profile` ---------===//
//
// Part of ActiveTime. Writes the profile as LLVM's sample profile, the input
// of `clang -fprofile-sample-use=`, with LLVM's own SampleProfileWriter (text
// or extended binary):
//
//   - a function's head samples are its calls, every thread and process
//     (exact: the inline call counters);
//   - each call site is a body record at the call's line offset from the
//     start line of the function whose code holds it, with its base
//     discriminator, and the callee as a call target; a call inside code the
//     profiled build had inlined is nested under the inline call sites that
//     lead to it, as the profiled binary's debug info describes them;
//   - every function gets its head samples as a body record at its entry
//     block's first statement as well (the first line of its own code after
//     its start line, in the profiled binary's line table), so that the
//     entry block is known and a function without call sites still has
//     samples (the loader ignores a function whose total is 0); offset 0
//     when the line table gives none.
//
// Call counts are not block frequencies: the loader guesses the blocks' and
// such profiles have made programs slower than plain -O2, so the export
// wants --allow-call-counts (docs/pgo.md has the training build instead).
//
// Counts are execution counts, not time: timed calls exactly, counted calls
// as CallSites.h places them. The locations come from the profiled binary's
// debug info (build it with -g or -gline-tables-only, best with
// -fdebug-info-for-profiling for discriminators); call sites whose code has
// none, or outside the program, give no record.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "activetime/Profile/CallSites.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/DebugInfo/Symbolize/Symbolize.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/ProfileData/SampleProf.h"
#include "llvm/ProfileData/SampleProfWriter.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace llvm;
using namespace llvm::sampleprof;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;

namespace {

class SampleProfileBuilder {
public:
  SampleProfileBuilder(const Profile &P, const Aggregate &A,
                       const FunctionNamer &Linkage)
      : Prof(P), Agg(A), Linkage(Linkage) {
    symbolize::LLVMSymbolizer::Options SO;
    SO.Demangle = false;
    SO.PrintFunctions = DILineInfoSpecifier::FunctionNameKind::LinkageName;
    Sym = std::make_unique<symbolize::LLVMSymbolizer>(SO);
  }
  void addHeads();
  void addEdge(const CallEdge &E);
  SampleProfileMap &profiles() { return Map; }
  uint64_t placed() const { return Placed; }
  uint64_t unplaced() const { return Unplaced; }

private:
  FunctionId name(StringRef N) {
    return FunctionId(Names.insert(Linkage.name(N)).first->getKey());
  }
  FunctionSamples &top(StringRef N) {
    return Map.create(SampleContext(name(N)));
  }
  /// Where a function's code is: its module's object and its link-time
  /// start (the first process that has it with a known load bias).
  struct Code {
    const profile::Module *M = nullptr;
    uint64_t Start = 0;
  };
  std::vector<Code> functionCode() const;
  LineLocation entryLocation(uint32_t Func, const Code &C);

  const Profile &Prof;
  const Aggregate &Agg;
  const FunctionNamer &Linkage; // the names the sample loader looks up
  std::unique_ptr<symbolize::LLVMSymbolizer> Sym;
  StringSet<> Names; // the map refers to these
  SampleProfileMap Map;
  uint64_t Placed = 0, Unplaced = 0;
};

/// A frame's location as the sample loader keys it: line offset from the
/// function's start line, base discriminator.
LineLocation locationOf(const DILineInfo &L) {
  uint32_t Offset = L.Line >= L.StartLine ? L.Line - L.StartLine : 0;
  return LineLocation(
      Offset & 0xffff,
      DILocation::getBaseDiscriminatorFromDiscriminator(
          L.Discriminator, /*IsFSDiscriminator=*/false));
}

/// How far past a function's start its first statement is looked for:
/// beyond the counting instructions, the jump to the timed copy and the
/// prologue.
constexpr uint64_t kEntryScanBytes = 96;

std::vector<SampleProfileBuilder::Code>
SampleProfileBuilder::functionCode() const {
  std::vector<Code> Out(Agg.Functions.size());
  for (size_t PI = 0; PI < Prof.Processes.size(); ++PI) {
    const Process &P = Prof.Processes[PI];
    for (size_t F = 0; F < P.Functions.size(); ++F) {
      Code &C = Out[Agg.FunctionIds[PI][F]];
      const profile::Module &M = P.Modules[P.Functions[F].Module];
      if (!C.M && M.BiasKnown && P.Functions[F].Addr)
        C = {&M, P.Functions[F].Addr - uint64_t(M.Bias)};
    }
  }
  return Out;
}

/// The location of function Func's first statement: the first address
/// after its start whose innermost frame is the function itself on a line
/// after its start line. Offset 0 if none is found before the code is no
/// longer the function's (a function on one line has its statements at
/// offset 0).
LineLocation SampleProfileBuilder::entryLocation(uint32_t Func,
                                                 const Code &C) {
  for (uint64_t Off = 0; C.M && Off < kEntryScanBytes; ++Off) {
    Expected<DIInliningInfo> R = Sym->symbolizeInlinedCode(
        C.M->Path, {C.Start + Off, object::SectionedAddress::UndefSection});
    if (!R) {
      consumeError(R.takeError());
      break;
    }
    StringRef Name = R->getNumberOfFrames()
                         ? StringRef(R->getFrame(R->getNumberOfFrames() - 1)
                                         .FunctionName)
                         : StringRef();
    if (sourceFunctionName(Name) != Agg.Functions[Func].Name)
      break;
    if (R->getNumberOfFrames() == 1 &&
        R->getFrame(0).Line > R->getFrame(0).StartLine)
      return locationOf(R->getFrame(0));
  }
  return LineLocation(0, 0);
}

/// Every function that was called: its calls (Aggregate's flat figure,
/// timed and counted) as head samples and at its first statement.
void SampleProfileBuilder::addHeads() {
  std::vector<Code> Where = functionCode();
  for (const FunctionStats &F : Agg.Flat) {
    if (!F.S.Calls)
      continue;
    FunctionSamples &S = top(Agg.Functions[F.Func].Name);
    S.addHeadSamples(F.S.Calls);
    LineLocation Entry = entryLocation(F.Func, Where[F.Func]);
    S.addBodySamples(Entry.LineOffset, Entry.Discriminator, F.S.Calls);
  }
}

/// One call site: the call instruction (the byte before the return address)
/// symbolized with its inline frames, outermost first.
void SampleProfileBuilder::addEdge(const CallEdge &E) {
  uint64_t Calls = uint64_t(std::llround(E.calls()));
  if (!Calls)
    return;
  DIInliningInfo Frames = symbolizeCall(*Sym, E);
  uint32_t N = Frames.getNumberOfFrames();
  if (!N || Frames.getFrame(N - 1).Line == 0 ||
      Frames.getFrame(N - 1).FunctionName == DILineInfo::BadString) {
    Unplaced += Calls;
    return;
  }
  FunctionSamples *S = &top(Frames.getFrame(N - 1).FunctionName);
  for (uint32_t I = N - 1; I > 0; --I) {
    const DILineInfo &Inlinee = Frames.getFrame(I - 1);
    FunctionSamplesMap &At = S->functionSamplesAt(locationOf(Frames.getFrame(I)));
    FunctionId Id = name(Inlinee.FunctionName);
    auto [It, New] = At.try_emplace(Id, FunctionSamples());
    if (New)
      It->second.setFunction(Id);
    S = &It->second;
  }
  LineLocation Loc = locationOf(Frames.getFrame(0));
  S->addBodySamples(Loc.LineOffset, Loc.Discriminator, Calls);
  S->addCalledTargetSamples(Loc.LineOffset, Loc.Discriminator,
                            name(Agg.Functions[E.Callee].Name), Calls);
  Placed += Calls;
}

} // namespace

static Error writeSampleProfile(const Profile &P, const ViewOptions &O,
                                raw_ostream &OS, Progress &Prog) {
  if (!O.AllowCallCounts)
    return createStringError(
        inconvertibleErrorCode(),
        "a sample profile from call counts has no block frequencies and has "
        "made programs slower than plain -O2: build the training program "
        "with `activetime pgo-flags train` and export --format=pgo (or give "
        "--allow-call-counts)");
  Prog.phase("call sites");
  Aggregate A = aggregate(P);
  CallGraph G = buildCallGraph(P, A);
  FunctionNamer Linkage(O.names(NameUse::Linkage));
  SampleProfileBuilder B(P, A, Linkage);
  B.addHeads();
  Prog.phase("symbolizing");
  for (size_t I = 0; I < G.Edges.size(); ++I) {
    B.addEdge(G.Edges[I]);
    Prog.update(I, G.Edges.size());
  }
  for (auto &[Ctx, S] : B.profiles())
    S.updateTotalSamples();
  if (B.profiles().empty())
    return createStringError(inconvertibleErrorCode(),
                             "the profile has no calls to export");
  // The writer wants to own a seekable stream (extbinary patches its
  // section table): write into memory, then out.
  SmallString<0> Buf;
  std::unique_ptr<raw_ostream> Mem = std::make_unique<raw_svector_ostream>(Buf);
  auto W = SampleProfileWriter::create(
      Mem, O.Encoding == SampleProfileEncoding::Text ? SPF_Text
                                                     : SPF_Ext_Binary);
  if (!W)
    return createStringError(W.getError(), "cannot create the sample profile "
                                           "writer");
  if (std::error_code EC = (*W)->write(B.profiles()))
    return createStringError(EC, "writing the sample profile");
  W->reset();
  Mem.reset();
  OS << Buf;
  if (B.unplaced())
    errs() << formatv("activetime: note: {0} of {1} calls have no call site "
                      "with debug info in the program (called from outside "
                      "it, or from code without line tables); their callees' "
                      "head samples still count them\n",
                      B.unplaced(), B.placed() + B.unplaced());
  return Error::success();
}

static View sampleProfileFormat() {
  View V;
  V.Name = "sample-profile";
  V.Description = "LLVM sample profile for clang -fprofile-sample-use";
  V.Reads = "sample-profile-format allow-call-counts";
  V.Write = writeSampleProfile;
  return V;
}
static ViewRegistration RegisterSampleProfileFormat(ViewKind::Export, 80,
                                                    sampleProfileFormat);
