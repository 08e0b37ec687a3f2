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
// A Process section opens a process block: the Module, Thread, Trace and
// Strides sections after it (NumModules, NumThreads, NumTraces and NumStrides
// of them, in that order) belong to that process. A runtime-written file has one block; a
// merged file has several.
//
// Version 2 added active time: the overhead table (process), switch data
// source and losses (thread), overhead/off-CPU/switch counts per node, and the
// trace sections of mode=trace.
//
// Version 3 added stride profiling (seed 004): ProcessRecord::NumStrides
// (formerly a reserved 0) counts the Strides sections that follow the trace
// sections of the block, one per module with a site table.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_RAW_FORMAT_H
#define ACTIVETIME_RAW_FORMAT_H

#include <stdint.h>

namespace activetime {
namespace raw {

// "\x7f" "ATPROF" "\n": not text, and a CR/LF mangling shows at once.
constexpr char kMagic[8] = {'\x7f', 'A', 'T', 'P', 'R', 'O', 'F', '\n'};
constexpr uint32_t kVersion = 3;

enum FileFlags : uint32_t {
  FH_Merged = 1u << 0, // written by `activetime merge`
};

struct FileHeader {      // 32 bytes
  char Magic[8];
  uint32_t Version;
  uint32_t HeaderSize;   // sizeof(FileHeader)
  uint64_t FileSize;     // size of the whole file: detects truncation
  uint32_t NumSections;
  uint32_t Flags;        // FileFlags
};

enum SectionKind : uint32_t {
  SK_Process = 1,
  SK_Module = 2,
  SK_Thread = 3,
  SK_Trace = 4,
  SK_Strides = 5,
};

struct SectionHeader {   // 16 bytes
  uint32_t Kind;         // SectionKind; any other value is an error
  uint32_t Reserved;     // 0
  uint64_t Size;         // payload bytes, a multiple of 8
};

enum OverheadSource : uint32_t {
  OS_Calibrated = 0,     // measured at start-up by the runtime
  OS_Option = 1,         // fixed by ACTIVETIME_OPTIONS (overhead_*_ticks)
};

// The overhead table (seed 000, table 600): the cost of each probe event, as
// an interval that starts at the event's timestamp. Enter = the part of an
// entry/exit pair that lies inside the instrumented frame's own elapsed
// interval (after its entry timestamp, before its exit timestamp); Exit = the
// rest of the pair's cost, so Enter + Exit is what one instrumented call adds
// to its caller. Fixed point: ticks * 256.
struct OverheadRecord {  // 32 bytes
  uint64_t Enter256;
  uint64_t Exit256;
  uint32_t Source;       // OverheadSource
  uint32_t Batches;      // calibration batches kept (0 for OS_Option)
  uint32_t SpreadPermille; // (q75 - q25) / median of the pair cost, in 1/1000
  uint32_t Stable;       // 1 if the spread was within the calibration bound
};

// Payload of SK_Process, followed by Exe[ExeLen] and BuildId[BuildIdLen]
// (raw bytes of the main executable's GNU build-id note, may be empty),
// then zero padding to 8.
struct ProcessRecord {   // 96 bytes
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
};

enum ModuleFlags : uint32_t {
  MF_Unloaded = 1u << 0, // unregistered (dlclose) before the profile was written
};

// Payload of SK_Module: ModuleRecord, Name[NameLen] (the module's source
// file), Path[PathLen] (the ELF object it was loaded from), then NumFuncs
// function records, each a FuncRecord followed by Name[NameLen] (linkage
// name) and File[FileLen] (source file, may be empty); then zero padding to 8.
// Function ids in thread sections are process-wide: the functions of the
// block's modules numbered consecutively in section order.
struct ModuleRecord {    // 32 bytes
  uint64_t Hash;         // ModuleDesc::Hash
  uint64_t LoadBase;     // load address of the ELF object (for symbolization)
  uint32_t NumFuncs;
  uint32_t NameLen;
  uint32_t PathLen;
  uint32_t Flags;        // ModuleFlags
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
};

// Where a thread's switched-out intervals came from.
enum SwitchSource : uint32_t {
  SS_None = 0,     // not measured: off-CPU time is NOT removed from active
  SS_Perf = 1,     // perf_event_open context-switch records (exact)
  SS_CpuClock = 2, // thread CPU-time clock read every SwitchResolution ticks
                   // of wall time: off-CPU time located within that window
};

constexpr uint32_t kNoParent = 0xffffffffu;

// Payload of SK_Thread: ThreadRecord followed by NumNodes NodeRecords.
struct ThreadRecord {    // 128 bytes
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
  uint32_t Reserved;       // 0
  uint64_t SwitchResolution; // SS_CpuClock: check interval in ticks; else 0
  uint64_t OffCpuTicks;    // switched-out ticks between StartTick and EndTick
  uint64_t VoluntarySwitches;   // switched out while blocked/waiting
  uint64_t InvoluntarySwitches; // switched out by preemption
  uint64_t LostSwitchRecords;   // context-switch records the kernel dropped
};

// One calling context: a node of the thread's call tree. Active inclusive
// ticks = InclTicks - OverheadTicks - OffCpuTicks; active exclusive = active
// inclusive minus the children's active inclusive.
struct NodeRecord {      // 72 bytes
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
};

// mode=trace: the three inputs of seed 000's method, recorded literally.
enum TraceEventKind : uint32_t {
  TE_Enter = 0,
  TE_Exit = 1,
};

// Payload of SK_Trace: TraceRecord, NumEvents TraceEvents, NumSwitches
// SwitchEvents. One per traced thread; the overhead table is the process's.
struct TraceRecord {     // 40 bytes
  uint64_t Tid;
  uint64_t NumEvents;
  uint64_t NumSwitches;
  uint64_t DroppedEvents;   // timer measurements lost to a full buffer
  uint64_t DroppedSwitches; // switch events lost (full buffer or kernel)
};

struct TraceEvent {      // 16 bytes: a timer measurement
  uint64_t Tick;
  uint32_t Func;         // process-wide function id (the code portion)
  uint32_t Kind;         // TraceEventKind
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
struct SiteRecord {      // 136 bytes
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
};
static_assert(sizeof(StridesRecord) == 16, "layout");
static_assert(sizeof(SiteRecord) == 136, "layout");

static_assert(sizeof(FileHeader) == 32, "layout");
static_assert(sizeof(SectionHeader) == 16, "layout");
static_assert(sizeof(OverheadRecord) == 32, "layout");
static_assert(sizeof(ProcessRecord) == 96, "layout");
static_assert(sizeof(ModuleRecord) == 32, "layout");
static_assert(sizeof(FuncRecord) == 24, "layout");
static_assert(sizeof(ThreadRecord) == 128, "layout");
static_assert(sizeof(NodeRecord) == 72, "layout");
static_assert(sizeof(TraceRecord) == 40, "layout");
static_assert(sizeof(TraceEvent) == 16, "layout");
static_assert(sizeof(SwitchEvent) == 24, "layout");

} // namespace raw
} // namespace activetime

#endif // ACTIVETIME_RAW_FORMAT_H
