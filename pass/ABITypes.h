//===- ABITypes.h - IR types of the pass <-> runtime tables -----*- C++ -*-===//
//
// Part of ActiveTime.
//
//===----------------------------------------------------------------------===//
//
// The descriptors of include/activetime/abi.h as the pass emits them: their
// IR struct types, the indices of their fields, and a builder of their
// initializers that sets fields by name. All three expand the field lists of
// include/activetime/ABIData.inc, which also define the runtime's C structs;
// unittests/pass/ABILayoutTest.cpp checks that the layouts agree.
//
//===----------------------------------------------------------------------===//

#ifndef ACTIVETIME_PASS_ABITYPES_H
#define ACTIVETIME_PASS_ABITYPES_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/Casting.h"

#include <cassert>
#include <cstdint>

namespace activetime {
namespace abi {

// Field indices, for GEPs into a descriptor and for DescInitializer. A
// namespace per descriptor keeps the names short (FuncDescField::Line) and
// each descriptor's indices a type of their own: <Desc>Field::Index.
#define ACTIVETIME_DESC_BEGIN(Desc)                                            \
  namespace Desc##Field {                                                      \
  enum Index : unsigned {
#define ACTIVETIME_DESC_FIELD(Type, LLVMType, Name) Name,
#define ACTIVETIME_DESC_END(Desc)                                              \
  NumFields                                                                    \
  }                                                                            \
  ;                                                                            \
  }
#include "activetime/ABIData.inc"

// The IR type of each descriptor, get<Desc>Type(Ctx) (literal, so equal to
// any other module's).
#define ACTIVETIME_DESC_BEGIN(Desc)                                            \
  inline llvm::StructType *get##Desc##Type(llvm::LLVMContext &Ctx) {           \
    llvm::Type *Fields[] = {
#define ACTIVETIME_DESC_FIELD(Type, LLVMType, Name) LLVMType,
#define ACTIVETIME_DESC_END(Desc)                                              \
  }                                                                            \
  ;                                                                            \
  return llvm::StructType::get(Ctx, Fields, /*isPacked=*/false);               \
  }
#include "activetime/ABIData.inc"

/// The initializer of one descriptor of type \p Ty, its fields set by name
/// (\p FieldIndex: FuncDescField::Index, ...). A field left unset is zero:
/// reserved, or written by the runtime.
template <typename FieldIndex> class DescInitializer {
public:
  explicit DescInitializer(llvm::StructType *Ty)
      : Ty(Ty), Fields(Ty->getNumElements(), nullptr) {}

  DescInitializer &set(FieldIndex Field, llvm::Constant *Value) {
    assert(Value->getType() == Ty->getElementType(Field) &&
           "value of another type than the field");
    Fields[Field] = Value;
    return *this;
  }

  /// An integer field; \p IsSigned sign-extends \p Value to a wider field.
  DescInitializer &setInt(FieldIndex Field, uint64_t Value,
                          bool IsSigned = false) {
    auto *IntTy = llvm::cast<llvm::IntegerType>(Ty->getElementType(Field));
    return set(Field, llvm::ConstantInt::get(IntTy, Value, IsSigned));
  }

  llvm::Constant *get() const {
    llvm::SmallVector<llvm::Constant *, 16> Values(Fields.begin(),
                                                   Fields.end());
    for (unsigned I = 0, E = Values.size(); I != E; ++I)
      if (!Values[I])
        Values[I] = llvm::Constant::getNullValue(Ty->getElementType(I));
    return llvm::ConstantStruct::get(Ty, Values);
  }

private:
  llvm::StructType *Ty;
  llvm::SmallVector<llvm::Constant *, 16> Fields;
};

} // namespace abi
} // namespace activetime

#endif // ACTIVETIME_PASS_ABITYPES_H
