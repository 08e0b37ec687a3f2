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
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>

#include <string>
#include <vector>

namespace activetime {
namespace profile {
struct SampleFrame;
class SamplePaths;
} // namespace profile
namespace report {

class FunctionNamer;

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

/// How a stack of some depth is written under --max-stack (ExportStacks.cpp):
/// whole (Outer = the depth), or its Outer outermost and Inner innermost
/// frames with one frame naming the Elided ones between them.
struct StackCut {
  uint64_t Outer = 0, Inner = 0, Elided = 0;
};
StackCut cutStack(uint64_t Depth, unsigned MaxStack);
/// The frame standing for \p N elided frames: "[N frames elided]".
std::string elidedFrameName(uint64_t N);

/// The frames of the sampled paths as the whole-stack formats write them,
/// each path in time linear in what is written, however deep it is.
class PathFrames {
public:
  /// A frame, or (Frame null) the stand-in for Elided frames.
  struct Item {
    const profile::SampleFrame *Frame;
    uint64_t Elided;
  };
  PathFrames(const profile::SamplePaths &P, unsigned MaxStack);
  /// Path \p N's frames, outermost first, cut as cutStack says.
  void get(uint32_t N, llvm::SmallVectorImpl<Item> &Out) const;

private:
  const profile::SamplePaths &P;
  unsigned MaxStack;
  std::vector<uint32_t> OuterEnd; // SamplePaths::ancestorsAt
};

/// A text tree's indentation for a node \p Depth levels down (1: a root),
/// two spaces a level; beyond kIndentLevels levels it stops growing and
/// names the depth instead ("[depth 1234] "), so that a deep tree's text
/// grows with its nodes, not with the square of its depth. kDeepIndentNote
/// says so under a tree that had such a line.
constexpr unsigned kIndentLevels = 40;
std::string treeIndent(uint32_t Depth);
bool isDeepIndent(uint32_t Depth);
extern const char kDeepIndentNote[];

/// A number of a JSON document, in the shortest form that reads back as
/// \p V (std::to_chars); null when it is not finite. json::OStream prints
/// every double through printf's "%.17g", which took half the time of a
/// million-node tree's document.
void jsonNumber(llvm::json::OStream &J, double V);
void jsonNumber(llvm::json::OStream &J, llvm::StringRef Key, double V);
/// ... or null when there is none.
void jsonNumber(llvm::json::OStream &J, llvm::StringRef Key,
                std::optional<double> V);

/// \p Fraction as a percentage with one decimal ("12.5%").
std::string percent(double Fraction);
/// \p Part as a percentage of \p Whole, "-" when there is no whole.
std::string percentOf(double Part, double Whole);

} // namespace report
} // namespace activetime

#endif // ACTIVETIME_REPORT_COMMON_H
