//===- activetime_writer.h - Raw profile writer -----------------*- C++ -*-===//
//
// Serializes the process profile in the format of activetime/raw_format.h:
// the file header, then the collectors' sections (activetime_collector.h)
// in table order, each framed by its section header. Streamed into the
// temporary file beside the output path when it is a regular file (the
// exit-time write of a large profile must not double the program's memory),
// else built in memory and written by activetime_output.cpp. Each
// section's payload is written beside its data, through ProfileWriter.
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
  // File-backed: Data maps bytes [0, Cap) of the file Fd, shared, and the
  // pages written are dropped from the process every few megabytes (Drop):
  // the image lives in the file, not in the program's memory, and a byte
  // patched later is read back from the page cache. -1: anonymous memory,
  // the whole image resident.
  int Fd = -1;
  // The file given to AttachFile: the image moves there once it passes
  // kStreamFrom (a small profile is written from memory, as cheaply as
  // before: no file blocks allocated and freed for it).
  int PendingFd = -1;
  // Why an attached file could not take the image (it could not grow:
  // ENOSPC, EFBIG, no fallocate), 0 if it could.
  int FileError = 0;
  uptr TrimmedAt = 0; // Size when the pages written were last dropped
  // A nameless file a section's side buffer (a thread's latency records,
  // appended after its nodes) may stream into through AttachSide; -1:
  // side buffers are memory.
  int SideFd = -1;

  void Append(const void *P, uptr N);
  void AppendZeros(uptr N);
  // Room for N more bytes at once: one copy instead of one per doubling
  // (a mode=trace profile is mostly a few large trace sections).
  void Reserve(uptr N);
  void PadTo8() { AppendZeros((8 - (Size & 7)) & 7); }
  // Streams the image into FileFd (empty, open for reading and writing)
  // from kStreamFrom bytes on.
  void AttachFile(int FileFd);
  // Streams Side into SideFd (emptied first) when there is one.
  void AttachSide(OutBuffer *Side) const;
  // File-backed: drops the pages holding bytes [From, To) from the
  // process's memory (they are read back from the file if touched again).
  void Drop(uptr From, uptr To);
  // Drops what was appended since the last call once it is a few pages:
  // an Append does it, a loop that reads back a span drops the span.
  void MaybeTrim() {
    if (Fd >= 0 && Size - TrimmedAt >= kTrimBytes) {
      Drop(TrimmedAt, Size);
      TrimmedAt = Size;
    }
  }
  void Release();

  static constexpr uptr kTrimBytes = 2 << 20;
  static constexpr uptr kStreamFrom = 4 << 20;

private:
  int GrowFile(uptr NewCap);
  void StreamToFile(uptr N);
  void SpillToMemory(uptr NewCap, int Err);
  void MoveToMemory(uptr NewCap);
  void Unmap();
};

// A thread section's node map: a call-tree index's written node index, or
// one of these.
constexpr u32 kMapRoot = 0xfffffffeu; // the tree's root, which is not written
constexpr u32 kMapDrop = 0xffffffffu; // not written

// What the collectors' section writers get. The module and thread registry
// locks are held while they run.
struct ProfileWriter {
  OutBuffer *Out;
  u64 TickRate;
  u64 EndTick;
  u32 NumThreads; // thread sections
  u32 NumOrdinals; // thread ordinals handed out (ThreadState::Ordinal)
  // The main executable's path (not terminated; ExeLen 0: unknown).
  char Exe[4096];
  uptr ExeLen;
  // Per thread ordinal, the node map its section left (NodeMapSizes[I]
  // entries) and the section's index (kMapDrop: no section, the thread
  // was folded), when a collector asked for them (Collector::PrepareWrite);
  // else null.
  u32 **NodeMaps;
  u32 *NodeMapSizes;
  u32 *SectionOf;
  u32 NumSections;

  // A section: its header's placeholder, the payload, then its size and
  // checksum. Returns the placeholder's offset for EndSection.
  uptr BeginSection(u32 Kind);
  void EndSection(uptr Off);
  template <typename F> void Section(u32 Kind, F &&WritePayload) {
    uptr Off = BeginSection(Kind);
    WritePayload();
    EndSection(Off);
  }
};

// A string's length in a record, 0 for none.
inline uptr StrLenOrZero(const char *S) { return S ? internal_strlen(S) : 0; }

// Builds the whole file image (takes the module and thread registry locks).
// Live threads' open frames are accounted up to EndTick in the image only.
void SerializeProfile(OutBuffer *B, u64 TickRate, u64 EndTick);
// Fills *H as the header of a file of FileSize bytes holding NumSections
// sections (Flags: raw::FileFlags), its checksum included.
void FillFileHeader(activetime::raw::FileHeader *H, u64 FileSize,
                    u32 NumSections, u32 Flags);

// Calibrates, serializes and writes the profile; prints one line on failure
// (and on success with verbosity >= 1). Returns true on success. One write
// at a time: the exit-time writer, activetime_flush() and the flusher share
// the temporary file's name.
bool WriteProfile();
// The profile as WriteProfile would write it now (the same end, rate and
// sections), built in memory (B anonymous: an image to send, not a file).
void SnapshotProfile(OutBuffer *B);
// Writes a whole image (a snapshot, or an MPI job's merged profile: Job,
// at JobProfilePath) to the output path, atomically, as WriteProfile does.
bool WriteProfileImage(const char *Data, uptr Size, bool Job);
// Whether the process's profile went into its MPI job's merged profile
// (activetime_mpi_reduce.cpp): then the exit-time write and the flusher's
// write nothing more. A fork child's profile is its own again.
bool ProfileHandedOff();
void HandOffProfile();
// Held across fork() (atfork prepare .. parent/child): a child must not
// inherit a lock held by a write that will never finish in it.
void LockProfileWrites();
void UnlockProfileWrites();

} // namespace __activetime

#endif // ACTIVETIME_WRITER_H
