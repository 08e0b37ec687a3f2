//===- activetime_output.h - Putting a profile at its output path -*- C++ -*-===//
//
// Part of ActiveTime.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_OUTPUT_H
#define ACTIVETIME_OUTPUT_H

#include "sanitizer_common/sanitizer_internal_defs.h"

#include <signal.h>

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
/// FromFile: Data is a shared mapping of a file, dropped behind the write.
bool WriteOutput(const char *Path, u32 Pid, const char *Data, uptr Size,
                 bool FromFile = false);

// Expands %e (executable base name), %p (pid), %r (Rank: the MPI rank, or
// kNoRankText when null), %n (ProfileWritesDone()) and %% in Pattern.
// Other '%' sequences are copied literally. Returns false if Out is too
// small. *HasPid (if given) is set when the pattern has a %p.
bool ExpandOutputPattern(const char *Pattern, const char *ExeBase, u32 Pid,
                         char *Out, uptr OutSize, bool *HasPid = nullptr,
                         const char *Rank = nullptr);
// What %r gives in a process that has no MPI rank.
constexpr const char kNoRankText[] = "-";
// The final profile path from the output flag (see activetime_flags.inc).
// ForkedChild: the process is a fork of an instrumented parent, whose file
// a pattern without %p would overwrite; ".%p" is then inserted before the
// name's extension ("p.raw" -> "p.<pid>.raw").
bool BuildOutputPath(const char *OutputFlag, const char *ExeBase, u32 Pid,
                     bool ForkedChild, char *Out, uptr OutSize,
                     const char *Rank = nullptr);

/// The profiles this process has written (each flush_interval_s snapshot,
/// activetime_flush(), then the exit write): %n, so that a pattern with it
/// keeps every snapshot in its own file. CountProfileWrite adds one.
u32 ProfileWritesDone();
void CountProfileWrite();

/// This process's profile path: output= expanded for it, or the fallback
/// the start-up check chose. False if it does not fit in Out.
bool ProfilePath(char *Out, uptr OutSize);

/// The merged profile of an MPI job (activetime_mpi_reduce.cpp), written
/// by rank 0: output= with %r expanded to kJobRankText; a name without %r
/// (which every rank shares) gets kJobTag before its extension
/// ("activetime.prog.1234.job.raw"), a device or FIFO is written as named.
bool JobProfilePath(char *Out, uptr OutSize);
constexpr const char kJobRankText[] = "job";
constexpr const char kJobTag[] = ".job";

/// Start-up: makes the missing directories of the profile path (as
/// mkdir -p), so that a mistyped or absent directory is not found out at
/// exit with the profile lost. If they cannot be made, or the directory
/// cannot be written, prints one warning line with the reason and where the
/// profile will go instead (FallbackPathFor), and uses that.
void CheckOutputAtStartup();

/// Where a profile goes when \p Failed cannot be written: the default name
/// in the working directory, or in /tmp when that is not writable either.
/// False when \p Failed is that place already.
bool FallbackPathFor(const char *Failed, char *Out, uptr OutSize);

/// Writes the profile image to this process's profile path (ProfilePath;
/// Job: JobProfilePath), or where the fallback goes if that fails (saying
/// so). Returns true on success; verbosity >= 1 prints where it went.
bool WriteProfileOutput(const char *Data, uptr Size, bool Job = false);

/// A profile being streamed into the temporary file beside its output path.
struct ProfileFile {
  char Path[4096];
  char Tmp[4096 + 32];
  int Fd = -1;
  // A nameless file (O_TMPFILE) in the same directory for a section's side
  // buffers (OutBuffer::SideFd); -1 when the file system has none.
  int ScratchFd = -1;
  // The output is a device or FIFO: Fd is a nameless file in $TMPDIR whose
  // image is copied through at Commit.
  bool Through = false;
  // SIGXFSZ is ignored from Begin to Commit/Abandon: over a file-size limit
  // the file fails to grow instead of the kernel killing the program.
  struct sigaction OldXfsz;
  bool XfszSaved = false;
};

/// Opens "<path>.tmp.<pid>" for the process's profile path (ProfilePath),
/// locked as being written, when that path is a regular file or none; a
/// nameless file in $TMPDIR (or /tmp) when it is a device or FIFO, copied
/// through at Commit. False, printing nothing, when the image should be
/// built in memory and given to WriteProfileOutput instead (a link or a
/// directory, a file that cannot be created): that path names the error or
/// finds the fallback.
bool BeginProfileFile(ProfileFile *F);
/// Cuts the file to \p Size bytes and renames it over the path. On failure
/// prints one line and tries the fallback place (FallbackPathFor) with a
/// copy of the file; returns whether the profile was written somewhere.
bool CommitProfileFile(ProfileFile *F, uptr Size);
/// The image in memory (it stayed small, or the file could not grow):
/// written into the temporary and committed, or, where that fails or the
/// output is a device or FIFO, abandoned and written by WriteProfileOutput
/// (which names the error or finds the fallback).
bool CommitProfileImage(ProfileFile *F, const char *Data, uptr Size);
/// Removes the temporary file (the image is written another way).
void AbandonProfileFile(ProfileFile *F);

/// The text of an errno value a file write can fail with ("No space left on
/// device"), or null for another. Signal-safe: no libc call.
const char *ErrnoText(int Err);

} // namespace __activetime

#endif // ACTIVETIME_OUTPUT_H
