//===- activetime/abi.h - Pass <-> runtime interface ------------*- C++ -*-===//
//
// Part of ActiveTime. The one place that names the runtime entry points the
// pass calls and lays out the tables it emits. Included by the pass (to build
// IR with these names and shapes) and by the runtime (to define them).
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_ABI_H
#define ACTIVETIME_ABI_H

#include <stdint.h>

// Bumped whenever a probe signature or a table layout changes. The module
// constructor calls kVersionCheckName (which embeds the number), so objects
// built by a different pass fail to link; the runtime also checks
// ModuleDesc::AbiVersion at registration and dies with a clear message.
#define ACTIVETIME_ABI_VERSION 7

#define ACTIVETIME_STRINGIFY_(X) #X
#define ACTIVETIME_STRINGIFY(X) ACTIVETIME_STRINGIFY_(X)
#define ACTIVETIME_CONCAT_(A, B) A##B
#define ACTIVETIME_CONCAT(A, B) ACTIVETIME_CONCAT_(A, B)

namespace activetime {
namespace abi {

constexpr uint32_t kAbiVersion = ACTIVETIME_ABI_VERSION;

// Probes. Both take the function's descriptor (its address in the module's
// table is the function's identity at run time: no load, no lookup) and the
// address of the slot holding the return address of the instrumented frame
// (llvm.addressofreturnaddress), which is identical at entry and exit and
// strictly decreasing with depth on one stack. The runtime uses it to repair
// its shadow stack after longjmp and other non-local exits.
//   void __activetime_func_enter(const FuncDesc *Fn, void *Frame);
//   void __activetime_func_exit(const FuncDesc *Fn, void *Frame);
constexpr const char kFuncEnterName[] = "__activetime_func_enter";
constexpr const char kFuncExitName[] = "__activetime_func_exit";

// Timed or counted. Every call of an instrumented function increments the
// calling thread's 64-bit counter for that function, inline; the counter's
// sign says what else happens to the call on this thread:
//   non-negative: the call is timed (entry probe now, exit probe on every
//     way out); every function starts so on every thread;
//   negative: the call is only counted. The runtime sets the sign bit, on
//     the thread's own timed exit, once the function's calls there prove too
//     short for the probes' cost to be removed from them with confidence.
// The low 63 bits count the calls. The entry's decision is kept for the
// exits; a call in tail position runs its exit check before the call, so
// the tail call stays a jump (the callee replaces the caller's frame, as it
// does without instrumentation).
//
// Where the counters are. In a module of an executable (PIE or not PIC) the
// module owns a thread-local pointer (kCountsTlsName, internal, local-exec)
// to the thread's array of the module's NumFuncs counters: counter I is at
// a constant offset. In a module built as PIC (a shared library) the
// pointer is the runtime's (kRuntimeCountsTlsName, initial-exec) to one
// array for every such module, and the module's counters start at
// ModuleDesc::CountBase (set at registration):
//
//   V = ++TlsPointer[Base + I];        (Base: 0, or M->CountBase)
//   if (V >= 0) __activetime_func_enter(Fn, Frame);
//   ... every exit: if (V >= 0) __activetime_func_exit(Fn, Frame);
//
// A pointer is never null: it starts at a bootstrap array (the module's
// kBootstrapCountsName, or the runtime's) shared by every thread, in which
// every function reads as timed. A thread's first call of a function thus
// runs the entry probe, which gives the thread its own array and aims its
// pointer there (the module constructor stores the pointer's address on the
// registering thread into ModuleDesc::CountsTls, from which the runtime
// knows where every thread's pointer is).
//
// The sample poll. A thread's code samples (the kernel's perf ring) are
// read at its probes, which counted calls do not run. With
// -activetime-sample-poll every entry first checks whether the ring's head
// moved, against the runtime's thread-local kSamplePollTlsName
// (initial-exec), whose first two words are Head (a const volatile
// uint64_t *, never null: a zero word when the thread is not sampled) and
// Seen (uint64_t):
//
//   if (*Poll.Head != Poll.Seen) __activetime_sample_poll();   (preserve_most)
//
// A single-threaded program thus needs no runtime thread to read its rings
// (glibc keeps its single-threaded fast paths). Off by default (the check
// costs every counted call): a module built with it says so in its
// descriptor (MDF_SamplePoll), and without it a thread's first counted
// function starts the runtime's drainer thread.
constexpr uint64_t kCountedBit = uint64_t(1) << 63;
constexpr const char kSamplePollTlsName[] = "__activetime_thread";
constexpr uint64_t kSamplePollHeadOffset = 0;
constexpr uint64_t kSamplePollSeenOffset = 8;
constexpr const char kSamplePollName[] = "__activetime_sample_poll";
constexpr const char kCountsTlsName[] = "__activetime_module_counts";
constexpr const char kRuntimeCountsTlsName[] = "__activetime_counts";
constexpr const char kBootstrapCountsName[] = "__activetime_bootstrap_counts";
// A small function may be instrumented as two: itself, which counts and,
// when the call is to be timed, jumps (musttail) to a copy of itself named
// with this suffix that has the probes. Its counted calls then run no exit
// check. Tools map the copy's code to the function.
constexpr const char kTimedCopySuffix[] = ".activetime.timed";

// Memory-access probe (stride profiling), before a load or store
// whose address ScalarEvolution cannot prove affine. Its fast path is inline:
// the module's thread-local array kSiteCountdownName (int32_t per site, zero
// at thread start) is decremented, and only when the count drops below 0
// does the code call the probe, which observes Addr, runs the phase manager
// and stores the number of executions until the next call, less one, into
// *Countdown. (Below 0, not at 0: a decrement and a jump on its sign, x86's
// `decl mem; js`, need no register.)
// Site is the index into the module's site table; M->SiteBase (set at
// registration) turns it into a process-wide index into the thread's
// per-site records.
//   void __activetime_mem_access(ModuleDesc *M, uint32_t Site, void *Addr,
//                                int32_t *Countdown);
constexpr const char kMemAccessName[] = "__activetime_mem_access";
constexpr const char kSiteTableName[] = "__activetime_sites";
constexpr const char kSiteCountdownName[] = "__activetime_countdown";

// The public API (include/activetime/activetime.h), called by the program,
// never emitted by the pass. The header declares them weak, so a program
// linked without the runtime sees null addresses and does nothing.
//   const FuncDesc *__activetime_region_intern(const char *Name,
//                                              const char *File, uint32_t Line);
//     The descriptor of the named region (one per distinct name, in a
//     runtime-owned module), null when the region table is full.
//   void __activetime_region_begin(const FuncDesc *R);
//   void __activetime_region_end(const FuncDesc *R);
//   int __activetime_write_profile(void);     0 on success
//   int __activetime_set_enabled(int On);     returns the previous state
//   int __activetime_enabled(void);
constexpr const char kRegionInternName[] = "__activetime_region_intern";
constexpr const char kRegionBeginName[] = "__activetime_region_begin";
constexpr const char kRegionEndName[] = "__activetime_region_end";
constexpr const char kWriteProfileName[] = "__activetime_write_profile";
constexpr const char kSetEnabledName[] = "__activetime_set_enabled";
constexpr const char kEnabledName[] = "__activetime_enabled";
// Source name of the runtime-owned module holding the regions' descriptors.
constexpr const char kRegionModuleName[] = "<activetime regions>";
// Source name of the module of the MPI routines' wrappers (libactivetime_mpi,
// runtime/mpi/): one FuncDesc per routine, each with FF_Mpi.
constexpr const char kMpiModuleName[] = "<activetime mpi>";

// The reduction of an MPI job's profiles at MPI_Finalize: the MPI part gives
// the runtime a way to move bytes between the ranks of a communicator of
// its own, and the runtime runs the tree over it (activetime_mpi_reduce.cpp),
// so neither the tree nor the profile's format is known to the MPI part.
//   int __activetime_mpi_reduce_wanted(void);   the flags ask for it
//   int __activetime_mpi_reduce(uint32_t Rank, uint32_t Size, int Contribute,
//                               const MpiTransport *T);
// Send and Recv move exactly N bytes (never more than kMpiMaxPiece at once:
// an MPI count is an int) to or from rank Peer, in the order called, and
// return 0 on success.
struct MpiTransport {
  void *Ctx;
  int (*Send)(void *Ctx, uint32_t Peer, const void *Data, uint64_t N);
  int (*Recv)(void *Ctx, uint32_t Peer, void *Data, uint64_t N);
};
constexpr uint64_t kMpiMaxPiece = uint64_t(1) << 30;

// Module registration, called from the module constructor / destructor.
//   void __activetime_register_module(ModuleDesc *M);
//   void __activetime_unregister_module(ModuleDesc *M);
constexpr const char kRegisterModuleName[] = "__activetime_register_module";
constexpr const char kUnregisterModuleName[] = "__activetime_unregister_module";

// Block counts (a training build for profile-guided optimization; see
// docs/pgo.md). The pass takes over the counters of LLVM's IR PGO
// instrumentation (clang -Xclang -fprofile-instrument=llvm) after the
// optimizer: an executable's move to thread-local copies in static TLS
// (ThreadCountersEntry), a shared library's are offset by the thread-local
// kBlockBiasName, which the runtime points at the thread's own copy of the
// object's counters; the value profiling calls go to the runtime's
// per-thread tables.
//   void __activetime_register_block_counts(BlockCountsDesc *D);
//   void __activetime_unregister_block_counts(BlockCountsDesc *D);
//   int64_t __activetime_block_thread(BlockCountsDesc *D);
//     a thread whose bias is 0 (its first counted function, or its copies
//     already added to the totals), through the object's kBlockStartName:
//     sets up the thread's copies and returns its bias for D's object, or 0
//     (count into the shared counters)
//   void __activetime_value_profile(uint64_t Value, void *Data, uint32_t Site);
//     an indirect call's target (Data: the caller's LLVM profile data record)
//   void __activetime_memop_profile(uint64_t Size, void *Data, uint32_t Site);
//     a memory intrinsic's size
constexpr const char kRegisterBlockCountsName[] =
    "__activetime_register_block_counts";
constexpr const char kUnregisterBlockCountsName[] =
    "__activetime_unregister_block_counts";
constexpr const char kBlockThreadName[] = "__activetime_block_thread";
constexpr const char kValueProfileName[] = "__activetime_value_profile";
constexpr const char kMemOpProfileName[] = "__activetime_memop_profile";
// The linked object's thread-local counter bias, the function returning its
// address (BlockCountsDesc::BiasSlot) and the descriptor: one each per linked
// object, in one COMDAT group named after the descriptor.
constexpr const char kBlockBiasName[] = "__activetime_block_bias";
// The object's slow path (preserve_most, no arguments): calls
// kBlockThreadName with the object's descriptor.
constexpr const char kBlockStartName[] = "__activetime_block_start";
constexpr const char kBlockBiasSlotName[] = "__activetime_block_bias_slot";
constexpr const char kBlockCountsDescName[] = "__activetime_block_counts";
constexpr const char kBlockCountsCtorName[] = "__activetime_block_counts_ctor";
constexpr const char kBlockCountsDtorName[] = "__activetime_block_counts_dtor";
// An executable's counters per thread (ThreadCountersEntry): the section of
// the entries, and the suffixes of each function's thread-local copy of its
// counters and of the function returning the copy's address.
constexpr const char kThreadCountersSection[] = "__activetime_tcnts";
constexpr const char kThreadCopySuffix[] = ".at.tls";
constexpr const char kThreadCopyFnSuffix[] = ".at.tls.addr";
constexpr const char kThreadCountersEntrySuffix[] = ".at.tls.entry";

// A function whose name carries the ABI version; the constructor calls it so
// a pass/runtime mismatch is a link error naming the version.
constexpr const char kVersionCheckName[] =
    "__activetime_version_mismatch_check_v" ACTIVETIME_STRINGIFY(
        ACTIVETIME_ABI_VERSION);

// Names of what the pass emits into each instrumented module.
constexpr const char kModuleCtorName[] = "activetime.module_ctor";
constexpr const char kModuleDtorName[] = "activetime.module_dtor";
// A constructor in the COMDAT group of local functions the table lists,
// storing their addresses into their FuncDesc entries (null in the table's
// initializer, so that nothing outside the group refers into it).
constexpr const char kAddrCtorName[] = "activetime.addr_ctor";
constexpr const char kFuncTableName[] = "__activetime_funcs";
constexpr const char kModuleDescName[] = "__activetime_module";
// Module flag set once a module is instrumented (guards against running twice,
// e.g. in the pre-link and link-time halves of an LTO build).
constexpr const char kInstrumentedFlag[] = "activetime.instrumented";
// Prefix of everything the runtime defines; the pass never instruments it.
constexpr const char kRuntimePrefix[] = "__activetime";

// Constructor priority: after libc/C++ runtime set-up (which uses priority
// 0..100), before ordinary user constructors (65535).
constexpr int kCtorPriority = 1;

enum FuncFlags : uint32_t {
  FF_LocalLinkage = 1u << 0, // internal/private: identity is (module, name)
  // An MPI routine's wrapper (libactivetime_mpi): its calls are time spent
  // in MPI. Never emitted by the pass.
  FF_Mpi = 1u << 1,
  FF_Known = FF_LocalLinkage | FF_Mpi,
};

enum MemSiteFlags : uint32_t {
  MS_Store = 1u << 0,  // a store (else a load)
  MS_Static = 1u << 1, // affine with constant step: StaticStride, no probe
  MS_InLoop = 1u << 2, // inside a loop (LoopLine is its header's line)
  // ABI 6: a copy of an unproven copy group: same location, size and kind in
  // one innermost loop as the group's other sites, but ScalarEvolution could
  // not prove their addresses differ by constants (a[idx[i]] unrolled). The
  // runtime measures the offset to the previous copy (CopyPrev) instead.
  MS_CopyUnproven = 1u << 3,
};

enum ModuleDescFlags : uint32_t {
  // PIC module: its counters are in the runtime's per-thread array from
  // CountBase on (see "Timed or counted"); else in the module's own.
  MDF_SharedCounts = 1u << 0,
  // Every entry starts with the sample poll's check (-activetime-sample-poll,
  // "The sample poll"): its counted calls read their code samples.
  MDF_SamplePoll = 1u << 1,
};

// The block-counting build's functions (BlockCountsDesc::BiasSlot,
// ThreadCountersEntry::ThreadCopy).
typedef int64_t *(*BiasSlotFn)(void);
typedef uint64_t *(*ThreadCountersFn)(void);

// The tables the pass emits and the runtime reads. Their fields are defined
// once, in ABIData.inc (which describes each), from which the pass builds
// the same layouts as IR types (pass/ABITypes.h).
#define ACTIVETIME_DESC_BEGIN(Desc) struct Desc {
#define ACTIVETIME_DESC_FIELD(Type, LLVMType, Name) Type Name;
#define ACTIVETIME_DESC_END(Desc) };
#include "activetime/ABIData.inc"

static_assert(sizeof(void *) != 8 || sizeof(FuncDesc) == 32, "FuncDesc layout");
static_assert(sizeof(void *) != 8 || sizeof(MemSiteDesc) == 88,
              "MemSiteDesc layout");
static_assert(sizeof(void *) != 8 || sizeof(ModuleDesc) == 96, "ModuleDesc layout");
static_assert(sizeof(void *) != 8 || sizeof(BlockCountsDesc) == 80,
              "BlockCountsDesc layout");
static_assert(sizeof(void *) != 8 || sizeof(ThreadCountersEntry) == 24,
              "ThreadCountersEntry layout");

} // namespace abi
} // namespace activetime

#endif // ACTIVETIME_ABI_H
