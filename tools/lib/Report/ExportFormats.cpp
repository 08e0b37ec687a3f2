//===- ExportFormats.cpp - The table of export formats --------------------===//
//
// Part of ActiveTime. See activetime/Report/Export.h.
//
//===----------------------------------------------------------------------===//

#include "activetime/Report/Export.h"

using namespace llvm;
using namespace activetime::report;

static const ExportFormat Formats[] = {
    {"prefetch", "prefetch hints for -activetime-prefetch-use",
     "latency-ns max-distance", writePrefetchHints},
    {"folded",
     "folded stacks of the samples (flamegraph.pl, speedscope, inferno)",
     "off-cpu value no-demangle full-names", writeFolded},
    {"json", "the whole profile as one versioned JSON document",
     "no-demangle full-names", writeExportJson},
    {"chrome",
     "mode=trace data as Chrome trace-event JSON (Perfetto, chrome://tracing)",
     "no-demangle", writeChromeTrace},
    {"speedscope", "speedscope's JSON file format", "source no-demangle",
     writeSpeedscope},
    {"symbol-order", "hot functions first, for ld.lld --symbol-ordering-file",
     "order-by", writeSymbolOrder},
    {"sample-profile", "LLVM sample profile for clang -fprofile-sample-use",
     "sample-profile-format", writeSampleProfile},
    {"pprof",
     "call-tree times as gzipped pprof profile.proto (go tool pprof, "
     "Pyroscope, Grafana)",
     "no-demangle", writePprof},
};

ArrayRef<ExportFormat> activetime::report::exportFormats() { return Formats; }

const ExportFormat *activetime::report::findExportFormat(StringRef Name) {
  for (const ExportFormat &F : Formats)
    if (Name == F.Name)
      return &F;
  return nullptr;
}
