//===- activetime/Profile/Profile.h - In-memory raw profile -----*- C++ -*-===//
//
// Part of ActiveTime. The in-memory form of a raw profile (raw_format.h):
// what the reader produces, the writer serializes and merge concatenates.
// Times stay in ticks here; Aggregate.h converts them to nanoseconds.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PROFILE_PROFILE_H
#define ACTIVETIME_PROFILE_PROFILE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"


#include <cstdint>

#include <string>
#include <vector>

namespace activetime {
namespace profile {

// The model's sentinels and sizes: the raw format's values (RawMapping.h
// checks that they agree), so that the views, which see only the model,
// need not include the raw format.
constexpr uint32_t kNoParent = 0xffffffffu; // Node::Parent of a root
constexpr uint32_t kNoNode = 0xffffffffu;   // outside any instrumented node
constexpr uint64_t kCpuUnknown = ~uint64_t(0); // Thread::CpuNs not read
// Process::ThreadedByRuntimeUs: the runtime's threads did not make the
// process multi-threaded.
constexpr uint32_t kNotThreadedByRuntime = 0xffffffffu;
// The OpenMP worker states of RegionThread::StateTicks (user code, local
// lookup, global search, waiting).
constexpr unsigned kNumWorkerStates = 4;

// One entry of the process-wide function table; its index is the function
// id the thread nodes refer to.
struct Function {
  uint32_t Module = 0;  // index into Process::Modules
  uint64_t Addr = 0;
  uint32_t Line = 0;
  uint32_t Flags = 0;   // abi::FuncFlags
  std::string Name;     // linkage name
  std::string File;     // source file, may be empty
};

struct Module {
  uint64_t Hash = 0;
  uint64_t LoadBase = 0;
  uint32_t Flags = 0;   // raw::ModuleFlags
  std::string Name;     // source file of the module
  std::string Path;     // ELF object it was loaded from
  /// v9: the functions the module's source defined that the optimizer
  /// inlined (or removed) before instrumentation, so they have no figures
  /// of their own (Addr 0; not in the function table).
  std::vector<Function> InlinedAway;
  /// Run-time minus link-time addresses of Path's code, when
  /// resolveCodeSamples could match its symbols (not stored).
  int64_t Bias = 0;
  bool BiasKnown = false;
};


/// The program code a return address returns into (resolveCodeSamples):
/// the function holding the call instruction before it and that
/// instruction's return address as a link-time address of its object file
/// (the function's module's Path), which is the same in every process of
/// the binary and what a symbolizer takes.
constexpr uint32_t kNoFunc = UINT32_MAX;
struct CallerCode {
  uint32_t Func = kNoFunc; // process-wide function id; kNoFunc: not program
                           // code (a library calling back) or unknown
  uint64_t LinkAddr = 0;   // return address, link-time
  /// With Func kNoFunc: the address is known to lie outside the program's
  /// instrumented functions (every object of the process could be read),
  /// rather than unknown (none recorded, or an object's symbols missing).
  bool Known = false;
};

/// A non-empty bucket of a node's latency histogram (raw::LatencyRecord,
/// v9): Count timed calls whose active inclusive ticks lie in bucket
/// Bucket of activetime/latency.h.
struct LatencyCount {
  uint32_t Bucket = 0;
  uint64_t Count = 0;
};

struct Node {
  uint32_t Parent = 0;  // raw::kNoParent for a root
  uint32_t Func = 0;
  uint64_t Calls = 0;
  uint64_t Incl = 0;    // elapsed inclusive ticks
  uint64_t Excl = 0;    // elapsed exclusive ticks
  uint64_t Min = 0;     // shortest single call, active inclusive ticks
  uint64_t Max = 0;     // longest single call, active inclusive ticks
  uint64_t Overhead = 0; // probe overhead ticks inside the calls
  uint64_t OffCpu = 0;   // switched-out ticks inside the calls
  uint32_t Voluntary = 0;
  uint32_t Involuntary = 0;
  /// Run-time return address of the calls (raw::NodeRecord::CallSite); 0:
  /// unknown. Siblings may share Func with different call sites.
  uint64_t CallSite = 0;
  /// Filled by resolveCodeSamples, not stored in the raw format.
  CallerCode Site;
  /// The timed calls by duration, buckets ascending, counts summing to
  /// Calls; empty when the thread has no histograms (no raw::TF_Latency).
  std::vector<LatencyCount> Latency;

  /// Active inclusive ticks: elapsed - overhead - off-CPU. Signed: the
  /// overhead estimate may exceed a tiny frame's elapsed time.
  int64_t active() const {
    return int64_t(Incl) - int64_t(Overhead) - int64_t(OffCpu);
  }
};

/// The overhead table of a process (raw::OverheadRecord): the cost of each
/// probe event in ticks * 256.
struct OverheadTable {
  uint64_t Enter256 = 0;
  uint64_t Exit256 = 0;
  uint32_t Source = 0;  // raw::OverheadSource
  uint32_t Batches = 0;
  uint32_t SpreadPermille = 0;
  uint32_t Stable = 0;
  uint32_t Fenced = 0;  // raw::OF_Fenced: probes serialized (probe_fence=1)
  // raw::OF_Measured: every probe charged its own measured interval;
  // Enter256/Exit256 are only the parts outside its two tick reads.
  uint32_t Measured = 0;
  uint64_t Pair256 = 0;          // calibration: one timed call's probe cost
  uint64_t MeasuredEnter256 = 0; // of which the entry probe measured
  uint64_t MeasuredExit256 = 0;  // and the exit probe
  // The calibration ran beside the program and was done at this tick: the
  // parts outside the tick reads were charged from the threads' next polls
  // on (0: the table held from the start, or was never calibrated).
  uint64_t ReadyTick = 0;
};

/// A thread's calls of one function (raw::CountRecord): all of them, timed
/// or counted; Counted: the thread switched the function to counting.
struct CallCount {
  uint32_t Func = 0;
  bool Counted = false;
  uint64_t Calls = 0;
};

/// What a code sample's address turned out to be (resolveCodeSamples).
enum class CodeKind : uint8_t {
  Unresolved, // not looked up (yet)
  Function,   // in instrumented function Func of the process
  Runtime,    // in ActiveTime's runtime (a probe: time already removed)
  Outside,    // anywhere else: a library, the kernel, code not instrumented
};

/// Code samples of a thread against one of its nodes (raw::CodeSampleRecord).
struct CodeSample {
  uint32_t Node = 0;    // index into Thread::Nodes, or raw::kNoNode
  uint32_t Flags = 0;   // raw::CodeSampleFlags
  uint64_t Addr = 0;
  uint64_t Count = 0;
  /// Return address of the sampled program function's frame (where it was
  /// called from), 0 if unknown (raw::CodeSampleRecord::Caller).
  uint64_t Caller = 0;
  // Filled by resolveCodeSamples, not stored in the raw format.
  CodeKind Kind = CodeKind::Unresolved;
  uint32_t Func = 0;    // CodeKind::Function: process-wide function id
  CallerCode CallerAt;  // where Caller returns to
};

struct TraceEvent {
  uint64_t Tick = 0;
  uint32_t Func = 0;    // process-wide function id
  uint32_t Kind = 0;    // raw::TraceEventKind
  uint32_t Measured = 0; // the probe's measured interval, ticks
};

struct SwitchEvent {
  uint64_t Tick = 0;
  uint64_t OldTid = 0;  // switched out (0 = unknown)
  uint64_t NewTid = 0;  // switched in (0 = unknown)
};

/// mode=trace: one traced thread's timer measurements and switch events.
struct Trace {
  uint64_t Tid = 0;
  /// Not stored: the TidOrder of the thread that recorded it (ThreadIds.h).
  uint32_t TidOrder = 0;
  uint64_t DroppedEvents = 0;
  uint64_t DroppedSwitches = 0;
  /// What making the trace buffers' pages ready cost the thread while it
  /// ran (raw::TraceRecord::Buffer*): wall ticks, all inside probes' measured
  /// cost or before the thread's first call, so removed from every call's
  /// active time; bytes made ready; raw::TraceBufferFlags.
  uint64_t BufferTicks = 0;
  uint64_t BufferBytes = 0;
  uint32_t BufferFlags = 0;
  std::vector<TraceEvent> Events;    // non-decreasing ticks
  std::vector<SwitchEvent> Switches;
};

/// A memory access site of a module's site table (stride profiling by the
/// GCD of address differences) with its figures merged over the process's
/// threads.
struct MemSite {
  uint32_t Module = 0;  // index into Process::Modules
  uint64_t Hash = 0;
  int64_t StaticStride = 0;
  uint32_t Line = 0;
  uint32_t Column = 0;
  uint32_t AccessSize = 0;
  uint32_t Flags = 0;   // abi::MemSiteFlags
  uint32_t LoopLine = 0;
  uint32_t LoopDepth = 0;
  uint64_t Executions = 0;
  uint64_t Observations = 0;
  uint64_t Differences = 0;
  uint64_t Adjacent = 0;
  uint64_t ZeroDiffs = 0;
  uint64_t Gcd = 0;
  int64_t Dominant = 0;
  uint64_t DominantCount = 0;
  uint64_t IterTicks = 0;
  uint64_t ProbeTicks = 0;
  uint64_t MinStepTicks = 0;
  /// Copies of one source access (v9, abi::MemSiteDesc): sites of one
  /// module with the same non-zero CopyGroup are unrolled copies the pass
  /// proved to differ by the constant CopyOffsets (bytes).
  uint32_t CopyGroup = 0;
  int64_t CopyOffset = 0;
  /// Unproven copies (v16, abi::MS_CopyUnproven: the pass could not prove
  /// the offsets, CopyOffset is 0): 1 + the module-local index of the
  /// group's previous copy (0: the first), and what the runtime measured:
  /// the dominant byte offset from the previous copy's address in the same
  /// iteration, the offsets taken and those equal to it (a lower bound).
  uint32_t CopyPrev = 0;
  int64_t PrevOffset = 0;
  uint64_t PrevPairs = 0;
  uint64_t PrevOffsetCount = 0;
  /// Every adjacent step, whatever its difference (v16): summed ticks, of
  /// which the site's own probe, and the shortest less its probe.
  uint64_t AnyStepTicks = 0;
  uint64_t AnyProbeTicks = 0;
  uint64_t MinAnyStepTicks = 0;
  /// The range of the observed addresses (v16; equal when one was).
  uint64_t MinAddress = 0;
  uint64_t MaxAddress = 0;
  /// A site measured by another's probe (v19): 1 + the module-local index
  /// of that earlier site of its block, whose address is always LeadOffset
  /// bytes below this one's. Its figures are the lead's, its address range
  /// moved by LeadOffset. 0: its own probe, or static.
  uint32_t ProbeLead = 0;
  int64_t LeadOffset = 0;
  std::string Func;     // linkage name of the containing function
  std::string File;     // source file of the access, may be empty
};

struct Thread {
  uint64_t Tid = 0;
  /// Not stored: where the kernel reused the tid within the process, the
  /// thread's place among the threads that had it, in start order (1:
  /// first); 0 where no other thread of the process had it (ThreadIds.h).
  uint32_t TidOrder = 0;
  std::string Name;
  uint32_t Flags = 0;   // raw::ThreadFlags
  /// Not stored: --ignore took time out of some of the thread's calls, so
  /// their histograms (of whole calls) were dropped with raw::TF_Latency.
  bool LatencyDropped = false;
  uint64_t StartTick = 0;
  uint64_t EndTick = 0;
  uint64_t OpenFrames = 0;
  uint64_t UnmatchedExits = 0;
  uint64_t UnwoundFrames = 0;
  uint64_t DroppedEvents = 0;
  uint32_t SwitchSource = 0;     // raw::SwitchSource
  uint64_t SwitchResolution = 0; // ticks; SS_CpuClock only
  uint64_t OffCpuTicks = 0;
  uint64_t VoluntarySwitches = 0;
  uint64_t InvoluntarySwitches = 0;
  uint64_t LostSwitchRecords = 0;
  std::vector<Node> Nodes; // parents before children
  std::vector<CallCount> Counts;       // by function id, ascending
  std::vector<CodeSample> CodeSamples;
  uint64_t LostCodeSamples = 0;
  /// The thread's own CPU clock over [StartTick, EndTick], ns, profiler's
  /// cost included (raw::kCpuUnknown: not read).
  uint64_t CpuNs = kCpuUnknown;
  /// With raw::TF_Folded: the number of finished threads this record sums
  /// (the runtime's keep_threads); their CPU time, off-CPU time and
  /// switches are summed, StartTick/EndTick span them all. Else 0.
  uint64_t FoldedThreads = 0;
};

/// How many of the program's threads a thread record stands for.
inline uint64_t threadsOf(const Thread &T) {
  return T.FoldedThreads ? T.FoldedThreads : 1;
}

/// OpenMP worker-state analysis (raw::SK_Parallel).
struct Region {
  uint64_t Address = 0;  // fork call's return address in its object file
  std::string Path;      // the object file
  uint64_t Instances = 0;
  uint64_t WallTicks = 0;
  uint32_t MaxWorkers = 0;
};

struct RegionThread {
  uint32_t Region = 0;   // index into Parallel::Regions
  uint64_t Tid = 0;
  uint64_t StateTicks[kNumWorkerStates] = {};
  uint64_t Transitions[kNumWorkerStates][kNumWorkerStates] = {};
  uint64_t LocalTakes = 0;
  uint64_t StolenTakes = 0;
  uint64_t TasksCreated = 0;
  uint64_t Chunks = 0;
  uint64_t WaitEntries = 0;
};

struct Parallel {
  bool Present = false;  // the process wrote an SK_Parallel section
  uint32_t Status = 0;   // raw::OmpStatus
  uint64_t LostEvents = 0;
  std::vector<Region> Regions;
  std::vector<RegionThread> Entries;
};

/// sample=1: one sample of a thread's shadow stack (raw::SampleRecord).
struct Sample {
  uint64_t Tick = 0;
  uint64_t Weight = 0;  // ticks since the thread's previous sample
  uint32_t Thread = 0;  // index into Process::Threads
  uint32_t Node = 0;    // index into that thread's Nodes, or raw::kNoNode
  uint32_t Flags = 0;   // raw::SampleFlags
  uint32_t Depth = 0;
};

/// The samples section of a process (raw::SamplesRecord + records).
struct SampleSet {
  uint64_t IntervalTicks = 0;
  uint64_t StartTick = 0;
  uint64_t EndTick = 0;
  uint64_t Sweeps = 0;
  uint64_t Dropped = 0;
  uint64_t TornRetries = 0;
  uint64_t TornDiscarded = 0;
  uint64_t Unmapped = 0;
  uint64_t ProcStateSamples = 0;
  uint64_t SamplerCpuNs = 0;
  uint64_t WakeLateNs = 0; // sum over sweeps of the wake-up latency
  uint32_t Flags = 0;   // raw::SamplesFlags
  std::vector<Sample> Samples; // non-decreasing ticks
};

/// Block counts (a training build for profile-guided optimization): one
/// linked object's IR PGO data records with their counts summed over the
/// process's threads, its profiled values and its LLVM name table.
struct BlockFunc {
  uint64_t NameRef = 0;  // MD5 of the PGO name
  uint64_t FuncHash = 0; // LLVM's CFG hash
  uint32_t FirstCounter = 0;
  uint32_t NumCounters = 0;
  uint32_t IndirectSites = 0;
  uint32_t MemOpSites = 0;
};
struct BlockValue {
  uint32_t Func = 0; // index into BlockCountTable::Funcs
  uint32_t Kind = 0; // LLVM's InstrProfValueKind
  uint32_t Site = 0;
  uint64_t Value = 0; // target NameRef, or memop size range
  uint64_t Count = 0;
};
struct BlockCountTable {
  std::vector<BlockFunc> Funcs;
  std::vector<uint64_t> Counters;
  std::vector<BlockValue> Values;
  std::string Names; // LLVM's name table, possibly compressed
  uint64_t ValuesLost = 0;
};

/// v14: one MPI routine's message bytes in a process (its calls and time
/// are its function's nodes: a function with abi::FF_Mpi).
struct MpiRoutineBytes {
  uint32_t Func = 0;   // index into Process::Functions
  uint64_t Bytes = 0;
};

/// v14: what the MPI part (libactivetime_mpi) recorded beside the call tree.
struct MpiData {
  bool Present = false;                 // the block has an mpi section
  std::vector<MpiRoutineBytes> Routines; // ascending Func, Bytes > 0
};

struct Process {
  uint64_t TickRate = 0;
  uint64_t StartTick = 0;
  uint64_t EndTick = 0;
  uint64_t StartUnixNs = 0;
  uint32_t Pid = 0;
  uint32_t ParentPid = 0;
  std::string Exe;
  std::string BuildId;  // raw bytes
  /// The host it ran on (uname's nodename; raw v15), empty if unknown.
  std::string Host;
  OverheadTable Overhead;
  /// The step the tick counter advances by, ticks * 256 (0: not measured).
  uint64_t TickStep256 = 0;
  /// Timed or counted: calls shorter than this on average (ticks) were
  /// switched to counting; 0: every call was timed.
  uint64_t TimingThreshold = 0;
  /// Code samples: the thread CPU time between two (0: none taken), the
  /// cost of one charged as overhead (ticks * 256), raw::CodeSamplingFlags.
  uint64_t CodeSamplePeriodNs = 0;
  uint64_t CodeSampleCost256 = 0;
  uint32_t CodeSampleFlags = 0;
  /// resolveCodeSamples could not read the program's symbols and mapped
  /// each address to the nearest function start below it.
  bool CodeResolvedByNearest = false;
  std::vector<Module> Modules;
  std::vector<Function> Functions; // grouped by module, in module order
  std::vector<Thread> Threads;
  std::vector<Trace> Traces;       // mode=trace only
  Parallel Par;                    // OpenMP programs only
  bool HasSamples = false;         // sample=1 only
  SampleSet Samples;
  std::vector<MemSite> Sites;      // grouped by module, ascending
  /// v19: ticks of a memory probe's call its own tick reads cannot see
  /// (StridesRecord::ProbeGapTicks); 0 without sites.
  uint64_t ProbeGapTicks = 0;
  std::vector<BlockCountTable> BlockCounts; // block-counting builds only
  /// v14: MPI_COMM_WORLD's rank and size; MpiSize 0: not an MPI run.
  uint32_t MpiRank = 0;
  uint32_t MpiSize = 0;
  MpiData Mpi;
  /// v18: microseconds into the run when the runtime's own thread made the
  /// one-threaded program multi-threaded (glibc's malloc and stdio slower
  /// from then on); kNotThreadedByRuntime: it did not.
  uint32_t ThreadedByRuntimeUs = kNotThreadedByRuntime;                     // programs linked with the MPI part only
};

struct Profile {
  bool Merged = false;
  std::vector<Process> Processes;
};

/// Parses and validates a raw profile. Errors are one line with the reason
/// only; the caller adds the file name.
llvm::Expected<Profile> readProfile(llvm::MemoryBufferRef Buffer);

/// Reads the file at \p Path; errors are "Path: reason".
llvm::Expected<Profile> readProfile(llvm::StringRef Path);

/// The bytes of the input file at \p Path, mapped rather than read: a
/// regular file only (a device or FIFO would be read to its end, or
/// forever, before its first bytes could be checked).
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
openInputFile(llvm::StringRef Path);

/// Serializes \p P exactly as raw_format.h lays it out.
llvm::Error writeProfile(const Profile &P, llvm::raw_ostream &OS);

/// Writes \p P to \p Path through a temporary file in the same directory
/// that is renamed into place, so a failure never leaves a partial file.
llvm::Error writeProfile(const Profile &P, llvm::StringRef Path);

/// One process block in the raw format: its sections, each behind its
/// section header, ready to follow a file header.
struct SerializedBlock {
  std::string Bytes;
  uint64_t NumSections = 0;
};

/// \p P as a process block; \p Idx names it in errors (a model the format
/// cannot express).
llvm::Expected<SerializedBlock> serializeBlock(const Process &P, size_t Idx);

/// The file header of a raw file whose \p NumSections sections take
/// \p PayloadBytes after it.
llvm::Expected<std::string> fileHeader(uint64_t NumSections,
                                       uint64_t PayloadBytes, bool Merged);

struct NamedProfile {
  std::string Name; // file name, used in diagnostics
  Profile Prof;
};

/// Concatenates the process blocks of all inputs after checking that every
/// process comes from the same binary as the first one.
llvm::Expected<Profile> mergeProfiles(std::vector<NamedProfile> Inputs);

/// The same merge from files to a file, streamed: the inputs are read and
/// serialized \p Jobs at a time (0: every core) and their blocks written
/// in input order as they come, so memory holds a few inputs rather than
/// all of them. \p Done is called with the number of inputs written so
/// far. Written through a temporary file: an error leaves \p Output as it
/// was.
llvm::Error mergeFiles(llvm::ArrayRef<std::string> Inputs,
                       llvm::StringRef Output, unsigned Jobs,
                       llvm::function_ref<void(size_t)> Done);

/// Maps every code sample's address (and its caller's), and every node's
/// call site, to the function holding it, through the symbol tables of the
/// modules' ELF objects (their paths as recorded).
/// Where an object cannot be read or the executable's build id no longer
/// matches, addresses fall back to the nearest function start below them
/// (Process::CodeResolvedByNearest). Returns one warning per such object.
std::vector<std::string> resolveCodeSamples(Profile &P);

/// The function a symbol name belongs to. The pass's timed copy of f,
/// "f.activetime.timed" (abi::kTimedCopySuffix), is f, and so is every
/// symbol the backend or linker derives from the copy by appending to its
/// name ("f.activetime.timed.cold.1", "f.activetime.timed.llvm.42"); in a
/// demangled name the suffix is in parentheses ("f() (.activetime.timed)").
/// Any other name is returned as it is. Every name the tool prints or
/// exports goes through this, so the internal copy never reaches a user.
llvm::StringRef sourceFunctionName(llvm::StringRef Name);

/// One-line description of the binary a process ran, for diagnostics.
std::string describeBinary(const Process &P);

/// Build id as lower-case hex.
std::string buildIdHex(const Process &P);

} // namespace profile
} // namespace activetime

#endif // ACTIVETIME_PROFILE_PROFILE_H
