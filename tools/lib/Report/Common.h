//===- Common.h - What several report files say the same way ----*- C++ -*-===//
//
// Part of ActiveTime. Internal to the ActiveTimeReport library: what more
// than one view or export says, kept in one place so the copies cannot
// drift apart. (Times and display names are in the public
// activetime/Report/Format.h.)
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_REPORT_COMMON_H
#define ACTIVETIME_REPORT_COMMON_H

#include "activetime/Report/Views.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>

#include <string>

namespace activetime {
namespace profile {
struct SampleFrame;
} // namespace profile
namespace report {

class FunctionNamer;

/// The description of each view and export format, one function in each
/// view's file (Views.def).
#define ACTIVETIME_REPORT_VIEW(Describe) View Describe();
#define ACTIVETIME_EXPORT_FORMAT(Describe) View Describe();
#include "Views.def"

/// The program that wrote a file, "activetime VERSION", as JSON documents
/// and the HTML report name it.
extern const char kGenerator[];
/// The frame an export puts on top of a call path for its time off CPU.
extern const char kOffCpuFrame[];
/// What follows the name of a counted function's frame under its nearest
/// timed caller, whose time there code samples estimated (" [counted]").
extern const char kCountedMark[];
/// ... and after a function's frame of its code outside its probes there
/// (" [outside probes]", the time report tree's mark).
extern const char kOutsideProbesMark[];

/// The profile has no samples: the run did not set sample=1.
llvm::Error noSamplesError();
/// The profile has no trace data: the run did not set mode=trace.
llvm::Error noTraceError();

/// The script an HTML page runs on its data island.
enum class HtmlApp { Report, Diff };
/// One self-contained HTML page at \p Path: d3, d3-flame-graph, the style,
/// the JSON document \p WriteDoc writes as the "activetime-data" element
/// and \p App's script, all inline (HtmlReport.cpp). The document is
/// streamed into the file, never held in memory whole.
llvm::Error
writeHtmlPage(llvm::StringRef Path, llvm::StringRef Title, HtmlApp App,
              llvm::function_ref<llvm::Error(llvm::raw_ostream &)> WriteDoc);

/// How a JSON document identifies a function beside its display name:
/// "linkage_name", "local", "module" (local functions only: two modules may
/// each have one of that name), "file" and "line".
void functionIdentityJson(llvm::json::OStream &J, llvm::StringRef LinkageName,
                          bool Local, llvm::StringRef Module,
                          llvm::StringRef File, uint32_t Line);

/// A frame of the sampled views as they print it: the name of its function
/// (\p Names), kOutsideFrame outside any instrumented function, and
/// kCountedMark after a counted function's synthetic frame
/// (kOutsideProbesMark after a code-outside-probes one).
std::string sampleFrameName(const FunctionNamer &Names,
                            const profile::SampleFrame &F);

/// \p Fraction as a percentage with one decimal ("12.5%").
std::string percent(double Fraction);
/// \p Part as a percentage of \p Whole, "-" when there is no whole.
std::string percentOf(double Part, double Whole);

} // namespace report
} // namespace activetime

#endif // ACTIVETIME_REPORT_COMMON_H
