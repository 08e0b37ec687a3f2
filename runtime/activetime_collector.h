//===- activetime_collector.h - The runtime's collectors --------*- C++ -*-===//
//
// Each part of the runtime that records something, or writes a part of the
// profile, is a collector: a constant table of hooks (Collector), defined
// beside its code, which registers it there with AT_REGISTER_COLLECTOR.
// Start-up, exit, fork, a thread's start and finish and the profile writer
// call the hooks of every registered collector in the order of their Order
// fields, as XRay's modes register their implementations; none of them
// names a collector. Any hook may be null. A new collector is its file
// alone: the runtime's sources are the directory's activetime_*.cpp.
//
// The descriptors are constant-initialized and a registration is a pointer
// to one in the section `activetime_collectors`, which the linker brackets
// with __start_/__stop_ symbols (the probes can run before any constructor,
// so nothing is registered by running code). A hook is a plain function.
//
// What the order keeps (the Order values are in steps of 10, so a new
// collector fits between two):
//  - sections: Process, Modules, Threads, then Trace, Strides, BlockCounts,
//    Ompt (Parallel) and Sampler (Samples: last, it reads the threads' node
//    maps) -- the raw format's block order;
//  - a thread's records: Counts' before CodeSamples';
//  - a thread starts: its trace buffers, then its switch source, then its
//    code sample ring (which would sample the opening of the others);
//  - a thread leaves: the sampler stops reading it (its stack and switch
//    ring) before CodeSamples drains and closes its ring;
//  - at start-up, exit and in a fork child: the sampler, then the code sample
//    drainer.
//
// Two exceptions: the probes poll the code sample ring and the switch source
// through fields of ThreadTls that their fast path reads directly, so that
// poll's slow path (PollSlow) names its two collectors (and the probe table,
// which a thread adopts there once calibrated); and the code sample
// drainer opens a late thread's switch ring along with its code-sample ring
// (perf_after_us, activetime_codesamples.h).
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_COLLECTOR_H
#define ACTIVETIME_COLLECTOR_H

#include "activetime_internal.h"

namespace __activetime {

struct OutBuffer;
struct ProfileWriter;
struct ThreadState;
struct ThreadTls;

struct Collector {
  const char *Name;
  // Where its hooks run among the others' (see the file comment); unique.
  u32 Order;

  // ---- The process ----------------------------------------------------------
  // Start-up, once the flags are read and the overhead table is set, before
  // the profile's start tick.
  void (*Init)();
  // Start-up, after the thread registry and the fork handlers: starts the
  // collector's own threads.
  void (*Start)();
  // At exit, before the last profile is written (the flusher has stopped):
  // stops them; the collector's figures end here.
  void (*Stop)();
  // fork(): ForkPrepare runs last in the prepare handler (the runtime's
  // locks are held), ForkParent and ForkChild first in theirs.
  void (*ForkPrepare)();
  void (*ForkParent)();
  void (*ForkChild)();
  // In the child, after the runtime restarted its own state and released
  // its locks: the parent's figures are forgotten, the collector's threads
  // (which did not survive the fork) restarted.
  void (*AfterForkChild)();

  // ---- A thread, on the thread itself --------------------------------------
  // Its first probe, before it is registered.
  void (*ThreadStart)(ThreadTls &T, ThreadState *TS, u64 Now);
  // It finishes at Now: first before the registry is locked (whatever takes
  // the loader's lock, as draining code samples does, or waits for a runtime
  // thread), then under the registry lock (the writer is not reading the
  // thread), before the runtime closes the frames still open.
  void (*ThreadLeave)(ThreadTls &T, ThreadState *TS, u64 Now);
  void (*ThreadFinish)(ThreadTls &T, ThreadState *TS, u64 Now);
  // A fork child's surviving thread, its profile restarting at Now (the
  // registry lock held).
  void (*ThreadAfterForkChild)(ThreadTls &T, ThreadState *TS, u64 Now);
  // A finished thread folded into the process's record Into (registry lock
  // held): From's records go into Into's, through NodeMap (From's tree
  // index -> Into's, NumTreeNodes entries), and From lets go of its memory.
  void (*ThreadFold)(ThreadState &Into, ThreadState &From, const u32 *NodeMap,
                     u32 NumTreeNodes);
  // Lets go of what the thread holds without draining it (testing resets).
  void (*ThreadForget)(ThreadTls &T, ThreadState *TS);
  // ... and without any lock: a child made behind the fork handlers, whose
  // locks may be held for ever by the parent's threads. TS may be null.
  void (*ThreadAbandon)(ThreadTls &T, ThreadState *TS);

  // ---- The profile (activetime_writer.h), written with the module and
  // thread registry locks held -----------------------------------------------
  // Before any section is written; returns whether the collector reads the
  // thread sections' node maps (ProfileWriter::NodeMaps).
  bool (*PrepareWrite)(ProfileWriter &W);
  // Its fields of the process record and of a thread's record.
  void (*FillProcess)(activetime::raw::ProcessRecord &R);
  void (*FillThread)(activetime::raw::ThreadRecord &R, const ThreadState &TS);
  // Its records in a thread's section, after the nodes (NodeMap: the
  // section's tree index -> written node, NumTreeNodes entries); returns
  // how many, which go into the thread record's NumThreadRecords.
  u32 (*WriteThreadRecords)(OutBuffer *B, const ThreadState &TS,
                            const u32 *NodeMap, u32 NumTreeNodes);
  u32 activetime::raw::ThreadRecord::*NumThreadRecords;
  // Its sections.
  void (*WriteSections)(ProfileWriter &W);
};

// Registers collector C (a constant Collector of the file).
// `retain` (SHF_GNU_RETAIN): lld's --gc-sections would drop the section,
// whose only references are the __start_/__stop_ brackets (-z
// start-stop-gc is lld's default).
#define AT_REGISTER_COLLECTOR(C)                                               \
  __attribute__((used, retain, section("activetime_collectors"))) static const \
      Collector *const C##Registration = &C

// The most collectors a runtime may register.
constexpr u32 kMaxCollectors = 32;

// The registered collectors, in Order: fills Out, returns how many. Sorted
// on every call, on the caller's stack: no state, so any thread or signal
// handler may call it at any time (a dozen entries; never on a probe's
// path).
u32 CollectorsInOrder(const Collector *(&Out)[kMaxCollectors]);

// Whether any collector is registered: a linker that drops the
// registrations' section drops them all, and leaves a runtime that can
// record nothing.
bool CollectorsRegistered();

// Calls hook H of every collector that has one, in order.
template <typename Hook, typename... Args>
void CallCollectors(Hook Collector::*H, Args &&...A) {
  const Collector *Cs[kMaxCollectors];
  u32 N = CollectorsInOrder(Cs);
  for (u32 I = 0; I < N; ++I)
    if (Hook Fn = Cs[I]->*H)
      Fn(A...);
}

} // namespace __activetime

#endif // ACTIVETIME_COLLECTOR_H
