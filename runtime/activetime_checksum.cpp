//===- activetime_checksum.cpp - Checksums of the raw profile ---*- C++ -*-===//
//
// XXH3-64 from the reference implementation, compiled into this file alone
// (XXH_INLINE_ALL: static functions, no symbol of xxHash's leaves it). Not
// hand-written: the tool checks with LLVM's port of the same function, and
// the unit tests hold both to the reference's values.
//
//===----------------------------------------------------------------------===//

#include "activetime_checksum.h"

// xxHash reads its input through memcpy. The runtime is compiled with
// -fno-builtin, which would make each of those 8-byte reads a call into
// libc (or, through sanitizer_common's redirection, its internal memcpy);
// __builtin_memcpy is expanded inline whatever -fno-builtin says. <string.h>
// first, so that its declaration of memcpy is not renamed. xxHash 0.8.1 has
// no XXH_NO_STDLIB: it includes <stdlib.h> for XXH_malloc/XXH_free, which
// only its state-allocating functions (XXH3_createState) call, and those are
// never emitted here: the streaming state lives in the caller's
// ChecksumState.
#include <string.h>
#define memcpy __builtin_memcpy
#define XXH_INLINE_ALL
#include <xxhash.h>
#undef memcpy

#if XXH_VERSION_NUMBER < 800
#error "xxHash 0.8 or newer is needed (XXH3 is stable from 0.8.0)"
#endif

namespace __activetime {

u64 Checksum64(const void *P, uptr N) { return XXH3_64bits(P, N); }

static_assert(sizeof(XXH3_state_t) <= sizeof(ChecksumState),
              "ChecksumState too small for xxHash's streaming state");
static_assert(alignof(XXH3_state_t) <= alignof(ChecksumState),
              "ChecksumState under-aligned for xxHash's streaming state");

static XXH3_state_t *State(ChecksumState *S) { return (XXH3_state_t *)S; }

void ChecksumBegin(ChecksumState *S) {
  XXH3_INITSTATE(State(S));
  XXH3_64bits_reset(State(S));
}

void ChecksumUpdate(ChecksumState *S, const void *P, uptr N) {
  XXH3_64bits_update(State(S), P, N);
}

u64 ChecksumEnd(ChecksumState *S) { return XXH3_64bits_digest(State(S)); }

} // namespace __activetime
