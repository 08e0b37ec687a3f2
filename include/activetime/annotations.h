//===- activetime/annotations.h - Clang plugin <-> pass ---------*- C++ -*-===//
//
// Part of ActiveTime. The one place that spells the strings through which the
// clang plugin (clang-plugin/ActiveTimeClang.cpp) tells the pass (pass/) what
// the source asked for. The pass only sees IR, so the plugin lowers every
// source-level request to an annotate attribute, which clang emits as an
// entry { function, string, file, line, args } of @llvm.global.annotations;
// the pass reads those entries and removes them.
//
// Like abi.h this header needs nothing but the language: the plugin and the
// pass compare these with their own StringRefs.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_ANNOTATIONS_H
#define ACTIVETIME_ANNOTATIONS_H

namespace activetime {
namespace annotations {

// Every annotation meant for the pass starts with this; the pass removes
// exactly those entries, and leaves the program's own annotations alone.
constexpr char kPrefix[] = "activetime.";

// __attribute__((no_instrument_function)), [[activetime::no_instrument]] and
// the functions in a `#pragma activetime instrument(off)` range: no probes.
constexpr char kNoInstrument[] = "activetime.no_instrument";
// [[activetime::instrument]]: probes whatever the function list and the size
// threshold say.
constexpr char kInstrument[] = "activetime.instrument";
// [[activetime::strides]] and `#pragma activetime strides(on)`: memory-access
// probes in the function's loops even when stride profiling is off.
constexpr char kStrides[] = "activetime.strides";
// [[activetime::region("NAME")]] is kRegionPrefix followed by NAME: the
// function is reported under NAME.
constexpr char kRegionPrefix[] = "activetime.region:";

// String function attributes with the meaning of kNoInstrument and
// kInstrument, for front ends that set IR attributes directly.
constexpr char kNoInstrumentAttr[] = "activetime-no-instrument";
constexpr char kInstrumentAttr[] = "activetime-instrument";

namespace detail {
constexpr bool startsWith(const char *S, const char *Prefix) {
  return !*Prefix || (*S == *Prefix && startsWith(S + 1, Prefix + 1));
}
} // namespace detail

// The pass recognizes its entries by kPrefix alone when it removes them.
static_assert(detail::startsWith(kNoInstrument, kPrefix) &&
                  detail::startsWith(kInstrument, kPrefix) &&
                  detail::startsWith(kStrides, kPrefix) &&
                  detail::startsWith(kRegionPrefix, kPrefix),
              "every annotation for the pass must start with kPrefix");

} // namespace annotations
} // namespace activetime

#endif // ACTIVETIME_ANNOTATIONS_H
