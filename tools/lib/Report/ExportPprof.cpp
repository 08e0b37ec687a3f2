//===- ExportPprof.cpp - The call trees as a pprof profile ----------------===//
//
// Part of ActiveTime. `export --format=pprof`: a gzipped
// perftools.profiles.Profile (pprof's profile.proto, the input of
// `go tool pprof`, Pyroscope, Grafana and Cloud Profiler). The C++ for the
// message is generated at build time from the schema Debian packages.
//
// The values are not samples: each pprof Sample is one calling context of
// one thread's call tree (the aggregation's, code-sample split included)
// carrying that context's *self* figures, so that pprof's flat column is
// the self time and its cum column the inclusive time, as `activetime
// report` has them. Call-site lines come from the calls' return addresses
// and the binary's debug info. A context deeper than --max-stack keeps its
// outermost and innermost frames around a "[N frames elided]" one
// (ExportStacks.cpp): a sample holds its whole stack, so a deep
// recursion's would otherwise grow with the square of its depth.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "activetime/Profile/Aggregate.h"
#include "activetime/Profile/CallSites.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/DebugInfo/Symbolize/Symbolize.h"

#include "profile.pb.h"
#include <zlib.h>

#include <cmath>
#include <map>
#include <tuple>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;
namespace pb = perftools::profiles;

namespace {

/// The sample types, in value order.
enum ValueIndex { kActive, kCalls, kOffCpu, kOverhead, kNumValues };

class PprofBuilder {
public:
  /// Builds into \p Out (an arena's: a million samples' small messages
  /// allocated one by one cost a third more memory).
  PprofBuilder(const Profile &P, const Aggregate &A, const ViewOptions &O,
               pb::Profile &Out)
      : P(P), A(A), Names(A, O.names(NameUse::FullName)),
        MaxStack(O.MaxStack), Out(Out) {
    symbolize::LLVMSymbolizer::Options SO;
    SO.Demangle = false;
    Sym = std::make_unique<symbolize::LLVMSymbolizer>(SO);
    str(""); // string_table[0] must be ""
  }
  void build();

private:
  int64_t str(StringRef S);
  void header();
  void comments();
  uint64_t mapping(const std::string &Object);
  uint64_t function(uint32_t G);
  uint64_t inlinedFunction(const DILineInfo &Frame);
  uint64_t leafLocation(uint32_t G);
  uint64_t elidedLocation(uint64_t N);
  void stack(pb::Sample *S, uint32_t Node, uint32_t ProcIdx);
  uint64_t callLocation(uint32_t Caller, const TreeNode &Callee,
                        uint32_t ProcIdx);
  void threadSamples(uint32_t ThreadIdx, uint32_t Begin, uint32_t End);
  void addSample(uint32_t Node, uint32_t ProcIdx, const ThreadSummary &T);

  const Profile &P;
  const Aggregate &A;
  FunctionNamer Names;
  unsigned MaxStack;
  /// Per tree node, its ancestor one below the outermost frames a cut
  /// stack keeps (the node itself when it is no deeper): where the walk to
  /// them starts.
  std::vector<uint32_t> OuterStart;
  /// Per tree node, the location of its caller's frame on paths through
  /// it (0: not looked up yet).
  std::vector<uint64_t> CallerFrame;
  uint64_t CutSamples = 0;
  DenseMap<uint64_t, uint64_t> ElidedLocations; // frames elided -> id
  pb::Profile &Out;
  std::unique_ptr<symbolize::LLVMSymbolizer> Sym;
  StringMap<int64_t> Strings;
  StringMap<uint64_t> Mappings;        // object path -> id
  DenseMap<uint32_t, uint64_t> Funcs;  // Aggregate function -> id
  StringMap<uint64_t> InlinedFuncs;    // linkage name -> id (not in A)
  std::map<std::tuple<uint32_t, std::string, uint64_t>, uint64_t> Locations;
};

int64_t PprofBuilder::str(StringRef S) {
  auto [It, New] = Strings.try_emplace(S, Out.string_table_size());
  if (New)
    Out.add_string_table(S.str());
  return It->second;
}

/// Sample types, the default one, and the profile's time span: from the
/// earliest process start to the latest process end.
void PprofBuilder::header() {
  const char *Types[kNumValues][2] = {{"active", "nanoseconds"},
                                      {"calls", "count"},
                                      {"off_cpu", "nanoseconds"},
                                      {"overhead", "nanoseconds"}};
  for (auto &T : Types) {
    pb::ValueType *V = Out.add_sample_type();
    V->set_type(str(T[0]));
    V->set_unit(str(T[1]));
  }
  Out.set_default_sample_type(str("active"));
  Out.mutable_period_type()->set_type(str("active"));
  Out.mutable_period_type()->set_unit(str("nanoseconds"));
  Out.set_period(1);
  // Integers: Unix nanoseconds are beyond a double's exact range.
  uint64_t Start = UINT64_MAX, End = 0;
  for (const Process &Proc : P.Processes) {
    uint64_t Wall = uint64_t(
        std::llround(ticksToNs(Proc, Proc.EndTick - Proc.StartTick)));
    Start = std::min(Start, Proc.StartUnixNs);
    End = std::max(End, Proc.StartUnixNs + Wall);
  }
  Out.set_time_nanos(int64_t(Start));
  Out.set_duration_nanos(int64_t(End - Start));
}

/// What the values are and where they could not be what they claim.
void PprofBuilder::comments() {
  auto Add = [&](const std::string &C) { Out.add_comment(str(C)); };
  Add(std::string(kGenerator) +
      ": instrumented call-tree times, not samples. Each sample is one "
      "calling context of one thread (label thread = tid) with that "
      "context's self figures: flat = self, cum = inclusive.");
  Add("active = elapsed - probe overhead - switched-out (off-CPU) time; "
      "off_cpu: switched-out time; overhead: the probes' own cost.");
  Add("calls: timed calls of the context.");
  Add("active of a sample: its context's self-active time as the reports "
      "print it, at least 0; where the measured one was below (a tiny, "
      "over-corrected frame, within its +-95%), label measured_self_active "
      "holds it.");
  uint64_t CountedFns = 0, Counted = 0;
  for (const FunctionStats &F : A.Flat)
    if (F.S.CountedCalls) {
      ++CountedFns;
      Counted += F.S.CountedCalls;
    }
  if (Counted)
    Add(std::to_string(Counted) + " calls of " + std::to_string(CountedFns) +
        " functions were only counted (short calls): they have no context "
        "of their own and are not in calls; their self time was split off "
        "their timed callers by code samples (label how = counted).");
  for (const ThreadSummary &T : A.Threads)
    if (T.SwitchSource == SwitchSource::None)
      Add("thread " + T.label() + " (pid " +
          std::to_string(P.Processes[T.Process].Pid) +
          "): switched-out time NOT MEASURED: its active time includes it "
          "and its off_cpu is 0.");
}

uint64_t PprofBuilder::mapping(const std::string &Object) {
  auto [It, New] = Mappings.try_emplace(Object, Out.mapping_size() + 1);
  if (!New)
    return It->second;
  pb::Mapping *M = Out.add_mapping();
  M->set_id(It->second);
  M->set_filename(str(Object));
  for (const Process &Proc : P.Processes)
    if (Proc.Exe == Object && !Proc.BuildId.empty()) {
      M->set_build_id(str(buildIdHex(Proc)));
      break;
    }
  // Names and lines come with the profile: nothing for pprof to symbolize.
  M->set_has_functions(true);
  M->set_has_filenames(true);
  M->set_has_line_numbers(true);
  M->set_has_inline_frames(true);
  return It->second;
}

uint64_t PprofBuilder::function(uint32_t G) {
  auto [It, New] = Funcs.try_emplace(G, Out.function_size() + 1);
  if (!New)
    return It->second;
  const FunctionInfo &FI = A.Functions[G];
  pb::Function *F = Out.add_function();
  F->set_id(It->second);
  // pprof shortens names itself where it draws them (and its users filter
  // on whole names): the full demangled name, as the report's JSON "name".
  F->set_name(str(Names.name(G)));
  F->set_system_name(str(FI.Name));
  F->set_filename(str(FI.File));
  F->set_start_line(FI.Line);
  InlinedFuncs.try_emplace(FI.Name, It->second);
  return It->second;
}

/// A function inlined at a call site: the program's own entry when it has
/// one, else one from the debug info.
uint64_t PprofBuilder::inlinedFunction(const DILineInfo &Frame) {
  auto It = InlinedFuncs.find(Frame.FunctionName);
  if (It != InlinedFuncs.end())
    return It->second;
  uint64_t Id = Out.function_size() + 1;
  InlinedFuncs[Frame.FunctionName] = Id;
  pb::Function *F = Out.add_function();
  F->set_id(Id);
  F->set_name(str(Names.name(Frame.FunctionName)));
  F->set_system_name(str(Frame.FunctionName));
  F->set_filename(str(Frame.FileName == DILineInfo::BadString
                          ? std::string()
                          : Frame.FileName));
  F->set_start_line(Frame.StartLine);
  return Id;
}

/// Where a leaf spent its self time: the function, at its first line.
uint64_t PprofBuilder::leafLocation(uint32_t G) {
  // Object "\0" marks the leaf (no object path is empty of all but NUL).
  auto [It, New] = Locations.try_emplace({G, std::string(1, '\0'), 0}, 0);
  if (!New)
    return It->second;
  It->second = Out.location_size() + 1;
  pb::Location *L = Out.add_location();
  L->set_id(It->second);
  pb::Line *Ln = L->add_line();
  Ln->set_function_id(function(G));
  Ln->set_line(A.Functions[G].Line);
  return It->second;
}

/// The frame of \p Caller on the path to \p Callee: the line of the call
/// instruction (with the functions inlined there, innermost first, as
/// pprof's Location.line has them), or line 0 when the call site is
/// unknown or not in \p Caller's own code (a counted function between).
uint64_t PprofBuilder::callLocation(uint32_t Caller, const TreeNode &Callee,
                                    uint32_t ProcIdx) {
  const Process &Proc = P.Processes[ProcIdx];
  CallEdge E;
  const CallerCode &S = Callee.Site;
  bool Known = S.Func != kNoFunc && S.LinkAddr &&
               A.FunctionIds[ProcIdx][S.Func] == Caller;
  if (Known) {
    E.Caller = Caller;
    E.Object = Proc.Modules[Proc.Functions[S.Func].Module].Path;
    E.ReturnAddr = S.LinkAddr;
  }
  auto [It, New] = Locations.try_emplace({Caller, E.Object, E.ReturnAddr}, 0);
  if (!New)
    return It->second;
  It->second = Out.location_size() + 1;
  pb::Location *L = Out.add_location();
  L->set_id(It->second);
  DIInliningInfo Frames;
  if (Known) {
    L->set_mapping_id(mapping(E.Object));
    Frames = symbolizeCall(*Sym, E);
  }
  uint32_t N = Frames.getNumberOfFrames();
  for (uint32_t I = 0; I + 1 < N; ++I) {
    pb::Line *Ln = L->add_line();
    Ln->set_function_id(inlinedFunction(Frames.getFrame(I)));
    Ln->set_line(Frames.getFrame(I).Line);
  }
  // The outermost frame is the caller itself, whatever the debug info
  // calls it (a timed copy is its function).
  pb::Line *Ln = L->add_line();
  Ln->set_function_id(function(Caller));
  Ln->set_line(N ? Frames.getFrame(N - 1).Line : 0);
  return It->second;
}

/// The frame standing for \p N frames left out of a deep stack.
uint64_t PprofBuilder::elidedLocation(uint64_t N) {
  auto [It, New] = ElidedLocations.try_emplace(N, 0);
  if (!New)
    return It->second;
  pb::Function *F = Out.add_function();
  F->set_id(Out.function_size());
  F->set_name(str(elidedFrameName(N)));
  F->set_system_name(F->name());
  It->second = Out.location_size() + 1;
  pb::Location *L = Out.add_location();
  L->set_id(It->second);
  L->add_line()->set_function_id(F->id());
  return It->second;
}

/// The sample's locations, leaf first: the node's function, then each
/// caller at its call to the frame above; cut as cutStack says.
void PprofBuilder::stack(pb::Sample *S, uint32_t Node, uint32_t ProcIdx) {
  // A node's caller frame is the same in every stack through it: looked up
  // once (the lookup builds a key with the object's path).
  auto Call = [&](uint32_t C) {
    uint64_t &Id = CallerFrame[C];
    if (!Id)
      Id = callLocation(A.Tree[A.Tree[C].Parent].Func, A.Tree[C], ProcIdx);
    S->add_location_id(Id);
  };
  StackCut Cut = cutStack(A.Tree[Node].Depth, MaxStack);
  S->mutable_location_id()->Reserve(
      int(Cut.Outer + Cut.Inner + (Cut.Elided != 0)));
  S->add_location_id(leafLocation(A.Tree[Node].Func));
  uint32_t C = Node;
  if (Cut.Elided) {
    ++CutSamples;
    for (uint64_t K = 1; K < Cut.Inner; ++K, C = A.Tree[C].Parent)
      Call(C);
    S->add_location_id(elidedLocation(Cut.Elided));
    C = OuterStart[Node];
  }
  for (; A.Tree[C].Parent != 0; C = A.Tree[C].Parent)
    Call(C);
}

void PprofBuilder::addSample(uint32_t Node, uint32_t ProcIdx,
                             const ThreadSummary &T) {
  const TreeNode &TN = A.Tree[Node];
  pb::Sample *S = Out.add_sample();
  stack(S, Node, ProcIdx);
  // Self figures: the node's less its timed children's.
  double OffCpu = TN.S.OffCpu;
  for (uint32_t C : TN.Children)
    OffCpu -= A.Tree[C].S.OffCpu;
  // The node's self-active time as the reports print it: never negative
  // (activeFigures); an over-corrected tiny frame counts 0, labeled below.
  S->add_value(std::llround(activeFigures(TN.S, TN.Counted).Self.Shown));
  S->add_value(int64_t(TN.S.Calls));
  S->add_value(std::llround(OffCpu));
  S->add_value(std::llround(TN.S.SelfOverhead));
  auto Label = [&](StringRef Key) {
    pb::Label *L = S->add_label();
    L->set_key(str(Key));
    return L;
  };
  Label("thread")->set_num(int64_t(T.Tid));
  if (T.TidOrder)
    Label("tid_order")->set_num(T.TidOrder);
  const Process &Pr = P.Processes[ProcIdx];
  Label("pid")->set_num(Pr.Pid);
  if (!Pr.Host.empty())
    Label("host")->set_str(str(Pr.Host));
  // An MPI job's rank: what a fleet backend groups and filters a job by.
  if (Pr.MpiSize)
    Label("rank")->set_num(Pr.MpiRank);
  if (!T.Name.empty())
    Label("thread_name")->set_str(str(T.Name));
  if (TN.Counted)
    Label("how")->set_str(str("counted"));
  // A clamped value keeps its measured one beside it.
  Figure Self = activeFigures(TN.S, TN.Counted).Self;
  if (Self.Clamped) {
    pb::Label *L = Label("measured_self_active");
    L->set_num(std::llround(Self.Measured));
    L->set_num_unit(str("nanoseconds"));
  }
}

void PprofBuilder::threadSamples(uint32_t ThreadIdx, uint32_t Begin,
                                 uint32_t End) {
  const ThreadSummary &T = A.Threads[ThreadIdx];
  for (uint32_t I = Begin; I < End; ++I)
    addSample(I, T.Process, T);
}

void PprofBuilder::build() {
  header();
  comments();
  for (const Process &Proc : P.Processes)
    mapping(Proc.Exe);
  // The outermost frames of a cut stack are the nodes at depths 1 to
  // Outer; the walk to them starts at the node one deeper.
  CallerFrame.assign(A.Tree.size(), 0);
  uint64_t Below = cutStack(UINT64_MAX, MaxStack).Outer + 1;
  if (MaxStack) {
    OuterStart.resize(A.Tree.size());
    for (uint32_t I = 0; I < A.Tree.size(); ++I)
      OuterStart[I] = A.Tree[I].Depth <= Below ? I : OuterStart[A.Tree[I].Parent];
  }
  for (uint32_t T = 0; T < A.ThreadTreeBegin.size(); ++T) {
    uint32_t End = T + 1 < A.ThreadTreeBegin.size() ? A.ThreadTreeBegin[T + 1]
                                                    : A.Tree.size();
    threadSamples(T, A.ThreadTreeBegin[T], End);
  }
  if (CutSamples)
    Out.add_comment(str(
        std::to_string(CutSamples) + " contexts deeper than --max-stack=" +
        std::to_string(MaxStack) + " frames keep their " +
        std::to_string(cutStack(UINT64_MAX, MaxStack).Outer) +
        " outermost and " + std::to_string(cutStack(UINT64_MAX, MaxStack).Inner) +
        " innermost frames around one \"[N frames elided]\" frame: a "
        "function only in the elided part lacks their time in cum."));
}

/// \p Data as one gzip member (RFC 1952: what `gzip -d` and pprof read;
/// zlib's windowBits 16 + 15 selects the gzip wrapper).
Error gzip(const std::string &Data, raw_ostream &OS) {
  z_stream Z = {};
  if (deflateInit2(&Z, Z_BEST_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8,
                   Z_DEFAULT_STRATEGY) != Z_OK)
    return createStringError(inconvertibleErrorCode(),
                             "cannot start gzip compression");
  Z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(Data.data()));
  Z.avail_in = uInt(Data.size());
  char Buf[1 << 16];
  int R;
  do {
    Z.next_out = reinterpret_cast<Bytef *>(Buf);
    Z.avail_out = sizeof(Buf);
    R = deflate(&Z, Z_FINISH);
    OS.write(Buf, sizeof(Buf) - Z.avail_out);
  } while (R == Z_OK);
  deflateEnd(&Z);
  if (R != Z_STREAM_END)
    return createStringError(inconvertibleErrorCode(),
                             "gzip compression failed");
  return Error::success();
}

} // namespace

/// The most location ids the samples may hold together (8 bytes each in
/// memory, as many again serialized): a bound on the whole profile's size.
static constexpr uint64_t kMaxPprofFrames = 50000000;

static Error writePprof(const Profile &P, const ViewOptions &O, raw_ostream &OS,
                        Progress &Prog) {
  Prog.phase("aggregating");
  AggregateOptions AO;
  AO.TreePerThread = true;
  Aggregate A = aggregate(P, AO);
  uint64_t Frames = 0;
  for (size_t I = 1; I < A.Tree.size(); ++I) {
    StackCut C = cutStack(A.Tree[I].Depth, O.MaxStack);
    Frames += C.Outer + C.Inner + (C.Elided != 0);
  }
  if (Frames > kMaxPprofFrames)
    return createStringError(
        inconvertibleErrorCode(),
        "--format=pprof: the stacks of the %zu calling contexts would hold "
        "%llu frames (over %llu); give a smaller --max-stack",
        A.Tree.size() - 1, (unsigned long long)Frames,
        (unsigned long long)kMaxPprofFrames);
  Prog.phase("building the pprof profile");
  google::protobuf::Arena Arena;
  pb::Profile *Msg = google::protobuf::Arena::CreateMessage<pb::Profile>(&Arena);
  PprofBuilder(P, A, O, *Msg).build();
  std::string Bytes;
  if (!Msg->SerializeToString(&Bytes))
    return createStringError(inconvertibleErrorCode(),
                             "cannot serialize the pprof profile (over 2 GiB)");
  return gzip(Bytes, OS);
}

static View pprofFormat() {
  View V;
  V.Name = "pprof";
  V.Description = "call-tree times as gzipped pprof profile.proto (go tool "
                  "pprof, Pyroscope, Grafana)";
  V.Reads = "max-stack no-demangle";
  V.Write = writePprof;
  return V;
}
static ViewRegistration RegisterPprofFormat(ViewKind::Export, 90, pprofFormat);
