//===- activetime_code_segments.h - Loaded objects' code --------*- C++ -*-===//
//
// The executable segments of a loaded object, as dl_iterate_phdr describes
// it: where the code samples decide what is the program's code and where
// the unwinder looks for an object's unwind tables.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_CODE_SEGMENTS_H
#define ACTIVETIME_CODE_SEGMENTS_H

#include "sanitizer_common/sanitizer_internal_defs.h"

#include <link.h>

namespace __activetime {
using namespace __sanitizer;

// Calls Fn(Begin, End) for each executable PT_LOAD segment [Begin, End) of
// the object Info describes.
template <typename F>
void ForEachCodeSegment(const struct dl_phdr_info *Info, F &&Fn) {
  for (int I = 0; I < Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) &P = Info->dlpi_phdr[I];
    if (P.p_type != PT_LOAD || !(P.p_flags & PF_X))
      continue;
    uptr Begin = Info->dlpi_addr + P.p_vaddr;
    Fn(Begin, Begin + P.p_memsz);
  }
}

} // namespace __activetime

#endif // ACTIVETIME_CODE_SEGMENTS_H
