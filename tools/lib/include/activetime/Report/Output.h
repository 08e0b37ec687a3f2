//===- activetime/Report/Output.h - Writing an output file -*- C++ -*-===//
//
// Part of ActiveTime.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_REPORT_OUTPUT_H
#define ACTIVETIME_REPORT_OUTPUT_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace activetime {
namespace report {

/// Streams \p Write into \p Path ("-" = stdout) through the tool's
/// temporary file, renamed only if the writer succeeds, so a failure leaves
/// an existing file as it was (profile::writeFileAtomically, which also
/// says what an interrupted write leaves). The writer's own errors come
/// back as they are; a failure of the file itself names \p Path.
llvm::Error writeOutputFile(llvm::StringRef Path,
                            llvm::function_ref<llvm::Error(llvm::raw_ostream &)>
                                Write);

} // namespace report
} // namespace activetime

#endif // ACTIVETIME_REPORT_OUTPUT_H
