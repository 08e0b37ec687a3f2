//===- activetime_flags.cpp - ActiveTime runtime flags ----------*- C++ -*-===//
//
// ACTIVETIME_OPTIONS parsing with sanitizer_common's FlagParser.
//
//===----------------------------------------------------------------------===//

#include "activetime_flags.h"

#include "sanitizer_common/sanitizer_common.h"
#include "sanitizer_common/sanitizer_flag_parser.h"
#include "sanitizer_common/sanitizer_flags.h"
#include "sanitizer_common/sanitizer_libc.h"

using namespace __sanitizer;

namespace __activetime {

Flags activetime_flags_dont_use;

static const char *const kEnvName = "ACTIVETIME_OPTIONS";

void Flags::SetDefaults() {
#define ACTIVETIME_FLAG(Type, Name, DefaultValue, Description) Name = DefaultValue;
#include "activetime_flags.inc"
#undef ACTIVETIME_FLAG
}

static void RegisterActiveTimeFlags(FlagParser *Parser, Flags *F) {
#define ACTIVETIME_FLAG(Type, Name, DefaultValue, Description)                 \
  RegisterFlag(Parser, #Name, Description, &F->Name);
#include "activetime_flags.inc"
#undef ACTIVETIME_FLAG
}

static bool IsKnownFlag(const char *Name, uptr Len) {
  static const char *const Known[] = {
#define ACTIVETIME_FLAG(Type, Name, DefaultValue, Description) #Name,
#include "activetime_flags.inc"
#undef ACTIVETIME_FLAG
  };
  for (const char *K : Known)
    if (internal_strlen(K) == Len && internal_strncmp(K, Name, Len) == 0)
      return true;
  return false;
}

// FlagParser only warns about unknown names (and only when asked); scan the
// string the same way it does (separators " ,:\n\t\r", values optionally
// quoted) and report the first unknown name.
static bool IsSep(char C) {
  return C == ' ' || C == ',' || C == ':' || C == '\n' || C == '\t' || C == '\r';
}

static bool FindUnknownFlag(const char *S, char *Buf, uptr BufSize) {
  if (!S)
    return false;
  uptr I = 0;
  for (;;) {
    while (IsSep(S[I]))
      ++I;
    if (!S[I])
      return false;
    uptr NameBegin = I;
    while (S[I] && S[I] != '=' && !IsSep(S[I]))
      ++I;
    uptr NameLen = I - NameBegin;
    if (!IsKnownFlag(S + NameBegin, NameLen)) {
      uptr N = Min(NameLen, BufSize - 1);
      internal_memcpy(Buf, S + NameBegin, N);
      Buf[N] = 0;
      return true;
    }
    if (S[I] != '=')
      return false; // FlagParser reports the syntax error
    ++I;
    if (S[I] == '\'' || S[I] == '"') {
      char Q = S[I++];
      while (S[I] && S[I] != Q)
        ++I;
      if (S[I])
        ++I;
    } else {
      while (S[I] && !IsSep(S[I]))
        ++I;
    }
  }
}

bool ParseFlags(Flags *F, const char *Options, char *UnknownBuf,
                uptr UnknownBufSize) {
  if (FindUnknownFlag(Options, UnknownBuf, UnknownBufSize))
    return false;
  FlagParser Parser;
  RegisterActiveTimeFlags(&Parser, F);
  Parser.ParseString(Options, kEnvName);
  return true;
}

void InitializeFlags() {
  // sanitizer_common internals (Die, Report, allocator, ...) read these.
  SetCommonFlagsDefaults();
  {
    CommonFlags CF;
    CF.CopyFrom(*common_flags());
    CF.exitcode = 1;
    CF.allocator_may_return_null = false;
    CF.detect_leaks = false;
    OverrideCommonFlags(CF);
  }

  Flags *F = flags();
  F->SetDefaults();
  const char *Env = GetEnv(kEnvName);
  char Unknown[64];
  if (!ParseFlags(F, Env, Unknown, sizeof(Unknown))) {
    Printf("ActiveTime: ERROR: unknown flag '%s' in %s (run with "
           "%s=help=1 for the list of flags)\n",
           Unknown, kEnvName, kEnvName);
    Die();
  }
  if (F->initial_stack_frames < 4)
    F->initial_stack_frames = 4;
  if (F->initial_stack_frames > (1 << 24))
    F->initial_stack_frames = 1 << 24;
  if (F->min_calibration_ms < 0)
    F->min_calibration_ms = 0;
  if (F->min_calibration_ms > 10000)
    F->min_calibration_ms = 10000;
  {
    CommonFlags CF;
    CF.CopyFrom(*common_flags());
    CF.verbosity = F->verbosity >= 2 ? F->verbosity - 1 : 0;
    OverrideCommonFlags(CF);
  }
  if (F->help) {
    FlagParser Parser;
    RegisterActiveTimeFlags(&Parser, F);
    Parser.PrintFlagDescriptions();
  }
}

} // namespace __activetime
