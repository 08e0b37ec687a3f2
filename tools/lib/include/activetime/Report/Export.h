//===- activetime/Report/Export.h - Profiles for other tools -*- C++ -*-===//
//
// Part of ActiveTime. Each export format is one entry of exportFormats(): a
// name, a one-line description, the options it reads and a writer that
// streams into the output. Adding a format means a writer file and an entry
// (docs/design.md, "Adding an export").
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_REPORT_EXPORT_H
#define ACTIVETIME_REPORT_EXPORT_H

#include "activetime/Profile/Filter.h"
#include "activetime/Profile/Profile.h"
#include "activetime/Report/Progress.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace activetime {
namespace report {

/// folded: what happens to off-CPU samples.
enum class OffCpuMode { Mark, Only, Exclude };
/// folded: the number after each stack.
enum class FoldedValue { Micros, Samples };
/// speedscope: which data becomes the profiles.
enum class SpeedscopeSource { Auto, Trace, Samples, Tree };
/// symbol-order: what makes a function hot.
enum class SymbolOrderKey { SelfActive, Calls };
/// sample-profile: LLVM's encoding.
enum class SampleProfileEncoding { ExtBinary, Text };

/// Every format's options; each writer reads only its own (the format's
/// Options list names them, so the command can refuse the others).
struct ExportOptions {
  bool Demangle = true;
  // json: the report's "names"; folded: its frames' (ShortNames.h)
  bool FullNames = false;
  OffCpuMode OffCpu = OffCpuMode::Mark;
  FoldedValue Value = FoldedValue::Micros;
  double LatencyNs = 100;
  unsigned MaxDistance = 64;
  SpeedscopeSource Source = SpeedscopeSource::Auto;
  SymbolOrderKey OrderBy = SymbolOrderKey::SelfActive;
  SampleProfileEncoding Encoding = SampleProfileEncoding::ExtBinary;
  /// The filters applied to the profile (json: the report's "filters").
  const profile::FilterSummary *Filters = nullptr;
};

using ExportWriter = llvm::Error (*)(const profile::Profile &,
                                     llvm::raw_ostream &,
                                     const ExportOptions &, Progress &);

struct ExportFormat {
  const char *Name;
  const char *Description;
  /// The command-line options (without dashes, space-separated) that this
  /// format reads beyond the common ones.
  const char *Options;
  ExportWriter Write;
};

/// All formats, in the order --help lists them.
llvm::ArrayRef<ExportFormat> exportFormats();
/// The format called \p Name, or null.
const ExportFormat *findExportFormat(llvm::StringRef Name);

// The writers (one file each).
llvm::Error writeFolded(const profile::Profile &P, llvm::raw_ostream &OS,
                        const ExportOptions &O, Progress &Prog);
llvm::Error writePrefetchHints(const profile::Profile &P,
                               llvm::raw_ostream &OS, const ExportOptions &O,
                               Progress &Prog);
/// The "activetime-export" document; also the data of the HTML report.
llvm::Error writeExportJson(const profile::Profile &P, llvm::raw_ostream &OS,
                            const ExportOptions &O, Progress &Prog);
llvm::Error writeChromeTrace(const profile::Profile &P, llvm::raw_ostream &OS,
                             const ExportOptions &O, Progress &Prog);
llvm::Error writeSpeedscope(const profile::Profile &P, llvm::raw_ostream &OS,
                            const ExportOptions &O, Progress &Prog);
llvm::Error writeSymbolOrder(const profile::Profile &P, llvm::raw_ostream &OS,
                             const ExportOptions &O, Progress &Prog);
llvm::Error writeSampleProfile(const profile::Profile &P,
                               llvm::raw_ostream &OS, const ExportOptions &O,
                               Progress &Prog);
/// pprof's gzipped profile.proto: one sample per thread and calling context.
llvm::Error writePprof(const profile::Profile &P, llvm::raw_ostream &OS,
                       const ExportOptions &O, Progress &Prog);

} // namespace report
} // namespace activetime

#endif // ACTIVETIME_REPORT_EXPORT_H
