//===- activetime_worker.h - The runtime's own threads ----------*- C++ -*-===//
//
// The sampler and the code sample drainer are threads of the runtime's own:
// started with every signal blocked (program signals must never reach
// them), sleeping on a futex word that a stop request sets and wakes.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_WORKER_H
#define ACTIVETIME_WORKER_H

#include "sanitizer_common/sanitizer_internal_defs.h"

#include <pthread.h>

namespace __activetime {
using namespace __sanitizer;

struct WorkerThread {
  u32 StopWord; // futex: 1 = stop
  int Running;  // a thread exists (to be joined)
  pthread_t Thread;
};

// Starts Main on a new thread with every signal blocked; the pthread_create
// error (0 on success).
int StartWorker(WorkerThread &W, void *(*Main)(void *));
// Whether a stop was requested.
bool StopRequested(const WorkerThread &W);
// Sleeps until the CLOCK_MONOTONIC time DeadlineNs or a stop request.
void SleepUntil(WorkerThread &W, u64 DeadlineNs);
// What the profile says of the runtime's threads (ProcessRecord::
// ThreadedByRuntimeUs): StartWorker notes the first that started while glibc
// counted one thread (a program with one thread, made multi-threaded).
// In a profile of StartTick..EndTick; ThreadedUsOf: for the tick T (0: none).
u32 ThreadedByRuntimeUs(u64 StartTick, u64 EndTick, u64 TickRate);
u32 ThreadedUsOf(u64 T, u64 StartTick, u64 EndTick, u64 TickRate);
// Requests a stop, wakes the thread and joins it (if it runs).
void StopWorker(WorkerThread &W);
// CLOCK_MONOTONIC in ns.
u64 MonotonicNs();

// What the runtime's threads measure beside the program (the probe table's
// calibration, the code samples' cost) waits until the process has lived
// a millisecond: a process that ends first pays nothing for it, and its
// profile says what was not measured. MarkProcessStart at start-up and in
// a fork child; WaitToMeasure returns false if W is asked to stop first.
void MarkProcessStart();
bool WaitToMeasure(WorkerThread &W);
// Whether that millisecond has passed.
bool MeasureTimeReached();

} // namespace __activetime

#endif // ACTIVETIME_WORKER_H
