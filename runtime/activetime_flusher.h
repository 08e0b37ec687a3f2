//===- activetime_flusher.h - Profiles of programs that do not exit -*- C++ -*-===//
//
// Part of ActiveTime. A program stopped by a signal never reaches the
// exit-time writer, and a server may never exit at all. The flusher is a
// runtime thread that writes the profile when asked: by the handlers
// installed for flush_on_signal (SIGTERM, SIGINT, SIGHUP) and flush_on_crash
// (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT), and every flush_interval_s.
// Signal handlers never write themselves: the writer takes locks and maps
// memory, which a handler must not do.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_FLUSHER_H
#define ACTIVETIME_FLUSHER_H

namespace __activetime {

// Installs the handlers and starts the thread if a flush_* flag asks for it.
void StartFlusher();
// Stops and joins the thread (the exit-time writer writes the last profile).
void StopFlusher();
// After the exit-time write (or where it was skipped): a stop signal that
// arrived since the flusher stopped takes its course now, and later ones at
// once, so the program still ends with the signal's status.
void FinishFlusherAtExit();
// In a forked child: a thread of its own (the parent's did not survive).
void FlusherAfterForkChild();

} // namespace __activetime

#endif // ACTIVETIME_FLUSHER_H
