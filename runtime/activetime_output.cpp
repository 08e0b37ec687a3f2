//===- activetime_output.cpp - Putting a profile at its output path -------===//
//
// Part of ActiveTime. See activetime_output.h. The rule: what is at the
// output path is either replaced by a complete profile or left exactly as it
// was. Replacing is right only for a regular file; `output=/dev/null` must
// discard the profile, not turn /dev/null into a file.
//
//===----------------------------------------------------------------------===//

#include "activetime_output.h"

#include "activetime_flags.h"
#include "activetime_internal.h"
#include "activetime_mpi.h"
#include "sanitizer_common/sanitizer_common.h"
#include "sanitizer_common/sanitizer_libc.h"
#include "sanitizer_common/sanitizer_posix.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace __activetime {

const char *ErrnoText(int Err) {
  switch (Err) {
  case ENOENT: return "No such file or directory";
  case EACCES: return "Permission denied";
  case EPERM: return "Operation not permitted";
  case EISDIR: return "Is a directory";
  case ENOTDIR: return "Not a directory";
  case ENOSPC: return "No space left on device";
  case EDQUOT: return "Disk quota exceeded";
  case EFBIG: return "File too large";
  case EROFS: return "Read-only file system";
  case ENAMETOOLONG: return "File name too long";
  case ELOOP: return "Too many levels of symbolic links";
  case EXDEV: return "Invalid cross-device link";
  case EIO: return "Input/output error";
  case ENXIO: return "No such device or address";
  case EBUSY: return "Device or resource busy";
  case ETXTBSY: return "Text file busy";
  case EMFILE: return "Too many open files";
  case EINVAL: return "Invalid argument";
  case EPIPE: return "Broken pipe";
  case EAGAIN: return "Resource temporarily unavailable";
  }
  return nullptr;
}

namespace {

/// Ignores SIGXFSZ while alive: over a file-size limit, write() then fails
/// with EFBIG instead of the kernel killing the program (exit 153).
class NoFileSizeSignal {
public:
  NoFileSizeSignal() {
    struct sigaction Ign;
    internal_memset(&Ign, 0, sizeof(Ign));
    Ign.sa_handler = SIG_IGN;
    Saved = sigaction(SIGXFSZ, &Ign, &Old) == 0;
  }
  ~NoFileSizeSignal() {
    if (Saved)
      sigaction(SIGXFSZ, &Old, nullptr);
  }

private:
  struct sigaction Old;
  bool Saved = false;
};

/// Writes Size bytes at Data. FromFile: Data is a shared mapping of a file
/// (a streamed profile copied elsewhere), whose pages are dropped behind
/// the write every 2 MiB, so that the copy does not bring the whole file
/// into the process.
bool WriteAll(fd_t Fd, const char *Data, uptr Size, int *Err,
              bool FromFile = false) {
  const uptr Step = uptr(2) << 20;
  uptr Done = 0, Dropped = 0;
  while (Done < Size) {
    uptr W = internal_write(Fd, Data + Done, Min(Size - Done, Step));
    if (internal_iserror(W, Err)) {
      if (*Err == EINTR)
        continue;
      return false;
    }
    Done += W;
    uptr To = RoundDownTo(Done, GetPageSizeCached());
    if (FromFile && To - Dropped >= Step) {
      internal_madvise((uptr)Data + Dropped, To - Dropped, MADV_DONTNEED);
      Dropped = To;
    }
  }
  return true;
}

/// Marks the temporary file as being written: `activetime clean` removes
/// only temporaries nobody holds this lock on (their writer was killed).
/// Best effort: without the lock the file is still written.
void LockForWriting(fd_t Fd) {
  struct flock L;
  internal_memset(&L, 0, sizeof(L));
  L.l_type = F_WRLCK;
  L.l_whence = SEEK_SET;
  fcntl((int)Fd, F_SETLK, &L);
}

/// Regular file or none: a temporary beside it, renamed over it when whole.
/// Renamed before it is closed, so the lock covers the temporary name for
/// as long as it exists.
void TempPathOf(const char *Path, u32 Pid, char *Tmp, uptr Size) {
  internal_snprintf(Tmp, Size, "%s.tmp.%u", Path, Pid);
}

/// Renames the written temporary over Path, then closes it (renamed before
/// it is closed, so the lock covers the temporary name for as long as it
/// exists). Removes the temporary on failure.
bool RenameAndClose(const char *Tmp, const char *Path, fd_t Fd,
                    const char **What, int *Err) {
  bool Ok = true;
  if (internal_iserror(internal_rename(Tmp, Path), Err)) {
    *What = "rename the temporary file";
    Ok = false;
  }
  if (!Ok)
    internal_unlink(Tmp);
  int CloseErr = 0;
  if (internal_iserror(internal_close(Fd), &CloseErr) && Ok) {
    *What = "close";
    *Err = CloseErr;
    Ok = false; // a delayed write failed (NFS): say so
  }
  return Ok;
}

/// Regular file or none: a temporary beside it, renamed over it when whole.
bool ReplaceAtomically(const char *Path, u32 Pid, const char *Data, uptr Size,
                       const char **What, int *Err, bool FromFile) {
  char Tmp[4096 + 32];
  TempPathOf(Path, Pid, Tmp, sizeof(Tmp));
  uptr Fd = internal_open(Tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (internal_iserror(Fd, Err)) {
    *What = "create the temporary file";
    return false;
  }
  LockForWriting((fd_t)Fd);
  if (!WriteAll((fd_t)Fd, Data, Size, Err, FromFile)) {
    *What = "write";
    internal_unlink(Tmp);
    internal_close((fd_t)Fd);
    return false;
  }
  return RenameAndClose(Tmp, Path, (fd_t)Fd, What, Err);
}

/// A device, FIFO or socket: written through. O_NONBLOCK only to open, so
/// a FIFO without a reader fails (ENXIO) instead of hanging the exit.
bool WriteThrough(const char *Path, const char *Data, uptr Size,
                  const char **What, int *Err, bool FromFile) {
  uptr Fd = internal_open(Path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (internal_iserror(Fd, Err)) {
    *What = "open";
    return false;
  }
  int Flags = fcntl((int)Fd, F_GETFL);
  if (Flags != -1)
    fcntl((int)Fd, F_SETFL, Flags & ~O_NONBLOCK);
  bool Ok = WriteAll((fd_t)Fd, Data, Size, Err, FromFile);
  if (!Ok)
    *What = "write";
  internal_close((fd_t)Fd);
  return Ok;
}

void ReportFailure(const char *Path, const char *What, int Err) {
  const char *Text = ErrnoText(Err);
  if (Text)
    Printf("ActiveTime: ERROR: cannot write profile '%s': %s failed: %s\n",
           Path, What, Text);
  else
    Printf("ActiveTime: ERROR: cannot write profile '%s': %s failed "
           "(errno %d)\n",
           Path, What, Err);
}

} // namespace

namespace {
// Written under the profile write lock, read by the write that holds it.
u32 profile_writes_done;
} // namespace

u32 ProfileWritesDone() {
  return __atomic_load_n(&profile_writes_done, __ATOMIC_RELAXED);
}

void CountProfileWrite() {
  __atomic_fetch_add(&profile_writes_done, 1, __ATOMIC_RELAXED);
}

bool ExpandOutputPattern(const char *Pattern, const char *ExeBase, u32 Pid,
                         char *Out, uptr OutSize, bool *HasPid,
                         const char *Rank) {
  uptr O = 0;
  auto Put = [&](const char *S, uptr N) {
    if (O + N + 1 > OutSize)
      return false;
    internal_memcpy(Out + O, S, N);
    O += N;
    return true;
  };
  for (const char *P = Pattern; *P; ++P) {
    bool Ok;
    if (P[0] == '%' && P[1] == 'e') {
      Ok = Put(ExeBase, internal_strlen(ExeBase));
      ++P;
    } else if (P[0] == '%' && P[1] == 'p') {
      if (HasPid)
        *HasPid = true;
      char Num[16];
      int N = internal_snprintf(Num, sizeof(Num), "%u", Pid);
      Ok = Put(Num, N);
      ++P;
    } else if (P[0] == '%' && P[1] == 'r') {
      const char *R = Rank ? Rank : kNoRankText;
      Ok = Put(R, internal_strlen(R));
      ++P;
    } else if (P[0] == '%' && P[1] == 'n') {
      char Num[16];
      int N = internal_snprintf(Num, sizeof(Num), "%u", ProfileWritesDone());
      Ok = Put(Num, N);
      ++P;
    } else if (P[0] == '%' && P[1] == '%') {
      Ok = Put("%", 1);
      ++P;
    } else {
      Ok = Put(P, 1);
    }
    if (!Ok)
      return false;
  }
  if (O >= OutSize)
    return false;
  Out[O] = 0;
  return true;
}

// Tag ".%p": "dir/p.raw" -> "dir/p.%p.raw"; "dir/p" -> "dir/p.%p".
bool InsertBeforeExtension(char *Name, uptr Size, const char *Tag) {
  uptr L = internal_strlen(Name), T = internal_strlen(Tag);
  if (L + T + 1 > Size)
    return false;
  uptr Dot = L;
  for (uptr I = L; I > 0 && Name[I - 1] != '/'; --I)
    if (Name[I - 1] == '.' && I - 1 > 0 && Name[I - 2] != '/') {
      Dot = I - 1;
      break;
    }
  internal_memmove(Name + Dot + T, Name + Dot, L - Dot + 1);
  internal_memcpy(Name + Dot, Tag, T);
  return true;
}

bool BuildOutputPath(const char *OutputFlag, const char *ExeBase, u32 Pid,
                     bool ForkedChild, char *Out, uptr OutSize,
                     const char *Rank) {
  static const char kDefault[] = "activetime.%e.%p.raw";
  char Pattern[4096];
  const char *Flag = OutputFlag ? OutputFlag : "";
  uptr L = internal_strlen(Flag);
  if (L == 0) {
    internal_strlcpy(Pattern, kDefault, sizeof(Pattern));
  } else if (Flag[L - 1] == '/') {
    if (L + sizeof(kDefault) > sizeof(Pattern))
      return false;
    internal_memcpy(Pattern, Flag, L);
    internal_memcpy(Pattern + L, kDefault, sizeof(kDefault));
  } else {
    if (L >= sizeof(Pattern))
      return false;
    internal_memcpy(Pattern, Flag, L + 1);
  }
  bool HasPid = false;
  if (!ExpandOutputPattern(Pattern, ExeBase, Pid, Out, OutSize, &HasPid,
                           Rank))
    return false;
  if (!ForkedChild || HasPid)
    return true;
  return InsertBeforeExtension(Pattern, sizeof(Pattern), ".%p") &&
         ExpandOutputPattern(Pattern, ExeBase, Pid, Out, OutSize, nullptr,
                             Rank);
}

namespace {
// The fallback chosen at start-up (empty: output= is usable).
char startup_fallback[4096];

const char *BaseName(const char *Path) {
  const char *B = Path;
  for (const char *P = Path; *P; ++P)
    if (*P == '/')
      B = P + 1;
  return B;
}

// The executable's base name ("unknown" if it cannot be read).
void ExeBaseName(char *Out, uptr Size) {
  char Exe[4096];
  uptr L = ReadBinaryName(Exe, sizeof(Exe));
  if (!L || L >= sizeof(Exe)) {
    internal_strlcpy(Out, "unknown", Size);
    return;
  }
  Exe[L] = 0;
  internal_strlcpy(Out, BaseName(Exe), Size);
}

bool IsDirectory(const char *Path) {
  struct stat St;
  return !internal_iserror(internal_stat(Path, &St)) && S_ISDIR(St.st_mode);
}

// mkdir -p of Path's directory part. False (with *Err, and *Dir the one
// that failed) when a directory on the way cannot be made.
bool MakeParentDirectories(const char *Path, char *Dir, uptr DirSize,
                           int *Err) {
  uptr L = internal_strlen(Path);
  while (L && Path[L - 1] != '/')
    --L;
  if (L <= 1 || L >= DirSize)
    return true; // the working directory, or "/"
  internal_memcpy(Dir, Path, L);
  Dir[L - 1] = 0;
  if (IsDirectory(Dir))
    return true;
  for (uptr I = 1; I < L; ++I) {
    if (Dir[I] != '/' && Dir[I] != 0)
      continue;
    char Saved = Dir[I];
    Dir[I] = 0;
    if (!IsDirectory(Dir) && mkdir(Dir, 0777) != 0) {
      // Something else by that name (a file): not a directory.
      *Err = errno == EEXIST ? ENOTDIR : errno;
      return false;
    }
    Dir[I] = Saved;
    if (!Saved)
      break;
  }
  return true;
}

// The directory part of Path, with its slash ("." for none), into Dir;
// false if it does not fit.
bool DirectoryOf(const char *Path, char *Dir, uptr Size) {
  uptr L = internal_strlen(Path);
  while (L && Path[L - 1] != '/')
    --L;
  if (L >= Size)
    return false;
  if (L == 0)
    internal_strlcpy(Dir, ".", Size);
  else
    internal_strlcpy(Dir, Path, L + 1);
  return true;
}

bool WritableDirectoryOf(const char *Path, int *Err) {
  char Dir[4096];
  if (!DirectoryOf(Path, Dir, sizeof(Dir)))
    return false;
  if (access(Dir, W_OK | X_OK) == 0)
    return true;
  *Err = errno;
  return false;
}
} // namespace

namespace {
// Whether Pattern names the rank (%r, not an escaped %%r).
bool PatternHasRank(const char *Pattern, bool InDirectory = false) {
  const char *Name = Pattern;
  for (const char *P = Pattern; *P; ++P)
    if (*P == '/')
      Name = P + 1;
  for (const char *P = Pattern; *P; ++P) {
    if (P[0] != '%')
      continue;
    if (P[1] == 'r')
      return !InDirectory || P < Name;
    if (P[1] == '%')
      ++P;
  }
  return false;
}

// The start-up check made the directories of the path it expanded, with
// the rank it knew then (the launcher's, or none); MPI_Init may have told
// another, so a path that names the rank gets its directories made again
// at the write. A failure is the write's to report.
void MakeRankDirectories(const char *Path) {
  const char *Output = flags()->output;
  if (startup_fallback[0] || !Output || !PatternHasRank(Output))
    return;
  char Dir[4096];
  int Err = 0;
  MakeParentDirectories(Path, Dir, sizeof(Dir), &Err);
}
} // namespace

bool ProfilePath(char *Out, uptr OutSize) {
  if (startup_fallback[0] && !runtime.ForkedChild) {
    if (internal_strlen(startup_fallback) >= OutSize)
      return false;
    internal_strlcpy(Out, startup_fallback, OutSize);
    return true;
  }
  char Base[256];
  ExeBaseName(Base, sizeof(Base));
  const char *Flag = startup_fallback[0] ? "" : flags()->output;
  // Expanded at each write, not at start-up: the rank is known only after
  // MPI_Init (a write before it takes the launcher's rank, if any).
  u32 Rank;
  char RankText[16];
  bool HasRank = MpiRank(&Rank) || LauncherRank(&Rank);
  if (HasRank)
    internal_snprintf(RankText, sizeof(RankText), "%u", Rank);
  return BuildOutputPath(Flag, Base, (u32)internal_getpid(),
                         runtime.ForkedChild, Out, OutSize,
                         HasRank ? RankText : nullptr);
}

bool JobProfilePath(char *Out, uptr OutSize) {
  // The fallback the start-up check chose is rank 0's own file's name.
  if (startup_fallback[0]) {
    internal_strlcpy(Out, startup_fallback, OutSize);
    return internal_strlen(startup_fallback) < OutSize &&
           InsertBeforeExtension(Out, OutSize, kJobTag);
  }
  char Base[256];
  ExeBaseName(Base, sizeof(Base));
  const char *Flag = flags()->output;
  if (!BuildOutputPath(Flag, Base, (u32)internal_getpid(),
                       /*ForkedChild=*/false, Out, OutSize, kJobRankText))
    return false;
  // Without %r the expanded name is rank 0's own (mpi_rank_files would
  // overwrite the job's); a device or FIFO is written through as named.
  struct stat St;
  bool Special = !internal_iserror(internal_lstat(Out, &St)) &&
                 !S_ISREG(St.st_mode);
  if ((Flag && PatternHasRank(Flag)) || Special)
    return true;
  return InsertBeforeExtension(Out, OutSize, kJobTag);
}

bool FallbackPathFor(const char *Failed, char *Out, uptr OutSize) {
  char Base[256];
  ExeBaseName(Base, sizeof(Base));
  u32 Pid = (u32)internal_getpid();
  int Err = 0;
  const char *Dirs[] = {"", "/tmp/"};
  for (const char *Dir : Dirs) {
    char Pattern[4096];
    internal_snprintf(Pattern, sizeof(Pattern), "%sactivetime.%%e.%%p.raw",
                      Dir);
    if (!ExpandOutputPattern(Pattern, Base, Pid, Out, OutSize))
      return false;
    if (internal_strcmp(Out, Failed) == 0)
      continue;
    if (WritableDirectoryOf(Out, &Err))
      return true;
  }
  return false;
}

void CheckOutputAtStartup() {
  if (!flags()->write_profile)
    return;
  // A path that names a rank nobody knows yet is made at the write, when
  // MPI_Init may have told it (MakeRankDirectories): no '-' directory now.
  // So is a rank's directory when the ranks may reduce their profiles into
  // the job's at MPI_Finalize: they write none, and leave none empty.
  u32 Rank;
  const char *Output = flags()->output;
  if (Output && PatternHasRank(Output) &&
      ((!MpiRank(&Rank) && !LauncherRank(&Rank)) ||
       (flags()->mpi_reduce && PatternHasRank(Output, /*InDirectory=*/true))))
    return;
  char Path[4096], Dir[4096];
  if (!ProfilePath(Path, sizeof(Path)))
    return; // too long: said at the write
  int Err = 0;
  const char *Why, *What;
  if (!MakeParentDirectories(Path, Dir, sizeof(Dir), &Err)) {
    Why = "cannot create directory";
    What = Dir;
  } else if (!WritableDirectoryOf(Path, &Err)) {
    Why = "cannot write into the directory of";
    What = Path;
  } else {
    return;
  }
  const char *Text = ErrnoText(Err);
  char Fallback[4096];
  if (!FallbackPathFor(Path, Fallback, sizeof(Fallback))) {
    Printf("ActiveTime: WARNING: output='%s': %s '%s' (%s); no writable "
           "place for the profile was found\n",
           flags()->output, Why, What, Text ? Text : "error");
    return;
  }
  Printf("ActiveTime: WARNING: output='%s': %s '%s' (%s); the profile will "
         "be written to '%s' instead\n",
         flags()->output, Why, What, Text ? Text : "error", Fallback);
  internal_strlcpy(startup_fallback, Fallback, sizeof(startup_fallback));
}

bool WriteOutput(const char *Path, u32 Pid, const char *Data, uptr Size,
                 bool FromFile) {
  NoFileSizeSignal Guard;
  struct stat St;
  int Err = 0;
  const char *What = "";
  bool Exists = !internal_iserror(internal_lstat(Path, &St), &Err);
  if (Exists && S_ISLNK(St.st_mode)) {
    Printf("ActiveTime: ERROR: cannot write profile '%s': it is a symbolic "
           "link, left as it is (give its target as output=)\n",
           Path);
    return false;
  }
  if (Exists && S_ISDIR(St.st_mode)) {
    Printf("ActiveTime: ERROR: cannot write profile '%s': it is a "
           "directory\n",
           Path);
    return false;
  }
  bool Ok = Exists && !S_ISREG(St.st_mode)
                ? WriteThrough(Path, Data, Size, &What, &Err, FromFile)
                : ReplaceAtomically(Path, Pid, Data, Size, &What, &Err,
                                    FromFile);
  if (!Ok)
    ReportFailure(Path, What, Err);
  return Ok;
}

bool WriteProfileOutput(const char *Data, uptr Size, bool Job) {
  u32 Pid = (u32)internal_getpid();
  char Path[4096];
  if (!(Job ? JobProfilePath(Path, sizeof(Path))
            : ProfilePath(Path, sizeof(Path)))) {
    Printf("ActiveTime: ERROR: cannot write profile: output path from "
           "output='%s' is too long\n",
           flags()->output);
    return false;
  }
  MakeRankDirectories(Path);
  bool Ok = WriteOutput(Path, Pid, Data, Size);
  // Not lost: the directory was removed, or the path became unwritable.
  char Fallback[4096];
  if (!Ok && FallbackPathFor(Path, Fallback, sizeof(Fallback))) {
    Path[0] = 0;
    internal_strlcpy(Path, Fallback, sizeof(Path));
    Ok = WriteOutput(Path, Pid, Data, Size);
    if (Ok)
      Printf("ActiveTime: the profile was written to '%s' instead\n", Path);
  }
  if (Ok && flags()->verbosity >= 1)
    Printf("ActiveTime: wrote profile %s (%zu bytes)\n", Path, (uptr)Size);
  return Ok;
}

namespace {
void IgnoreFileSizeSignal(ProfileFile *F) {
  struct sigaction Ign;
  internal_memset(&Ign, 0, sizeof(Ign));
  Ign.sa_handler = SIG_IGN;
  F->XfszSaved = sigaction(SIGXFSZ, &Ign, &F->OldXfsz) == 0;
}

/// Closes the temporary; the close's error (a delayed write on NFS), 0 if
/// none.
int CloseProfileFile(ProfileFile *F) {
  if (F->ScratchFd >= 0)
    internal_close((fd_t)F->ScratchFd);
  F->ScratchFd = -1;
  int Err = 0;
  internal_iserror(internal_close((fd_t)F->Fd), &Err);
  F->Fd = -1;
  if (F->XfszSaved)
    sigaction(SIGXFSZ, &F->OldXfsz, nullptr);
  F->XfszSaved = false;
  return Err;
}

/// A copy of the temporary's \p Size bytes where the fallback goes.
bool CopyToFallback(ProfileFile *F, uptr Size) {
  char Fallback[4096];
  if (!FallbackPathFor(F->Path, Fallback, sizeof(Fallback)))
    return false;
  uptr M = internal_mmap(nullptr, Size, PROT_READ, MAP_SHARED, F->Fd, 0);
  if (internal_iserror(M))
    return false;
  bool Ok = WriteOutput(Fallback, (u32)internal_getpid(), (const char *)M,
                        Size, /*FromFile=*/true);
  internal_munmap((void *)M, Size);
  if (Ok) {
    Printf("ActiveTime: the profile was written to '%s' instead\n", Fallback);
    internal_strlcpy(F->Path, Fallback, sizeof(F->Path));
  }
  return Ok;
}
} // namespace

namespace {
// A nameless file (O_TMPFILE) in Dir, -1 where the file system has none.
int OpenNameless(const char *Dir) {
  uptr Fd = internal_open(Dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  return internal_iserror(Fd) ? -1 : (int)Fd;
}

// A device or FIFO (output=/dev/stdout, a pipe): the image is streamed into
// a nameless file in $TMPDIR (or /tmp) and copied through at the end.
bool BeginThrough(ProfileFile *F) {
  const char *Dir = GetEnv("TMPDIR");
  if (!Dir || !*Dir)
    Dir = "/tmp";
  F->Fd = OpenNameless(Dir);
  if (F->Fd < 0)
    return false;
  F->Through = true;
  F->ScratchFd = OpenNameless(Dir);
  IgnoreFileSizeSignal(F);
  return true;
}
} // namespace

bool BeginProfileFile(ProfileFile *F) {
  if (!ProfilePath(F->Path, sizeof(F->Path)))
    return false;
  MakeRankDirectories(F->Path);
  struct stat St;
  if (!internal_iserror(internal_lstat(F->Path, &St)) && !S_ISREG(St.st_mode))
    // A link or directory: WriteOutput refuses it, in one line.
    return !S_ISLNK(St.st_mode) && !S_ISDIR(St.st_mode) && BeginThrough(F);
  TempPathOf(F->Path, (u32)internal_getpid(), F->Tmp, sizeof(F->Tmp));
  // Read and write: the image is streamed through a shared mapping.
  uptr Fd = internal_open(F->Tmp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (internal_iserror(Fd))
    return false;
  LockForWriting((fd_t)Fd);
  F->Fd = (int)Fd;
  IgnoreFileSizeSignal(F);
  char Dir[4096];
  if (DirectoryOf(F->Tmp, Dir, sizeof(Dir)))
    F->ScratchFd = OpenNameless(Dir);
  return true;
}

void AbandonProfileFile(ProfileFile *F) {
  if (F->Fd < 0)
    return;
  if (!F->Through)
    internal_unlink(F->Tmp);
  CloseProfileFile(F);
}

namespace {
// The streamed image copied through to the device or FIFO (or, failing
// that, where the fallback goes).
bool CommitThrough(ProfileFile *F, uptr Size) {
  uptr M = internal_mmap(nullptr, Size, PROT_READ, MAP_SHARED, F->Fd, 0);
  bool Ok = false;
  if (internal_iserror(M)) {
    Printf("ActiveTime: ERROR: cannot write profile '%s': mmap of the "
           "streamed image failed\n",
           F->Path);
  } else {
    Ok = WriteOutput(F->Path, (u32)internal_getpid(), (const char *)M, Size,
                     /*FromFile=*/true);
    internal_munmap((void *)M, Size);
    if (!Ok)
      Ok = CopyToFallback(F, Size);
  }
  AbandonProfileFile(F);
  return Ok;
}
} // namespace

bool CommitProfileImage(ProfileFile *F, const char *Data, uptr Size) {
  int Err = 0;
  if (F->Fd < 0 || F->Through ||
      !WriteAll((fd_t)F->Fd, Data, Size, &Err)) {
    AbandonProfileFile(F);
    return WriteProfileOutput(Data, Size);
  }
  return CommitProfileFile(F, Size);
}

bool CommitProfileFile(ProfileFile *F, uptr Size) {
  if (F->Through) {
    bool Ok = CommitThrough(F, Size);
    if (Ok && flags()->verbosity >= 1)
      Printf("ActiveTime: wrote profile %s (%zu bytes)\n", F->Path, Size);
    return Ok;
  }
  int Err = 0;
  const char *What = nullptr;
  if (internal_iserror(internal_ftruncate((fd_t)F->Fd, Size), &Err))
    What = "truncate the temporary file";
  else if (internal_iserror(internal_rename(F->Tmp, F->Path), &Err))
    What = "rename the temporary file";
  bool Ok = !What;
  if (Ok) {
    if (int CloseErr = CloseProfileFile(F)) {
      ReportFailure(F->Path, "close", CloseErr);
      Ok = false;
    }
  } else {
    ReportFailure(F->Path, What, Err);
    Ok = CopyToFallback(F, Size);
    AbandonProfileFile(F);
  }
  if (Ok && flags()->verbosity >= 1)
    Printf("ActiveTime: wrote profile %s (%zu bytes)\n", F->Path, Size);
  return Ok;
}

} // namespace __activetime
