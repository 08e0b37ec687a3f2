//===- TimeReportJson.cpp - The time report as a JSON document --------------===//
//
// Part of ActiveTime. `activetime report --json`: the "activetime-report"
// document (version 3; tools/activetime/README.md). Function ids are
// positions in "functions" (flat order); the tree is a flat pre-order list
// with parent links, so arbitrarily deep trees need no recursion here or in
// consumers. Per-call figures are null where calls were counted, not timed
// (ReportModel::hasPerCallFigures).
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "activetime/Profile/CodeSampleSplit.h"
#include "activetime/Profile/Mpi.h"
#include "activetime/Report/Format.h"
#include "activetime/Report/InlinedAway.h"
#include "activetime/Report/ReportModel.h"
#include "activetime/Report/Reports.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;

namespace {

class JsonReport {
public:
  JsonReport(const Profile &P, const Aggregate &A, const ViewOptions &O,
             raw_ostream &OS)
      : P(P), A(A), O(O), J(OS, 2), M(P, A, O.names(NameUse::Asked)),
        JsonId(A.Functions.size(), UINT32_MAX), Lat(latencies(P, A)),
        ShareTotal(ReportModel::shareTotal(A.Flat)) {
    for (size_t I = 0; I < A.Flat.size(); ++I)
      JsonId[A.Flat[I].Func] = I;
  }
  void print();

private:
  void stats(const Stats &S, bool CountedNode = false);
  void counters(const Counters &C);
  void provenance();
  void process(const Process &Pr);
  void mpi();
  void overhead(const Process &Pr);
  void codeSamples(const Process &Pr);
  void trace(const TraceSummary &S);
  void functions();
  void inlinedAway();
  void tree();
  void treeNode(uint32_t I, uint32_t Id, uint32_t Parent, uint32_t Height,
                bool Cut);
  void thread(const ThreadSummary &T);

  const Profile &P;
  const Aggregate &A;
  const ViewOptions &O;
  json::OStream J;
  ReportModel M;
  std::vector<uint32_t> JsonId;
  LatencyTable Lat; // "latency" of functions and tree nodes
  double ShareTotal; // what the tree's shares divide by
};

} // namespace

void JsonReport::print() {
  J.object([&] {
    J.attribute("schema", "activetime-report");
    J.attribute("version", 3);
    J.attribute("time_unit", "ns");
    J.attribute("time_kind", "active");
    J.attribute("note", TimesNote);
    J.attribute("how_note", HowNote);
    J.attribute("error_note", ErrorNote);
    J.attribute("clamp_note", ClampNote);
    provenance();
    // Threads whose "active" still includes switched-out time.
    J.attribute("threads_without_switch_data",
                int64_t(SwitchSummary::of(P).None));
    // Which name the reports print: "short" (short_name), "full" (name,
    // --full-names) or "linkage" (--no-demangle: both are linkage names).
    J.attribute("names", !M.Names.options().Demangle   ? "linkage"
                         : M.Names.options().FullNames ? "full"
                                                       : "short");
    Counters Total;
    J.attributeArray("processes", [&] {
      for (const Process &Pr : P.Processes) {
        process(Pr);
        for (const Thread &T : Pr.Threads)
          Total.add(T);
      }
    });
    counters(Total);
    J.attribute("total_self_active_ns", A.TotalSelfActive);
    J.attribute("total_self_elapsed_ns", A.TotalSelfElapsed);
    functions();
    tree();
    inlinedAway();
    mpi();
    if (O.CallSites)
      callSitesJson(P, A, J, O);
    if (O.Callers)
      callGraphJson(P, A, J, O);
    if (O.BottomUp)
      bottomUpJson(A, J, O.MaxDepth);
    filtersJson(O.Filters, J);
    J.attributeArray("threads", [&] {
      for (const ThreadSummary &T : A.Threads)
        thread(T);
    });
  });
  J.flush();
}

/// A node's or a function's figures (jsonNumber: a large tree writes
/// millions of them).
void JsonReport::stats(const Stats &S, bool CountedNode) {
  bool PerCall = ReportModel::hasPerCallFigures(S, CountedNode);
  auto Timed = [&](StringRef Key, double V) {
    jsonNumber(J, Key, PerCall ? std::optional<double>(V) : std::nullopt);
  };
  J.attribute("how", ReportModel::how(S, CountedNode));
  if (CountedNode)
    J.attribute("calls", nullptr);
  else
    J.attribute("calls", int64_t(S.Calls));
  J.attribute("counted_calls", int64_t(S.CountedCalls));
  Timed("elapsed_ns", S.Elapsed);
  Timed("self_elapsed_ns", S.SelfElapsed);
  ActiveFigures F = ReportModel::figures(S, CountedNode);
  auto Active = [&](double V) {
    return F.HasActive ? std::optional<double>(jsonNs(V)) : std::nullopt;
  };
  jsonNumber(J, "active_ns", Active(F.Active.Shown));
  jsonNumber(J, "active_uncertainty_ns", Active(F.Active.Error));
  jsonNumber(J, "self_active_ns", jsonNs(F.Self.Shown));
  jsonNumber(J, "self_active_sampled_ns", S.Sampled);
  jsonNumber(J, "self_active_uncertainty_ns", F.Self.Error);
  // The measured values of the figures printed clamped (ReportModel).
  bool ActiveClamped = F.HasActive && F.Active.Clamped;
  if (ActiveClamped || F.Self.Clamped)
    J.attributeObject("clamped", [&] {
      if (ActiveClamped)
        J.attribute("active_ns", F.Active.Measured);
      if (F.Self.Clamped)
        J.attribute("self_active_ns", F.Self.Measured);
    });
  J.attribute("code_samples", int64_t(S.Samples));
  Timed("overhead_ns", S.Overhead);
  Timed("off_cpu_ns", S.OffCpu);
  J.attribute("voluntary_switches", int64_t(S.Voluntary));
  J.attribute("involuntary_switches", int64_t(S.Involuntary));
  Timed("min_active_ns", S.Min);
  Timed("max_active_ns", S.Max);
}

void JsonReport::counters(const Counters &C) {
  J.attributeObject("counters", [&] {
    J.attribute("open_frames", int64_t(C.OpenFrames));
    J.attribute("unwound_frames", int64_t(C.UnwoundFrames));
    J.attribute("unmatched_exits", int64_t(C.UnmatchedExits));
    J.attribute("dropped_events", int64_t(C.DroppedEvents));
  });
}

void JsonReport::provenance() {
  const Provenance &H = A.How;
  J.attributeObject("provenance", [&] {
    J.attribute("timed_calls", int64_t(H.TimedCalls));
    J.attribute("counted_calls", int64_t(H.CountedCalls));
    J.attribute("timed_self_active_ns", A.TotalSelfActive - H.SampledNs);
    J.attribute("counted_self_active_ns", H.SampledNs);
    J.attribute("counted_uncertainty_ns", 1.96 * H.SampledSigmaNs);
    J.attribute("counting_bound_ns", H.CountingBoundNs);
    J.attribute("outside_probes_ns", H.OutsideProbesNs);
    J.attribute("probe_residual_per_call_ns", H.ProbeResidualNs);
    J.attribute("timed_uncertainty_ns", H.TimedResidualNs);
    J.attribute("code_samples", int64_t(H.CodeSamples));
    J.attribute("runtime_code_samples", int64_t(H.RuntimeSamples));
    J.attribute("lost_code_samples", int64_t(H.LostCodeSamples));
    J.attribute("unsplit_self_active_ns", H.UnsampledSelfNs);
    ShortCalls S = ShortCalls::of(P, A);
    J.attribute("short_calls", int64_t(S.Calls));
    J.attribute("short_call_functions", int64_t(S.Functions));
    J.attribute("short_call_threshold_ns", S.ThresholdNs);
    J.attribute("charged_code_samples", int64_t(H.ChargedSamples));
    J.attribute("sample_cost_uncertainty", kSampleCostUncertainty);
    J.attribute("sample_cost_uncertainty_ns", H.SampleCostUncertaintyNs);
  });
}

/// Time and bytes per MPI routine (Mpi.h); null without MPI.
void JsonReport::mpi() {
  MpiSummary S = mpiSummary(P, A);
  if (!S.present()) {
    J.attribute("mpi", nullptr);
    return;
  }
  J.attributeObject("mpi", [&] {
    J.attribute("ranks", int64_t(S.Ranks));
    J.attribute("job_size", int64_t(S.JobSize));
    J.attribute("elapsed_ns", S.ElapsedNs);
    J.attribute("active_ns", S.ActiveNs);
    J.attribute("bytes", int64_t(S.Bytes));
    J.attributeArray("routines", [&] {
      for (const MpiRoutine &R : S.Routines)
        J.object([&] {
          J.attribute("name", M.Names.name(R.Func));
          J.attribute("function", int64_t(JsonId[R.Func]));
          J.attribute("calls", int64_t(R.Calls));
          J.attribute("elapsed_ns", R.ElapsedNs);
          J.attribute("active_ns", R.ActiveNs);
          J.attribute("bytes", int64_t(R.Bytes));
        });
    });
    // Per rank its computing and waiting time.
    J.attributeArray("per_rank", [&] {
      for (const MpiRankTime &R : S.PerRank)
        J.object([&] {
          J.attribute("rank", int64_t(R.Rank));
          J.attribute("wall_ns", R.WallNs);
          J.attribute("computing_ns", R.ComputingNs);
          J.attribute("waiting_ns", R.WaitingNs);
          J.attribute("waiting_on_cpu_ns", R.WaitingOnCpuNs);
          J.attribute("mpi_share", R.mpiShare());
        });
    });
    // Per function its spread over the ranks (empty below two ranks).
    J.attributeArray("imbalance", [&] {
      for (const RankSpread &R : rankSpreads(P, A).Functions)
        J.object([&] {
          J.attribute("name", M.Names.name(R.Func));
          J.attribute("function", int64_t(JsonId[R.Func]));
          J.attribute("metric", R.metric());
          J.attribute("imbalance_ns", R.ImbalanceNs);
          J.attribute("mean_ns", R.MeanNs);
          J.attribute("min_ns", R.MinNs);
          J.attribute("min_rank", int64_t(R.MinRank));
          J.attribute("max_ns", R.MaxNs);
          J.attribute("max_rank", int64_t(R.MaxRank));
          J.attribute("stddev_ns", R.StdDevNs);
          J.attribute("cfvar", R.CfVar);
        });
    });
  });
}

void JsonReport::process(const Process &Pr) {
  J.object([&] {
    J.attribute("executable", Pr.Exe);
    J.attribute("build_id", buildIdHex(Pr));
    J.attribute("host", Pr.Host.empty() ? json::Value(nullptr)
                                        : json::Value(Pr.Host));
    J.attribute("pid", int64_t(Pr.Pid));
    J.attribute("parent_pid", int64_t(Pr.ParentPid));
    J.attribute("tick_rate", int64_t(Pr.TickRate));
    J.attribute("tick_step_ticks", double(Pr.TickStep256) / 256.0);
    J.attribute("tick_step_ns", ticks256ToNs(Pr, Pr.TickStep256));
    J.attribute("start_unix_ns", int64_t(Pr.StartUnixNs));
    J.attribute("wall_ns", ticksToNs(Pr, Pr.EndTick - Pr.StartTick));
    // MPI_COMM_WORLD's rank and size; null: not an MPI run.
    if (Pr.MpiSize) {
      J.attribute("mpi_rank", int64_t(Pr.MpiRank));
      J.attribute("mpi_size", int64_t(Pr.MpiSize));
    } else {
      J.attribute("mpi_rank", nullptr);
      J.attribute("mpi_size", nullptr);
    }
    J.attribute("threads", int64_t(Pr.Threads.size()));
    // When the runtime's own thread made the program multi-threaded (ns
    // into the run); null: it did not.
    if (Pr.ThreadedByRuntimeUs != kNotThreadedByRuntime)
      J.attribute("threaded_by_runtime_ns",
                  double(Pr.ThreadedByRuntimeUs) * 1e3);
    else
      J.attribute("threaded_by_runtime_ns", nullptr);
    J.attribute("modules", int64_t(Pr.Modules.size()));
    J.attribute("traces", int64_t(Pr.Traces.size()));
    overhead(Pr);
    J.attribute("timing_threshold_ns", ticksToNs(Pr, Pr.TimingThreshold));
    codeSamples(Pr);
    counters(Counters::of(Pr));
    if (!Pr.Traces.empty())
      trace(TraceSummary::of(Pr));
  });
}

/// mode=trace: what was recorded and what recording it cost the run
/// (TraceSummary); per thread in "threads" too.
void JsonReport::trace(const TraceSummary &S) {
  J.attributeObject("trace", [&] {
    J.attribute("threads", int64_t(S.Threads));
    J.attribute("events", int64_t(S.Events));
    J.attribute("switches", int64_t(S.Switches));
    J.attribute("dropped_events", int64_t(S.DroppedEvents));
    J.attribute("dropped_switches", int64_t(S.DroppedSwitches));
    J.attribute("buffer_ns", S.BufferNs);
    J.attribute("buffer_bytes", int64_t(S.BufferBytes));
    J.attribute("buffer_share_of_wall", S.WallNs > 0 ? S.BufferNs / S.WallNs : 0.0);
    J.attribute("buffer_populate", S.BufferFlags.Populate);
    J.attribute("buffer_touch", S.BufferFlags.Touch);
    J.attribute("buffer_huge_pages", S.BufferFlags.HugePages);
    J.attribute("buffer_out_of_memory", S.BufferFlags.NoMemory);
    J.attribute("buffer_memory_budget", S.BufferFlags.Budget);
    // Inside the probes' measured cost or before a thread's first call.
    J.attribute("buffer_removed", true);
  });
}

void JsonReport::overhead(const Process &Pr) {
  const OverheadTable &Cost = Pr.Overhead;
  J.attributeObject("overhead", [&] {
    J.attribute("enter_ticks", double(Cost.Enter256) / 256.0);
    J.attribute("exit_ticks", double(Cost.Exit256) / 256.0);
    J.attribute("enter_ns", ticks256ToNs(Pr, Cost.Enter256));
    J.attribute("exit_ns", ticks256ToNs(Pr, Cost.Exit256));
    OverheadSource Source = overheadSource(Cost);
    J.attribute("source", Source == OverheadSource::Option   ? "option"
                          : Source == OverheadSource::Uncalibrated
                              ? "uncalibrated"
                              : "calibrated");
    // When the calibration beside the program was done, after the start.
    if (Cost.ReadyTick)
      J.attribute("ready_ns", nsIntoRun(Pr, Cost.ReadyTick));
    J.attribute("batches", int64_t(Cost.Batches));
    J.attribute("spread", Cost.SpreadPermille / 1000.0);
    J.attribute("stable", bool(Cost.Stable));
    J.attribute("fenced", bool(Cost.Fenced));
    J.attribute("measured", bool(Cost.Measured));
    J.attribute("pair_ns", ticks256ToNs(Pr, Cost.Pair256));
    J.attribute("measured_enter_ns", ticks256ToNs(Pr, Cost.MeasuredEnter256));
    J.attribute("measured_exit_ns", ticks256ToNs(Pr, Cost.MeasuredExit256));
  });
}

void JsonReport::codeSamples(const Process &Pr) {
  J.attributeObject("code_samples", [&] {
    J.attribute("period_ns", int64_t(Pr.CodeSamplePeriodNs));
    if (codeSampling(Pr).CostUnmeasured)
      J.attribute("cost_ns", nullptr);
    else
      J.attribute("cost_ns", ticks256ToNs(Pr, Pr.CodeSampleCost256));
    J.attribute("state", Pr.CodeSamplePeriodNs        ? "on"
                         : codeSampling(Pr).Disabled   ? "off"
                         : codeSampling(Pr).NotStarted ? "not_started"
                                                       : "unavailable");
    J.attribute("kernel", !codeSampling(Pr).UserOnly);
    J.attribute("callers", codeSampling(Pr).Stacks);
    J.attribute("nearest_symbol", Pr.CodeResolvedByNearest);
    // What was taken and paid (a thread samples once it has counted calls).
    SamplesTaken S = SamplesTaken::of(Pr);
    J.attribute("taken", int64_t(S.Samples));
    J.attribute("sampling_threads", int64_t(S.SamplingThreads));
    if (codeSampling(Pr).CostUnmeasured)
      J.attribute("paid_ns", nullptr);
    else
      J.attribute("paid_ns", S.PaidNs);
  });
}

/// The functions inlined away before instrumentation (InlinedAway.h).
void JsonReport::inlinedAway() {
  InlinedAwaySummary S = InlinedAwaySummary::of(P);
  J.attributeObject("inlined_away", [&] {
    J.attribute("functions", int64_t(S.Functions.size()));
    J.attribute("program_functions", int64_t(S.ProgramFunctions));
    J.attributeArray("list", [&] {
      for (size_t I = 0; I < S.Functions.size(); ++I) {
        const Function &F = *S.Functions[I];
        J.object([&] {
          J.attribute("name", M.Names.fullName(F.Name));
          J.attribute("short_name", M.Names.shortName(F.Name));
          functionIdentityJson(J, F.Name, isLocal(F),
                               S.Modules[I], F.File, F.Line);
        });
      }
    });
  });
}

void JsonReport::functions() {
  double Total = ReportModel::shareTotal(A.Flat);
  J.attributeArray("functions", [&] {
    for (const FunctionStats &F : A.Flat) {
      const FunctionInfo &Info = A.Functions[F.Func];
      J.object([&] {
        J.attribute("id", int64_t(JsonId[F.Func]));
        J.attribute("name", M.Names.fullName(F.Func));
        functionIdentityJson(J, Info.Name, Info.Local, Info.Module, Info.File,
                             Info.Line);
        stats(F.S);
        J.attribute("self_active_share",
                    ReportModel::share(ReportModel::figures(F.S).Self.Shown,
                                       Total));
        // What the text report prints by default (ShortNames.h).
        J.attribute("short_name", M.Names.shortName(F.Func));
        const LatencyHistogram &H = Lat.ByFunction[F.Func];
        const LatencyGap &Gap = Lat.Function[F.Func];
        latencyJson(J, H, F.S, latencyState(H, F.S, Gap), Gap,
                    /*Buckets=*/true);
      });
    }
  });
}

void JsonReport::tree() {
  std::vector<uint32_t> Heights = M.subtreeHeights();
  J.attributeObject("tree", [&] {
    J.attribute("max_depth", int64_t(O.MaxDepth));
    J.attributeArray("nodes", [&] {
      std::vector<uint32_t> Order(A.Tree.size(), UINT32_MAX);
      uint32_t Next = 0;
      M.walkTree(O.MaxDepth, [&](uint32_t I, bool Cut) {
        const TreeNode &N = A.Tree[I];
        Order[I] = Next++;
        treeNode(I, Order[I], N.Parent == 0 ? UINT32_MAX : Order[N.Parent],
                 Heights[I], Cut);
      });
    });
  });
}

void JsonReport::treeNode(uint32_t I, uint32_t Id, uint32_t Parent,
                          uint32_t Height, bool Cut) {
  const TreeNode &N = A.Tree[I];
  J.object([&] {
    J.attribute("id", int64_t(Id));
    if (Parent == UINT32_MAX)
      J.attribute("parent", nullptr);
    else
      J.attribute("parent", int64_t(Parent));
    J.attribute("depth", int64_t(N.Depth));
    J.attribute("function", int64_t(JsonId[N.Func]));
    stats(N.S, N.Counted);
    // A function's code outside its probes (no counted calls there).
    if (N.OutsideProbes)
      J.attribute("outside_probes", true);
    // Inclusive active time as a share of the total (the tree's "%").
    jsonNumber(J, "active_share",
               ReportModel::share(
                   ReportModel::figures(N.S, N.Counted).Active.Shown,
                   ShareTotal));
    if (!N.Counted) {
      const LatencyHistogram &H = Lat.ByTreeNode[I];
      const LatencyGap &Gap = Lat.TreeNode[I];
      latencyJson(J, H, N.S, latencyState(H, N.S, Gap), Gap,
                  /*Buckets=*/false);
    }
    if (Cut)
      J.attribute("truncated_levels", int64_t(Height));
  });
}

void JsonReport::thread(const ThreadSummary &T) {
  J.object([&] {
    J.attribute("process", int64_t(T.Process));
    J.attribute("pid", int64_t(P.Processes[T.Process].Pid));
    J.attribute("tid", int64_t(T.Tid));
    // Only where the kernel reused the tid: the thread's start order.
    if (T.TidOrder)
      J.attribute("tid_order", int64_t(T.TidOrder));
    J.attribute("name", T.Name);
    J.attribute("running", T.Flags.Running);
    if (T.FoldedThreads)
      J.attribute("folded_threads", int64_t(T.FoldedThreads));
    J.attribute("code_samples_refused", T.Flags.NotSampled);
    J.attribute("wall_ns", T.WallNs);
    J.attribute("switch_source", switchSourceName(T.SwitchSource));
    J.attribute("switch_resolution_ns", T.SwitchResolutionNs);
    J.attribute("off_cpu_ns", T.OffCpuNs);
    J.attribute("voluntary_switches", int64_t(T.VoluntarySwitches));
    J.attribute("involuntary_switches", int64_t(T.InvoluntarySwitches));
    J.attribute("lost_switch_records", int64_t(T.LostSwitchRecords));
    Counters C;
    C.add(T);
    counters(C);
    const Process &Pr = P.Processes[T.Process];
    for (const Trace &Tr : Pr.Traces)
      if (Tr.Tid == T.Tid && Tr.TidOrder == T.TidOrder) {
        TraceSummary S;
        S.add(Pr, Tr);
        trace(S);
        break;
      }
    J.attribute("total_self_active_ns", T.TotalSelfActive);
    J.attribute("total_self_active_err_ns", T.TotalSelfActiveErrNs);
    J.attribute("total_self_elapsed_ns", T.TotalSelfElapsed);
    // The thread's own CPU clock (null: not read), and whether its total
    // self-active time exceeds it beyond that total's 95% bound.
    if (T.CpuNs >= 0)
      J.attribute("cpu_ns", T.CpuNs);
    else
      J.attribute("cpu_ns", nullptr);
    J.attribute("exceeds_cpu", T.exceedsCpu());
    if (!O.ThreadFunctions)
      return;
    double Total = ReportModel::shareTotal(T.Functions);
    J.attributeArray("functions", [&] {
      for (const FunctionStats &F : T.Functions)
        J.object([&] {
          J.attribute("function", int64_t(JsonId[F.Func]));
          stats(F.S);
          J.attribute(
              "self_active_share",
              ReportModel::share(ReportModel::figures(F.S).Self.Shown, Total));
        });
    });
  });
}

void report::printTimeReportJson(const Profile &P, const Aggregate &A,
                                 const ViewOptions &O, raw_ostream &OS) {
  JsonReport(P, A, O, OS).print();
  OS << "\n";
}
