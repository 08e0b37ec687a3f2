//===- activetime_output.h - Putting a profile at its output path -*- C++ -*-===//
//
// Part of ActiveTime.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_OUTPUT_H
#define ACTIVETIME_OUTPUT_H

#include "sanitizer_common/sanitizer_internal_defs.h"

namespace __activetime {
using namespace __sanitizer;

/// Writes \p Size bytes to \p Path without ever destroying what is there or
/// harming the program: a regular file (or none) is replaced atomically
/// through "<Path>.tmp.<Pid>" and a rename; a device or FIFO (/dev/null,
/// /dev/stdout, a pipe with a reader) is written through, never replaced;
/// a symbolic link or a directory is refused. A failed write leaves no
/// temporary file, and a file-size limit (SIGXFSZ) fails the write instead
/// of killing the program. On failure prints one line naming the path and
/// the reason in words, and returns false.
bool WriteOutput(const char *Path, u32 Pid, const char *Data, uptr Size);

/// The text of an errno value a file write can fail with ("No space left on
/// device"), or null for another. Signal-safe: no libc call.
const char *ErrnoText(int Err);

} // namespace __activetime

#endif // ACTIVETIME_OUTPUT_H
