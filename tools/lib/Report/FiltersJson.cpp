//===- FiltersJson.cpp - The filters applied, as JSON ---------------------===//
//
// Part of ActiveTime. The "filters" object of the report document: which
// --tid/--focus/--ignore/--from/--to options shaped the profile it
// describes, and what they dropped (activetime/Profile/Filter.h).
//
//===----------------------------------------------------------------------===//

#include "activetime/Report/Reports.h"

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;

void report::filtersJson(const FilterSummary *F, json::OStream &J) {
  if (!F || F->empty())
    return;
  J.attributeObject("filters", [&] {
    J.attributeArray("applied", [&] {
      for (const std::string &A : F->Applied)
        J.value(A);
    });
    J.attribute("description", F->describe());
    J.attribute("threads_kept", int64_t(F->ThreadsKept));
    J.attribute("threads_dropped", int64_t(F->ThreadsDropped));
    J.attribute("root_active_before_ns", F->RootActiveBeforeNs);
    J.attribute("root_active_after_ns", F->RootActiveAfterNs);
    J.attribute("ignored_calls", int64_t(F->IgnoredCalls));
    J.attribute("ignored_active_ns", F->IgnoredActiveNs);
    J.attribute("counted_calls_kept_whole", int64_t(F->CountedCallsKeptWhole));
    J.attribute("counted_calls_of_ignored_kept",
                int64_t(F->CountedCallsIgnoredKept));
    J.attribute("trace_events_dropped", int64_t(F->EventsDropped));
    J.attribute("trace_switches_dropped", int64_t(F->SwitchesDropped));
    J.attribute("trace_calls_clipped", int64_t(F->CallsClipped));
  });
}
