//===- Output.cpp - Writing an output file --------------------------------===//
//
// Part of ActiveTime. See activetime/Report/Output.h.
//
//===----------------------------------------------------------------------===//

#include "activetime/Report/Output.h"

#include "llvm/Support/raw_ostream.h"

using namespace llvm;

Error activetime::report::writeOutputFile(
    StringRef Path, function_ref<Error(raw_ostream &)> Write) {
  // writeToOutput returns the writer's error and its own file errors alike;
  // keep the writer's apart so that only the file's get the path.
  Error WriterError = Error::success();
  Error OutputError = writeToOutput(Path, [&](raw_ostream &OS) -> Error {
    if (Error E = Write(OS)) {
      consumeError(std::move(WriterError));
      WriterError = std::move(E);
      return createStringError(inconvertibleErrorCode(), "writer failed");
    }
    return Error::success();
  });
  if (WriterError) {
    consumeError(std::move(OutputError));
    return WriterError;
  }
  // Creating the temporary file fails with a FileError that names the
  // path; renaming it into place (TempFile::keep) does not.
  return handleErrors(
      std::move(OutputError),
      [](std::unique_ptr<llvm::FileError> FE) -> Error {
        return Error(std::move(FE));
      },
      [&](const ErrorInfoBase &EI) -> Error {
        return createStringError(EI.convertToErrorCode(),
                                 Path + ": " + EI.message());
      });
}
