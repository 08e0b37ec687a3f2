//===- activetime_checksum.h - Checksums of the raw profile -----*- C++ -*-===//
//
// The hash of the raw profile's checksums (raw_format.h, "Checksums"):
// XXH3-64 from the reference xxHash (Debian's libxxhash-dev, header-only),
// the same function the tool verifies with (llvm::xxh3_64bits).
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_CHECKSUM_H
#define ACTIVETIME_CHECKSUM_H

#include "sanitizer_common/sanitizer_internal_defs.h"

namespace __activetime {

using namespace __sanitizer;

// XXH3-64 of N bytes at P (seed 0, default secret). No allocation, no
// system call, no libc call: callable in the exit-time writer.
u64 Checksum64(const void *P, uptr N);

// The same hash over bytes given in pieces (a section read back from the
// file it was streamed to a few megabytes at a time). On the stack: no
// allocation.
struct alignas(64) ChecksumState {
  u8 Opaque[640];
};
void ChecksumBegin(ChecksumState *S);
void ChecksumUpdate(ChecksumState *S, const void *P, uptr N);
u64 ChecksumEnd(ChecksumState *S);

} // namespace __activetime

#endif // ACTIVETIME_CHECKSUM_H
