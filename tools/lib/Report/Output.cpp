//===- Output.cpp - Writing an output file --------------------------------===//
//
// Part of ActiveTime. See activetime/Report/Output.h.
//
//===----------------------------------------------------------------------===//

#include "activetime/Report/Output.h"

#include "activetime/Profile/OutputFile.h"

using namespace llvm;

Error activetime::report::writeOutputFile(
    StringRef Path, function_ref<Error(raw_ostream &)> Write) {
  return profile::writeFileAtomically(Path, Write);
}
