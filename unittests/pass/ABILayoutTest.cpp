//===- ABILayoutTest.cpp - The pass's tables as the runtime reads them ----===//
//
// Part of ActiveTime. The IR types the pass emits its descriptors with
// (pass/ABITypes.h) and the C structs the runtime reads them through
// (include/activetime/abi.h) both expand include/activetime/ABIData.inc, one
// with each field's LLVM type, the other with its C type. Here they must lay
// out alike: the data layout's size, alignment and field offsets of each IR
// type are the host compiler's sizeof, alignof and offsetof, and the pass's
// named field index of each field reaches the C field of that name.
//
//===----------------------------------------------------------------------===//

#include "ABITypes.h"
#include "activetime/abi.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/LLVMContext.h"

#include "gtest/gtest.h"

#include <cstddef>
#include <iterator>

namespace atabi = activetime::abi;
using namespace llvm;

namespace {

/// One field of a descriptor: the pass's index of it and where the host
/// compiler put the C field of the same name.
struct CField {
  const char *Name;
  unsigned Index;
  size_t Offset;
  size_t Size;
  size_t Alignment;
};

// The data layout clang gives x86_64-linux-gnu (as in the lit tests' IR).
constexpr char kX86_64DataLayout[] =
    "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:"
    "64-S128";

void expectSameLayout(StructType *Ty, size_t Size, size_t Alignment,
                      ArrayRef<CField> Fields) {
  DataLayout DL(kX86_64DataLayout);
  const StructLayout *SL = DL.getStructLayout(Ty);
  EXPECT_EQ(SL->getSizeInBytes().getFixedValue(), Size);
  EXPECT_EQ(SL->getAlignment().value(), Alignment);
  ASSERT_EQ(Ty->getNumElements(), Fields.size());
  for (const CField &F : Fields) {
    SCOPED_TRACE(F.Name);
    ASSERT_LT(F.Index, Ty->getNumElements());
    Type *FieldTy = Ty->getElementType(F.Index);
    EXPECT_EQ(SL->getElementOffset(F.Index).getFixedValue(), F.Offset);
    EXPECT_EQ(DL.getTypeAllocSize(FieldTy).getFixedValue(), F.Size);
    EXPECT_EQ(DL.getABITypeAlign(FieldTy).value(), F.Alignment);
  }
}

#define ACTIVETIME_C_FIELD(Struct, Name)                                       \
  {#Name, atabi::Struct##Field::Name, offsetof(atabi::Struct, Name),           \
   sizeof(atabi::Struct::Name), alignof(decltype(atabi::Struct::Name))},

TEST(ABILayoutTest, FuncDesc) {
#if !defined(__x86_64__)
  GTEST_SKIP() << "the expected layout is x86-64's";
#endif
  LLVMContext Ctx;
  const CField Fields[] = {
#define ACTIVETIME_FUNC_DESC_FIELD(Type, LLVMType, Name)                       \
  ACTIVETIME_C_FIELD(FuncDesc, Name)
#include "activetime/ABIData.inc"
  };
  EXPECT_EQ(std::size(Fields), size_t(atabi::FuncDescField::NumFields));
  expectSameLayout(atabi::getFuncDescType(Ctx), sizeof(atabi::FuncDesc),
                   alignof(atabi::FuncDesc), Fields);
}

TEST(ABILayoutTest, MemSiteDesc) {
#if !defined(__x86_64__)
  GTEST_SKIP() << "the expected layout is x86-64's";
#endif
  LLVMContext Ctx;
  const CField Fields[] = {
#define ACTIVETIME_MEM_SITE_DESC_FIELD(Type, LLVMType, Name)                   \
  ACTIVETIME_C_FIELD(MemSiteDesc, Name)
#include "activetime/ABIData.inc"
  };
  EXPECT_EQ(std::size(Fields), size_t(atabi::MemSiteDescField::NumFields));
  expectSameLayout(atabi::getMemSiteDescType(Ctx), sizeof(atabi::MemSiteDesc),
                   alignof(atabi::MemSiteDesc), Fields);
}

TEST(ABILayoutTest, ModuleDesc) {
#if !defined(__x86_64__)
  GTEST_SKIP() << "the expected layout is x86-64's";
#endif
  LLVMContext Ctx;
  const CField Fields[] = {
#define ACTIVETIME_MODULE_DESC_FIELD(Type, LLVMType, Name)                     \
  ACTIVETIME_C_FIELD(ModuleDesc, Name)
#include "activetime/ABIData.inc"
  };
  EXPECT_EQ(std::size(Fields), size_t(atabi::ModuleDescField::NumFields));
  expectSameLayout(atabi::getModuleDescType(Ctx), sizeof(atabi::ModuleDesc),
                   alignof(atabi::ModuleDesc), Fields);
}

TEST(ABILayoutTest, BlockCountsDesc) {
#if !defined(__x86_64__)
  GTEST_SKIP() << "the expected layout is x86-64's";
#endif
  LLVMContext Ctx;
  const CField Fields[] = {
#define ACTIVETIME_BLOCK_COUNTS_DESC_FIELD(Type, LLVMType, Name)               \
  ACTIVETIME_C_FIELD(BlockCountsDesc, Name)
#include "activetime/ABIData.inc"
  };
  EXPECT_EQ(std::size(Fields), size_t(atabi::BlockCountsDescField::NumFields));
  expectSameLayout(atabi::getBlockCountsDescType(Ctx),
                   sizeof(atabi::BlockCountsDesc),
                   alignof(atabi::BlockCountsDesc), Fields);
}

TEST(ABILayoutTest, ThreadCountersEntry) {
#if !defined(__x86_64__)
  GTEST_SKIP() << "the expected layout is x86-64's";
#endif
  LLVMContext Ctx;
  const CField Fields[] = {
#define ACTIVETIME_THREAD_COUNTERS_FIELD(Type, LLVMType, Name)                 \
  ACTIVETIME_C_FIELD(ThreadCountersEntry, Name)
#include "activetime/ABIData.inc"
  };
  EXPECT_EQ(std::size(Fields), size_t(atabi::ThreadCountersEntryField::NumFields));
  expectSameLayout(atabi::getThreadCountersEntryType(Ctx),
                   sizeof(atabi::ThreadCountersEntry),
                   alignof(atabi::ThreadCountersEntry), Fields);
}

#undef ACTIVETIME_C_FIELD

} // namespace
