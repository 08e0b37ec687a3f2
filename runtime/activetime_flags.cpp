//===- activetime_flags.cpp - ActiveTime runtime flags ----------*- C++ -*-===//
//
// ACTIVETIME_OPTIONS parsing with sanitizer_common's FlagParser. Every flag
// is parsed and checked here, from what activetime_flags.inc says it
// accepts; nothing else in the runtime checks, clamps or compares a flag's
// text. The first problem is kept (FlagError) and reported in one line.
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

namespace {

const char *const kEnvName = "ACTIVETIME_OPTIONS";

void CopyTruncated(char *Dst, uptr DstSize, const char *Src, uptr Len) {
  uptr N = Min(Len, DstSize - 1);
  internal_memcpy(Dst, Src, N);
  Dst[N] = 0;
}

// Keeps the first bad value only (one line, however many there are): false
// if there was one already.
bool SetBadValue(FlagError *Err, const char *Name, const char *Value) {
  if (Err->What != FlagError::None)
    return false;
  Err->What = FlagError::BadValue;
  CopyTruncated(Err->Flag, sizeof(Err->Flag), Name, internal_strlen(Name));
  CopyTruncated(Err->Value, sizeof(Err->Value), Value, internal_strlen(Value));
  Err->Expected[0] = 0;
  return true;
}

// A decimal integer with an optional sign and nothing after it; saturates
// at the s64 range (then out of any flag's range).
bool ParseInteger(const char *S, s64 *Out) {
  bool Neg = *S == '-';
  if (*S == '-' || *S == '+')
    ++S;
  if (*S < '0' || *S > '9')
    return false;
  u64 V = 0;
  for (; *S >= '0' && *S <= '9'; ++S)
    V = V > (u64(1) << 62) ? u64(1) << 62 : V * 10 + u64(*S - '0');
  if (*S)
    return false;
  *Out = Neg ? -s64(V) : s64(V);
  return true;
}

// The bad-value handlers below return true: FlagParser would otherwise add a
// second, generic line. InitializeFlags reports Err and turns profiling off.

class BoolFlag final : public FlagHandlerBase {
public:
  BoolFlag(bool *V, const char *Name, FlagError *Err)
      : V(V), Name(Name), Err(Err) {}
  bool Parse(const char *Value) override {
    if (!ParseBool(Value, V) && SetBadValue(Err, Name, Value))
      internal_strlcpy(Err->Expected, "0, 1, false, true, no or yes",
                       sizeof(Err->Expected));
    return true;
  }
  bool Format(char *Buf, uptr Size) override {
    return FormatString(Buf, Size, *V ? "true" : "false");
  }

private:
  bool *V;
  const char *Name;
  FlagError *Err;
};

// An int in [Lo, Hi]; with Pow2, also a power of two.
class IntFlag final : public FlagHandlerBase {
public:
  IntFlag(int *V, const char *Name, s64 Lo, s64 Hi, bool Pow2, FlagError *Err)
      : V(V), Name(Name), Lo(Lo), Hi(Hi), Pow2(Pow2), Err(Err) {}
  bool Parse(const char *Value) override {
    s64 X;
    if (ParseInteger(Value, &X) && X >= Lo && X <= Hi &&
        (!Pow2 || (X & (X - 1)) == 0)) {
      *V = int(X);
      return true;
    }
    if (!SetBadValue(Err, Name, Value))
      return true;
    char *E = Err->Expected;
    uptr N = sizeof(Err->Expected);
    if (Pow2)
      internal_snprintf(E, N, "a power of two from %lld to %lld", Lo, Hi);
    else if (Hi == 0x7fffffff)
      internal_snprintf(E, N, "an integer >= %lld", Lo);
    else
      internal_snprintf(E, N, "an integer from %lld to %lld", Lo, Hi);
    return true;
  }
  bool Format(char *Buf, uptr Size) override {
    return uptr(internal_snprintf(Buf, Size, "%d", *V)) < Size;
  }

private:
  int *V;
  const char *Name;
  s64 Lo, Hi;
  bool Pow2;
  FlagError *Err;
};

// A file name pattern: '%' only in %e, %p, %r, %n and %% (a typo such as %z or a
// trailing '%' would otherwise name a file nobody asked for).
class PatternFlag final : public FlagHandlerBase {
public:
  PatternFlag(const char **V, const char *Name, FlagError *Err)
      : V(V), Name(Name), Err(Err) {}
  bool Parse(const char *Value) override {
    for (const char *P = Value; *P; ++P) {
      if (*P != '%')
        continue;
      if (P[1] != 'e' && P[1] != 'p' && P[1] != 'r' && P[1] != 'n' &&
          P[1] != '%') {
        if (SetBadValue(Err, Name, Value))
          internal_strlcpy(Err->Expected,
                           "a file name whose only % escapes are %e, %p, "
                           "%r, %n and %% (see the flag's help)",
                           sizeof(Err->Expected));
        return true;
      }
      ++P;
    }
    *V = Value;
    return true;
  }
  bool Format(char *Buf, uptr Size) override {
    return FormatString(Buf, Size, *V);
  }

private:
  const char **V;
  const char *Name;
  FlagError *Err;
};

// One of the '|'-separated Names, stored as the enumerator at its position.
template <typename E> class EnumFlag final : public FlagHandlerBase {
public:
  EnumFlag(E *V, const char *Name, const char *Names, FlagError *Err)
      : V(V), Name(Name), Names(Names), Err(Err) {}
  bool Parse(const char *Value) override {
    uptr Len = internal_strlen(Value);
    const char *N = Names;
    for (int I = 0;; ++I) {
      uptr L = NameLen(N);
      if (L == Len && internal_strncmp(N, Value, L) == 0) {
        *V = E(I);
        return true;
      }
      if (!N[L])
        break;
      N += L + 1;
    }
    if (SetBadValue(Err, Name, Value))
      ListNames(Err->Expected, sizeof(Err->Expected));
    return true;
  }
  bool Format(char *Buf, uptr Size) override {
    const char *N = Names;
    for (int I = 0; I < int(*V) && N[NameLen(N)]; ++I)
      N += NameLen(N) + 1;
    if (Size)
      CopyTruncated(Buf, Size, N, NameLen(N));
    return NameLen(N) < Size;
  }

private:
  static uptr NameLen(const char *N) {
    uptr L = 0;
    while (N[L] && N[L] != '|')
      ++L;
    return L;
  }
  // "a, b or c".
  void ListNames(char *Buf, uptr Size) const {
    Buf[0] = 0;
    for (const char *N = Names;;) {
      uptr L = NameLen(N), Used = internal_strlen(Buf);
      bool Last = !N[L];
      const char *Sep = N == Names ? "" : Last ? " or " : ", ";
      internal_snprintf(Buf + Used, Size - Used, "%s%.*s", Sep, int(L), N);
      if (Last)
        return;
      N += L + 1;
    }
  }

  E *V;
  const char *Name;
  const char *Names;
  FlagError *Err;
};

template <typename H, typename... Args>
void Register(FlagParser *Parser, const char *Name, const char *Desc,
              Args... A) {
  Parser->RegisterHandler(Name, new (GetGlobalLowLevelAllocator()) H(A...),
                          Desc);
}

void RegisterPlain(FlagParser *P, const char *Name, const char *Desc, bool *V,
                   FlagError *Err) {
  Register<BoolFlag>(P, Name, Desc, V, Name, Err);
}

// For a free-form string flag (none today: every string is a pattern).
[[maybe_unused]] void RegisterPlain(FlagParser *P, const char *Name,
                                    const char *Desc, const char **V,
                                    FlagError *) {
  RegisterFlag(P, Name, Desc, V);
}

void RegisterActiveTimeFlags(FlagParser *P, Flags *F, FlagError *Err) {
#define ACTIVETIME_FLAG(Type, Name, DefaultValue, Description)                 \
  RegisterPlain(P, #Name, Description, &F->Name, Err);
#define ACTIVETIME_INT_FLAG(Name, DefaultValue, Lo, Hi, Description)           \
  Register<IntFlag>(P, #Name, Description, &F->Name, #Name, s64(Lo), s64(Hi),  \
                    false, Err);
#define ACTIVETIME_POW2_FLAG(Name, DefaultValue, Hi, Description)              \
  Register<IntFlag>(P, #Name, Description, &F->Name, #Name, s64(1), s64(Hi),   \
                    true, Err);
#define ACTIVETIME_PATTERN_FLAG(Name, DefaultValue, Description)               \
  Register<PatternFlag>(P, #Name, Description, &F->Name, #Name, Err);
#define ACTIVETIME_ENUM_FLAG(EnumType, Name, DefaultValue, Names, Description) \
  Register<EnumFlag<EnumType>>(P, #Name, Description, &F->Name, #Name,         \
                               (const char *)Names, Err);
#include "activetime_flags.inc"
#undef ACTIVETIME_ENUM_FLAG
#undef ACTIVETIME_PATTERN_FLAG
#undef ACTIVETIME_POW2_FLAG
#undef ACTIVETIME_INT_FLAG
#undef ACTIVETIME_FLAG
}

bool IsKnownFlag(const char *Name, uptr Len) {
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
bool IsSep(char C) {
  return C == ' ' || C == ',' || C == ':' || C == '\n' || C == '\t' || C == '\r';
}

bool FindUnknownFlag(const char *S, char *Buf, uptr BufSize) {
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
      CopyTruncated(Buf, BufSize, S + NameBegin, NameLen);
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

void InitializeCommonFlags() {
  // sanitizer_common internals (Die, Report, allocator, ...) read these.
  SetCommonFlagsDefaults();
  CommonFlags CF;
  CF.CopyFrom(*common_flags());
  CF.exitcode = 1;
  CF.allocator_may_return_null = false;
  CF.detect_leaks = false;
  OverrideCommonFlags(CF);
}

} // namespace

void Flags::SetDefaults() {
#define ACTIVETIME_FLAG(Type, Name, DefaultValue, Description) Name = DefaultValue;
#include "activetime_flags.inc"
#undef ACTIVETIME_FLAG
}

bool ParseFlags(Flags *F, const char *Options, FlagError *Err) {
  Err->What = FlagError::None;
  if (FindUnknownFlag(Options, Err->Flag, sizeof(Err->Flag))) {
    Err->What = FlagError::UnknownFlag;
    return false;
  }
  FlagParser Parser;
  RegisterActiveTimeFlags(&Parser, F, Err);
  Parser.ParseString(Options, kEnvName);
  return Err->What == FlagError::None;
}

void FormatFlagError(const FlagError &Err, char *Buf, uptr Size) {
  if (Err.What == FlagError::UnknownFlag)
    internal_snprintf(Buf, Size,
                      "unknown flag '%s' in %s (run with %s=help=1 for the "
                      "list of flags)",
                      Err.Flag, kEnvName, kEnvName);
  else if (Err.What == FlagError::BadValue)
    internal_snprintf(Buf, Size, "invalid value '%s' for flag %s in %s: "
                      "expected %s",
                      Err.Value, Err.Flag, kEnvName, Err.Expected);
  else if (Size)
    Buf[0] = 0;
}

// What a bad ACTIVETIME_OPTIONS leaves: the program's result and exit status
// are its own (as LLVM's profile runtime warns and carries on), with no
// profile written and no perf event, timer signal or helper thread opened.
static void ProfilingOff(Flags *F) {
  F->SetDefaults();
  F->write_profile = false;
  F->code_samples = false;
  F->sample = false;
  F->openmp = false;
  F->switch_source = SwitchSourceFlag::None;
}

void InitializeFlags() {
  InitializeCommonFlags();
  Flags *F = flags();
  F->SetDefaults();
  FlagError Err;
  if (!ParseFlags(F, GetEnv(kEnvName), &Err)) {
    char Msg[320];
    FormatFlagError(Err, Msg, sizeof(Msg));
    Printf("ActiveTime: ERROR: %s; the program runs without profiling\n",
           Msg);
    ProfilingOff(F);
  }
  {
    CommonFlags CF;
    CF.CopyFrom(*common_flags());
    CF.verbosity = F->verbosity >= 2 ? F->verbosity - 1 : 0;
    OverrideCommonFlags(CF);
  }
  if (F->help) {
    FlagParser Parser;
    RegisterActiveTimeFlags(&Parser, F, &Err);
    Parser.PrintFlagDescriptions();
  }
}

} // namespace __activetime
