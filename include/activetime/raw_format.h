//===- activetime/raw_format.h - Raw profile file format --------*- C++ -*-===//
//
// Part of ActiveTime. Layout of the raw profile the runtime writes and the
// tool reads (and `activetime merge` writes). docs/raw-format.md is the
// format's document (sections, records, version history). The records'
// fields are spelled once, in activetime/RawData.inc; this header expands
// those lists into the structs and adds the enumerations and constants.
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
// of them, in that order), then NumBlockCounts BlockCounts sections, belong to that process, then at most one Samples
// and at most one Parallel section, in either order. A runtime-written file
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
constexpr uint32_t kVersion = 13;

enum FileFlags : uint32_t {
  FH_Merged = 1u << 0, // written by `activetime merge`
};

struct FileHeader {
#define AT_RAW_FILE_HEADER(Type, Name, Dims, Doc) Type Name Dims;
#include "activetime/RawData.inc"
};

// The file header's bytes its Checksum covers: all before the field.
constexpr uint64_t kFileHeaderChecksummed = 32;

// The kinds of section, from RawData.inc's list (in block order).
enum SectionKind : uint32_t {
#define AT_RAW_SECTION(Name, Kind, Order, Label) SK_##Name = Kind,
#include "activetime/RawData.inc"
};

struct SectionHeader {
#define AT_RAW_SECTION_HEADER(Type, Name, Dims, Doc) Type Name Dims;
#include "activetime/RawData.inc"
};

// Where a section's checksummed bytes start: the field after Checksum.
constexpr uint64_t kSectionChecksumFrom = 4;

enum OverheadSource : uint32_t {
  OS_Calibrated = 0,     // measured at start-up by the runtime
  OS_Option = 1,         // fixed by ACTIVETIME_OPTIONS (overhead_*_ticks)
};

// The overhead table: the cost of each probe event, as
// an interval that starts at the event's timestamp. Enter = the part of an
// entry/exit pair that lies inside the instrumented frame's own elapsed
// interval (after its entry timestamp, before its exit timestamp); Exit = the
// rest of the pair's cost, so Enter + Exit is what one instrumented call adds
// to its caller. With OF_Measured (v6) every probe also charges the interval
// between its own two tick reads, as measured in place, and Enter and Exit
// are only the parts outside those reads. Fixed point: ticks * 256.
struct OverheadRecord {
#define AT_RAW_OVERHEAD_RECORD(Type, Name, Dims, Doc) Type Name Dims;
#include "activetime/RawData.inc"
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

// Payload of SK_Process, followed by Exe[ExeLen] and BuildId[BuildIdLen]
// (raw bytes of the main executable's GNU build-id note, may be empty),
// then zero padding to 8.
struct ProcessRecord {
#define AT_RAW_PROCESS_RECORD(Type, Name, Dims, Doc) Type Name Dims;
#include "activetime/RawData.inc"
};

enum CodeSamplingFlags : uint32_t {
  CSF_Disabled = 1u << 0,    // ACTIVETIME_OPTIONS=code_samples=0 or mode=trace
  CSF_Unavailable = 1u << 1, // perf_event_open refused (paranoid, seccomp)
  CSF_UserOnly = 1u << 2,    // kernel time not sampled (perf_event_paranoid)
  CSF_Stacks = 1u << 3,      // samples outside the program's code were
                             // charged to the program function that called
                             // out (a return address found on the stack)
  CSF_CostUnmeasured = 1u << 4, // the start-up measurement of a sample's
                                // cost got too few interrupts (a busy
                                // machine): CodeSampleCost256 is 0 and the
                                // samples' cost stays in the times
  CSF_Known = CSF_Disabled | CSF_Unavailable | CSF_UserOnly | CSF_Stacks |
              CSF_CostUnmeasured,
};

enum ModuleFlags : uint32_t {
  MF_Unloaded = 1u << 0, // unregistered (dlclose) before the profile was written
};

// Payload of SK_Module: ModuleRecord, Name[NameLen] (the module's source
// file), Path[PathLen] (the ELF object it was loaded from), then NumFuncs
// function records, each a FuncRecord followed by Name[NameLen] (linkage
// name) and File[FileLen] (source file, may be empty); then NumInlinedAway
// more (v9) of the functions inlined away, Addr 0, not numbered; then zero
// padding to 8.
// Function ids in thread sections are process-wide: the functions of the
// block's modules numbered consecutively in section order.
struct ModuleRecord {
#define AT_RAW_MODULE_RECORD(Type, Name, Dims, Doc) Type Name Dims;
#include "activetime/RawData.inc"
};

struct FuncRecord {
#define AT_RAW_FUNC_RECORD(Type, Name, Dims, Doc) Type Name Dims;
#include "activetime/RawData.inc"
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

// Payload of SK_Thread: ThreadRecord followed by NumNodes NodeRecords, then
// NumCounts CountRecords (v6), NumCodeSamples CodeSampleRecords (v6) and
// NumLatency LatencyRecords (v9).
struct ThreadRecord {
#define AT_RAW_THREAD_RECORD(Type, Name, Dims, Doc) Type Name Dims;
#include "activetime/RawData.inc"
};
constexpr uint64_t kCpuUnknown = ~uint64_t(0);

// One calling context: a node of the thread's call tree. Active inclusive
// ticks = InclTicks - OverheadTicks - OffCpuTicks; active exclusive = active
// inclusive minus the children's active inclusive. A function called from
// one context by several call instructions has a node per call instruction
// (siblings with the same Func and different CallSite).
struct NodeRecord {
#define AT_RAW_NODE_RECORD(Type, Name, Dims, Doc) Type Name Dims;
#include "activetime/RawData.inc"
};

// A thread's calls of one function (v6): every call, timed or counted (the
// timed ones are also in its nodes). With CR_Counted the thread switched the
// function to counting after its first timed calls: the calls beyond those
// of its nodes were only counted. Calls > 0.
enum CountRecordFlags : uint32_t {
  CR_Counted = 1u << 0,
  CR_Known = CR_Counted,
};

struct CountRecord {
#define AT_RAW_COUNT_RECORD(Type, Name, Dims, Doc) Type Name Dims;
#include "activetime/RawData.inc"
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
  // The instruction was one of a counted call's counting instructions: the
  // time is instrumentation cost, not the program's.
  CSR_Counting = 1u << 2,
  CSR_Known = CSR_Caller | CSR_Kernel | CSR_Counting,
};

struct CodeSampleRecord {
#define AT_RAW_CODE_SAMPLE_RECORD(Type, Name, Dims, Doc) Type Name Dims;
#include "activetime/RawData.inc"
};

// Latency histograms (v9, TF_Latency): one record per non-empty bucket of a
// node, ascending by (Node, Bucket). Bucket is an index of the log-linear
// layout of activetime/latency.h (< kLatencyBuckets) over the calls' active
// inclusive ticks (the per-call figure of MinTicks/MaxTicks); Count > 0. A
// node's counts sum to its Calls (every timed call, open ones included).
struct LatencyRecord {
#define AT_RAW_LATENCY_RECORD(Type, Name, Dims, Doc) Type Name Dims;
#include "activetime/RawData.inc"
};

// mode=trace: the three inputs of the offline active-time computation
// (tools/lib/Profile/TraceActiveTime.cpp), recorded literally.
enum TraceEventKind : uint32_t {
  TE_Enter = 0,
  TE_Exit = 1,
};

// Payload of SK_Trace: TraceRecord, NumEvents TraceEvents, NumSwitches
// SwitchEvents. One per traced thread; the overhead table is the process's.
struct TraceRecord {
#define AT_RAW_TRACE_RECORD(Type, Name, Dims, Doc) Type Name Dims;
#include "activetime/RawData.inc"
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

// A timer measurement.
struct TraceEvent {
#define AT_RAW_TRACE_EVENT(Type, Name, Dims, Doc) Type Name Dims;
#include "activetime/RawData.inc"
};

// A context switch as seen by this thread: OldTid is switched out and NewTid
// in; with per-thread perf events the other thread is unknown and written 0.
struct SwitchEvent {
#define AT_RAW_SWITCH_EVENT(Type, Name, Dims, Doc) Type Name Dims;
#include "activetime/RawData.inc"
};

// Payload of SK_Strides: StridesRecord, then NumSites sites, each a
// SiteRecord followed by Func[FuncLen] and File[FileLen]; then zero padding
// to 8. Module is the index of the site table's module within the block.
// The dynamic figures are merged over the process's threads.
struct StridesRecord {
#define AT_RAW_STRIDES_RECORD(Type, Name, Dims, Doc) Type Name Dims;
#include "activetime/RawData.inc"
};

// One memory access site (abi::MemSiteDesc) and what the probes saw of it.
// Differences are between the addresses of two observed executions; a
// difference is "adjacent" when nothing was skipped between them (an exact
// stride), otherwise a stride product (a multiple of the stride).
struct SiteRecord {
#define AT_RAW_SITE_RECORD(Type, Name, Dims, Doc) Type Name Dims;
#include "activetime/RawData.inc"
};

// Payload of SK_BlockCounts (one per linked object of a block-counting
// training build): BlockCountsRecord, NumFuncs BlockFuncRecords (LLVM's IR
// PGO data records, in their section's order), NumCounters uint64_t counts
// (summed over the process's threads), NumValues BlockValueRecords (a value
// may come in several records: their counts add), then the object's LLVM
// name table (NamesSize bytes) and zero padding to 8.
struct BlockCountsRecord {
#define AT_RAW_BLOCK_COUNTS_RECORD(Type, Name, Dims, Doc) Type Name Dims;
#include "activetime/RawData.inc"
};
struct BlockFuncRecord {
#define AT_RAW_BLOCK_FUNC_RECORD(Type, Name, Dims, Doc) Type Name Dims;
#include "activetime/RawData.inc"
};
struct BlockValueRecord {
#define AT_RAW_BLOCK_VALUE_RECORD(Type, Name, Dims, Doc) Type Name Dims;
#include "activetime/RawData.inc"
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

// Payload of SK_Parallel: ParallelRecord, NumRegions RegionRecords,
// NumEntries RegionThreadRecords, StringBytes of object paths, zero padding
// to 8.
struct ParallelRecord {
#define AT_RAW_PARALLEL_RECORD(Type, Name, Dims, Doc) Type Name Dims;
#include "activetime/RawData.inc"
};

// A parallel region, identified by the return address of the call that
// forked it, as an address in its object file (run-time address minus the
// object's load bias) plus that object's path.
struct RegionRecord {
#define AT_RAW_REGION_RECORD(Type, Name, Dims, Doc) Type Name Dims;
#include "activetime/RawData.inc"
};

// One thread's counters in one region, summed over the region's instances.
struct RegionThreadRecord {
#define AT_RAW_REGION_THREAD_RECORD(Type, Name, Dims, Doc) Type Name Dims;
#include "activetime/RawData.inc"
};

// sample=1: a sampler thread reads every live thread's
// shadow stack at randomized instants. Payload of SK_Samples: SamplesRecord
// followed by NumSamples SampleRecords in sampling order (non-decreasing
// ticks).
enum SamplesFlags : uint32_t {
  SMF_Randomized = 1u << 0, // exponentially distributed intervals
  SMF_Realtime = 1u << 1,   // the sampler ran at SCHED_FIFO priority 1
};

struct SamplesRecord {
#define AT_RAW_SAMPLES_RECORD(Type, Name, Dims, Doc) Type Name Dims;
#include "activetime/RawData.inc"
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

// One sample. Weight = ticks since the same thread's previous recorded
// sample (since max(thread start, sampler start) for its first): on-CPU
// samples charge it to Node, off-CPU ones to the frame the thread left the
// CPU in -- which is Node, see docs/design.md.
struct SampleRecord {
#define AT_RAW_SAMPLE_RECORD(Type, Name, Dims, Doc) Type Name Dims;
#include "activetime/RawData.inc"
};

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
