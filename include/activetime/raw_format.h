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
// A Process section opens a process block: the Module and Thread sections
// after it (NumModules and NumThreads of them, modules first) belong to that
// process. A runtime-written file has one block; a merged file has several.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_RAW_FORMAT_H
#define ACTIVETIME_RAW_FORMAT_H

#include <stdint.h>

namespace activetime {
namespace raw {

// "\x7f" "ATPROF" "\n": not text, and a CR/LF mangling shows at once.
constexpr char kMagic[8] = {'\x7f', 'A', 'T', 'P', 'R', 'O', 'F', '\n'};
constexpr uint32_t kVersion = 1;

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
};

struct SectionHeader {   // 16 bytes
  uint32_t Kind;         // SectionKind; any other value is an error
  uint32_t Reserved;     // 0
  uint64_t Size;         // payload bytes, a multiple of 8
};

// Payload of SK_Process, followed by Exe[ExeLen] and BuildId[BuildIdLen]
// (raw bytes of the main executable's GNU build-id note, may be empty),
// then zero padding to 8.
struct ProcessRecord {   // 56 bytes
  uint64_t TickRate;     // ticks per second of every *Tick* figure below
  uint64_t StartTick;    // runtime start (or fork, in a child)
  uint64_t EndTick;      // when the profile was written
  uint64_t StartUnixNs;  // wall clock at StartTick, ns since the epoch
  uint32_t Pid;
  uint32_t ParentPid;
  uint32_t NumModules;
  uint32_t NumThreads;
  uint32_t ExeLen;
  uint32_t BuildIdLen;
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

constexpr uint32_t kNoParent = 0xffffffffu;

// Payload of SK_Thread: ThreadRecord followed by NumNodes NodeRecords.
struct ThreadRecord {    // 80 bytes
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
};

// One calling context: a node of the thread's call tree.
struct NodeRecord {      // 48 bytes
  uint32_t Parent;       // index of the parent node (< own index), or kNoParent
  uint32_t Func;         // process-wide function id
  uint64_t Calls;        // completed calls plus calls open at EndTick
  uint64_t InclTicks;    // inclusive elapsed ticks
  uint64_t ExclTicks;    // InclTicks minus the callees' InclTicks
  uint64_t MinTicks;     // shortest single call (inclusive)
  uint64_t MaxTicks;     // longest single call (inclusive)
};

static_assert(sizeof(FileHeader) == 32, "layout");
static_assert(sizeof(SectionHeader) == 16, "layout");
static_assert(sizeof(ProcessRecord) == 56, "layout");
static_assert(sizeof(ModuleRecord) == 32, "layout");
static_assert(sizeof(FuncRecord) == 24, "layout");
static_assert(sizeof(ThreadRecord) == 80, "layout");
static_assert(sizeof(NodeRecord) == 48, "layout");

} // namespace raw
} // namespace activetime

#endif // ACTIVETIME_RAW_FORMAT_H
