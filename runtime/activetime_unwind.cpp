//===- activetime_unwind.cpp - Unwinding a sampled stack --------*- C++ -*-===//
//
// See activetime_unwind.h. A small .eh_frame interpreter: the FDE of an
// address is found through the object's .eh_frame_hdr binary-search table,
// its CIE's and its own call-frame instructions are run up to the address,
// and the resulting CFA (rsp or rbp + offset), return-address and rbp rules
// give the caller's frame. x86-64 only (the DWARF register numbers below).
//
//===----------------------------------------------------------------------===//

#include "activetime_unwind.h"

#include "activetime_code_segments.h"

#include <link.h>

namespace __activetime {

namespace {

constexpr int kRegBp = 6, kRegSp = 7, kRegRa = 16;
constexpr int kMaxFrames = 32;
constexpr int kMaxStates = 8;

// DW_EH_PE_* pointer encodings.
enum : u8 {
  PE_absptr = 0x00, PE_uleb128 = 0x01, PE_udata2 = 0x02, PE_udata4 = 0x03,
  PE_udata8 = 0x04, PE_sleb128 = 0x09, PE_sdata2 = 0x0a, PE_sdata4 = 0x0b,
  PE_sdata8 = 0x0c, PE_pcrel = 0x10, PE_datarel = 0x30, PE_indirect = 0x80,
  PE_omit = 0xff,
};

struct Reader {
  const u8 *P, *End;
  bool Ok = true;
  u8 U8() {
    if (P >= End)
      return Ok = false, 0;
    return *P++;
  }
  u64 Fixed(int N) {
    if (End - P < N)
      return Ok = false, 0;
    u64 V = 0;
    for (int I = 0; I < N; ++I)
      V |= u64(P[I]) << (8 * I);
    P += N;
    return V;
  }
  u64 Uleb() {
    u64 V = 0;
    for (int Shift = 0; Ok && Shift < 64; Shift += 7) {
      u8 B = U8();
      V |= u64(B & 0x7f) << Shift;
      if (!(B & 0x80))
        return V;
    }
    return Ok = false, 0;
  }
  s64 Sleb() {
    s64 V = 0;
    int Shift = 0;
    u8 B;
    do {
      B = U8();
      V |= s64(B & 0x7f) << Shift;
      Shift += 7;
    } while (Ok && (B & 0x80) && Shift < 64);
    if (Shift < 64 && (B & 0x40))
      V |= -(s64(1) << Shift);
    return V;
  }
  // An encoded pointer; DataBase for DW_EH_PE_datarel.
  uptr Ptr(u8 Enc, uptr DataBase = 0) {
    if (Enc == PE_omit)
      return 0;
    uptr Here = uptr(P), V;
    switch (Enc & 0x0f) {
    case PE_absptr: V = uptr(Fixed(8)); break;
    case PE_uleb128: V = uptr(Uleb()); break;
    case PE_udata2: V = uptr(Fixed(2)); break;
    case PE_udata4: V = uptr(Fixed(4)); break;
    case PE_udata8: V = uptr(Fixed(8)); break;
    case PE_sleb128: V = uptr(Sleb()); break;
    case PE_sdata2: V = uptr(s64(s16(Fixed(2)))); break;
    case PE_sdata4: V = uptr(s64(s32(Fixed(4)))); break;
    case PE_sdata8: V = uptr(Fixed(8)); break;
    default: return Ok = false, 0;
    }
    switch (Enc & 0x70) {
    case 0: break;
    case PE_pcrel: V += Here; break;
    case PE_datarel: V += DataBase; break;
    default: return Ok = false, 0;
    }
    if (Enc & PE_indirect)
      V = *(const uptr *)V; // a GOT slot of the object itself
    return V;
  }
};

// The objects' code ranges and search tables, found with dl_iterate_phdr
// when an address is first met. Used only under the loader's lock (see
// UnwindToProgram), which also keeps the objects mapped.
struct EhObject {
  uptr Begin, End;  // an executable PT_LOAD segment
  const u8 *Hdr;    // its object's .eh_frame_hdr
};
constexpr u32 kMaxObjects = 512;
EhObject objects[kMaxObjects];
u32 num_objects;

int AddObject(struct dl_phdr_info *Info, size_t, void *) {
  const u8 *Hdr = nullptr;
  for (int I = 0; I < Info->dlpi_phnum; ++I)
    if (Info->dlpi_phdr[I].p_type == PT_GNU_EH_FRAME)
      Hdr = (const u8 *)(Info->dlpi_addr + Info->dlpi_phdr[I].p_vaddr);
  if (!Hdr)
    return 0;
  ForEachCodeSegment(Info, [Hdr](uptr B, uptr E) {
    bool Known = false;
    for (u32 J = 0; J < num_objects; ++J)
      Known |= objects[J].Begin == B && objects[J].End == E;
    if (!Known && num_objects < kMaxObjects)
      objects[num_objects++] = {B, E, Hdr};
  });
  return 0;
}

const EhObject *FindObject(uptr Pc) {
  for (int Pass = 0; Pass < 2; ++Pass) {
    for (u32 I = 0; I < num_objects; ++I)
      if (Pc >= objects[I].Begin && Pc < objects[I].End)
        return &objects[I];
    if (Pass == 0)
      dl_iterate_phdr(AddObject, nullptr); // a library loaded since (nests)
  }
  return nullptr;
}

// The FDE covering Pc from the object's binary-search table (the usual
// encodings only: udata4 count, datarel|sdata4 entries).
const u8 *FindFde(const EhObject &O, uptr Pc) {
  const u8 *H = O.Hdr;
  if (H[0] != 1 || H[2] != PE_udata4 || H[3] != (PE_datarel | PE_sdata4))
    return nullptr;
  Reader R = {H + 4, H + 4 + 16};
  R.Ptr(H[1], uptr(H)); // eh_frame_ptr
  u64 Count = R.Fixed(4);
  if (!R.Ok || !Count)
    return nullptr;
  const s32 *Table = (const s32 *)R.P;
  u64 Lo = 0, Hi = Count;
  while (Hi - Lo > 1) {
    u64 Mid = (Lo + Hi) / 2;
    if (uptr(H) + uptr(s64(Table[2 * Mid])) <= Pc)
      Lo = Mid;
    else
      Hi = Mid;
  }
  if (uptr(H) + uptr(s64(Table[2 * Lo])) > Pc)
    return nullptr;
  return (const u8 *)(uptr(H) + uptr(s64(Table[2 * Lo + 1])));
}

// The rules that matter for the caller's frame.
struct Rules {
  int CfaReg = kRegSp;
  s64 CfaOff = 8;
  bool RaSaved = false;
  s64 RaOff = 0;
  bool BpSaved = false;
  s64 BpOff = 0;
};

struct Cie {
  u64 CodeAlign = 1;
  s64 DataAlign = -8;
  u8 FdeEnc = PE_absptr;
  bool HasAug = false;
  const u8 *Insns = nullptr, *End = nullptr;
};

bool ParseCie(const u8 *P, Cie *C) {
  Reader R = {P, P + 16};
  u64 Len = R.Fixed(4);
  if (Len == 0xffffffff || !R.Ok)
    return false;
  R.End = P + 4 + Len;
  if (R.Fixed(4) != 0) // CIE id
    return false;
  u8 Version = R.U8();
  const char *Aug = (const char *)R.P;
  while (R.Ok && R.U8())
    ;
  C->CodeAlign = R.Uleb();
  C->DataAlign = R.Sleb();
  if (Version == 1)
    R.U8();
  else
    R.Uleb();
  if (Aug[0] == 'z') {
    u64 AugLen = R.Uleb();
    const u8 *AugEnd = R.P + AugLen;
    C->HasAug = true;
    for (const char *A = Aug + 1; *A && R.Ok; ++A) {
      if (*A == 'R')
        C->FdeEnc = R.U8();
      else if (*A == 'P')
        R.Ptr(R.U8());
      else if (*A == 'L')
        R.U8();
      else if (*A != 'S' && *A != 'B')
        return false;
    }
    R.P = AugEnd;
  } else if (Aug[0]) {
    return false;
  }
  C->Insns = R.P;
  C->End = R.End;
  return R.Ok;
}

// Runs call-frame instructions from location Loc up to Target, keeping
// the rules that matter (Cur). Initial: the CIE's rules, which restore
// returns to (Cur itself while the CIE's own instructions run).
class CfaMachine {
public:
  enum Step { Continue, Reached, Fail };

  CfaMachine(const u8 *P, const u8 *End, const Cie &C, uptr Loc, uptr Target,
             Rules &Cur, const Rules &Initial)
      : R{P, End}, C(C), Loc(Loc), Target(Target), Cur(Cur),
        Initial(Initial) {}

  bool Run() {
    while (R.Ok && R.P < R.End) {
      u8 Op = R.U8();
      Step S = (Op & 0xc0) ? Primary(Op) : Extended(Op);
      if (S != Continue)
        return S == Reached;
    }
    return R.Ok;
  }

private:
  Step Advance(u64 Delta) {
    Loc += Delta * C.CodeAlign;
    return Loc > Target ? Reached : Continue;
  }

  void SetOffset(u64 Reg, s64 Off) {
    if (Reg == kRegRa) {
      Cur.RaSaved = true;
      Cur.RaOff = Off;
    } else if (Reg == kRegBp) {
      Cur.BpSaved = true;
      Cur.BpOff = Off;
    }
  }

  void Restore(u64 Reg) {
    if (Reg == kRegRa) {
      Cur.RaSaved = Initial.RaSaved;
      Cur.RaOff = Initial.RaOff;
    } else if (Reg == kRegBp) {
      Cur.BpSaved = Initial.BpSaved;
      Cur.BpOff = Initial.BpOff;
    }
  }

  // The opcodes with an operand in their low 6 bits.
  Step Primary(u8 Op) {
    u8 Lo = Op & 0x3f;
    switch (Op & 0xc0) {
    case 0x40: return Advance(Lo);                                  // advance_loc
    case 0x80: SetOffset(Lo, s64(R.Uleb()) * C.DataAlign); break;   // offset
    default: Restore(Lo); break;                                    // restore
    }
    return Continue;
  }

  // A rule for Reg the unwinder cannot follow (an expression, another
  // register): fatal only for the return address and rbp.
  Step Unfollowable(u64 Reg) {
    return Reg == kRegRa || Reg == kRegBp ? Fail : Continue;
  }

  Step Extended(u8 Op) {
    u64 Reg;
    switch (Op) {
    case 0x00: return Continue;                                     // nop
    case 0x01:                                                      // set_loc
      Loc = R.Ptr(C.FdeEnc);
      return Loc > Target ? Reached : Continue;
    case 0x02: return AdvanceNonZero(R.Fixed(1));                   // advance_loc1
    case 0x03: return AdvanceNonZero(R.Fixed(2));                   // advance_loc2
    case 0x04: return AdvanceNonZero(R.Fixed(4));                   // advance_loc4
    case 0x05:                                                      // offset_extended
      Reg = R.Uleb();
      SetOffset(Reg, s64(R.Uleb()) * C.DataAlign);
      return Continue;
    case 0x06: Restore(R.Uleb()); return Continue;                  // restore_extended
    case 0x07: case 0x08:                                           // undefined, same_value
      Reg = R.Uleb();
      if (Reg == kRegRa)
        return Fail;
      if (Reg == kRegBp)
        Cur.BpSaved = false;
      return Continue;
    case 0x09:                                                      // register
      Reg = R.Uleb();
      R.Uleb();
      return Unfollowable(Reg);
    case 0x0a: case 0x0b: return StateOp(Op);
    case 0x0f: return Fail;                                         // def_cfa_expression
    case 0x10: case 0x16:                                           // (val_)expression
      Reg = R.Uleb();
      R.P += R.Uleb();
      return Unfollowable(Reg);
    case 0x11:                                                      // offset_extended_sf
      Reg = R.Uleb();
      SetOffset(Reg, R.Sleb() * C.DataAlign);
      return Continue;
    case 0x14: case 0x15:                                           // val_offset(_sf)
      Reg = R.Uleb();
      Op == 0x14 ? (void)R.Uleb() : (void)R.Sleb();
      return Unfollowable(Reg);
    case 0x2e: R.Uleb(); return Continue;                           // GNU_args_size
    case 0x2f:                                                      // GNU_negative_offset_extended
      Reg = R.Uleb();
      SetOffset(Reg, -s64(R.Uleb()) * C.DataAlign);
      return Continue;
    default: return CfaOp(Op);
    }
  }

  // advance_loc1/2/4: a zero delta does not move (nor check) the location.
  Step AdvanceNonZero(u64 Delta) { return Delta ? Advance(Delta) : Continue; }

  // remember_state, restore_state.
  Step StateOp(u8 Op) {
    if (Op == 0x0a) {
      if (Depth == kMaxStates)
        return Fail;
      State[Depth++] = Cur;
    } else {
      if (!Depth)
        return Fail;
      Cur = State[--Depth];
    }
    return Continue;
  }

  // The CFA definitions (def_cfa, _register, _offset, and their _sf forms);
  // anything else is unknown: fail.
  Step CfaOp(u8 Op) {
    switch (Op) {
    case 0x0c: Cur.CfaReg = int(R.Uleb()); Cur.CfaOff = s64(R.Uleb()); break;
    case 0x0d: Cur.CfaReg = int(R.Uleb()); break;
    case 0x0e: Cur.CfaOff = s64(R.Uleb()); break;
    case 0x12: Cur.CfaReg = int(R.Uleb()); Cur.CfaOff = R.Sleb() * C.DataAlign; break;
    case 0x13: Cur.CfaOff = R.Sleb() * C.DataAlign; break;
    default: return Fail;
    }
    return Continue;
  }

  Reader R;
  const Cie &C;
  uptr Loc, Target;
  Rules &Cur;
  const Rules &Initial;
  Rules State[kMaxStates];
  int Depth = 0;
};

// Runs call-frame instructions [P, End) from location Loc up to Target.
bool Run(const u8 *P, const u8 *End, const Cie &C, uptr Loc, uptr Target,
         Rules *Out, const Rules &Initial) {
  return CfaMachine(P, End, C, Loc, Target, *Out, Initial).Run();
}

// The rules at Pc (Return: Pc is a return address, the call is before it).
bool RulesAt(uptr Pc, bool Return, Rules *Out) {
  uptr Target = Return ? Pc - 1 : Pc;
  const EhObject *O = FindObject(Target);
  const u8 *Fde = O ? FindFde(*O, Target) : nullptr;
  if (!Fde)
    return false;
  Reader R = {Fde, Fde + 8};
  u64 Len = R.Fixed(4);
  if (!R.Ok || Len == 0 || Len == 0xffffffff)
    return false;
  const u8 *End = Fde + 4 + Len;
  R.End = End;
  const u8 *IdPos = R.P;
  u64 CieOff = R.Fixed(4);
  Cie C;
  if (!CieOff || !ParseCie(IdPos - CieOff, &C))
    return false;
  uptr Begin = R.Ptr(C.FdeEnc);
  uptr Range = R.Ptr(C.FdeEnc & 0x0f);
  if (!R.Ok || Target < Begin || Target >= Begin + Range)
    return false;
  if (C.HasAug)
    R.P += R.Uleb();
  Rules Initial;
  if (!Run(C.Insns, C.End, C, Begin, ~uptr(0), &Initial, Initial))
    return false;
  *Out = Initial;
  return Run(R.P, End, C, Begin, Target, Out, Initial) &&
         (Out->CfaReg == kRegSp || Out->CfaReg == kRegBp) && Out->RaSaved;
}
} // namespace

uptr UnwindToProgram(const SampledStack &S, bool (*InProgram)(uptr)) {
  uptr Pc = S.Ip, Sp = S.Sp, Bp = S.Bp;
  for (int I = 0; I < kMaxFrames; ++I) {
    Rules Ru;
    if (!RulesAt(Pc, I > 0, &Ru))
      return 0;
    uptr Cfa = (Ru.CfaReg == kRegSp ? Sp : Bp) + uptr(Ru.CfaOff);
    uptr Ra;
    if (!S.Read(S.Ctx, Cfa + uptr(Ru.RaOff), &Ra) || !Ra)
      return 0;
    if (Ru.BpSaved && !S.Read(S.Ctx, Cfa + uptr(Ru.BpOff), &Bp))
      return 0;
    if (InProgram(Ra))
      return Ra;
    if (Cfa <= Sp)
      return 0; // not making progress up the stack
    Pc = Ra;
    Sp = Cfa;
  }
  return 0;
}

void ForgetUnwindObjects() { num_objects = 0; }

namespace {
struct StepQuery {
  uptr Ip;
  bool Return, Found;
  Rules Ru;
};

int RulesUnderLoaderLock(struct dl_phdr_info *, size_t, void *Arg) {
  StepQuery &Q = *(StepQuery *)Arg;
  Q.Found = RulesAt(Q.Ip, Q.Return, &Q.Ru);
  return 1;
}
} // namespace

bool UnwindStepForTesting(uptr Ip, bool Return, uptr Sp, uptr Bp, uptr *Cfa,
                          int *RaOffset, bool *BpSaved, int *BpOffset) {
  StepQuery Q = {Ip, Return, false, {}};
  dl_iterate_phdr(RulesUnderLoaderLock, &Q);
  if (!Q.Found)
    return false;
  const Rules &Ru = Q.Ru;
  *Cfa = (Ru.CfaReg == kRegSp ? Sp : Bp) + uptr(Ru.CfaOff);
  *RaOffset = int(Ru.RaOff);
  *BpSaved = Ru.BpSaved;
  *BpOffset = int(Ru.BpOff);
  return true;
}

} // namespace __activetime
