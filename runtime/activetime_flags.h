//===- activetime_flags.h - ActiveTime runtime flags ------------*- C++ -*-===//
#ifndef ACTIVETIME_FLAGS_H
#define ACTIVETIME_FLAGS_H

#include "sanitizer_common/sanitizer_internal_defs.h"

namespace __activetime {

struct Flags {
#define ACTIVETIME_FLAG(Type, Name, DefaultValue, Description) Type Name;
#include "activetime_flags.inc"
#undef ACTIVETIME_FLAG
  void SetDefaults();
};

extern Flags activetime_flags_dont_use;
inline Flags *flags() { return &activetime_flags_dont_use; }

// Sets defaults and sanitizer_common's flags, parses ACTIVETIME_OPTIONS,
// handles help=1, dies with a one-line error on an unknown flag.
void InitializeFlags();

// Parses Options into F (after F->SetDefaults()). Returns false and stores
// the first unknown flag name in UnknownBuf if there is one. For tests.
bool ParseFlags(Flags *F, const char *Options, char *UnknownBuf,
                __sanitizer::uptr UnknownBufSize);

} // namespace __activetime

#endif // ACTIVETIME_FLAGS_H
