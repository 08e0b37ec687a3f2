//===- RawMapping.cpp - Mappings registered by their sections' files ------===//
//
// Part of ActiveTime. See activetime/Profile/RawMapping.h.
//
//===----------------------------------------------------------------------===//

#include "activetime/Profile/RawMapping.h"

using namespace llvm;
using namespace activetime::profile;

/// Constant-initialized: the registrations are static objects of other
/// files, built in any order.
static const MappedRecord *RegisteredMappings = nullptr;

MappedRecord::MappedRecord(const char *Name, std::string (*Coverage)())
    : Name(Name), Coverage(Coverage), Next(RegisteredMappings) {
  RegisteredMappings = this;
}

const MappedRecord *MappedRecord::find(StringRef Name) {
  for (const MappedRecord *R = RegisteredMappings; R; R = R->Next)
    if (Name == R->Name)
      return R;
  return nullptr;
}
