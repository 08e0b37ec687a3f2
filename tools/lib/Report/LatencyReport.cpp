//===- LatencyReport.cpp - Latency percentiles and histograms ---------------===//
//
// Part of ActiveTime. `activetime report --latency`: per function the
// distribution of its timed calls' active time, as `llvm-xray account`
// prints it (min, p50, p90, p99, max), then each listed function's
// histogram; and the "latency" objects of the JSON documents.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "activetime/Profile/Latency.h"
#include "activetime/Report/Format.h"
#include "activetime/Report/Reports.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;

const char report::LatencyNote[] =
    "latency = active time of one timed call (as min/max); p50/p90/p99 = "
    "the upper bound of the histogram bucket holding that rank (8 buckets "
    "per power of two): never below the true percentile, less than 12.5% "
    "above it, clamped to min..max; counted calls have no per-call time";

LatencyState report::latencyState(const LatencyHistogram &H, const Stats &S,
                                  const LatencyGap &Gap) {
  uint64_t Timed = S.Calls - std::min(S.Calls, S.CountedCalls);
  if (!Timed)
    return LatencyState::CountedOnly;
  if (Gap.Dropped && !H.total())
    return LatencyState::Dropped;
  if (Gap.Uncovered)
    return H.total() ? LatencyState::Partial : LatencyState::NotCollected;
  return LatencyState::Ok;
}

const char *report::latencyReason(LatencyState St) {
  switch (St) {
  case LatencyState::Ok:
    return "";
  case LatencyState::CountedOnly:
    return "only counted calls: no per-call time";
  case LatencyState::NotCollected:
    return "not collected (ACTIVETIME_OPTIONS=latency=0)";
  case LatencyState::Partial:
    return "collected for only some of the timed calls (latency=0 in some "
           "processes)";
  case LatencyState::Dropped:
    return "dropped: --ignore took time out of these calls, and a histogram "
           "of whole calls cannot be split";
  }
  return "";
}

LatencyFigures report::latencyFigures(const LatencyHistogram &H,
                                      const Stats &S, LatencyState St,
                                      const LatencyGap &Gap) {
  LatencyFigures F;
  uint64_t Timed = S.Calls - std::min(S.Calls, S.CountedCalls);
  F.SampledApart = std::min(Timed, Gap.SampledApart);
  F.TimedCalls = Timed - F.SampledApart;
  if (St != LatencyState::Ok) {
    F.Missing = latencyReason(St);
    return F;
  }
  F.Min = S.Min;
  F.P50 = H.percentile(50, S.Min, S.Max);
  F.P90 = H.percentile(90, S.Min, S.Max);
  F.P99 = H.percentile(99, S.Min, S.Max);
  F.Max = S.Max;
  return F;
}

void report::latencyJson(json::OStream &J, const LatencyHistogram &H,
                         const Stats &S, LatencyState St,
                         const LatencyGap &Gap, bool Buckets) {
  LatencyFigures F = latencyFigures(H, S, St, Gap);
  auto Ns = [](const std::optional<double> &V) {
    return V ? std::optional<double>(jsonNs(*V)) : std::nullopt;
  };
  J.attributeObject("latency", [&] {
    J.attribute("timed_calls", int64_t(F.TimedCalls));
    J.attribute("sampled_apart", int64_t(F.SampledApart));
    jsonNumber(J, "min", Ns(F.Min));
    jsonNumber(J, "p50", Ns(F.P50));
    jsonNumber(J, "p90", Ns(F.P90));
    jsonNumber(J, "p99", Ns(F.P99));
    jsonNumber(J, "max", Ns(F.Max));
    if (!F.Missing.empty())
      J.attribute("missing", F.Missing);
    if (!Buckets)
      return;
    J.attributeArray("buckets", [&] {
      if (St != LatencyState::Ok)
        return;
      for (const LatencyBin &B : H.bins())
        J.array([&] {
          J.value(B.LowerNs);
          J.value(B.UpperNs);
          J.value(int64_t(B.Count));
        });
    });
  });
}

/// One function's histogram: a line per non-empty bucket with a bar.
static void printHistogram(const LatencyHistogram &H, raw_ostream &OS) {
  std::vector<LatencyBin> Bins = H.bins();
  uint64_t Most = 0;
  for (const LatencyBin &B : Bins)
    Most = std::max(Most, B.Count);
  uint64_t Below = 0;
  for (const LatencyBin &B : Bins) {
    Below += B.Count;
    size_t Bar = Most ? size_t((B.Count * 40 + Most - 1) / Most) : 0;
    OS << formatv("    {0,10} .. {1,10} {2,10} {3,6} {4}\n", formatTime(B.LowerNs),
                  formatTime(B.UpperNs), B.Count,
                  formatv("{0:F1}%", 100.0 * double(Below) / double(H.total())),
                  std::string(Bar, '#'));
  }
}

/// A latency row as text: the same figures as the JSON document's (and so
/// the HTML table's), "-" where it has none.
static std::vector<std::string> latencyCells(const LatencyFigures &F,
                                             const std::string &Name) {
  auto Cell = [](const std::optional<double> &V) {
    return V ? formatTime(*V) : std::string("-");
  };
  return {utostr(F.TimedCalls), Cell(F.Min), Cell(F.P50), Cell(F.P90),
          Cell(F.P99), Cell(F.Max),
          F.Missing.empty() ? Name : Name + "  (" + F.Missing + ")"};
}

static void printRows(const std::vector<std::vector<std::string>> &Rows,
                      raw_ostream &OS) {
  std::vector<size_t> Width(Rows[0].size(), 0);
  for (const auto &R : Rows)
    for (size_t I = 0; I < R.size(); ++I)
      Width[I] = std::max(Width[I], R[I].size());
  for (const auto &R : Rows) {
    std::string Line;
    raw_string_ostream L(Line);
    for (size_t I = 0; I + 1 < R.size(); ++I)
      L << right_justify(R[I], Width[I] + 2);
    L << "  " << R.back();
    OS << StringRef(Line).rtrim() << "\n";
  }
}

/// Why some timed calls of the first \p Listed functions are in no
/// histogram although their threads had histograms.
static void sampledApartLine(const LatencyTable &L, const Aggregate &A,
                             size_t Listed, raw_ostream &OS) {
  uint64_t Calls = 0, Functions = 0;
  for (size_t I = 0; I < Listed; ++I)
    if (uint64_t N = L.Function[A.Flat[I].Func].SampledApart) {
      Calls += N;
      ++Functions;
    }
  if (!Calls)
    return;
  OS << formatv("\nsampled calls set apart: {0} timed calls of {1} listed "
                "{2} had a code sample whose interrupt, charged at its "
                "start-up estimate, was over a quarter of their time: their "
                "per-call time is that uncertain, so they are in no histogram "
                "and its percentiles describe the other calls; min and max "
                "bound them (min with the interrupts' cost, max without)\n",
                Calls, Functions, Functions == 1 ? "function" : "functions");
}

/// `report --latency`: per function timed calls, min, p50, p90, p99, max
/// (the first --top rows of the flat order; 0 = all), then their
/// histograms.
static Error writeLatencyReport(const Profile &P, const ViewOptions &O,
                                raw_ostream &OS, Progress &) {
  printFiltersLine(O, OS);
  Aggregate A = aggregate(P);
  LatencyTable L = latencies(P, A);
  FunctionNamer Names(A, O.names(NameUse::Asked));
  unsigned Top = O.Top;
  OS << "note: " << LatencyNote << "\n\n";
  std::vector<std::vector<std::string>> Rows = {
      {"timed calls", "min", "p50", "p90", "p99", "max", "function"}};
  // The listed functions (the first Top of the flat order) and their states.
  std::vector<LatencyState> Listed;
  for (const FunctionStats &F : A.Flat) {
    if (Top && Listed.size() == Top)
      break;
    const LatencyHistogram &H = L.ByFunction[F.Func];
    const LatencyGap &Gap = L.Function[F.Func];
    Listed.push_back(latencyState(H, F.S, Gap));
    Rows.push_back(latencyCells(latencyFigures(H, F.S, Listed.back(), Gap),
                                Names.name(F.Func)));
  }
  printRows(Rows, OS);
  sampledApartLine(L, A, Listed.size(), OS);
  for (size_t I = 0; I < Listed.size(); ++I) {
    const FunctionStats &F = A.Flat[I];
    const LatencyHistogram &H = L.ByFunction[F.Func];
    if (Listed[I] != LatencyState::Ok)
      continue;
    OS << formatv("\nhistogram of {0}: {1} timed calls (bucket, calls, "
                  "calls up to here)",
                  Names.name(F.Func), H.total());
    if (uint64_t Apart = L.Function[F.Func].SampledApart)
      OS << formatv("; {0} sampled calls set apart", Apart);
    OS << "\n";
    printHistogram(H, OS);
  }
  return Error::success();
}

static View latencyView() {
  View V;
  V.Name = "latency";
  V.Description =
      "Print each function's latency distribution instead of the time "
      "report: timed calls, min, p50, p90, p99, max of the active time per "
      "call, and the histograms";
  V.Reads = "top no-demangle full-names";
  V.NoJsonHint = "the time report's JSON ('report --json') has a "
                 "\"latency\" object per function";
  V.Write = writeLatencyReport;
  return V;
}
static ViewRegistration RegisterLatencyView(ViewKind::Report, 50, latencyView);
