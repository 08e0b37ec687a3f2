//===- CallSiteRows.cpp - A call-site row as the views print it -----------===//
//
// Part of ActiveTime. See CallSiteRows.h.
//
//===----------------------------------------------------------------------===//

#include "CallSiteRows.h"
#include "activetime/Report/Format.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;

const char CallSiteRows::CountedNote[] =
    "~counted: calls that were only counted ran no probe and recorded no "
    "call site; a function's counted calls on a thread are placed at the "
    "sites its code samples in them returned to, in proportion, or, with no "
    "such sample, as its timed calls there were; an estimate, without time";

CallSiteRows::CallSiteRows(const Profile &P, const Aggregate &A,
                           const FunctionNamer &Names)
    : Names(Names) {
  symbolize::LLVMSymbolizer::Options SO;
  SO.Demangle = false;
  Sym = std::make_unique<symbolize::LLVMSymbolizer>(SO);
  T = placeCalls(P, A, Sym.get());
}

std::string CallSiteRows::name(uint32_t F) const { return Names.name(F); }

std::string CallSiteRows::caller(const SiteRow &R) const {
  switch (R.Kind) {
  case CallerKind::Function:
    return name(R.Caller);
  case CallerKind::ThreadRoot:
    return "<thread root>";
  case CallerKind::Outside:
    return "<outside the program> in " + name(R.Enclosing);
  }
  return "";
}

std::string CallSiteRows::location(const SiteRow &R) const {
  if (R.Kind != CallerKind::Function)
    return "";
  const CallEdge &E = T.Graph.Edges[R.Edges.front()];
  if (!E.ReturnAddr && E.Unresolved)
    return "(call site unknown: its object's symbols could not be read; the "
           "nearest timed caller)";
  if (!E.ReturnAddr)
    return "(call site not recorded: the nearest timed caller)";
  const SourceSite &W = R.Where;
  if (!W.known())
    return formatv("(no line info, return address {0:x})", E.ReturnAddr);
  std::string L = W.File + ":" + utostr(W.Line);
  if (R.Detail >= 1 && W.Column)
    L += ":" + utostr(W.Column);
  if (R.Detail >= 2)
    L += " discriminator " + utostr(W.Discriminator);
  if (!W.InlinedFrom.empty()) {
    L += " (in " + Names.name(W.InlinedFrom) + ", inlined at " +
         W.InlinedAtFile + ":" + utostr(W.InlinedAt);
    if (R.Detail >= 3)
      for (size_t I = 1; I < W.Frames.size(); ++I)
        L += " via " + Names.name(W.Frames[I].first) + ":" +
             utostr(W.Frames[I].second);
    L += ")";
  }
  return L;
}

std::string CallSiteRows::timedCalls(const SiteRow &R) {
  std::string S = utostr(R.Timed);
  if (R.RecursiveTimed)
    S += formatv(" ({0} rec)", R.RecursiveTimed).str();
  return S;
}

std::string CallSiteRows::countedCalls(const SiteRow &R) {
  if (R.Counted <= 0)
    return "-";
  return "~" + utostr(uint64_t(std::llround(R.Counted)));
}

void CallSiteRows::json(json::OStream &J, const SiteRow &R,
                        const std::vector<uint32_t> &JsonId) const {
  auto Id = [&](uint32_t F) {
    return F == kNoFunc || JsonId[F] == UINT32_MAX ? json::Value(nullptr)
                                                   : json::Value(JsonId[F]);
  };
  const char *Kind = R.Kind == CallerKind::Function     ? "function"
                     : R.Kind == CallerKind::ThreadRoot ? "thread_root"
                                                        : "outside";
  J.attribute("caller_kind", Kind);
  // The caller as the text views print it ("<thread root>", ...).
  J.attribute("caller_text", caller(R));
  J.attribute("enclosing", Id(R.Enclosing));
  J.attribute("location", location(R));
  J.attribute("file", R.Where.File);
  J.attribute("line", int64_t(R.Where.Line));
  J.attribute("column", int64_t(R.Where.Column));
  J.attribute("discriminator", int64_t(R.Where.Discriminator));
  J.attribute("inlined_from",
              R.Where.InlinedFrom.empty()
                  ? json::Value(nullptr)
                  : json::Value(Names.name(R.Where.InlinedFrom)));
  J.attribute("inlined_at_file", R.Where.InlinedAtFile);
  J.attribute("inlined_at_line", int64_t(R.Where.InlinedAt));
  const CallEdge &First = T.Graph.Edges[R.Edges.front()];
  J.attribute("object", First.Object);
  J.attribute("return_address",
              First.ReturnAddr
                  ? json::Value(formatv("{0:x}", First.ReturnAddr).str())
                  : json::Value(nullptr));
  J.attributeArray("return_addresses", [&] {
    for (uint32_t I : R.Edges)
      if (T.Graph.Edges[I].ReturnAddr)
        J.value(formatv("{0:x}", T.Graph.Edges[I].ReturnAddr).str());
  });
  J.attribute("calls", int64_t(R.Timed));
  J.attribute("recursive_calls", int64_t(R.RecursiveTimed));
  J.attribute("counted_calls_estimate", R.Counted);
  J.attribute("counted_code_samples", int64_t(R.Samples));
  // Counted calls alone have no time: null rather than 0.
  Figure F = R.active();
  auto Timed = [&](double V) {
    return R.Timed ? json::Value(V) : json::Value(nullptr);
  };
  J.attribute("active_ns", Timed(jsonNs(F.Shown)));
  J.attribute("active_uncertainty_ns", Timed(F.Error));
  J.attribute("elapsed_ns", Timed(R.ElapsedNs));
  if (R.Timed && F.Clamped)
    J.attributeObject("clamped", [&] { J.attribute("active_ns", F.Measured); });
  J.attribute("targets_at_site", int64_t(R.Targets));
  J.attribute("site_calls", R.SiteCalls);
}
