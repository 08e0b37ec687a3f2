//===- activetime/Profile/OutputFile.h - The tool's output files -*- C++ -*-===//
//
// Part of ActiveTime. Every file the tool writes (a merged profile, an
// export, an HTML report) is written to a temporary file beside it and
// renamed over it only when whole. The temporary's name is spelled here
// once: the writer makes it, `activetime clean` recognizes what a killed
// write (SIGKILL) left behind.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PROFILE_OUTPUTFILE_H
#define ACTIVETIME_PROFILE_OUTPUTFILE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace activetime {
namespace profile {

/// The tool's temporary file of OUT is "OUT.activetime-tmp-" followed by
/// kToolTempDigits random lowercase hex digits.
constexpr llvm::StringLiteral kToolTempInfix = ".activetime-tmp-";
constexpr size_t kToolTempDigits = 8;

/// The model of llvm::sys::fs::TempFile::create for \p Path's temporary.
std::string toolTempModel(llvm::StringRef Path);

/// Whether \p Name (a file name, no directory) is a temporary of the tool;
/// if so, \p Target is the name of the file it was to become.
bool parseToolTempName(llvm::StringRef Name, llvm::StringRef &Target);

/// Streams \p Write into \p Path ("-": stdout, "/dev/null": nowhere)
/// through the tool's temporary file, renamed over \p Path only if \p Write
/// succeeds: a failure leaves an existing file as it was. While it is
/// written the temporary is locked (fcntl, as the runtime locks its own),
/// so `activetime clean` leaves it alone, and removed if the tool is
/// interrupted (SIGINT, SIGTERM: llvm::sys::RemoveFileOnSignal). The
/// writer's errors come back as they are; a failure of the file itself
/// names \p Path. The stream takes pwrite (a header written last) except
/// for "-".
llvm::Error writeFileAtomically(
    llvm::StringRef Path,
    llvm::function_ref<llvm::Error(llvm::raw_pwrite_stream &)> Write);

} // namespace profile
} // namespace activetime

#endif // ACTIVETIME_PROFILE_OUTPUTFILE_H
