//===- activetime/Profile/RawMapping.h - Raw records <-> model --*- C++ -*-===//
//
// Part of ActiveTime. The one place that says which model field
// (activetime/Profile/Profile.h) each raw record field (RawData.inc) holds.
// The reader and the writer both go through these mappings, so a field is
// listed once, by name:
//
//   template <> struct RawMapping<raw::NodeRecord> {
//     template <class IO, class M> static void map(IO &io, M &N) {
//       io.field(&R::InclTicks, N.Incl);
//       ...
//
// The IO is RecordIn (reader: little-endian bytes -> model) or RecordOut
// (writer: model -> little-endian bytes), in the manner of LLVM's
// yaml::MappingTraits. Fields are addressed by member pointer and located by
// their offset in the raw struct, so the byte layout is spelled only by
// RawData.inc (the structs of raw_format.h); the order of the lines in a
// mapping does not matter.
//
// A mapping lists the fields whose value is a function of the model object
// alone: plain copies (field), flag bits kept as bools (flag), fixed-size
// NUL-padded text (text), nested records (record), and the sizes of the
// object's own containers and strings (count: written from the model,
// ignored on reading -- the reader bounds-checks every count before it
// trusts it). The rest is the section code's, and the mapping says so with
// sectionOwned (nothing is read or written through it): reserved fields
// (written 0, checked by the reader through RecordIn::get), and fields that
// depend on the surrounding section (a module's function count, a region's
// string offset), which the writer sets with RecordOut::set and the reader
// takes with RecordIn::get.
//
// A new raw field: add it to its record's list in RawData.inc (and to the
// runtime's writer), then either a line to the record's mapping below (and
// the model field to Profile.h) or, for a section-owned field, a
// sectionOwned line, a get() in the reader's parser and a set() in the
// writer's function for the section. Validation of its values belongs to the
// reader's parser. The unit test RawMapping.EveryRecordFieldMappedOrOwned,
// over every record RawData.inc lists, fails until every byte of the record
// is mapped or section-owned exactly once.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PROFILE_RAWMAPPING_H
#define ACTIVETIME_PROFILE_RAWMAPPING_H

#include "activetime/Profile/Profile.h"
#include "activetime/raw_format.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Endian.h"

#include <cstddef>
#include <cstring>
#include <set>
#include <string>
#include <type_traits>

namespace activetime {
namespace profile {

static_assert(kNoParent == raw::kNoParent && kNoNode == raw::kNoNode &&
                  kCpuUnknown == raw::kCpuUnknown &&
                  kNotThreadedByRuntime == raw::kNotThreadedByRuntime &&
                  kNumWorkerStates == raw::kNumWorkerStates,
              "the model's sentinels are the raw format's");

/// Specialized below for every raw record that has a model counterpart.
template <class Rec> struct RawMapping;

namespace rawio {

/// Byte offset of \p Field in \p Rec. The raw records are standard-layout
/// aggregates without padding (raw_format.h asserts their sizes).
template <class Rec, class F> size_t offsetOf(F Rec::*Field) {
  static_assert(std::is_standard_layout_v<Rec> &&
                    std::is_trivially_copyable_v<Rec>,
                "raw records are plain bytes");
  static const Rec Dummy{};
  return reinterpret_cast<const char *>(&(Dummy.*Field)) -
         reinterpret_cast<const char *>(&Dummy);
}

/// Little-endian, unaligned: the reader's buffer need not be aligned.
template <class T> void load(const char *P, T &V) {
  if constexpr (std::is_array_v<T>) {
    for (size_t I = 0; I < std::extent_v<T>; ++I)
      load(P + I * sizeof(V[0]), V[I]);
  } else {
    V = llvm::support::endian::read<T, llvm::endianness::little>(P);
  }
}

template <class T> void store(char *P, const T &V) {
  if constexpr (std::is_array_v<T>) {
    for (size_t I = 0; I < std::extent_v<T>; ++I)
      store(P + I * sizeof(V[0]), V[I]);
  } else {
    llvm::support::endian::write<T, llvm::endianness::little>(P, V);
  }
}

/// Keeps a parameter out of template argument deduction (std::type_identity
/// is C++20): set(&R::NumNodes, Nodes.size()) converts the size_t.
template <class T> struct Same {
  using type = T;
};
template <class T> using SameAs = typename Same<T>::type;

/// A model field holds its raw field exactly: same type, same width.
template <class F, class M> constexpr void checkSameType() {
  static_assert(std::is_same_v<std::remove_const_t<M>, F>,
                "a mapped model field has the raw field's type");
}

} // namespace rawio

/// Reads one raw record from sizeof(Rec) little-endian bytes.
template <class Rec> class RecordIn {
public:
  explicit RecordIn(const char *Bytes) : Bytes(Bytes) {}

  /// Fills \p Model through RawMapping<Rec>.
  template <class M> void map(M &Model) { RawMapping<Rec>::map(*this, Model); }

  /// The raw value of a field the section code validates or uses itself
  /// (counts, lengths, reserved fields, headers).
  template <class F> F get(F Rec::*Field) const {
    F V;
    rawio::load(Bytes + rawio::offsetOf(Field), V);
    return V;
  }
  /// A nested record (ProcessRecord::Overhead).
  template <class Sub> RecordIn<Sub> nested(Sub Rec::*Field) const {
    return RecordIn<Sub>(Bytes + rawio::offsetOf(Field));
  }
  /// The bytes of a character array field.
  template <size_t N> llvm::StringRef bytes(char (Rec::*Field)[N]) const {
    return llvm::StringRef(Bytes + rawio::offsetOf(Field), N);
  }

  // The mapping vocabulary (see the file comment).
  template <class F, class M> void field(F Rec::*Field, M &Model) {
    rawio::checkSameType<F, M>();
    rawio::load(Bytes + rawio::offsetOf(Field), Model);
  }
  template <class F, class M>
  void flag(F Rec::*Field, rawio::SameAs<F> Bit, M &Model) {
    Model = (get(Field) & Bit) != 0;
  }
  template <size_t N> void text(char (Rec::*Field)[N], std::string &S) {
    S = bytes(Field).take_until([](char C) { return C == '\0'; }).str();
  }
  template <class F, class C> void count(F Rec::*, const C &) {}
  template <class Sub, class M> void record(Sub Rec::*Field, M &Model) {
    nested(Field).map(Model);
  }
  template <class F> void sectionOwned(F Rec::*) {}

private:
  const char *Bytes;
};

/// Builds one raw record in little-endian bytes; what no mapping line or
/// set() writes (reserved fields) stays 0.
template <class Rec> class RecordOut {
public:
  RecordOut() = default;
  template <class M> explicit RecordOut(const M &Model) { map(Model); }

  template <class M> void map(const M &Model) {
    RawMapping<Rec>::map(*this, Model);
  }
  /// Sets a field the section code computes.
  template <class F> void set(F Rec::*Field, rawio::SameAs<F> V) {
    rawio::store(Bytes + rawio::offsetOf(Field), V);
  }
  llvm::StringRef bytes() const { return llvm::StringRef(Bytes, sizeof(Rec)); }

  // The mapping vocabulary (see the file comment).
  template <class F, class M> void field(F Rec::*Field, const M &Model) {
    rawio::checkSameType<F, M>();
    rawio::store(Bytes + rawio::offsetOf(Field), Model);
  }
  template <class F, class M>
  void flag(F Rec::*Field, rawio::SameAs<F> Bit, const M &Model) {
    F V;
    rawio::load(Bytes + rawio::offsetOf(Field), V);
    set(Field, Model ? F(V | Bit) : V);
  }
  template <size_t N> void text(char (Rec::*Field)[N], llvm::StringRef S) {
    std::memcpy(Bytes + rawio::offsetOf(Field), S.data(),
                S.size() < N ? S.size() : N);
  }
  /// The writer checked beforehand that every count fits its field.
  template <class F, class C> void count(F Rec::*Field, const C &Container) {
    set(Field, F(Container.size()));
  }
  template <class Sub, class M> void record(Sub Rec::*Field, const M &Model) {
    RecordOut<Sub> Out(Model);
    std::memcpy(Bytes + rawio::offsetOf(Field), Out.bytes().data(),
                sizeof(Sub));
  }
  template <class F> void sectionOwned(F Rec::*) {}

private:
  char Bytes[sizeof(Rec)] = {};
};

//===----------------------------------------------------------------------===//
// The mappings, in the order of RawData.inc. M is the model type, const on
// writing. Every field is listed: mapped, or owned by the section code (see
// the file comment).
//===----------------------------------------------------------------------===//

/// Asserts which model type a mapping takes.
template <class M, class Model>
constexpr bool kIsModel = std::is_same_v<std::remove_const_t<M>, Model>;

template <> struct RawMapping<raw::OverheadRecord> {
  using R = raw::OverheadRecord;
  using Model = OverheadTable;
  template <class IO, class M> static void map(IO &io, M &OH) {
    static_assert(kIsModel<M, Model>);
    io.field(&R::Enter256, OH.Enter256);
    io.field(&R::Exit256, OH.Exit256);
    io.field(&R::Source, OH.Source);
    io.field(&R::Batches, OH.Batches);
    io.field(&R::SpreadPermille, OH.SpreadPermille);
    io.flag(&R::Flags, raw::OF_Stable, OH.Stable);
    io.flag(&R::Flags, raw::OF_Fenced, OH.Fenced);
    io.flag(&R::Flags, raw::OF_Measured, OH.Measured);
    io.field(&R::Pair256, OH.Pair256);
    io.field(&R::MeasuredEnter256, OH.MeasuredEnter256);
    io.field(&R::MeasuredExit256, OH.MeasuredExit256);
    io.field(&R::ReadyTick, OH.ReadyTick);
  }
};

/// NumStrides: the block's strides sections.
template <> struct RawMapping<raw::ProcessRecord> {
  using R = raw::ProcessRecord;
  using Model = Process;
  template <class IO, class M> static void map(IO &io, M &P) {
    static_assert(kIsModel<M, Model>);
    io.field(&R::TickRate, P.TickRate);
    io.field(&R::StartTick, P.StartTick);
    io.field(&R::EndTick, P.EndTick);
    io.field(&R::StartUnixNs, P.StartUnixNs);
    io.field(&R::Pid, P.Pid);
    io.field(&R::ParentPid, P.ParentPid);
    io.count(&R::NumModules, P.Modules);
    io.count(&R::NumThreads, P.Threads);
    io.count(&R::NumTraces, P.Traces);
    io.count(&R::ExeLen, P.Exe);
    io.count(&R::BuildIdLen, P.BuildId);
    io.record(&R::Overhead, P.Overhead);
    io.field(&R::TickStep256, P.TickStep256);
    io.field(&R::TimingThreshold, P.TimingThreshold);
    io.field(&R::CodeSamplePeriodNs, P.CodeSamplePeriodNs);
    io.field(&R::CodeSampleCost256, P.CodeSampleCost256);
    io.field(&R::CodeSampleFlags, P.CodeSampleFlags);
    io.sectionOwned(&R::NumStrides);
    io.count(&R::NumBlockCounts, P.BlockCounts);
    io.field(&R::MpiRank, P.MpiRank);
    io.field(&R::MpiSize, P.MpiSize);
    io.count(&R::HostLen, P.Host);
    io.field(&R::ThreadedByRuntimeUs, P.ThreadedByRuntimeUs);
  }
};

/// NumFuncs: the module's share of the function table; NumInlinedAway:
/// its records after the functions.
template <> struct RawMapping<raw::ModuleRecord> {
  using R = raw::ModuleRecord;
  using Model = Module;
  template <class IO, class M> static void map(IO &io, M &Mod) {
    static_assert(kIsModel<M, Model>);
    io.field(&R::Hash, Mod.Hash);
    io.field(&R::LoadBase, Mod.LoadBase);
    io.count(&R::NameLen, Mod.Name);
    io.count(&R::PathLen, Mod.Path);
    io.field(&R::Flags, Mod.Flags);
    io.sectionOwned(&R::NumFuncs);
    io.sectionOwned(&R::NumInlinedAway);
    io.sectionOwned(&R::Reserved);
  }
};

/// Function::Module is the section's module.
template <> struct RawMapping<raw::FuncRecord> {
  using R = raw::FuncRecord;
  using Model = Function;
  template <class IO, class M> static void map(IO &io, M &F) {
    static_assert(kIsModel<M, Model>);
    io.field(&R::Addr, F.Addr);
    io.field(&R::Line, F.Line);
    io.field(&R::Flags, F.Flags);
    io.count(&R::NameLen, F.Name);
    io.count(&R::FileLen, F.File);
  }
};

/// NumLatency: the records of the nodes' histograms.
template <> struct RawMapping<raw::ThreadRecord> {
  using R = raw::ThreadRecord;
  using Model = Thread;
  template <class IO, class M> static void map(IO &io, M &T) {
    static_assert(kIsModel<M, Model>);
    io.field(&R::Tid, T.Tid);
    io.field(&R::StartTick, T.StartTick);
    io.field(&R::EndTick, T.EndTick);
    io.count(&R::NumNodes, T.Nodes);
    io.field(&R::Flags, T.Flags);
    io.field(&R::OpenFrames, T.OpenFrames);
    io.field(&R::UnmatchedExits, T.UnmatchedExits);
    io.field(&R::UnwoundFrames, T.UnwoundFrames);
    io.field(&R::DroppedEvents, T.DroppedEvents);
    io.text(&R::Name, T.Name);
    io.field(&R::SwitchSource, T.SwitchSource);
    io.count(&R::NumCounts, T.Counts);
    io.field(&R::SwitchResolution, T.SwitchResolution);
    io.field(&R::OffCpuTicks, T.OffCpuTicks);
    io.field(&R::VoluntarySwitches, T.VoluntarySwitches);
    io.field(&R::InvoluntarySwitches, T.InvoluntarySwitches);
    io.field(&R::LostSwitchRecords, T.LostSwitchRecords);
    io.count(&R::NumCodeSamples, T.CodeSamples);
    io.field(&R::LostCodeSamples, T.LostCodeSamples);
    io.field(&R::CpuNs, T.CpuNs);
    io.field(&R::FoldedThreads, T.FoldedThreads);
    io.sectionOwned(&R::NumLatency);
  }
};

template <> struct RawMapping<raw::NodeRecord> {
  using R = raw::NodeRecord;
  using Model = Node;
  template <class IO, class M> static void map(IO &io, M &N) {
    static_assert(kIsModel<M, Model>);
    io.field(&R::Parent, N.Parent);
    io.field(&R::Func, N.Func);
    io.field(&R::Calls, N.Calls);
    io.field(&R::InclTicks, N.Incl);
    io.field(&R::ExclTicks, N.Excl);
    io.field(&R::MinTicks, N.Min);
    io.field(&R::MaxTicks, N.Max);
    io.field(&R::OverheadTicks, N.Overhead);
    io.field(&R::OffCpuTicks, N.OffCpu);
    io.field(&R::VoluntarySwitches, N.Voluntary);
    io.field(&R::InvoluntarySwitches, N.Involuntary);
    io.field(&R::CallSite, N.CallSite);
  }
};

/// The reader rejects flags other than CR_Counted.
template <> struct RawMapping<raw::CountRecord> {
  using R = raw::CountRecord;
  using Model = CallCount;
  template <class IO, class M> static void map(IO &io, M &CC) {
    static_assert(kIsModel<M, Model>);
    io.field(&R::Func, CC.Func);
    io.flag(&R::Flags, raw::CR_Counted, CC.Counted);
    io.field(&R::Calls, CC.Calls);
  }
};

/// Node: the record's place in its thread's nodes.
template <> struct RawMapping<raw::LatencyRecord> {
  using R = raw::LatencyRecord;
  using Model = LatencyCount;
  template <class IO, class M> static void map(IO &io, M &L) {
    static_assert(kIsModel<M, Model>);
    io.field(&R::Bucket, L.Bucket);
    io.field(&R::Count, L.Count);
    io.sectionOwned(&R::Node);
  }
};

template <> struct RawMapping<raw::CodeSampleRecord> {
  using R = raw::CodeSampleRecord;
  using Model = CodeSample;
  template <class IO, class M> static void map(IO &io, M &S) {
    static_assert(kIsModel<M, Model>);
    io.field(&R::Node, S.Node);
    io.field(&R::Flags, S.Flags);
    io.field(&R::Addr, S.Addr);
    io.field(&R::Count, S.Count);
    io.field(&R::Caller, S.Caller);
  }
};

template <> struct RawMapping<raw::TraceRecord> {
  using R = raw::TraceRecord;
  using Model = Trace;
  template <class IO, class M> static void map(IO &io, M &T) {
    static_assert(kIsModel<M, Model>);
    io.field(&R::Tid, T.Tid);
    io.count(&R::NumEvents, T.Events);
    io.count(&R::NumSwitches, T.Switches);
    io.field(&R::DroppedEvents, T.DroppedEvents);
    io.field(&R::DroppedSwitches, T.DroppedSwitches);
    io.field(&R::BufferTicks, T.BufferTicks);
    io.field(&R::BufferBytes, T.BufferBytes);
    io.field(&R::BufferFlags, T.BufferFlags);
    io.sectionOwned(&R::Reserved);
  }
};

template <> struct RawMapping<raw::TraceEvent> {
  using R = raw::TraceEvent;
  using Model = TraceEvent;
  template <class IO, class M> static void map(IO &io, M &E) {
    static_assert(kIsModel<M, Model>);
    io.field(&R::Tick, E.Tick);
    io.field(&R::Func, E.Func);
    io.field(&R::Kind, E.Kind);
    io.field(&R::Measured, E.Measured);
    io.sectionOwned(&R::Reserved);
  }
};

template <> struct RawMapping<raw::SwitchEvent> {
  using R = raw::SwitchEvent;
  using Model = SwitchEvent;
  template <class IO, class M> static void map(IO &io, M &S) {
    static_assert(kIsModel<M, Model>);
    io.field(&R::Tick, S.Tick);
    io.field(&R::OldTid, S.OldTid);
    io.field(&R::NewTid, S.NewTid);
  }
};

// raw::BlockCountsRecord has no model object (its counts belong to the
// BlockCountTable it opens): the section code reads and writes all of it.

template <> struct RawMapping<raw::BlockFuncRecord> {
  using R = raw::BlockFuncRecord;
  using Model = BlockFunc;
  template <class IO, class M> static void map(IO &io, M &S) {
    static_assert(kIsModel<M, Model>);
    io.field(&R::NameRef, S.NameRef);
    io.field(&R::FuncHash, S.FuncHash);
    io.field(&R::FirstCounter, S.FirstCounter);
    io.field(&R::NumCounters, S.NumCounters);
    io.field(&R::IndirectSites, S.IndirectSites);
    io.field(&R::MemOpSites, S.MemOpSites);
  }
};

/// Reserved: 0.
template <> struct RawMapping<raw::BlockValueRecord> {
  using R = raw::BlockValueRecord;
  using Model = BlockValue;
  template <class IO, class M> static void map(IO &io, M &S) {
    static_assert(kIsModel<M, Model>);
    io.field(&R::Func, S.Func);
    io.field(&R::Kind, S.Kind);
    io.field(&R::Site, S.Site);
    io.sectionOwned(&R::Reserved);
    io.field(&R::Value, S.Value);
    io.field(&R::Count, S.Count);
  }
};

// raw::StridesRecord has no model object (its sites are grouped by
// MemSite::Module): the section code reads and writes all of it.

/// MemSite::Module is the section's module.
template <> struct RawMapping<raw::SiteRecord> {
  using R = raw::SiteRecord;
  using Model = MemSite;
  template <class IO, class M> static void map(IO &io, M &S) {
    static_assert(kIsModel<M, Model>);
    io.field(&R::Hash, S.Hash);
    io.field(&R::StaticStride, S.StaticStride);
    io.field(&R::Line, S.Line);
    io.field(&R::Column, S.Column);
    io.field(&R::AccessSize, S.AccessSize);
    io.field(&R::Flags, S.Flags);
    io.field(&R::LoopLine, S.LoopLine);
    io.field(&R::LoopDepth, S.LoopDepth);
    io.field(&R::Executions, S.Executions);
    io.field(&R::Observations, S.Observations);
    io.field(&R::Differences, S.Differences);
    io.field(&R::Adjacent, S.Adjacent);
    io.field(&R::ZeroDiffs, S.ZeroDiffs);
    io.field(&R::Gcd, S.Gcd);
    io.field(&R::Dominant, S.Dominant);
    io.field(&R::DominantCount, S.DominantCount);
    io.field(&R::IterTicks, S.IterTicks);
    io.field(&R::ProbeTicks, S.ProbeTicks);
    io.field(&R::MinStepTicks, S.MinStepTicks);
    io.count(&R::FuncLen, S.Func);
    io.count(&R::FileLen, S.File);
    io.field(&R::CopyGroup, S.CopyGroup);
    io.field(&R::CopyOffset, S.CopyOffset);
    io.field(&R::CopyPrev, S.CopyPrev);
    io.field(&R::PrevOffset, S.PrevOffset);
    io.field(&R::PrevPairs, S.PrevPairs);
    io.field(&R::PrevOffsetCount, S.PrevOffsetCount);
    io.field(&R::AnyStepTicks, S.AnyStepTicks);
    io.field(&R::AnyProbeTicks, S.AnyProbeTicks);
    io.field(&R::MinAnyStepTicks, S.MinAnyStepTicks);
    io.field(&R::MinAddress, S.MinAddress);
    io.field(&R::MaxAddress, S.MaxAddress);
    io.field(&R::LeadOffset, S.LeadOffset);
    io.field(&R::ProbeLead, S.ProbeLead);
    io.sectionOwned(&R::SiteReserved);
  }
};

/// StringBytes: the paths of all regions.
template <> struct RawMapping<raw::ParallelRecord> {
  using R = raw::ParallelRecord;
  using Model = Parallel;
  template <class IO, class M> static void map(IO &io, M &P) {
    static_assert(kIsModel<M, Model>);
    io.field(&R::Status, P.Status);
    io.count(&R::NumRegions, P.Regions);
    io.count(&R::NumEntries, P.Entries);
    io.field(&R::LostEvents, P.LostEvents);
    io.sectionOwned(&R::StringBytes);
  }
};

/// PathOffset: into the section's string bytes.
template <> struct RawMapping<raw::RegionRecord> {
  using R = raw::RegionRecord;
  using Model = Region;
  template <class IO, class M> static void map(IO &io, M &Reg) {
    static_assert(kIsModel<M, Model>);
    io.field(&R::Address, Reg.Address);
    io.count(&R::PathLen, Reg.Path);
    io.field(&R::Instances, Reg.Instances);
    io.field(&R::WallTicks, Reg.WallTicks);
    io.field(&R::MaxWorkers, Reg.MaxWorkers);
    io.sectionOwned(&R::PathOffset);
    io.sectionOwned(&R::Reserved);
  }
};

template <> struct RawMapping<raw::RegionThreadRecord> {
  using R = raw::RegionThreadRecord;
  using Model = RegionThread;
  template <class IO, class M> static void map(IO &io, M &E) {
    static_assert(kIsModel<M, Model>);
    io.field(&R::Region, E.Region);
    io.field(&R::Tid, E.Tid);
    io.field(&R::StateTicks, E.StateTicks);
    io.field(&R::Transitions, E.Transitions);
    io.field(&R::LocalTakes, E.LocalTakes);
    io.field(&R::StolenTakes, E.StolenTakes);
    io.field(&R::TasksCreated, E.TasksCreated);
    io.field(&R::Chunks, E.Chunks);
    io.field(&R::WaitEntries, E.WaitEntries);
    io.sectionOwned(&R::Reserved);
  }
};

template <> struct RawMapping<raw::SamplesRecord> {
  using R = raw::SamplesRecord;
  using Model = SampleSet;
  template <class IO, class M> static void map(IO &io, M &S) {
    static_assert(kIsModel<M, Model>);
    io.field(&R::IntervalTicks, S.IntervalTicks);
    io.field(&R::StartTick, S.StartTick);
    io.field(&R::EndTick, S.EndTick);
    io.count(&R::NumSamples, S.Samples);
    io.field(&R::Sweeps, S.Sweeps);
    io.field(&R::Dropped, S.Dropped);
    io.field(&R::TornRetries, S.TornRetries);
    io.field(&R::TornDiscarded, S.TornDiscarded);
    io.field(&R::Unmapped, S.Unmapped);
    io.field(&R::ProcStateSamples, S.ProcStateSamples);
    io.field(&R::SamplerCpuNs, S.SamplerCpuNs);
    io.field(&R::Flags, S.Flags);
    io.field(&R::WakeLateNs, S.WakeLateNs);
    io.sectionOwned(&R::Reserved);
  }
};

template <> struct RawMapping<raw::SampleRecord> {
  using R = raw::SampleRecord;
  using Model = Sample;
  template <class IO, class M> static void map(IO &io, M &X) {
    static_assert(kIsModel<M, Model>);
    io.field(&R::Tick, X.Tick);
    io.field(&R::Weight, X.Weight);
    io.field(&R::Thread, X.Thread);
    io.field(&R::Node, X.Node);
    io.field(&R::Flags, X.Flags);
    io.field(&R::Depth, X.Depth);
  }
};

namespace rawio {
/// The IO that checks a mapping: which bytes of the record it covers.
template <class Rec> class Coverage {
public:
  template <class M> void map(M &Model) { RawMapping<Rec>::map(*this, Model); }
  template <class F> void sectionOwned(F Rec::*Field) { mark(Field); }
  template <class F, class M> void field(F Rec::*Field, M &) { mark(Field); }
  template <class F, class B, class M> void flag(F Rec::*Field, B, M &) {
    // Several flag bits share a field.
    if (FlagFields.insert(rawio::offsetOf(Field)).second)
      mark(Field);
  }
  template <size_t N> void text(char (Rec::*Field)[N], std::string &) {
    mark(Field);
  }
  template <class F, class C> void count(F Rec::*Field, const C &) {
    mark(Field);
  }
  template <class Sub, class M> void record(Sub Rec::*Field, M &) {
    mark(Field);
  }
  /// "" when every byte is covered exactly once, else the first offending
  /// offset.
  std::string check() const {
    for (size_t I = 0; I < sizeof(Rec); ++I)
      if (Bytes[I] != 1)
        return "byte " + std::to_string(I) + " covered " +
               std::to_string(Bytes[I]) + " times";
    return "";
  }

private:
  template <class F> void mark(F Rec::*Field) {
    size_t Off = rawio::offsetOf(Field);
    for (size_t I = 0; I < sizeof(F); ++I)
      ++Bytes[Off + I];
  }
  int Bytes[sizeof(Rec)] = {};
  std::set<size_t> FlagFields;
};
} // namespace rawio

/// "" when RawMapping<Rec> covers every byte of the record exactly once
/// (mapped, or owned by the section code), else the first byte that it
/// does not. The unit tests check every record of RawData.inc with it.
template <class Rec> std::string mappingCoverage() {
  rawio::Coverage<Rec> C;
  typename RawMapping<Rec>::Model Model;
  C.map(Model);
  return C.check();
}

/// A record whose mapping is defined in its section's own file rather than
/// here (a section kind that is one file of the reader and writer):
/// ACTIVETIME_REGISTER_MAPPING(LoopRecord) there lets the unit tests find
/// and check it by name.
struct MappedRecord {
  const char *Name;
  std::string (*Coverage)();
  const MappedRecord *Next;
  MappedRecord(const char *Name, std::string (*Coverage)());
  /// The registration of record \p Name, or null.
  static const MappedRecord *find(llvm::StringRef Name);
};
#define ACTIVETIME_REGISTER_MAPPING(Rec)                                       \
  static const ::activetime::profile::MappedRecord Rec##Mapped(                \
      #Rec, &::activetime::profile::mappingCoverage<raw::Rec>)

} // namespace profile
} // namespace activetime

#endif // ACTIVETIME_PROFILE_RAWMAPPING_H
