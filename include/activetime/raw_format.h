//===- activetime/raw_format.h - Raw profile file format --------*- C++ -*-===//
//
// Part of ActiveTime. Layout of the raw profile the runtime writes and the
// tool reads (and `activetime merge` writes). docs/raw-format.md is the
// format's document (sections, records, version history). The records and
// their fields are spelled once, in activetime/RawData.inc (with each
// record's description); this header adds the enumerations and constants
// and expands those lists into the structs, all in one place.
//
// All integers are little-endian. The file is a header followed by sections;
// every section starts on an 8-byte boundary and its size is a multiple of 8.
//
//   File    := FileHeader Section{NumSections}
//   Section := SectionHeader Payload[Size]
//
// Checksums (v8): every byte of the file is covered by one. The file
// header's Checksum is the XXH3-64 hash (xxHash 0.8, seed 0, the default
// secret) of the 32 header bytes before it; a section's Checksum is the low
// 32 bits of the XXH3-64 hash of the section's bytes after that field: its
// Kind, its Size and its whole payload, padding included. A reader checks
// the header's checksum before it trusts any header field but the magic,
// version and header size (each checked exactly), and a section's checksum
// before it parses the section; FileSize rejects bytes after the last
// section. A changed byte passes unnoticed only if the hash happens to
// agree (one chance in 2^32 per section), not by construction.
//
// A Process section opens a process block: the Module, Thread, Trace and
// Strides sections after it (NumModules, NumThreads, NumTraces and NumStrides
// of them, in that order), then NumBlockCounts BlockCounts sections, belong
// to that process, then at most one Samples, at most one Parallel and at
// most one Mpi section, in any order. A runtime-written file
// has one block; a merged file has several.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_RAW_FORMAT_H
#define ACTIVETIME_RAW_FORMAT_H

#include <stddef.h>
#include <stdint.h>

namespace activetime {
namespace raw {

// "\x7f" "ATPROF" "\n": not text, and a CR/LF mangling shows at once.
constexpr char kMagic[8] = {'\x7f', 'A', 'T', 'P', 'R', 'O', 'F', '\n'};
constexpr uint32_t kVersion = 19;
// ProcessRecord::ThreadedByRuntimeUs when the runtime's threads were not
// the process's first (or it started none).
constexpr uint32_t kNotThreadedByRuntime = 0xffffffffu;

enum FileFlags : uint32_t {
  FH_Merged = 1u << 0, // written by `activetime merge`
};

// The file header's bytes its Checksum covers: all before the field.
constexpr uint64_t kFileHeaderChecksummed = 32;

// The kinds of section, from RawData.inc's list (in block order).
enum SectionKind : uint32_t {
#define AT_RAW_SECTION(Name, Kind, Order, Label) SK_##Name = Kind,
#include "activetime/RawData.inc"
};

// Where a section's checksummed bytes start: the field after Checksum.
constexpr uint64_t kSectionChecksumFrom = 4;

enum OverheadSource : uint32_t {
  OS_Calibrated = 0,     // measured by the runtime beside the program (v17;
                         // before main until v16)
  OS_Option = 1,         // fixed by ACTIVETIME_OPTIONS (overhead_*_ticks)
  OS_Uncalibrated = 2,   // v17: the process ended before its calibration
                         // was done: Enter256 = Exit256 = 0, the parts
                         // outside the probes' tick reads are in the times
};

enum OverheadFlags : uint32_t {
  OF_Stable = 1u << 0,   // the spread was within the calibration bound
  // Every probe fenced its tick read and its work (probe_fence=1): its cost
  // does not depend on the code around it, so the table holds everywhere.
  OF_Fenced = 1u << 1,
  // Every probe measured its own interval (v6, always set by the runtime).
  OF_Measured = 1u << 2,
  OF_Known = OF_Stable | OF_Fenced | OF_Measured,
};

enum CodeSamplingFlags : uint32_t {
  CSF_Disabled = 1u << 0,    // ACTIVETIME_OPTIONS=code_samples=0 or mode=trace
  CSF_Unavailable = 1u << 1, // perf_event_open refused (paranoid, seccomp)
  CSF_UserOnly = 1u << 2,    // kernel time not sampled (perf_event_paranoid)
  CSF_Stacks = 1u << 3,      // samples outside the program's code were
                             // charged to the program function that called
                             // out (a return address found on the stack)
  CSF_CostUnmeasured = 1u << 4, // the measurement of a sample's
                                // cost got too few interrupts (a busy
                                // machine): CodeSampleCost256 is 0 and the
                                // samples' cost stays in the times
  CSF_NotStarted = 1u << 5, // the run ended before the sample cost was
                            // measured (beside the program, in its first
                            // ~15 ms): no samples were taken
  CSF_Known = CSF_Disabled | CSF_Unavailable | CSF_UserOnly | CSF_Stacks |
              CSF_CostUnmeasured | CSF_NotStarted,
};

enum ModuleFlags : uint32_t {
  MF_Unloaded = 1u << 0, // unregistered (dlclose) before the profile was written
};

enum ThreadFlags : uint32_t {
  TF_Running = 1u << 0,  // still running when the profile was written
  // Code sampling was on but this thread's sampling event or its ring could
  // not be opened (the perf_event_mlock_kb / RLIMIT_MEMLOCK budget of locked
  // ring pages ran out): its counted callees' time stays in its timed frames.
  TF_NotSampled = 1u << 1,
  // v9: the thread's nodes carry latency histograms (LatencyRecords); off
  // with ACTIVETIME_OPTIONS=latency=0.
  TF_Latency = 1u << 2,
  // v10: the thread was sampled, and its calls whose code samples'
  // interrupts, charged at their start-up estimate, made up more than a
  // quarter of their time are not in the latency histograms (their per-call
  // time is uncertain by that much); the nodes' min and max bound such
  // calls (min by their time with the interrupts, max without).
  TF_SampledCallsApart = 1u << 3,
  // With TF_NotSampled, or a switch source fallen back from perf: the
  // runtime's descriptor budget (an eighth of the soft RLIMIT_NOFILE) was
  // spent by other threads, not a perf limit.
  TF_NoDescriptors = 1u << 4,
  // v12: the record of ThreadRecord::FoldedThreads finished threads folded
  // together (the runtime keeps the first keep_threads finished threads
  // whole): call trees merged, counts, samples, off-CPU time, switches and
  // CPU time summed; StartTick the earliest start, EndTick the latest end.
  TF_Folded = 1u << 5,
  // v12: with TF_NotSampled, the thread ended before its perf rings were
  // opened (the runtime's perf_after_us): its switched-out time is from its
  // CPU clock and it has no code samples.
  TF_ShortLived = 1u << 6,
  TF_Known = TF_Running | TF_NotSampled | TF_Latency | TF_SampledCallsApart |
             TF_NoDescriptors | TF_Folded | TF_ShortLived,
};

// Where a thread's switched-out intervals came from.
enum SwitchSource : uint32_t {
  SS_None = 0,     // not measured: off-CPU time is NOT removed from active
  SS_Perf = 1,     // perf_event_open context-switch records (exact)
  SS_CpuClock = 2, // thread CPU-time clock read every SwitchResolution ticks
                   // of wall time: off-CPU time located within that window
};

constexpr uint32_t kNoParent = 0xffffffffu;

constexpr uint64_t kCpuUnknown = ~uint64_t(0);

// A thread's calls of one function (v6): every call, timed or counted (the
// timed ones are also in its nodes). With CR_Counted the thread switched the
// function to counting after its first timed calls: the calls beyond those
// of its nodes were only counted. Calls > 0.
enum CountRecordFlags : uint32_t {
  CR_Counted = 1u << 0,
  CR_Known = CR_Counted,
};

// Code samples (v6): the thread was interrupted every CodeSamplePeriodNs of
// its CPU time and the instruction it was at recorded against the timed
// frame it was in (the innermost open frame). Counted calls run inside that
// frame, so the samples tell how its self time divides between its own code
// and the counted functions it ran. Addr is the run-time address of the
// instruction, or with CSR_Caller a return address into the program found on
// the stack (the sample was outside the program's code: a library or the
// kernel), or 0 when nothing in the program was found.
enum CodeSampleFlags : uint32_t {
  CSR_Caller = 1u << 0,
  CSR_Kernel = 1u << 1,  // the interrupted instruction was in the kernel
  // The instruction was one of a counted call's entry instructions (the
  // sample poll's check and the counting sequence, abi.h): the time is
  // instrumentation cost, not the program's.
  CSR_Counting = 1u << 2,
  CSR_Known = CSR_Caller | CSR_Kernel | CSR_Counting,
};

// mode=trace: the three inputs of the offline active-time computation
// (tools/lib/Profile/TraceActiveTime.cpp), recorded literally.
enum TraceEventKind : uint32_t {
  TE_Enter = 0,
  TE_Exit = 1,
};

enum TraceBufferFlags : uint32_t {
  TBF_Populate = 1u << 0,  // madvise(MADV_POPULATE_WRITE) (Linux >= 5.14)
  TBF_Touch = 1u << 1,     // a write to each page (older kernels)
  TBF_HugePages = 1u << 2, // transparent huge pages beyond the first 2 MiB
  // The kernel had no memory for more (ENOMEM): the later events were
  // dropped rather than the program killed.
  TBF_NoMemory = 1u << 3,
  // The process's trace buffers reached trace_memory_mb: this thread's
  // later events were dropped.
  TBF_Budget = 1u << 4,
  TBF_Known =
      TBF_Populate | TBF_Touch | TBF_HugePages | TBF_NoMemory | TBF_Budget,
};

// OpenMP worker-state analysis. States of a worker thread in a
// parallel region: user code, local-queue lookup, global search (stealing),
// waiting.
enum WorkerState : uint32_t { WS_User = 0, WS_Local = 1, WS_Global = 2, WS_Wait = 3 };
constexpr uint32_t kNumWorkerStates = 4;

enum OmpStatus : uint32_t {
  OS_NoOpenMP = 0, // no OpenMP runtime was seen
  OS_Ompt = 1,     // registered as an OMPT tool; data below
  OS_NoOmpt = 2,   // an OpenMP runtime without OMPT (libgomp) was loaded
  OS_Disabled = 3, // ACTIVETIME_OPTIONS=openmp=0
};

// sample=1: a sampler thread reads every live thread's
// shadow stack at randomized instants. Payload of SK_Samples: SamplesRecord
// followed by NumSamples SampleRecords in sampling order (non-decreasing
// ticks).
enum SamplesFlags : uint32_t {
  SMF_Randomized = 1u << 0, // exponentially distributed intervals
  SMF_Realtime = 1u << 1,   // the sampler ran at SCHED_FIFO priority 1
};

enum SampleFlags : uint32_t {
  SF_OffCpu = 1u << 0,     // the thread was not on a CPU at the sample
  SF_Preempted = 1u << 1,  // off-CPU because preempted (still runnable)
  SF_ProcState = 1u << 2,  // state from /proc/<tid>/stat, not the perf ring
  SF_PriorFrame = 1u << 3, // off-CPU inside a probe (stack mid-update):
                           // Node is the thread's prior on-CPU sample's
  SF_SelfPreempted = 1u << 4, // preempted at (20 us before) this sweep's
                           // due time or later, i.e. by the sampler's own
                           // wake-up: counted on-CPU
  SF_KnownMask = 0x1f,
};

constexpr uint32_t kNoNode = 0xffffffffu; // outside any instrumented function

// The records, in RawData.inc's order (a nested record before its user).
#define AT_RAW_BEGIN(Record) struct Record {
#define AT_RAW_FIELD(Type, Name, Dims, Doc) Type Name Dims;
#define AT_RAW_END(Record) };
#include "activetime/RawData.inc"

// Every record has the size RawData.inc states (no padding: the fields'
// sizes add up to it), which is what its readers outside C++ rely on.
#define AT_RAW_RECORD(Name, Size, Doc)                                         \
  static_assert(sizeof(Name) == Size, #Name " has the size of RawData.inc");
#include "activetime/RawData.inc"
static_assert(offsetof(FileHeader, Checksum) == kFileHeaderChecksummed,
              "the header checksum covers the bytes before it");
static_assert(offsetof(SectionHeader, Kind) == kSectionChecksumFrom,
              "a section checksum covers the bytes after it");

} // namespace raw
} // namespace activetime

#endif // ACTIVETIME_RAW_FORMAT_H
