//===- HtmlReport.cpp - `activetime report --html` ------------------------===//
//
// Part of ActiveTime. One self-contained HTML file: the export document
// (ExportJson.cpp) as a JSON data island, d3 and d3-flame-graph (npm
// packages unpacked by scripts/install-deps.sh, embedded at build time) and
// the report's own script and style (html/ beside this file), all inline, so
// the file opens without network access.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "activetime/Report/Output.h"
#include "activetime/Report/Reports.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "HtmlAssets.inc"

using namespace llvm;
using namespace activetime;
using namespace activetime::profile;
using namespace activetime::report;

static StringRef asset(const char *Data, size_t Size) {
  return StringRef(Data, Size - 1);
}
#define ASSET(Name) asset(Name, sizeof(Name))

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

/// One self-contained HTML file (flame graphs, tables, header) at
/// O.OutputPath.
static Error writeHtmlReport(const Profile &P, const ViewOptions &O,
                             raw_ostream &, Progress &Prog) {
  StringRef Path = O.OutputPath;
  std::string Doc;
  raw_string_ostream DS(Doc);
  if (Error E = writeExportJson(P, O, DS, Prog))
    return E;
  Prog.phase("writing " + Path.str());
  std::string Title = "ActiveTime report";
  if (!P.Processes.empty())
    Title += ": " + sys::path::filename(P.Processes[0].Exe).str();
  return writeHtmlPage(Path, Title, Doc, HtmlApp::Report);
}

View report::htmlView() {
  View V;
  V.Name = "html";
  V.Description = "Write a self-contained interactive HTML report to FILE "
                  "(flame graphs, tables, header)";
  V.OutputValue = "file";
  V.Reads = "no-demangle full-names progress";
  V.NoJsonHint = "the HTML file embeds the document of 'activetime export "
                 "--format=json'";
  V.Write = writeHtmlReport;
  return V;
}

Error report::writeHtmlPage(StringRef Path, StringRef Title, StringRef Doc,
                            HtmlApp App) {
  StringRef Script =
      App == HtmlApp::Diff ? ASSET(kDiffJs) : ASSET(kReportJs);
  return writeOutputFile(Path, [&](raw_ostream &OS) {
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
    // '<' only occurs inside JSON strings, where \u003c means the same and
    // cannot close the element.
    for (char C : Doc) {
      if (C == '<')
        OS << "\\u003c";
      else
        OS << C;
    }
    OS << "</script>\n<script>\n" << ASSET(kD3Js) << "\n</script>\n<script>\n"
       << ASSET(kD3FgJs) << "\n</script>\n<script>\n" << ASSET(kCommonJs)
       << "\n</script>\n<script>\n" << Script
       << "\n</script>\n</body>\n</html>\n";
    return Error::success();
  });
}
