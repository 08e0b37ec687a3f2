//===- StrideReport.cpp - Memory access sites of stride profiling ----------===//
//
// Part of ActiveTime. `activetime report --strides`: one row per memory
// access site, dynamic ones (profiled at run time) first by executions, as
// text or as JSON (the "strides" array of the export document).
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "activetime/abi.h"
#include "activetime/Profile/Flags.h"
#include "activetime/Profile/Strides.h"
#include "activetime/Report/Format.h"
#include "activetime/Report/Reports.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <set>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;

static bool unprovenCopy(const StrideRow &R) {
  return R.Site.Flags & abi::MS_CopyUnproven;
}

/// The copies column: "x4" for a row folded from 4 unrolled copies the pass
/// proved, "x4 observed" when their offsets were observed at run time;
/// "#G+OFF" for a copy shown alone (copy group G, byte offset OFF), "#G~+OFF"
/// for an unproven copy (OFF as observed, "#G~?" if it was not); "-".
static std::string copiesCell(const StrideRow &R) {
  if (R.Unroll > 1)
    return "x" + utostr(R.Unroll) + (R.RunTimeFold ? " observed" : "");
  if (!R.Site.CopyGroup)
    return "-";
  std::string Group = "#" + utostr(R.Site.CopyGroup);
  std::optional<int64_t> Off = R.Site.CopyOffset;
  if (unprovenCopy(R)) {
    Group += "~";
    Off = R.ObservedOffset;
  }
  if (!Off)
    return Group + "?";
  return Group + (*Off >= 0 ? "+" : "") + itostr(*Off);
}

static const char *foldName(const StrideRow &R) {
  return R.RunTimeFold ? "run-time" : "compile-time";
}

/// One row of the text table: location, function, access, stride, elems,
/// class, confidence, observed, executions, gcd, iter, kind, copies.
static std::vector<std::string> strideCells(const StrideRow &R,
                                            const FunctionNamer &Names) {
  const MemSite &S = R.Site;
  std::string Loc = S.File.empty() ? "?" : sys::path::filename(S.File).str();
  Loc += ":" + utostr(S.Line) + ":" + utostr(S.Column);
  std::string Fn = Names.name(S.Func);
  bool HasStride =
      R.Class != StrideClass::Irregular && R.Class != StrideClass::Unknown;
  std::string Elems = "-";
  if (HasStride) {
    if (R.Stride % int64_t(S.AccessSize) == 0)
      Elems = itostr(R.Stride / int64_t(S.AccessSize));
    else
      Elems = formatv("{0:F2}", double(R.Stride) / S.AccessSize).str();
  }
  return {Loc, Fn,
       (siteFlags(S).Store ? "store " : "load ") +
           utostr(S.AccessSize),
       HasStride ? itostr(R.Stride) : "-", Elems, strideClassName(R.Class),
       R.Static ? "-"
                : (S.Adjacent ? formatv("{0:F1}%", R.Confidence * 100).str()
                              : "-"),
       R.Static ? "-" : utostr(S.Observations),
       R.Static ? "-" : utostr(S.Executions),
       R.Static || R.Unroll > 1 ? "-" : utostr(S.Gcd),
       R.IterNs ? plainTime(*R.IterNs) : "-",
       R.Static ? "static" : "dynamic", copiesCell(R)};
}

static void printTable(const std::vector<std::vector<std::string>> &Table,
                       raw_ostream &OS) {
  std::vector<size_t> Width(Table[0].size(), 0);
  for (const auto &Row : Table)
    for (size_t I = 0; I < Row.size(); ++I)
      Width[I] = std::max(Width[I], Row[I].size());
  for (const auto &Row : Table) {
    std::string Line;
    raw_string_ostream L(Line);
    L << "  ";
    for (size_t I = 0; I < Row.size(); ++I) {
      // Text columns left, numbers right.
      bool Left = I <= 2 || I == 5 || I >= 11;
      L << (Left ? left_justify(Row[I], Width[I]) : right_justify(Row[I], Width[I]))
        << "  ";
    }
    OS << StringRef(Line).rtrim() << "\n";
  }
}

/// Below the table: each copy group left unfolded, once, and why.
static void printFoldNotes(const std::vector<StrideRow> &Rows,
                           const FunctionNamer &Names, raw_ostream &OS) {
  std::set<std::pair<std::string, uint32_t>> Seen;
  for (const StrideRow &R : Rows) {
    if (R.FoldNote.empty() ||
        !Seen.insert({R.Module, R.Site.CopyGroup}).second)
      continue;
    size_t N = llvm::count_if(Rows, [&](const StrideRow &X) {
      return X.Module == R.Module && X.Site.CopyGroup == R.Site.CopyGroup;
    });
    OS << "  note: " << sys::path::filename(R.Site.File) << ":" << R.Site.Line
       << ":" << R.Site.Column << " " << Names.name(R.Site.Func) << ": " << N
       << " copies of one source access (#" << R.Site.CopyGroup
       << (unprovenCopy(R) ? ", offsets not proven at compile time" : "")
       << ") shown unfolded: " << R.FoldNote << "\n";
  }
}

/// The probe gap of the processes with sites, in ns: "12.3 ns", or a range
/// "10.1-12.3 ns" when they differ.
static std::string probeGapNs(const Profile &P) {
  double Lo = 0, Hi = 0;
  bool Any = false;
  for (const Process &Pr : P.Processes) {
    if (Pr.Sites.empty() || !Pr.TickRate)
      continue;
    double Ns = double(Pr.ProbeGapTicks) * 1e9 / double(Pr.TickRate);
    Lo = Any ? std::min(Lo, Ns) : Ns;
    Hi = Any ? std::max(Hi, Ns) : Ns;
    Any = true;
  }
  if (Lo == Hi)
    return formatv("{0:f1} ns", Lo).str();
  return formatv("{0:f1}-{1:f1} ns", Lo, Hi).str();
}

/// The memory access sites of stride profiling, dynamic ones first; the
/// unrolled copies of one source access folded into one row
/// (profile::foldCopies) unless --per-copy.
static void printStrideReport(const Profile &P, const ViewOptions &O,
                              raw_ostream &OS) {
  FunctionNamer Names(O.names(NameUse::StrideSite));
  bool PerCopy = O.PerCopy;
  std::vector<StrideRow> Rows = strideRows(P);
  size_t Static = llvm::count_if(Rows, [](const StrideRow &R) { return R.Static; });
  size_t Led = llvm::count_if(
      Rows, [](const StrideRow &R) { return R.Site.ProbeLead != 0; });
  OS << "Memory access sites: " << Rows.size() << " (" << Rows.size() - Static
     << " dynamic, " << Static << " static";
  if (Led)
    OS << "; " << Led << " dynamic measured by another site's probe at a "
       << "constant offset";
  OS << ")\n";
  if (!PerCopy) {
    Rows = foldCopies(Rows);
    size_t Folded = llvm::count_if(Rows, [](const StrideRow &R) { return R.Unroll > 1; });
    size_t Observed = llvm::count_if(
        Rows, [](const StrideRow &R) { return R.Unroll > 1 && R.RunTimeFold; });
    if (Folded) {
      OS << "Unrolled copies: " << Folded
         << " source accesses folded into one row each (";
      if (Observed)
        OS << Observed << " by offsets observed at run time; ";
      OS << "--per-copy: one row per site)\n";
    }
  }
  if (Rows.empty()) {
    OS << "  no site tables in the profile (compile with -mllvm "
          "-activetime-strides)\n";
    return;
  }
  std::stable_sort(Rows.begin(), Rows.end(),
                   [](const StrideRow &A, const StrideRow &B) {
                     if (A.Static != B.Static)
                       return !A.Static;
                     return A.Site.Executions > B.Site.Executions;
                   });
  std::vector<std::vector<std::string>> Table;
  Table.push_back({"location", "function", "access", "stride", "elems",
                   "class", "confidence", "observed", "executions", "gcd",
                   "iter", "kind", "copies"});
  for (const StrideRow &R : Rows)
    Table.push_back(strideCells(R, Names));
  // The copies column only where the pass found copies (raw format 9).
  bool AnyCopies = llvm::any_of(
      Rows, [](const StrideRow &R) { return R.Site.CopyGroup != 0; });
  if (!AnyCopies)
    for (std::vector<std::string> &Row : Table)
      Row.pop_back();
  printTable(Table, OS);
  OS << "  stride in bytes, elems = stride / access size; confidence = share "
        "of adjacent differences equal to the stride (classed at >= "
     << unsigned(kStrideConfidence * 100)
     << "%); gcd = GCD of all non-zero differences; iter = mean time of one "
        "step of the stride, less the loop's probes in it: the time they "
        "measured, and per call the probe gap their tick reads cannot see "
        "(call, return, a tick read: "
     << probeGapNs(P) << ", measured by the process)\n";
  if (AnyCopies)
    OS << "  copies: x N = N unrolled copies of one source access folded into "
        "the row (stride, elems and iter of one source step; counts summed; gcd "
        "per copy only: "
        "--per-copy shows each copy), #G+OFF = copy G at byte offset OFF\n";
  if (llvm::any_of(Rows, unprovenCopy))
    OS << "  x N observed: copies the compiler could not prove (addresses "
          "through loaded values), folded because their offsets observed at "
          "run time are steps of the stride; #G~+OFF = such a copy at "
          "observed offset OFF\n";
  printFoldNotes(Rows, Names, OS);
}

void report::strideSitesJson(const Profile &P, json::OStream &J,
                             const ViewOptions &O, bool Fold) {
  FunctionNamer Names(O.names(NameUse::StrideSite));
  std::vector<StrideRow> Rows = strideRows(P);
  if (Fold)
    Rows = foldCopies(Rows);
  J.attributeArray("strides", [&] {
    for (const StrideRow &R : Rows) {
      const MemSite &S = R.Site;
      bool HasStride = R.Class != StrideClass::Irregular &&
                       R.Class != StrideClass::Unknown;
      J.object([&] {
        J.attribute("module", R.Module);
        J.attribute("function", Names.name(S.Func));
        J.attribute("file", S.File);
        J.attribute("line", int64_t(S.Line));
        J.attribute("column", int64_t(S.Column));
        J.attribute("access", siteFlags(S).Store ? "store" : "load");
        J.attribute("access_size", int64_t(S.AccessSize));
        J.attribute("static", R.Static);
        J.attribute("class", strideClassName(R.Class));
        if (HasStride)
          J.attribute("stride", R.Stride);
        else
          J.attribute("stride", nullptr);
        J.attribute("confidence", R.Confidence);
        J.attribute("executions", int64_t(S.Executions));
        J.attribute("observations", int64_t(S.Observations));
        J.attribute("gcd", int64_t(S.Gcd));
        if (R.IterNs)
          J.attribute("iteration_ns", *R.IterNs);
        else
          J.attribute("iteration_ns", nullptr);
        // Unrolled copies (raw format 9): the pass's copy group and offset;
        // a folded row's copies and their stride; why a group is unfolded.
        J.attribute("copy_group", int64_t(S.CopyGroup));
        J.attribute("copy_offset", S.CopyOffset);
        J.attribute("unroll", int64_t(R.Unroll));
        if (R.Unroll > 1)
          J.attribute("copy_stride", R.CopyStride);
        else
          J.attribute("copy_stride", nullptr);
        // Raw format 16: how a folded row's copies are known to be copies
        // (the pass proved their offsets, or the runtime observed them);
        // an unproven copy's observed offsets.
        if (R.Unroll > 1)
          J.attribute("fold", foldName(R));
        else
          J.attribute("fold", nullptr);
        if (S.CopyGroup && R.Unroll == 1)
          J.attribute("copy_proven", !unprovenCopy(R));
        else
          J.attribute("copy_proven", nullptr);
        if (unprovenCopy(R) && R.Unroll == 1) {
          if (R.ObservedOffset)
            J.attribute("observed_offset", *R.ObservedOffset);
          else
            J.attribute("observed_offset", nullptr);
          J.attribute("prev_offset", S.PrevOffset);
          J.attribute("prev_pairs", int64_t(S.PrevPairs));
          J.attribute("prev_offset_count", int64_t(S.PrevOffsetCount));
        }
        // Raw format 19: a site measured by another's probe (1 + that
        // site's index in the module's sites) and its offset from it; a
        // folded row stands for several sites: null.
        if (R.Unroll > 1) {
          J.attribute("probe_lead", nullptr);
          J.attribute("lead_offset", nullptr);
        } else {
          J.attribute("probe_lead", int64_t(S.ProbeLead));
          J.attribute("lead_offset", S.LeadOffset);
        }
        if (R.FoldNote.empty())
          J.attribute("fold_note", nullptr);
        else
          J.attribute("fold_note", R.FoldNote);
      });
    }
  });
}

static void printStrideReportJson(const Profile &P, const ViewOptions &O,
                                  raw_ostream &OS) {
  json::OStream J(OS, 2);
  J.object([&] {
    J.attribute("schema", "activetime-strides");
    J.attribute("version", 1);
    strideSitesJson(P, J, O, !O.PerCopy);
  });
  OS << "\n";
}

static View strideView() {
  View V;
  V.Name = "strides";
  V.Description = "Print the memory access sites of stride profiling "
                  "instead of the time report";
  V.Reads = "json no-demangle per-copy";
  // The sites belong to no call or thread.
  V.CallFilters = false;
  V.Write = [](const Profile &P, const ViewOptions &O, raw_ostream &OS,
               Progress &) -> Error {
    if (O.Json)
      printStrideReportJson(P, O, OS);
    else
      printStrideReport(P, O, OS);
    return Error::success();
  };
  return V;
}
static ViewRegistration RegisterStrideView(ViewKind::Report, 20, strideView);
