//===- HtmlReport.cpp - `activetime report --html` ------------------------===//
//
// Part of ActiveTime. One self-contained HTML file: the page's document
// ("activetime-html", docs/exports.md) as a JSON data island, d3 and
// d3-flame-graph (npm packages unpacked by scripts/install-deps.sh, embedded
// at build time) and the report's own script and style (html/ beside this
// file), all inline, so the file opens without network access.
//
// The document holds what the page shows and no more: the flame graphs'
// frames pruned as HtmlFlame.h says, so a profile of any size makes a page
// of a bounded size that a browser can draw. It is streamed into the file,
// never held in memory whole.
//
//===----------------------------------------------------------------------===//

#include "CallSiteRows.h"
#include "Common.h"
#include "HtmlFlame.h"
#include "activetime/Profile/CallerCallee.h"
#include "activetime/Profile/Mpi.h"
#include "activetime/Profile/Samples.h"
#include "activetime/Report/Format.h"
#include "activetime/Report/Output.h"
#include "activetime/Report/Reports.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

#include "HtmlAssets.inc"

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;

static StringRef asset(const char *Data, size_t Size) {
  return StringRef(Data, Size - 1);
}
#define ASSET(Name) asset(Name, sizeof(Name))

/// Levels of the bottom-up icicle's paths (as the export's "bottom_up").
static constexpr unsigned kBottomUpDepth = 64;
/// Callers and callees per function in the page, the most active first (a
/// table shows 50 rows at first); the others are counted.
static constexpr size_t kMaxArcs = 100;
/// The rows of the ranks x functions heat map: the functions the job lost
/// most to its slowest rank in.
static constexpr size_t kHeatMapRows = 20;

static void escapeHtml(StringRef S, raw_ostream &OS) {
  for (char C : S) {
    switch (C) {
    case '<': OS << "&lt;"; break;
    case '>': OS << "&gt;"; break;
    case '&': OS << "&amp;"; break;
    case '"': OS << "&quot;"; break;
    default: OS << C;
    }
  }
}

namespace {

/// Passes a JSON document into a <script> element, without the whitespace
/// between its tokens (the report's part comes indented): '<' only occurs
/// inside JSON strings, where \u003c means the same and cannot close the
/// element.
class ScriptDataStream : public raw_ostream {
public:
  explicit ScriptDataStream(raw_ostream &OS) : OS(OS) { SetBufferSize(1 << 16); }
  ~ScriptDataStream() override { flush(); }

private:
  void write_impl(const char *Ptr, size_t Size) override {
    Pos += Size;
    size_t Start = 0;
    auto Skip = [&](size_t I, StringRef Instead) {
      OS.write(Ptr + Start, I - Start);
      OS << Instead;
      Start = I + 1;
    };
    for (size_t I = 0; I < Size; ++I) {
      char C = Ptr[I];
      if (InString) {
        if (Escaped)
          Escaped = false;
        else if (C == '\\')
          Escaped = true;
        else if (C == '"')
          InString = false;
        else if (C == '<')
          Skip(I, "\\u003c");
      } else if (C == '"') {
        InString = true;
      } else if (C == ' ' || C == '\n' || C == '\t' || C == '\r') {
        Skip(I, "");
      }
    }
    OS.write(Ptr + Start, Size - Start);
  }
  uint64_t current_pos() const override { return Pos; }

  raw_ostream &OS;
  uint64_t Pos = 0;
  bool InString = false, Escaped = false;
};

/// The page's document, written part by part.
class HtmlDoc {
public:
  HtmlDoc(const Profile &P, const Aggregate &A, const ViewOptions &O,
          Progress &Prog)
      : P(P), A(A), O(O), Prog(Prog), Names(A, O.names(NameUse::FullName)),
        ReportId(A.Functions.size(), -1) {
    L.MinShare = O.PruneBelow / 100;
    // The report's function ids are the flat table's order.
    for (size_t I = 0; I < A.Flat.size(); ++I)
      ReportId[A.Flat[I].Func] = int64_t(I);
  }
  void write(raw_ostream &OS);

private:
  void report(json::OStream &J);
  void callGraph(json::OStream &J);
  void callTree(json::OStream &J);
  void callTreeNode(json::OStream &J, uint32_t I);
  void bottomUp(json::OStream &J);
  void samples(json::OStream &J);
  void mpiRanks(json::OStream &J);
  json::Value function(uint32_t Func) const {
    return ReportId[Func] < 0 ? json::Value(nullptr)
                              : json::Value(ReportId[Func]);
  }

  const Profile &P;
  const Aggregate &A;
  const ViewOptions &O;
  Progress &Prog;
  FunctionNamer Names; // frames outside the report's functions
  std::vector<int64_t> ReportId;
  FlameLimits L;
};

} // namespace

void HtmlDoc::write(raw_ostream &OS) {
  json::OStream J(OS, 0);
  J.object([&] {
    J.attribute("schema", "activetime-html");
    J.attribute("version", 1);
    J.attribute("generator", kGenerator);
    report(J);
    callGraph(J);
    callTree(J);
    bottomUp(J);
    samples(J);
    mpiRanks(J);
    Prog.phase("parallel regions");
    J.attributeBegin("parallel");
    J.rawValue([&](raw_ostream &R) {
      printParallelReport(P, ParallelThresholds(), /*Json=*/true, R);
    });
    J.attributeEnd();
    Prog.phase("stride sites");
    strideSitesJson(P, J, O);
  });
}

/// The time report's document as `report --json --max-depth 1` prints it:
/// headers, functions, threads, without each thread's functions (the page
/// shows none; a thousand threads would repeat every function a thousand
/// times). Its tree stops at the first level; the flame graph draws
/// "call_tree".
void HtmlDoc::report(json::OStream &J) {
  Prog.phase("report");
  J.attributeBegin("report");
  J.rawValue([&](raw_ostream &R) {
    ViewOptions TO;
    TO.Names = O.Names;
    TO.MaxDepth = 1;
    TO.ThreadFunctions = false;
    TO.Filters = O.Filters;
    printTimeReportJson(P, A, TO, R);
  });
  J.attributeEnd();
}

/// The heat map of an MPI job (two ranks or more; else null): per function
/// of the kHeatMapRows with the largest imbalance, its time on each rank
/// (rankSpreads: computing time, an MPI routine's wait).
void HtmlDoc::mpiRanks(json::OStream &J) {
  Prog.phase("MPI ranks");
  RankSpreads S = rankSpreads(P, A);
  if (S.Functions.empty()) {
    J.attribute("mpi_ranks", nullptr);
    return;
  }
  J.attributeObject("mpi_ranks", [&] {
    J.attributeArray("ranks", [&] {
      for (uint32_t R : S.RankIds)
        J.value(int64_t(R));
    });
    J.attribute("functions_left_out",
                int64_t(S.Functions.size() -
                        std::min(S.Functions.size(), kHeatMapRows)));
    J.attributeArray("functions", [&] {
      for (size_t I = 0; I < S.Functions.size() && I < kHeatMapRows; ++I) {
        const RankSpread &R = S.Functions[I];
        J.object([&] {
          J.attribute("function", function(R.Func));
          J.attribute("metric", R.metric());
          J.attribute("imbalance_ns", R.ImbalanceNs);
          J.attributeArray("values_ns", [&] {
            for (double V : R.ValuesNs)
              J.value(V);
          });
        });
      }
    });
  });
}

/// Each function's callers and callees as `report --callers` places them
/// (CallSiteRows), with the figures the page's tables show: the kMaxArcs
/// most active of each list (the table order), the rest counted. A
/// program's thousands of functions, each called from dozens of sites,
/// would otherwise make most of the page.
void HtmlDoc::callGraph(json::OStream &J) {
  Prog.phase("callers and callees");
  FunctionNamer CallNames(A, O.names(NameUse::JsonCallSite));
  CallSiteRows Rows(P, A, CallNames);
  const CallSiteTable &T = Rows.table();
  auto Arc = [&](const SiteRow &R, bool Callers) {
    Figure F = R.active();
    // Counted calls alone have no time: null rather than 0.
    auto Timed = [&](double V) {
      return R.Timed ? json::Value(V) : json::Value(nullptr);
    };
    J.attribute("name", Callers ? Rows.caller(R) : Rows.name(R.Callee));
    J.attribute("location", Rows.location(R));
    J.attribute("calls", int64_t(R.Timed));
    J.attribute("recursive_calls", int64_t(R.RecursiveTimed));
    J.attribute("counted_calls_estimate", R.Counted);
    J.attribute("active_ns", Timed(jsonNs(F.Shown)));
    J.attribute("active_uncertainty_ns", Timed(F.Error));
    if (R.Timed && F.Clamped)
      J.attributeObject("clamped",
                        [&] { J.attribute("active_ns", F.Measured); });
  };
  auto Arcs = [&](StringRef Key, ArrayRef<uint32_t> List, bool Callers) {
    size_t Shown = std::min(List.size(), kMaxArcs);
    J.attributeArray(Key, [&] {
      for (uint32_t I : List.take_front(Shown))
        J.object([&] { Arc(T.Rows[I], Callers); });
    });
    uint64_t Calls = 0;
    double Counted = 0;
    for (uint32_t I : List.drop_front(Shown)) {
      Calls += T.Rows[I].Timed;
      Counted += T.Rows[I].Counted;
    }
    J.attributeObject((Key + "_left_out").str(), [&] {
      J.attribute("arcs", int64_t(List.size() - Shown));
      J.attribute("calls", int64_t(Calls));
      J.attribute("counted_calls_estimate", Counted);
    });
  };
  J.attributeObject("call_graph", [&] {
    J.attribute("max_arcs", int64_t(kMaxArcs));
    J.attributeArray("functions", [&] {
      for (const FunctionStats &FS : A.Flat)
        J.object([&] {
          ActiveFigures F = ReportModel::figures(FS.S);
          J.attribute("name", Rows.name(FS.Func));
          J.attribute("calls", int64_t(FS.S.Calls));
          J.attribute("counted_calls", int64_t(FS.S.CountedCalls));
          J.attribute("active_ns", F.HasActive
                                       ? json::Value(jsonNs(F.Active.Shown))
                                       : json::Value(nullptr));
          J.attribute("self_active_ns", jsonNs(F.Self.Shown));
          Arcs("callers", T.ByCallee[FS.Func], true);
          Arcs("callees", T.ByCaller[FS.Func], false);
        });
    });
  });
}

/// The merged call tree, a frame as wide as its active (mode 0) or elapsed
/// (mode 1) time; a counted node has its self time, which it has for both.
void HtmlDoc::callTree(json::OStream &J) {
  Prog.phase("call tree");
  auto Parent = [&](uint32_t I) { return A.Tree[I].Parent; };
  auto Children = [&](uint32_t I) { return ArrayRef(A.Tree[I].Children); };
  auto Width = [&](uint32_t I, unsigned Mode) {
    const TreeNode &N = A.Tree[I];
    ActiveFigures F = ReportModel::figures(N.S, N.Counted);
    double Active = F.HasActive ? F.Active.Shown : 0;
    if (Mode == 0 || !ReportModel::hasPerCallFigures(N.S, N.Counted))
      return Active;
    return N.S.Elapsed;
  };
  FlameTree T;
  T.Size = A.Tree.size();
  T.Parent = Parent;
  T.Children = Children;
  T.Modes = 2;
  T.Width = Width;
  FlamePlan Plan = planFlame(T, L);
  flameJson(J, "call_tree", Plan, L,
            [&](uint32_t I) { callTreeNode(J, I); });
}

/// A frame of the call tree: the figures its hover line shows, as the
/// report document's tree has them.
void HtmlDoc::callTreeNode(json::OStream &J, uint32_t I) {
  const TreeNode &N = A.Tree[I];
  bool PerCall = ReportModel::hasPerCallFigures(N.S, N.Counted);
  ActiveFigures F = ReportModel::figures(N.S, N.Counted);
  auto Timed = [&](StringRef Key, double V) {
    J.attribute(Key, PerCall ? json::Value(V) : json::Value(nullptr));
  };
  J.attribute("function", function(N.Func));
  J.attribute("how", ReportModel::how(N.S, N.Counted));
  if (N.Counted)
    J.attribute("calls", nullptr);
  else
    J.attribute("calls", int64_t(N.S.Calls));
  J.attribute("active_ns", F.HasActive ? json::Value(jsonNs(F.Active.Shown))
                                       : json::Value(nullptr));
  J.attribute("active_uncertainty_ns",
              F.HasActive ? json::Value(F.Active.Error) : json::Value(nullptr));
  J.attribute("self_active_ns", jsonNs(F.Self.Shown));
  J.attribute("self_active_uncertainty_ns", F.Self.Error);
  bool ActiveClamped = F.HasActive && F.Active.Clamped;
  if (ActiveClamped || F.Self.Clamped)
    J.attributeObject("clamped", [&] {
      if (ActiveClamped)
        J.attribute("active_ns", F.Active.Measured);
      if (F.Self.Clamped)
        J.attribute("self_active_ns", F.Self.Measured);
    });
  Timed("elapsed_ns", N.S.Elapsed);
  Timed("overhead_ns", N.S.Overhead);
  Timed("off_cpu_ns", N.S.OffCpu);
  if (N.OutsideProbes)
    J.attribute("outside_probes", true);
}

/// The inverted tree as an icicle: a function's frame as wide as its self
/// time, the callers on the paths to it above.
void HtmlDoc::bottomUp(json::OStream &J) {
  Prog.phase("bottom-up tree");
  std::vector<InvertedNode> Inv = invertTree(A, kBottomUpDepth);
  // The function each path starts from, whose self time the shares divide.
  std::vector<uint32_t> RootOf(Inv.size(), 0);
  for (uint32_t I = 1; I < Inv.size(); ++I)
    RootOf[I] = Inv[I].Depth == 1 ? I : RootOf[Inv[I].Parent];
  auto Parent = [&](uint32_t I) { return Inv[I].Parent; };
  auto Children = [&](uint32_t I) { return ArrayRef(Inv[I].Children); };
  auto Width = [&](uint32_t I, unsigned) { return Inv[I].SelfActiveNs; };
  FlameTree T;
  T.Size = Inv.size();
  T.Parent = Parent;
  T.Children = Children;
  T.Width = Width;
  FlamePlan Plan = planFlame(T, L);
  J.attributeObject("bottom_up", [&] {
    J.attribute("max_depth", int64_t(kBottomUpDepth));
    flameJson(J, "flame", Plan, L, [&](uint32_t I) {
      const InvertedNode &N = Inv[I];
      double Of = Inv[RootOf[I]].SelfActiveNs;
      J.attribute("function", function(N.Func));
      J.attribute("self_active_ns", N.SelfActiveNs);
      J.attribute("share", Of != 0 ? N.SelfActiveNs / Of : 0.0);
      if (N.Truncated)
        J.attribute("truncated", true);
    });
  });
}

namespace {

/// The samples' call paths merged into a tree, each node with the figures
/// of the path that ends there (if one does) and its time with the paths
/// through it.
struct SampleTree {
  std::vector<SampleFrame> Frame;
  std::vector<uint32_t> Parent;
  std::vector<std::vector<uint32_t>> Children;
  std::vector<const SampleFigures *> Fig;
  std::vector<double> OnNs, OffNs; // inclusive

  explicit SampleTree(const SampleSummary &S);
};

} // namespace

SampleTree::SampleTree(const SampleSummary &S) {
  // The paths are already a tree of frames (parents before children); a
  // node's children are put in frame order, as the sorted paths listed them.
  const SamplePaths &P = S.Paths;
  size_t N = P.numNodes();
  Frame.resize(N);
  Parent.assign(N, UINT32_MAX);
  Children.resize(N);
  Fig.assign(N, nullptr);
  for (uint32_t I = 1; I < N; ++I) {
    Frame[I] = P.node(I).Frame;
    Parent[I] = P.node(I).Parent;
    Children[Parent[I]].push_back(I);
  }
  for (const SamplePaths::Entry &E : P)
    Fig[E.Node] = &E.F;
  for (std::vector<uint32_t> &C : Children)
    llvm::sort(C, [&](uint32_t X, uint32_t Y) { return Frame[X] < Frame[Y]; });
  OnNs.assign(Frame.size(), 0);
  OffNs.assign(Frame.size(), 0);
  for (uint32_t I = Frame.size(); I-- > 1;) {
    if (Fig[I]) {
      OnNs[I] += Fig[I]->OnNs;
      OffNs[I] += Fig[I]->OffNs;
    }
    OnNs[Parent[I]] += OnNs[I];
    OffNs[Parent[I]] += OffNs[I];
  }
}

/// The samples' totals and losses, and their on- and off-CPU flame graphs.
void HtmlDoc::samples(json::OStream &J) {
  Prog.phase("samples");
  SampleSummary S = summarizeSamples(P, A);
  SampleTree Tree(S);
  auto Parent = [&](uint32_t I) { return Tree.Parent[I]; };
  auto Children = [&](uint32_t I) { return ArrayRef(Tree.Children[I]); };
  auto Graph = [&](StringRef Key, bool On) {
    auto Width = [&](uint32_t I, unsigned) {
      return Tree.Fig[I] ? (On ? Tree.Fig[I]->OnNs : Tree.Fig[I]->OffNs) : 0;
    };
    auto InGraph = [&](uint32_t I) {
      return (On ? Tree.OnNs[I] : Tree.OffNs[I]) > 0;
    };
    FlameTree T;
    T.Size = Tree.Frame.size();
    T.Parent = Parent;
    T.Children = Children;
    T.Width = Width;
    T.SelfWidths = true;
    T.InGraph = InGraph;
    flameJson(J, Key, planFlame(T, L), L, [&](uint32_t I) {
      const SampleFrame &Fr = Tree.Frame[I];
      if (Fr.Func == kOutsideFunc || ReportId[Fr.Func] < 0)
        J.attribute("name", Fr.Func == kOutsideFunc ? std::string(kOutsideFrame)
                                                    : Names.name(Fr.Func));
      else
        J.attribute("function", ReportId[Fr.Func]);
      if (Fr.Counted)
        J.attribute("counted", true);
      if (Fr.OutsideProbes)
        J.attribute("outside_probes", true);
      if (const SampleFigures *F = Tree.Fig[I]) {
        J.attribute("on_cpu_ns", F->OnNs);
        J.attribute("on_cpu_uncertainty_ns", 1.96 * std::sqrt(F->OnVarNs2));
        J.attribute("on_cpu_samples", int64_t(F->OnSamples));
        J.attribute("off_cpu_ns", F->OffNs);
        J.attribute("off_cpu_samples", int64_t(F->OffSamples));
      }
    });
  };
  J.attributeObject("samples", [&] {
    J.attribute("processes", int64_t(S.Processes));
    J.attribute("on_cpu_ns", S.All.OnNs);
    J.attribute("off_cpu_ns", S.All.OffNs);
    J.attribute("samples", int64_t(S.All.samples()));
    J.attributeObject("losses", [&] {
      J.attribute("dropped", int64_t(S.Dropped));
      J.attribute("torn_discarded", int64_t(S.TornDiscarded));
      J.attribute("unmapped", int64_t(S.Unmapped));
    });
    // How the on-CPU time of timed frames went to counted functions
    // (SampledSplit), for the on-CPU graph's note.
    J.attributeObject("split", [&] {
      J.attribute("split_on_cpu_ns", S.Split.SplitOnNs);
      J.attribute("counted_on_cpu_ns", S.Split.CountedOnNs);
      J.attribute("counted_uncertainty_ns",
                  1.96 * std::sqrt(S.Split.CountedVarNs2));
      J.attribute("unsplit_on_cpu_ns", S.Split.UnsplitOnNs);
    });
    Graph("on_cpu", true);
    Graph("off_cpu", false);
  });
}

/// One self-contained HTML file (flame graphs, tables, header) at
/// O.OutputPath.
static Error writeHtmlReport(const Profile &P, const ViewOptions &O,
                             raw_ostream &, Progress &Prog) {
  Prog.phase("aggregating");
  Aggregate A = aggregate(P);
  std::string Title = "ActiveTime report";
  if (!P.Processes.empty())
    Title += ": " + sys::path::filename(P.Processes[0].Exe).str();
  Prog.phase("writing " + O.OutputPath);
  return writeHtmlPage(O.OutputPath, Title, HtmlApp::Report,
                       [&](raw_ostream &OS) {
                         HtmlDoc(P, A, O, Prog).write(OS);
                         return Error::success();
                       });
}

static View htmlView() {
  View V;
  V.Name = "html";
  V.Description = "Write a self-contained interactive HTML report to FILE "
                  "(flame graphs, tables, header)";
  V.OutputValue = "file";
  V.Reads = "no-demangle full-names progress prune-below";
  V.NoJsonHint = "the HTML file embeds its own document; 'activetime export "
                 "--format=json' writes the whole profile";
  V.Write = writeHtmlReport;
  return V;
}
static ViewRegistration RegisterHtmlView(ViewKind::Report, 60, htmlView);

Error report::writeHtmlPage(StringRef Path, StringRef Title, HtmlApp App,
                            function_ref<Error(raw_ostream &)> WriteDoc) {
  StringRef Script =
      App == HtmlApp::Diff ? ASSET(kDiffJs) : ASSET(kReportJs);
  return writeOutputFile(Path, [&](raw_ostream &OS) -> Error {
    OS << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
       << "<meta name=\"generator\" content=\"" << kGenerator
       << "\">\n<title>";
    escapeHtml(Title, OS);
    OS << "</title>\n<!--\nBundled: d3 " ACTIVETIME_D3_VERSION
          " (ISC license) and d3-flame-graph " ACTIVETIME_D3FG_VERSION
          " (Apache License 2.0); their license texts follow.\n\n";
    // Comment text may not contain "--".
    for (StringRef L : {ASSET(kD3License), ASSET(kD3FgLicense)}) {
      std::string T = L.str();
      for (size_t I; (I = T.find("--")) != std::string::npos;)
        T.replace(I, 2, "- -");
      OS << T << "\n";
    }
    OS << "-->\n<style>\n" << ASSET(kReportCss) << "</style>\n</head>\n<body>\n"
       << "<noscript>This report needs JavaScript.</noscript>\n"
       << "<div id=\"app\"></div>\n"
       << "<script type=\"application/json\" id=\"activetime-data\">";
    {
      ScriptDataStream DS(OS);
      if (Error E = WriteDoc(DS))
        return E;
    }
    OS << "</script>\n<script>\n" << ASSET(kD3Js) << "\n</script>\n<script>\n"
       << ASSET(kD3FgJs) << "\n</script>\n<script>\n" << ASSET(kCommonJs)
       << "\n</script>\n<script>\n" << Script
       << "\n</script>\n</body>\n</html>\n";
    return Error::success();
  });
}
