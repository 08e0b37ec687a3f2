//===- activetime/raw_format.h - Raw profile file format --------*- C++ -*-===//
//
// Part of ActiveTime. Layout of the raw profile the runtime writes and the
// tool reads (and `activetime merge` writes). docs/design.md describes the
// format in prose; this header is its single definition in code.
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
// of them, in that order) belong to that process, then at most one Samples
// and at most one Parallel section, in either order. A runtime-written file
// has one block; a merged file has several.
//
// Version 2 added active time: the overhead table (process), switch data
// source and losses (thread), overhead/off-CPU/switch counts per node, and the
// trace sections of mode=trace.
// Version 3 added stride profiling: ProcessRecord::NumStrides
// (formerly a reserved 0) counts the Strides sections that follow the trace
// sections of the block, one per module with a site table; the optional
// SK_Samples section (sample=1) and the OpenMP worker-state section
// SK_Parallel, at most one of each per block, after its strides sections.
// Version 4 turned OverheadRecord::Stable into Flags (OF_Fenced).
// Version 5 appended ProcessRecord::TickStep256, the step the tick counter
// advances by.
// Version 6: timed or counted calls (abi.h). Probes measure their own cost
// (OF_Measured: the overhead table holds only what lies outside the probes'
// two tick reads, OverheadRecord grew the calibration's pair cost and
// measured parts); each thread section carries its exact call counts
// (ThreadRecord::NumCounts, formerly Reserved), with the functions it
// switched to counting, and its code samples (ThreadRecord grew
// NumCodeSamples and the sampling figures); the process record gained the
// timing threshold and the code sampling parameters.
// Version 7: call-site edges. NodeRecord grew CallSite (the return address
// of the node's calls: a calling context is split per call instruction) and
// CodeSampleRecord grew Caller (the return address of the sampled program
// function's frame, which places samples of counted calls at call sites).
// Version 8: integrity and trace-mode cost. FileHeader grew Checksum (40
// bytes); SectionHeader's Reserved became Checksum and moved in front of
// Kind, so that the bytes it covers are contiguous (see "Checksums" above):
// a flipped byte is an error naming the section instead of a wrong figure.
// TraceRecord grew BufferTicks, BufferBytes and BufferFlags: what making the
// trace buffers' memory ready cost each traced thread while it ran
// (mode=trace's own perturbation, removed as probe cost).
// Version 9: latency histograms. With TF_Latency a thread section carries,
// after its code samples, ThreadRecord::NumLatency (formerly Reserved)
// LatencyRecords: per node, the timed calls counted by their active
// inclusive ticks in the log-linear buckets of activetime/latency.h, only
// the non-empty ones; a node's counts sum to its Calls.
// Also in version 9: ModuleRecord grew NumInlinedAway (and a reserved 0):
// after the module's functions, that many more FuncRecords (Addr 0) name the
// functions the source defined that were inlined or removed before
// instrumentation (abi::ModuleDesc::InlinedAway): they have no figures of
// their own.
// Also in version 9: SiteRecord grew CopyGroup and CopyOffset (abi::MemSiteDesc,
// ABI 4): the unrolled copies of one source access, as the pass proved them,
// which `report --strides` folds into one row.
// Version 10: ThreadRecord grew CpuNs, the thread's own CPU clock over its
// profiled span, which a thread's total self-active time is checked
// against; and a live thread's figures written at exit include the time it
// has been switched out since its last probe (a thread blocked at exit).
// With TF_SampledCallsApart a node's latency counts may sum to fewer than
// its calls: the sampled calls set apart.
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
constexpr uint32_t kVersion = 10;

enum FileFlags : uint32_t {
  FH_Merged = 1u << 0, // written by `activetime merge`
};

struct FileHeader {      // 40 bytes
  char Magic[8];
  uint32_t Version;
  uint32_t HeaderSize;   // sizeof(FileHeader)
  uint64_t FileSize;     // size of the whole file: detects truncation
  uint32_t NumSections;
  uint32_t Flags;        // FileFlags
  uint64_t Checksum;     // v8: XXH3-64 of the bytes before this field
};

// The file header's bytes its Checksum covers: all before the field.
constexpr uint64_t kFileHeaderChecksummed = 32;

enum SectionKind : uint32_t {
  SK_Process = 1,
  SK_Module = 2,
  SK_Thread = 3,
  SK_Trace = 4,
  SK_Strides = 5,
  SK_Samples = 6,
  SK_Parallel = 7,
};

struct SectionHeader {   // 16 bytes
  // v8: low 32 bits of the XXH3-64 of the section from Kind (offset
  // kSectionChecksumFrom) to the end of its payload.
  uint32_t Checksum;
  uint32_t Kind;         // SectionKind; any other value is an error
  uint64_t Size;         // payload bytes, a multiple of 8
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
struct OverheadRecord {  // 56 bytes
  uint64_t Enter256;
  uint64_t Exit256;
  uint32_t Source;       // OverheadSource
  uint32_t Batches;      // calibration batches kept (0 for OS_Option)
  uint32_t SpreadPermille; // (q75 - q25) / median of the pair cost, in 1/1000
  uint32_t Flags;        // OverheadFlags (v4; v3 had Stable, 0 or 1, here)
  // v6, from the start-up calibration (0 for OS_Option): what one timed call
  // added to its caller in the calibration loop, and how much of it the
  // entry and the exit probe measured of themselves there.
  uint64_t Pair256;
  uint64_t MeasuredEnter256;
  uint64_t MeasuredExit256;
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
struct ProcessRecord {   // 160 bytes
  uint64_t TickRate;     // ticks per second of every *Tick* figure below
  uint64_t StartTick;    // runtime start (or fork, in a child)
  uint64_t EndTick;      // when the profile was written
  uint64_t StartUnixNs;  // wall clock at StartTick, ns since the epoch
  uint32_t Pid;
  uint32_t ParentPid;
  uint32_t NumModules;
  uint32_t NumThreads;
  uint32_t NumTraces;
  uint32_t ExeLen;
  uint32_t BuildIdLen;
  uint32_t NumStrides;   // Strides sections of the block (v3; was 0)
  OverheadRecord Overhead;
  // The step the tick counter was seen to advance by at start-up,
  // ticks * 256 (v5): 256 for a counter that advances every tick; e.g. about
  // 24.4 * 256 on a virtualized AMD EPYC whose TSC moves in 10 ns steps.
  // One reading is exact only to within a step. 0: not measured.
  uint64_t TickStep256;
  // v6. Timed or counted: a function whose calls were on average shorter
  // than TimingThreshold ticks was switched to counting (FR_Counted);
  // 0: every call was timed.
  uint64_t TimingThreshold;
  // Code samples (CodeSampleRecord): the thread CPU time between two, in
  // ns (0: none were taken; CodeSampleFlags says why), and the cost of one
  // sample's interrupt to the sampled thread, ticks * 256, which the
  // runtime charged as probe overhead.
  uint64_t CodeSamplePeriodNs;
  uint64_t CodeSampleCost256;
  uint32_t CodeSampleFlags; // CodeSamplingFlags
  uint32_t Reserved;        // 0
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
struct ModuleRecord {    // 40 bytes
  uint64_t Hash;         // ModuleDesc::Hash
  uint64_t LoadBase;     // load address of the ELF object (for symbolization)
  uint32_t NumFuncs;
  uint32_t NameLen;
  uint32_t PathLen;
  uint32_t Flags;        // ModuleFlags
  uint32_t NumInlinedAway; // v9: FuncRecords after the functions, Addr 0
  uint32_t Reserved;     // 0
};

struct FuncRecord {      // 24 bytes
  uint64_t Addr;         // run-time address
  uint32_t Line;
  uint32_t Flags;        // abi::FuncFlags
  uint32_t NameLen;
  uint32_t FileLen;
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
  TF_Known = TF_Running | TF_NotSampled | TF_Latency | TF_SampledCallsApart,
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
struct ThreadRecord {    // 152 bytes
  uint64_t Tid;
  uint64_t StartTick;    // first probe of the thread
  uint64_t EndTick;      // thread exit, or profile write if still running
  uint32_t NumNodes;
  uint32_t Flags;        // ThreadFlags
  uint64_t OpenFrames;   // frames open at EndTick, timed up to EndTick
  uint64_t UnmatchedExits; // exits with no matching entry (ignored)
  uint64_t UnwoundFrames;  // frames closed by longjmp/unwind repair
  uint64_t DroppedEvents;  // probes ignored (re-entered from a signal, ...)
  char Name[16];         // thread name, NUL-padded
  uint32_t SwitchSource;   // SwitchSource
  uint32_t NumCounts;      // CountRecords after the nodes (v6; was 0)
  uint64_t SwitchResolution; // SS_CpuClock: check interval in ticks; else 0
  uint64_t OffCpuTicks;    // switched-out ticks between StartTick and EndTick
  uint64_t VoluntarySwitches;   // switched out while blocked/waiting
  uint64_t InvoluntarySwitches; // switched out by preemption
  uint64_t LostSwitchRecords;   // context-switch records the kernel dropped
  // v6: code samples recorded (CodeSampleRecords, with their counts) and
  // those the kernel dropped (ring full between two timed probes).
  uint32_t NumCodeSamples;
  uint32_t NumLatency;     // v9: LatencyRecords (was Reserved, 0)
  uint64_t LostCodeSamples;
  // v10: CPU time of the thread (CLOCK_THREAD_CPUTIME_ID) from StartTick to
  // EndTick, ns, probes and code samples' interrupts included; kCpuUnknown
  // when the clock could not be read.
  uint64_t CpuNs;
};
constexpr uint64_t kCpuUnknown = ~uint64_t(0);

// One calling context: a node of the thread's call tree. Active inclusive
// ticks = InclTicks - OverheadTicks - OffCpuTicks; active exclusive = active
// inclusive minus the children's active inclusive. A function called from
// one context by several call instructions has a node per call instruction
// (siblings with the same Func and different CallSite).
struct NodeRecord {      // 80 bytes
  uint32_t Parent;       // index of the parent node (< own index), or kNoParent
  uint32_t Func;         // process-wide function id
  uint64_t Calls;        // completed calls plus calls open at EndTick
  uint64_t InclTicks;    // inclusive elapsed ticks
  uint64_t ExclTicks;    // InclTicks minus the callees' InclTicks
  uint64_t MinTicks;     // shortest single call (active inclusive ticks)
  uint64_t MaxTicks;     // longest single call (active inclusive ticks)
  uint64_t OverheadTicks; // probe overhead inside the calls (overhead table)
  uint64_t OffCpuTicks;  // switched-out ticks inside the calls
  uint32_t VoluntarySwitches;   // inside the calls
  uint32_t InvoluntarySwitches; // inside the calls
  // v7: run-time return address of the calls (the instruction after the
  // call, in the caller or in code outside the program that called back);
  // 0: unknown (a region, an architecture where the probe cannot read it).
  uint64_t CallSite;
};

// A thread's calls of one function (v6): every call, timed or counted (the
// timed ones are also in its nodes). With CR_Counted the thread switched the
// function to counting after its first timed calls: the calls beyond those
// of its nodes were only counted. Calls > 0.
enum CountRecordFlags : uint32_t {
  CR_Counted = 1u << 0,
  CR_Known = CR_Counted,
};

struct CountRecord {     // 16 bytes
  uint32_t Func;         // process-wide function id
  uint32_t Flags;        // CountRecordFlags
  uint64_t Calls;
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

struct CodeSampleRecord { // 32 bytes
  uint32_t Node;         // the thread's node index, or kNoNode (no frame)
  uint32_t Flags;        // CodeSampleFlags
  uint64_t Addr;
  uint64_t Count;        // samples with this node, flags, address and caller
  // v7: for an Addr in the program's own code, the return address of the
  // frame it was in (one unwinding step: where the sampled function was
  // called from); 0 when the unwind tables did not give it.
  uint64_t Caller;
};

// Latency histograms (v9, TF_Latency): one record per non-empty bucket of a
// node, ascending by (Node, Bucket). Bucket is an index of the log-linear
// layout of activetime/latency.h (< kLatencyBuckets) over the calls' active
// inclusive ticks (the per-call figure of MinTicks/MaxTicks); Count > 0. A
// node's counts sum to its Calls (every timed call, open ones included).
struct LatencyRecord {   // 16 bytes
  uint32_t Node;         // index of the node in the thread section
  uint32_t Bucket;
  uint64_t Count;
};

// mode=trace: the three inputs of the offline active-time computation
// (tools/lib/Profile/TraceActiveTime.cpp), recorded literally.
enum TraceEventKind : uint32_t {
  TE_Enter = 0,
  TE_Exit = 1,
};

// Payload of SK_Trace: TraceRecord, NumEvents TraceEvents, NumSwitches
// SwitchEvents. One per traced thread; the overhead table is the process's.
struct TraceRecord {     // 64 bytes (40 before v8)
  uint64_t Tid;
  uint64_t NumEvents;
  uint64_t NumSwitches;
  uint64_t DroppedEvents;   // timer measurements lost to a full buffer
  uint64_t DroppedSwitches; // switch events lost (full buffer or kernel)
  // v8: the runtime makes the trace buffers' pages ready (faults them in) a
  // chunk at a time ahead of the writes, inside the probe that needs them
  // (whose measured cost, removed from every open call, holds it) or at
  // thread start (before any call of the thread). The wall ticks that took
  // and the bytes made ready; 0 and 0 for a thread that recorded nothing.
  uint64_t BufferTicks;
  uint64_t BufferBytes;
  uint32_t BufferFlags;     // TraceBufferFlags: how the pages were made ready
  uint32_t Reserved;        // 0
};

enum TraceBufferFlags : uint32_t {
  TBF_Populate = 1u << 0,  // madvise(MADV_POPULATE_WRITE) (Linux >= 5.14)
  TBF_Touch = 1u << 1,     // a write to each page (older kernels)
  TBF_HugePages = 1u << 2, // transparent huge pages beyond the first 2 MiB
  // The kernel had no memory for more (ENOMEM): the later events were
  // dropped rather than the program killed.
  TBF_NoMemory = 1u << 3,
  TBF_Known = TBF_Populate | TBF_Touch | TBF_HugePages | TBF_NoMemory,
};

struct TraceEvent {      // 24 bytes: a timer measurement
  uint64_t Tick;
  uint32_t Func;         // process-wide function id (the code portion)
  uint32_t Kind;         // TraceEventKind
  // Ticks between the probe's own two reads (its measured cost; it starts
  // at Tick), saturated at 2^32 - 1. 0 when the probe was fed its tick.
  uint32_t Measured;
  uint32_t Reserved;     // 0
};

// A context switch as seen by this thread: OldTid is switched out and NewTid
// in; with per-thread perf events the other thread is unknown and written 0.
struct SwitchEvent {     // 24 bytes
  uint64_t Tick;
  uint64_t OldTid;
  uint64_t NewTid;
};

// Payload of SK_Strides: StridesRecord, then NumSites sites, each a
// SiteRecord followed by Func[FuncLen] and File[FileLen]; then zero padding
// to 8. Module is the index of the site table's module within the block.
// The dynamic figures are merged over the process's threads.
struct StridesRecord {   // 16 bytes
  uint32_t Module;
  uint32_t NumSites;
  uint32_t Reserved0;    // 0
  uint32_t Reserved1;    // 0
};

// One memory access site (abi::MemSiteDesc) and what the probes saw of it.
// Differences are between the addresses of two observed executions; a
// difference is "adjacent" when nothing was skipped between them (an exact
// stride), otherwise a stride product (a multiple of the stride).
struct SiteRecord {      // 152 bytes
  uint64_t Hash;         // MemSiteDesc::Hash
  int64_t StaticStride;  // MS_Static: the compiler's step in bytes
  uint32_t Line;
  uint32_t Column;
  uint32_t AccessSize;
  uint32_t Flags;        // abi::MemSiteFlags
  uint32_t LoopLine;
  uint32_t LoopDepth;
  uint64_t Executions;   // probe calls (skipped + observed)
  uint64_t Observations; // executions whose address was inspected
  uint64_t Differences;  // differences taken (adjacent or not)
  uint64_t Adjacent;     // of which adjacent
  uint64_t ZeroDiffs;    // differences equal to 0
  uint64_t Gcd;          // GCD of the non-zero |differences| (0: none)
  int64_t Dominant;      // majority-vote candidate of the adjacent differences
  uint64_t DominantCount; // adjacent differences equal to Dominant (counted
                          // since it became the candidate: a lower bound)
  uint64_t IterTicks;    // summed ticks of the DominantCount adjacent steps
                         // equal to Dominant (their iteration time)
  uint64_t ProbeTicks;   // of which the site's own probe ran (inspect path)
  uint64_t MinStepTicks; // the shortest of those steps less its own probe
                         // time (the least stalled iteration)
  uint32_t FuncLen;
  uint32_t FileLen;
  uint32_t CopyGroup;    // v9: MemSiteDesc::CopyGroup (0: no other copy)
  uint32_t Reserved;     // 0
  int64_t CopyOffset;    // v9: bytes from the group's first site (0 outside
                         // a group)
};
static_assert(sizeof(StridesRecord) == 16, "layout");
static_assert(sizeof(SiteRecord) == 152, "layout");


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
struct ParallelRecord {  // 24 bytes
  uint32_t Status;       // OmpStatus
  uint32_t NumRegions;
  uint32_t NumEntries;
  uint32_t StringBytes;
  uint64_t LostEvents;   // OMPT events not counted (tables full, nesting)
};

// A parallel region, identified by the return address of the call that
// forked it, as an address in its object file (run-time address minus the
// object's load bias) plus that object's path.
struct RegionRecord {    // 40 bytes
  uint64_t Address;
  uint32_t PathOffset;   // into the string bytes
  uint32_t PathLen;
  uint64_t Instances;    // times the region was entered
  uint64_t WallTicks;    // summed over instances, on the forking thread
  uint32_t MaxWorkers;   // largest team
  uint32_t Reserved;     // 0
};

// One thread's counters in one region, summed over the region's instances.
struct RegionThreadRecord { // 216 bytes
  uint32_t Region;       // index into the RegionRecords
  uint32_t Reserved;     // 0
  uint64_t Tid;
  uint64_t StateTicks[kNumWorkerStates];          // elapsed ticks per state
  uint64_t Transitions[kNumWorkerStates][kNumWorkerStates]; // [from][to]
  uint64_t LocalTakes;   // work taken without searching (own tasks, chunks)
  uint64_t StolenTakes;  // tasks created by another thread
  uint64_t TasksCreated; // explicit tasks created by this thread
  uint64_t Chunks;       // worksharing-loop chunks dispatched (dynamic/guided)
  uint64_t WaitEntries;  // times the thread started waiting
};

// sample=1: a sampler thread reads every live thread's
// shadow stack at randomized instants. Payload of SK_Samples: SamplesRecord
// followed by NumSamples SampleRecords in sampling order (non-decreasing
// ticks).
enum SamplesFlags : uint32_t {
  SMF_Randomized = 1u << 0, // exponentially distributed intervals
  SMF_Realtime = 1u << 1,   // the sampler ran at SCHED_FIFO priority 1
};

struct SamplesRecord {   // 104 bytes
  uint64_t IntervalTicks;  // mean (or fixed) interval between sweeps
  uint64_t StartTick;      // sampler start: no thread time before it is sampled
  uint64_t EndTick;        // sampler stop (or profile write)
  uint64_t NumSamples;
  uint64_t Sweeps;         // wake-ups that read the thread registry
  uint64_t Dropped;        // samples lost to a full buffer
  uint64_t TornRetries;    // snapshots re-read: a probe changed the stack
  uint64_t TornDiscarded;  // on-CPU snapshots still torn after the retries
  uint64_t Unmapped;       // samples whose node the writer did not keep
  uint64_t ProcStateSamples; // on/off-CPU read from /proc (no perf ring)
  uint64_t SamplerCpuNs;   // CPU time of the sampler thread itself
  uint32_t Flags;          // SamplesFlags
  uint32_t Reserved;       // 0
  uint64_t WakeLateNs;     // sum over sweeps of (sweep start - its due time)
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
struct SampleRecord {    // 32 bytes
  uint64_t Tick;
  uint64_t Weight;
  uint32_t Thread;       // index of the thread section in the process block
  uint32_t Node;         // node index in that thread's section, or kNoNode
  uint32_t Flags;        // SampleFlags
  uint32_t Depth;        // shadow-stack depth at the sample (frames)
};

static_assert(sizeof(SamplesRecord) == 104, "layout");
static_assert(sizeof(SampleRecord) == 32, "layout");
static_assert(sizeof(FileHeader) == 40, "layout");
static_assert(sizeof(SectionHeader) == 16, "layout");
static_assert(offsetof(FileHeader, Checksum) == kFileHeaderChecksummed,
              "the header checksum covers the bytes before it");
static_assert(offsetof(SectionHeader, Kind) == kSectionChecksumFrom,
              "a section checksum covers the bytes after it");
static_assert(sizeof(OverheadRecord) == 56, "layout");
static_assert(sizeof(ProcessRecord) == 160, "layout");
static_assert(sizeof(CountRecord) == 16, "layout");
static_assert(sizeof(CodeSampleRecord) == 32, "layout");
static_assert(sizeof(LatencyRecord) == 16, "layout");
static_assert(sizeof(ModuleRecord) == 40, "layout");
static_assert(sizeof(FuncRecord) == 24, "layout");
static_assert(sizeof(ThreadRecord) == 152, "layout");
static_assert(sizeof(NodeRecord) == 80, "layout");
static_assert(sizeof(TraceRecord) == 64, "layout");
static_assert(sizeof(TraceEvent) == 24, "layout");
static_assert(sizeof(SwitchEvent) == 24, "layout");
static_assert(sizeof(ParallelRecord) == 24, "layout");
static_assert(sizeof(RegionRecord) == 40, "layout");
static_assert(sizeof(RegionThreadRecord) == 216, "layout");

} // namespace raw
} // namespace activetime

#endif // ACTIVETIME_RAW_FORMAT_H
