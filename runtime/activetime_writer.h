//===- activetime_writer.h - Raw profile writer -----------------*- C++ -*-===//
//
// Serializes the process profile in the format of activetime/raw_format.h
// into a memory buffer, then writes it to "<final>.tmp.<pid>" and renames it.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_WRITER_H
#define ACTIVETIME_WRITER_H

#include "activetime_internal.h"

namespace __activetime {

struct OutBuffer {
  char *Data;
  uptr Size;
  uptr Cap;
  void Append(const void *P, uptr N);
  void AppendZeros(uptr N);
  // Room for N more bytes at once: one copy instead of one per doubling
  // (a mode=trace profile is mostly a few large trace sections).
  void Reserve(uptr N);
  void PadTo8() { AppendZeros((8 - (Size & 7)) & 7); }
  void Release();
};

// Builds the whole file image (takes the module and thread registry locks).
// Live threads' open frames are accounted up to EndTick in the image only.
void SerializeProfile(OutBuffer *B, u64 TickRate, u64 EndTick);

// Calibrates, serializes and writes the profile; prints one line on failure
// (and on success with verbosity >= 1). Returns true on success. One write
// at a time: the exit-time writer, activetime_flush() and the flusher share
// the temporary file's name.
bool WriteProfile();
// Held across fork() (atfork prepare .. parent/child): a child must not
// inherit a lock held by a write that will never finish in it.
void LockProfileWrites();
void UnlockProfileWrites();

} // namespace __activetime

#endif // ACTIVETIME_WRITER_H
