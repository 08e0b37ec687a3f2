//===- DiffReport.cpp - `activetime diff` as text, JSON and HTML ----------===//
//
// Part of ActiveTime. See activetime/Report/DiffReport.h. Every figure is
// per run (a side's total over its runs divided by their number), so sides
// with different numbers of runs compare; each side's names, how its
// self times were obtained and whether its active time is really active
// come from that side's ReportModel.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "HtmlFlame.h"
#include "activetime/Report/DiffReport.h"
#include "activetime/Report/Format.h"
#include "activetime/Report/ReportModel.h"
#include "activetime/Profile/Flags.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <cmath>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;

namespace {

const char *const SideNames[2] = {"base", "new"};

/// How a side's figures were obtained, for the comparison's caveats.
struct Method {
  unsigned NoSwitchData = 0; // threads whose active time includes off-CPU
  unsigned EveryCallTimed = 0, ShortCallsCounted = 0; // processes
  unsigned WithCodeSamples = 0;                        // processes
  unsigned Unstable = 0, SampleCostUnmeasured = 0;     // processes
  bool CountedCalls = false;
  static Method of(const DiffSideInfo &S) {
    Method M;
    M.NoSwitchData = SwitchSummary::of(*S.P).None;
    for (const Process &Pr : S.P->Processes) {
      ++(Pr.TimingThreshold ? M.ShortCallsCounted : M.EveryCallTimed);
      M.WithCodeSamples += Pr.CodeSamplePeriodNs != 0;
      M.Unstable +=
          overheadSource(Pr.Overhead) == OverheadSource::Calibrated &&
          !Pr.Overhead.Stable;
      M.SampleCostUnmeasured += Pr.CodeSamplePeriodNs &&
                                codeSampling(Pr).CostUnmeasured;
    }
    M.CountedCalls = S.A->How.CountedCalls != 0;
    return M;
  }
  const char *timing() const {
    if (!ShortCallsCounted)
      return "timed every call (mode=trace or timing_ratio=0)";
    if (!EveryCallTimed)
      return "counted calls shorter than the timing threshold";
    return "timed every call in some processes and counted short calls in "
           "others";
  }
};

/// Both sides' report models and each entry's name as printed.
class DiffView {
public:
  DiffView(const DiffSideInfo &Base, const DiffSideInfo &New,
           const DiffResult &R, const DiffReportOptions &O)
      : Sides{&Base, &New}, R(R),
        O(O), Models{ReportModel(*Base.P, *Base.A,
                                 namesFor(NameUse::Asked, O.Names)),
                     ReportModel(*New.P, *New.A,
                                 namesFor(NameUse::Asked, O.Names))} {
    for (size_t I = 0; I < R.Functions.size(); ++I)
      Names.push_back(functionName(I));
    // Paths are ordered by their last frame's name on ties: a whole path's
    // text would cost its depth for every path (quadratic in a recursion).
    for (const DiffPath &P : R.Paths)
      PathNames.push_back(Names[P.Func]);
    for (int S = 0; S < 2; ++S) {
      FlatOf[S].assign(Sides[S]->A->Functions.size(), UINT32_MAX);
      for (size_t I = 0; I < Sides[S]->A->Flat.size(); ++I)
        FlatOf[S][Sides[S]->A->Flat[I].Func] = I;
    }
  }

  /// The side (0 base, 1 new) and aggregate id that name joint function I:
  /// new's when it has the function.
  std::pair<int, uint32_t> owner(size_t I) const {
    const DiffFunction &F = R.Functions[I];
    return F.New != kNoFunc ? std::make_pair(1, F.New)
                            : std::make_pair(0, F.Base);
  }
  std::string functionName(size_t I) const {
    auto [S, Id] = owner(I);
    return Models[S].Names.name(Id);
  }
  std::string fullName(size_t I) const {
    auto [S, Id] = owner(I);
    return Models[S].Names.fullName(Id);
  }
  std::string location(size_t I) const {
    auto [S, Id] = owner(I);
    return Models[S].location(Id);
  }
  /// "timed", "counted" or "timed>counted" when the sides differ; "" for a
  /// side without the function.
  std::string how(size_t I) const {
    std::string H[2];
    for (int S = 0; S < 2; ++S) {
      uint32_t Id = S ? R.Functions[I].New : R.Functions[I].Base;
      if (Id != kNoFunc && FlatOf[S][Id] != UINT32_MAX)
        H[S] = ReportModel::how(Sides[S]->A->Flat[FlatOf[S][Id]].S);
    }
    if (H[0].empty() || H[1].empty() || H[0] == H[1])
      return H[0].empty() ? H[1] : H[0];
    return H[0] + ">" + H[1];
  }
  /// A path as "main > f > g"; a long one keeps its root and its last
  /// frames.
  std::string shortPath(size_t P) const {
    constexpr unsigned Keep = 4;
    bool Long = R.Paths[P].Depth > Keep + 2;
    std::vector<uint32_t> Frames; // leaf first
    size_t I = P;
    for (; I != kNoPath && (!Long || Frames.size() < Keep);
         I = R.Paths[I].Parent)
      Frames.push_back(R.Paths[I].Func);
    std::string S;
    if (Long) {
      while (R.Paths[I].Parent != kNoPath)
        I = R.Paths[I].Parent;
      S = Names[R.Paths[I].Func] + " > ... (" +
          utostr(R.Paths[P].Depth - Keep - 1) + " frames)";
    }
    for (size_t K = Frames.size(); K-- > 0;)
      S += (S.empty() ? "" : " > ") + Names[Frames[K]];
    return S;
  }
  const DiffTime &metricTime(const DiffEntry &E) const {
    return O.Metric == DiffMetric::Active ? E.Active : E.Self;
  }

  const DiffSideInfo *Sides[2];
  const DiffResult &R;
  const DiffReportOptions &O;
  ReportModel Models[2];
  std::vector<std::string> Names, PathNames;
  std::vector<uint32_t> FlatOf[2];
};

/// What an entry's row says about its change in the ordering metric.
std::string changeWord(const DiffEntry &E, const DiffTime &T) {
  std::string W;
  if (!E.InBase)
    W = "added";
  else if (!E.InNew)
    W = "removed";
  switch (T.M) {
  case Mark::Significant:
    return W.empty() ? (T.delta() > 0 ? "slower" : "faster") : W;
  case Mark::Noise:
    return W.empty() ? "~" : W + " ~";
  case Mark::BelowFloor:
    return W.empty() ? "~floor" : W + " ~floor";
  case Mark::Unknown:
    if (!W.empty())
      return W;
    return T.delta() == 0 ? "same" : T.delta() > 0 ? "slower?" : "faster?";
  case Mark::NotComparable:
    return W.empty() ? "-" : W;
  }
  return W;
}

/// Counts of the entries' changes in the ordering metric.
struct Summary {
  unsigned Both = 0, Added = 0, Removed = 0;
  unsigned Slower = 0, Faster = 0, Noise = 0, Unknown = 0, NotComparable = 0;
  unsigned CallsChanged = 0;
  static Summary of(ArrayRef<DiffEntry> Entries, const DiffView &V) {
    Summary S;
    for (const DiffEntry &E : Entries) {
      if (!E.InBase && !E.InNew)
        continue;
      E.InBase && E.InNew ? ++S.Both : E.InNew ? ++S.Added : ++S.Removed;
      // Added and removed entries are counted as such, not as changes.
      if (!E.InBase || !E.InNew)
        continue;
      if (E.Calls.comparable() && E.Calls.delta() != 0)
        ++S.CallsChanged;
      const DiffTime &T = V.metricTime(E);
      switch (T.M) {
      case Mark::Significant:
        ++(T.delta() > 0 ? S.Slower : S.Faster);
        break;
      case Mark::Noise:
      case Mark::BelowFloor:
        ++S.Noise;
        break;
      case Mark::Unknown:
        ++S.Unknown;
        break;
      case Mark::NotComparable:
        ++S.NotComparable;
        break;
      }
    }
    return S;
  }
};

const char *metricName(DiffMetric M) {
  switch (M) {
  case DiffMetric::Active:
    return "active";
  case DiffMetric::Calls:
    return "calls";
  case DiffMetric::SelfActive:
    break;
  }
  return "self-active";
}

/// The side's executable's file name.
std::string exeName(const Profile &P) {
  StringRef Exe = P.Processes.front().Exe;
  return Exe.empty() ? "<unknown executable>"
                     : sys::path::filename(Exe).str();
}

/// A delta with its sign: "+" only before a value that prints as one (a
/// delta that rounds to zero is "0 ns", neither "+0" nor "-0").
std::string signedTime(double Ns) {
  std::string T = plainTime(Ns);
  bool Zero = StringRef(T).find_first_of("123456789") == StringRef::npos;
  return (Ns > 0 && !Zero ? "+" : "") + T;
}

std::string callsText(double C) {
  if (C == std::floor(C) && std::fabs(C) < 1e18)
    return itostr(int64_t(C));
  return formatv("{0:F1}", C).str();
}

/// 1, 1.5, 0.125: no trailing zeros.
std::string shortNumber(double X) {
  std::string S = formatv("{0:F3}", X).str();
  return StringRef(S).rtrim('0').rtrim('.').str();
}

std::string signedCalls(double C) {
  return (C > 0 ? "+" : "") + callsText(C);
}

//===-- Text ------------------------------------------------------------===//

class TextDiff {
public:
  TextDiff(const DiffView &V, raw_ostream &OS) : V(V), O(V.O), OS(OS) {}
  void print();

private:
  void header();
  void side(int S);
  void noiseLines();
  void summaryLine(StringRef What, const Summary &S);
  void table(ArrayRef<DiffEntry> Entries, bool Paths);
  std::vector<std::string> row(const DiffEntry &E, size_t I, bool Paths);

  const DiffView &V;
  const DiffReportOptions &O;
  raw_ostream &OS;
};

void TextDiff::side(int S) {
  const DiffSideInfo &Si = *V.Sides[S];
  size_t Procs = Si.P->Processes.size(), Runs = Si.Runs.size();
  OS << "  " << left_justify(std::string(SideNames[S]) + ":", 17)
     << join(Si.Files, " ") << "\n";
  OS << "                   " << describeBinary(Si.P->Processes.front())
     << "; " << Runs << (Runs == 1 ? " run, " : " runs, ") << Procs
     << (Procs == 1 ? " process" : " processes") << "\n";
}

void TextDiff::noiseLines() {
  const char *Indent = "                   ";
  OS << "  noise:           a delta within " << shortNumber(O.Noise.NoiseFactor)
     << " x its noise bound (+-95%: both sides' own +-95% of the figure"
     << (V.R.SpreadKnown ? ", plus the 95% confidence half-width of the "
                           "difference of the per-run means (Welch's t)"
                         : "")
     << ", at least one tick step; --noise-factor) is marked ~ and not "
        "counted as a change\n";
  if (!V.R.SpreadKnown) {
    size_t B = V.Sides[0]->Runs.size(), N = V.Sides[1]->Runs.size();
    OS << Indent << "SPREAD UNKNOWN: "
       << (B < 2 && N < 2 ? "each side has" : B < 2 ? "base has" : "new has")
       << " one run, so a delta beyond the bound is not judged against the "
          "run-to-run variation (slower?/faster?: the sign of the delta "
          "only); give two runs or more of each build\n";
  }
  if (O.Noise.MinDeltaNs > 0)
    OS << Indent << "deltas under " << plainTime(O.Noise.MinDeltaNs)
       << " (--min-delta) are marked ~floor\n";
  OS << "  calls:           exact counts, not measurements: a change in "
        "calls is real (the runs made different calls), never noise\n";
}

void TextDiff::summaryLine(StringRef What, const Summary &S) {
  OS << "  " << left_justify((What + ":").str(), 17) << S.Both
     << " in both, " << S.Added << " added, " << S.Removed << " removed; "
     << (O.Metric == DiffMetric::Active ? "active" : "self-active") << ": "
     << S.Slower << " slower, " << S.Faster
     << " faster";
  if (V.R.SpreadKnown || S.Noise)
    OS << ", " << S.Noise
       << (O.Noise.MinDeltaNs > 0 ? " within noise or under --min-delta"
                                  : " within noise");
  if (S.Unknown)
    OS << ", " << S.Unknown << " not judged (spread unknown)";
  if (S.NotComparable)
    OS << ", " << S.NotComparable << " not comparable";
  OS << "; calls changed in " << S.CallsChanged << "\n";
}

void TextDiff::header() {
  const DiffSideInfo &B = *V.Sides[0], &N = *V.Sides[1];
  OS << "ActiveTime diff: base " << B.Runs.size()
     << (B.Runs.size() == 1 ? " run" : " runs") << " of "
     << exeName(*B.P) << ", new "
     << N.Runs.size() << (N.Runs.size() == 1 ? " run" : " runs") << " of "
     << exeName(*N.P) << "\n";
  side(0);
  side(1);
  OS << "  figures:         per run (a side's total over its runs / its "
        "runs); delta = new - base; ratio = new / base\n";
  noiseLines();
  summaryLine("functions", Summary::of(V.R.FunctionDiffs, V));
  if (O.Paths)
    summaryLine("call paths", Summary::of(V.R.PathDiffs, V));
  for (const std::string &Note : methodDifferences(B, N))
    OS << "note: " << Note << "\n";
  OS << "note: " << TimesNote << "\n";
}

std::vector<std::string> TextDiff::row(const DiffEntry &E, size_t I,
                                       bool Paths) {
  auto Time = [](Has H, double Ns) {
    return H == Has::Value ? formatTime(Ns) : std::string("-");
  };
  auto Delta = [](const DiffTime &T) {
    return T.comparable() ? signedTime(T.delta()) : std::string("-");
  };
  auto Ratio = [](const DiffTime &T) {
    std::optional<double> R = T.ratio();
    if (R)
      return formatv("{0:F2}x", *R).str();
    // Comparable, but nothing to divide by: said so, not a number.
    return std::string(T.comparable() && T.BaseHas == Has::Value ? "n/a"
                                                                 : "-");
  };
  auto Calls = [](Has H, double C) {
    return H == Has::Value ? callsText(C) : std::string("-");
  };
  const DiffTime &M = V.metricTime(E);
  std::vector<std::string> R = {
      Time(E.Self.BaseHas, E.Self.Base),
      Time(E.Self.NewHas, E.Self.New),
      Delta(E.Self),
      Ratio(E.Self),
      plainTime(M.Bound),
      changeWord(E, M),
      Time(E.Active.BaseHas, E.Active.Base),
      Time(E.Active.NewHas, E.Active.New),
      Delta(E.Active),
      Calls(E.Calls.BaseHas, E.Calls.Base),
      Calls(E.Calls.NewHas, E.Calls.New),
      E.Calls.comparable() ? signedCalls(E.Calls.delta()) : "-"};
  if (Paths) {
    R.push_back(V.shortPath(I));
    R.push_back("");
  } else {
    R.push_back(V.how(I));
    R.push_back(V.Names[I]);
    R.push_back(V.location(I));
  }
  return R;
}

/// Right-aligned figures, left-aligned words and names; widths from the
/// rows shown.
void printColumns(raw_ostream &OS, ArrayRef<std::vector<std::string>> Rows,
                  const std::vector<bool> &Left) {
  std::vector<size_t> W(Left.size(), 0);
  for (const std::vector<std::string> &R : Rows)
    for (size_t C = 0; C < R.size(); ++C)
      W[C] = std::max(W[C], R[C].size());
  for (const std::vector<std::string> &R : Rows) {
    std::string Line;
    for (size_t C = 0; C < R.size(); ++C) {
      Line += C ? "  " : "";
      std::string Pad(W[C] - R[C].size(), ' ');
      Line += Left[C] ? R[C] + Pad : Pad + R[C];
    }
    OS << StringRef(Line).rtrim() << "\n";
  }
}

void TextDiff::table(ArrayRef<DiffEntry> Entries, bool Paths) {
  ArrayRef<std::string> Names = Paths ? V.PathNames : V.Names;
  std::vector<uint32_t> Order = sortByDelta(Entries, O.Metric, Names);
  size_t Shown = O.Top ? std::min<size_t>(O.Top, Order.size()) : Order.size();
  OS << "\n"
     << (Paths ? "call paths" : "functions") << " by |delta "
     << metricName(O.Metric)
     << "| (" << Shown << " of " << Order.size() << "):\n";
  std::vector<std::vector<std::string>> Rows;
  std::vector<std::string> Head = {
      "self base", "self new", "delta", "ratio", "+-95%", "change",
      "active base", "active new", "delta", "calls base", "calls new",
      "delta"};
  if (Paths) {
    Head.push_back("call path");
    Head.push_back("");
  } else {
    Head.push_back("how");
    Head.push_back("function");
    Head.push_back("location");
  }
  Rows.push_back(Head);
  for (size_t K = 0; K < Shown; ++K)
    Rows.push_back(row(Entries[Order[K]], Order[K], Paths));
  std::vector<bool> Left(Head.size(), false);
  Left[5] = true;
  for (size_t C = 12; C < Head.size(); ++C)
    Left[C] = true;
  printColumns(OS, Rows, Left);
  if (Shown < Order.size())
    OS << "(" << Order.size() - Shown << " more; --top 0 lists all)\n";
}

void TextDiff::print() {
  header();
  table(V.R.FunctionDiffs, false);
  if (O.Paths)
    table(V.R.PathDiffs, true);
  OS << "self = self-active, active = inclusive active time (\"-\": counted "
        "calls, no inclusive figure), as report prints them (at least 0); "
        "ratio n/a: the base is 0; +-95%: the delta's noise bound; change: "
        "slower/faster beyond the bound, ~ within it, ? spread unknown, "
        "added/removed: on one side only\n";
}

//===-- JSON ------------------------------------------------------------===//

/// The "activetime-diff" document, or with \p Html the HTML page's, whose
/// "flame" replaces "paths".
class JsonDiff {
public:
  JsonDiff(const DiffView &V, raw_ostream &OS, bool Html = false)
      : V(V), O(V.O), J(OS, Html ? 0 : 2), Html(Html) {}
  void print();

private:
  void side(int S);
  void summary(ArrayRef<DiffEntry> Entries);
  void figures(const DiffEntry &E);
  void time(StringRef Key, const DiffTime &T);
  void functions();
  void paths();
  void flame();

  const DiffView &V;
  const DiffReportOptions &O;
  json::OStream J;
  bool Html;
  std::vector<uint32_t> JsonId; // joint function -> position in "functions"
};

void JsonDiff::side(int S) {
  const DiffSideInfo &Si = *V.Sides[S];
  Method M = Method::of(Si);
  const Process &First = Si.P->Processes.front();
  J.attributeObject(SideNames[S], [&] {
    J.attributeArray("files", [&] {
      for (const std::string &F : Si.Files)
        J.value(F);
    });
    J.attribute("executable", First.Exe);
    J.attribute("build_id", buildIdHex(First));
    J.attribute("processes", int64_t(Si.P->Processes.size()));
    J.attributeArray("runs", [&] {
      for (const std::vector<uint32_t> &R : Si.Runs)
        J.object([&] {
          J.attributeArray("pids", [&] {
            for (uint32_t I : R)
              J.value(int64_t(Si.P->Processes[I].Pid));
          });
        });
    });
    J.attribute("threads_without_switch_data", int64_t(M.NoSwitchData));
    J.attribute("active_includes_off_cpu", M.NoSwitchData != 0);
    J.attribute("every_call_timed", M.ShortCallsCounted == 0);
    J.attribute("code_samples", M.WithCodeSamples != 0);
    J.attribute("total_self_active_ns",
                Si.A->TotalSelfActive / double(Si.Runs.size()));
  });
}

void JsonDiff::summary(ArrayRef<DiffEntry> Entries) {
  Summary S = Summary::of(Entries, V);
  J.object([&] {
    J.attribute("both", int64_t(S.Both));
    J.attribute("added", int64_t(S.Added));
    J.attribute("removed", int64_t(S.Removed));
    J.attribute("slower", int64_t(S.Slower));
    J.attribute("faster", int64_t(S.Faster));
    J.attribute("noise", int64_t(S.Noise));
    J.attribute("unknown", int64_t(S.Unknown));
    J.attribute("not_comparable", int64_t(S.NotComparable));
    J.attribute("calls_changed", int64_t(S.CallsChanged));
  });
}

json::Value orNull(bool Known, double V) {
  return Known ? json::Value(V) : json::Value(nullptr);
}

void JsonDiff::time(StringRef Key, const DiffTime &T) {
  J.attributeObject(Key, [&] {
    J.attribute("base_ns", orNull(T.BaseHas == Has::Value, T.Base));
    J.attribute("new_ns", orNull(T.NewHas == Has::Value, T.New));
    J.attribute("delta_ns", orNull(T.comparable(), jsonNs(T.delta())));
    std::optional<double> R = T.ratio();
    J.attribute("ratio", orNull(R.has_value(), R.value_or(0)));
    if (!R && T.comparable() && T.BaseHas == Has::Value)
      J.attribute("ratio_missing", "base is 0");
    J.attribute("spread_ns", orNull(T.Spread >= 0, T.Spread));
    J.attribute("base_uncertainty_ns",
                orNull(T.BaseHas == Has::Value, T.BaseErr));
    J.attribute("new_uncertainty_ns",
                orNull(T.NewHas == Has::Value, T.NewErr));
    J.attribute("tick_step_ns", T.StepNs);
    J.attribute("noise_ns", orNull(T.comparable(), T.Bound));
    J.attribute("mark", markName(T.M));
    J.attributeArray("base_runs_ns", [&] {
      for (double X : T.BaseRuns)
        J.value(X);
    });
    J.attributeArray("new_runs_ns", [&] {
      for (double X : T.NewRuns)
        J.value(X);
    });
  });
}

void JsonDiff::figures(const DiffEntry &E) {
  J.attribute("status", !E.InBase  ? "added"
                        : !E.InNew ? "removed"
                                   : "both");
  J.attribute("change", changeWord(E, V.metricTime(E)));
  J.attributeObject("calls", [&] {
    J.attribute("base", orNull(E.Calls.BaseHas == Has::Value, E.Calls.Base));
    J.attribute("new", orNull(E.Calls.NewHas == Has::Value, E.Calls.New));
    J.attribute("delta", orNull(E.Calls.comparable(), E.Calls.delta()));
  });
  time("self_active", E.Self);
  time("active", E.Active);
}

void JsonDiff::functions() {
  std::vector<uint32_t> Order =
      sortByDelta(V.R.FunctionDiffs, O.Metric, V.Names);
  JsonId.assign(V.R.Functions.size(), UINT32_MAX);
  for (size_t K = 0; K < Order.size(); ++K)
    JsonId[Order[K]] = K;
  J.attributeArray("functions", [&] {
    for (size_t K = 0; K < Order.size(); ++K) {
      uint32_t I = Order[K];
      auto [S, Id] = V.owner(I);
      const FunctionInfo &F = V.Sides[S]->A->Functions[Id];
      J.object([&] {
        J.attribute("id", int64_t(K));
        J.attribute("name", V.Names[I]);
        J.attribute("full_name", V.fullName(I));
        functionIdentityJson(J, F.Name, F.Local, F.Module, F.File, F.Line);
        J.attribute("how", V.how(I));
        figures(V.R.FunctionDiffs[I]);
      });
    }
  });
}

void JsonDiff::paths() {
  // Trie order: a path's parent comes before it. Paths of functions not in
  // either flat profile cannot occur (a tree node's function has calls).
  J.attributeArray("paths", [&] {
    for (size_t I = 0; I < V.R.Paths.size(); ++I) {
      const DiffPath &P = V.R.Paths[I];
      J.object([&] {
        J.attribute("id", int64_t(I));
        J.attribute("parent", P.Parent == kNoPath
                                  ? json::Value(nullptr)
                                  : json::Value(int64_t(P.Parent)));
        J.attribute("depth", int64_t(P.Depth));
        J.attribute("function", JsonId[P.Func] == UINT32_MAX
                                    ? json::Value(nullptr)
                                    : json::Value(int64_t(JsonId[P.Func])));
        figures(V.R.PathDiffs[I]);
      });
    }
  });
}

/// NEW's call tree as the HTML page's flame graph draws it (HtmlFlame.h):
/// its paths pruned, each frame as wide as NEW's inclusive active time (its
/// self-active time where calls were counted); BASE's own paths are not in
/// the graph.
void JsonDiff::flame() {
  const std::vector<DiffPath> &Paths = V.R.Paths;
  // Node 0 is a root above the paths, path I node I + 1.
  auto Parent = [&](uint32_t N) {
    uint32_t Par = Paths[N - 1].Parent;
    return Par == kNoPath ? 0 : Par + 1;
  };
  std::vector<std::vector<uint32_t>> Children(Paths.size() + 1);
  for (uint32_t N = 1; N <= Paths.size(); ++N)
    Children[Parent(N)].push_back(N);
  auto Kids = [&](uint32_t N) { return ArrayRef(Children[N]); };
  auto Width = [&](uint32_t N, unsigned) {
    const DiffEntry &E = V.R.PathDiffs[N - 1];
    if (E.Active.NewHas == Has::Value)
      return E.Active.New;
    return E.Self.NewHas == Has::Value ? E.Self.New : 0.0;
  };
  auto InGraph = [&](uint32_t N) { return V.R.PathDiffs[N - 1].InNew; };
  FlameTree T;
  T.Size = Paths.size() + 1;
  T.Parent = Parent;
  T.Children = Kids;
  T.Width = Width;
  T.InGraph = InGraph;
  FlameLimits L;
  L.MinShare = O.PruneBelow / 100;
  flameJson(J, "flame", planFlame(T, L), L, [&](uint32_t N) {
    const DiffPath &P = Paths[N - 1];
    J.attribute("function", JsonId[P.Func] == UINT32_MAX
                                ? json::Value(nullptr)
                                : json::Value(int64_t(JsonId[P.Func])));
    figures(V.R.PathDiffs[N - 1]);
  });
}

void JsonDiff::print() {
  J.object([&] {
    J.attribute("schema", Html ? "activetime-diff-html" : "activetime-diff");
    J.attribute("version", 1);
    J.attribute("generator", kGenerator);
    J.attribute("time_unit", "ns");
    J.attribute("figures", "per_run");
    side(0);
    side(1);
    J.attributeObject("noise", [&] {
      // The bound: both sides' +-95%, the Welch spread when known, at
      // least one tick step.
      J.attribute("method", "uncertainty+welch-t-95");
      J.attribute("spread_known", V.R.SpreadKnown);
      J.attribute("factor", O.Noise.NoiseFactor);
      J.attribute("min_delta_ns", O.Noise.MinDeltaNs);
    });
    J.attribute("order", metricName(O.Metric));
    J.attributeArray("method_differences", [&] {
      for (const std::string &N : methodDifferences(*V.Sides[0], *V.Sides[1]))
        J.value(N);
    });
    J.attributeObject("summary", [&] {
      J.attributeBegin("functions");
      summary(V.R.FunctionDiffs);
      J.attributeEnd();
      J.attributeBegin("paths");
      summary(V.R.PathDiffs);
      J.attributeEnd();
    });
    functions();
    if (Html)
      flame();
    else
      paths();
  });
  J.flush();
}

} // namespace

/// A side whose probe cost or code-sample cost was not measured as usual:
/// its times carry a less certain (or no) removal of that cost.
static void calibrationNotes(const Method (&M)[2],
                             std::vector<std::string> &Notes) {
  for (int S = 0; S < 2; ++S) {
    auto Procs = [](unsigned N) {
      return utostr(N) + (N == 1 ? " process" : " processes");
    };
    if (M[S].Unstable)
      Notes.push_back(std::string(SideNames[S]) +
                      ": the probe cost calibration was UNSTABLE in " +
                      Procs(M[S].Unstable) +
                      ": the probe cost removed from its times is less "
                      "certain");
    if (M[S].SampleCostUnmeasured && !M[1 - S].SampleCostUnmeasured)
      Notes.push_back(std::string(SideNames[S]) +
                      ": the code samples' cost was NOT MEASURED in " +
                      Procs(M[S].SampleCostUnmeasured) +
                      " (a busy machine at start-up): their interrupts stay "
                      "in its times, not in " + SideNames[1 - S] + "'s");
  }
}

std::vector<std::string> report::methodDifferences(const DiffSideInfo &Base,
                                                   const DiffSideInfo &New) {
  std::vector<std::string> Notes;
  Method M[2] = {Method::of(Base), Method::of(New)};
  if (M[0].NoSwitchData || M[1].NoSwitchData) {
    for (int S = 0; S < 2; ++S)
      if (M[S].NoSwitchData)
        Notes.push_back(
            std::string(SideNames[S]) + ": " + utostr(M[S].NoSwitchData) +
            (M[S].NoSwitchData == 1 ? " thread" : " threads") +
            " without switched-out measurement: its active times still "
            "include switched-out time" +
            (M[1 - S].NoSwitchData
                 ? std::string()
                 : std::string("; ") + SideNames[1 - S] +
                       "'s do not, so the sides' active times were "
                       "obtained differently and a delta may be "
                       "switched-out time"));
  }
  if (StringRef(M[0].timing()) != M[1].timing())
    Notes.push_back(std::string("timing differs: base ") + M[0].timing() +
                    ", new " + M[1].timing() +
                    ": short functions' times carry their probes' residual "
                    "cost where every call was timed, and are sampled "
                    "where counted");
  calibrationNotes(M, Notes);
  bool Samples[2] = {M[0].WithCodeSamples != 0, M[1].WithCodeSamples != 0};
  if (Samples[0] != Samples[1] && (M[0].CountedCalls || M[1].CountedCalls)) {
    int Without = Samples[0] ? 1 : 0;
    Notes.push_back(std::string(SideNames[Without]) +
                    " has no code samples: its counted functions' self time "
                    "stayed in their timed callers, while " +
                    SideNames[1 - Without] + " split it off by samples");
  }
  return Notes;
}

void report::printDiffReport(const DiffSideInfo &Base, const DiffSideInfo &New,
                             const DiffResult &R, const DiffReportOptions &O,
                             raw_ostream &OS) {
  DiffView V(Base, New, R, O);
  TextDiff(V, OS).print();
}

void report::printDiffJson(const DiffSideInfo &Base, const DiffSideInfo &New,
                           const DiffResult &R, const DiffReportOptions &O,
                           raw_ostream &OS) {
  DiffView V(Base, New, R, O);
  JsonDiff(V, OS).print();
}

Error report::writeDiffHtml(const DiffSideInfo &Base, const DiffSideInfo &New,
                            const DiffResult &R, const DiffReportOptions &O,
                            StringRef Path) {
  DiffView V(Base, New, R, O);
  std::string Title =
      "ActiveTime diff: " + exeName(*Base.P) + " vs " + exeName(*New.P);
  return writeHtmlPage(Path, Title, HtmlApp::Diff, [&](raw_ostream &OS) {
    JsonDiff(V, OS, /*Html=*/true).print();
    return Error::success();
  });
}
