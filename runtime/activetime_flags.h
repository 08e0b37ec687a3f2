//===- activetime_flags.h - ActiveTime runtime flags ------------*- C++ -*-===//
//
// The runtime's flags (declared in activetime_flags.inc), parsed and checked
// once at start-up: the rest of the runtime reads them as plain values, the
// string enums already as enumerators.
//
//===----------------------------------------------------------------------===//
#ifndef ACTIVETIME_FLAGS_H
#define ACTIVETIME_FLAGS_H

#include "sanitizer_common/sanitizer_internal_defs.h"

namespace __activetime {

// mode= ("profile|trace": enumerators in that order).
enum class RunMode : __sanitizer::u8 { Profile, Trace };

// switch_source= ("auto|perf|cpuclock|none": enumerators in that order).
enum class SwitchSourceFlag : __sanitizer::u8 { Auto, Perf, CpuClock, None };

struct Flags {
#define ACTIVETIME_FLAG(Type, Name, DefaultValue, Description) Type Name;
#include "activetime_flags.inc"
#undef ACTIVETIME_FLAG
  void SetDefaults();
};

extern Flags activetime_flags_dont_use;
inline Flags *flags() { return &activetime_flags_dont_use; }

// Sets defaults and sanitizer_common's flags, parses ACTIVETIME_OPTIONS,
// handles help=1. An unknown flag or a value its flag does not accept is a
// one-line error (FormatFlagError), after which the process dies (Die()).
void InitializeFlags();

// The first problem ParseFlags found.
struct FlagError {
  enum Kind { None, UnknownFlag, BadValue } What = None;
  char Flag[64];      // the flag's name as written (truncated)
  char Value[64];     // BadValue: the value as written (truncated)
  char Expected[96];  // BadValue: what the flag accepts
};

// Parses Options into F (after F->SetDefaults()). Returns false and fills
// *Err at the first unknown flag or value out of what its flag accepts
// (the flags before it are set). For InitializeFlags and tests.
bool ParseFlags(Flags *F, const char *Options, FlagError *Err);

// The one-line message for Err (no "ActiveTime: ERROR: " prefix, no
// newline).
void FormatFlagError(const FlagError &Err, char *Buf, __sanitizer::uptr Size);

} // namespace __activetime

#endif // ACTIVETIME_FLAGS_H
