//===- activetime_output.cpp - Putting a profile at its output path -------===//
//
// Part of ActiveTime. See activetime_output.h. The rule: what is at the
// output path is either replaced by a complete profile or left exactly as it
// was. Replacing is right only for a regular file; `output=/dev/null` must
// discard the profile, not turn /dev/null into a file.
//
//===----------------------------------------------------------------------===//

#include "activetime_output.h"

#include "sanitizer_common/sanitizer_common.h"
#include "sanitizer_common/sanitizer_libc.h"
#include "sanitizer_common/sanitizer_posix.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>

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

bool WriteAll(fd_t Fd, const char *Data, uptr Size, int *Err) {
  uptr Done = 0;
  while (Done < Size) {
    uptr W = internal_write(Fd, Data + Done, Size - Done);
    if (internal_iserror(W, Err)) {
      if (*Err == EINTR)
        continue;
      return false;
    }
    Done += W;
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
bool ReplaceAtomically(const char *Path, u32 Pid, const char *Data, uptr Size,
                       const char **What, int *Err) {
  char Tmp[4096 + 32];
  internal_snprintf(Tmp, sizeof(Tmp), "%s.tmp.%u", Path, Pid);
  uptr Fd = internal_open(Tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (internal_iserror(Fd, Err)) {
    *What = "create the temporary file";
    return false;
  }
  LockForWriting((fd_t)Fd);
  bool Ok = WriteAll((fd_t)Fd, Data, Size, Err);
  if (!Ok)
    *What = "write";
  if (Ok && internal_iserror(internal_rename(Tmp, Path), Err)) {
    *What = "rename the temporary file";
    Ok = false;
  }
  if (!Ok)
    internal_unlink(Tmp);
  int CloseErr = 0;
  if (internal_iserror(internal_close((fd_t)Fd), &CloseErr) && Ok) {
    *What = "close";
    *Err = CloseErr;
    Ok = false; // a delayed write failed (NFS): say so
  }
  return Ok;
}

/// A device, FIFO or socket: written through. O_NONBLOCK only to open, so
/// a FIFO without a reader fails (ENXIO) instead of hanging the exit.
bool WriteThrough(const char *Path, const char *Data, uptr Size,
                  const char **What, int *Err) {
  uptr Fd = internal_open(Path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (internal_iserror(Fd, Err)) {
    *What = "open";
    return false;
  }
  int Flags = fcntl((int)Fd, F_GETFL);
  if (Flags != -1)
    fcntl((int)Fd, F_SETFL, Flags & ~O_NONBLOCK);
  bool Ok = WriteAll((fd_t)Fd, Data, Size, Err);
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

bool WriteOutput(const char *Path, u32 Pid, const char *Data, uptr Size) {
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
                ? WriteThrough(Path, Data, Size, &What, &Err)
                : ReplaceAtomically(Path, Pid, Data, Size, &What, &Err);
  if (!Ok)
    ReportFailure(Path, What, Err);
  return Ok;
}

} // namespace __activetime
