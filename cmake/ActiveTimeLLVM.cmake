#===- ActiveTimeLLVM.cmake - find LLVM/Clang 19 or 22 ----------------------===#
# Finds LLVM and Clang through their CMake packages and the test tools (lit,
# FileCheck) that llvm-N-tools installs. ACTIVETIME_LLVM_VERSION (cache
# variable, seeded from the environment variable of the same name) selects
# the major version: 19 (default) or 22. API differences between them live in
# include/activetime/llvm_compat.h; any other major is a configuration error.

set(ACTIVETIME_SUPPORTED_LLVM_MAJORS 19 22)
if(DEFINED ENV{ACTIVETIME_LLVM_VERSION} AND NOT "$ENV{ACTIVETIME_LLVM_VERSION}" STREQUAL "")
  set(_at_llvm_default "$ENV{ACTIVETIME_LLVM_VERSION}")
else()
  set(_at_llvm_default 19)
endif()
set(ACTIVETIME_LLVM_VERSION ${_at_llvm_default} CACHE STRING
    "LLVM/Clang major version to build against (19 or 22)")
set_property(CACHE ACTIVETIME_LLVM_VERSION PROPERTY STRINGS ${ACTIVETIME_SUPPORTED_LLVM_MAJORS})
if(NOT ACTIVETIME_LLVM_VERSION IN_LIST ACTIVETIME_SUPPORTED_LLVM_MAJORS)
  message(FATAL_ERROR "ACTIVETIME_LLVM_VERSION=${ACTIVETIME_LLVM_VERSION}: ActiveTime supports "
                      "LLVM 19 and 22 only.")
endif()
set(ACTIVETIME_LLVM_MAJOR ${ACTIVETIME_LLVM_VERSION})
if(NOT LLVM_DIR AND EXISTS /usr/lib/llvm-${ACTIVETIME_LLVM_MAJOR}/lib/cmake/llvm)
  set(LLVM_DIR /usr/lib/llvm-${ACTIVETIME_LLVM_MAJOR}/lib/cmake/llvm)
endif()
find_package(LLVM CONFIG)
if(NOT LLVM_FOUND)
  message(FATAL_ERROR "ActiveTime needs LLVM ${ACTIVETIME_LLVM_MAJOR} (Debian: llvm-${ACTIVETIME_LLVM_MAJOR}-dev); "
                      "none found. Run scripts/install-deps.sh or set LLVM_DIR.")
endif()
if(NOT LLVM_VERSION_MAJOR EQUAL ACTIVETIME_LLVM_MAJOR)
  message(FATAL_ERROR "ActiveTime needs LLVM ${ACTIVETIME_LLVM_MAJOR}, but LLVM_DIR=${LLVM_DIR} is LLVM "
                      "${LLVM_PACKAGE_VERSION}. Point LLVM_DIR at an LLVM ${ACTIVETIME_LLVM_MAJOR} installation.")
endif()
if(NOT Clang_DIR AND EXISTS ${LLVM_INSTALL_PREFIX}/lib/cmake/clang)
  set(Clang_DIR ${LLVM_INSTALL_PREFIX}/lib/cmake/clang)
endif()
find_package(Clang CONFIG REQUIRED)
message(STATUS "ActiveTime: LLVM ${LLVM_PACKAGE_VERSION} in ${LLVM_INSTALL_PREFIX}")

set(ACTIVETIME_LLVM_BIN ${LLVM_TOOLS_BINARY_DIR})
find_program(ACTIVETIME_CLANG NAMES clang-${ACTIVETIME_LLVM_MAJOR} clang HINTS ${ACTIVETIME_LLVM_BIN} NO_DEFAULT_PATH)
find_program(ACTIVETIME_CLANGXX NAMES clang++-${ACTIVETIME_LLVM_MAJOR} clang++ HINTS ${ACTIVETIME_LLVM_BIN} NO_DEFAULT_PATH)
find_program(ACTIVETIME_OPT NAMES opt HINTS ${ACTIVETIME_LLVM_BIN} NO_DEFAULT_PATH)
find_program(ACTIVETIME_FILECHECK NAMES FileCheck HINTS ${ACTIVETIME_LLVM_BIN} NO_DEFAULT_PATH)
find_program(ACTIVETIME_LLVM_NM NAMES llvm-nm HINTS ${ACTIVETIME_LLVM_BIN} NO_DEFAULT_PATH)
find_program(ACTIVETIME_LLVM_OBJCOPY NAMES llvm-objcopy HINTS ${ACTIVETIME_LLVM_BIN} NO_DEFAULT_PATH)
find_program(ACTIVETIME_LIT NAMES lit.py llvm-lit lit
             HINTS ${LLVM_INSTALL_PREFIX}/build/utils/lit ${ACTIVETIME_LLVM_BIN} NO_DEFAULT_PATH)
find_package(Python3 COMPONENTS Interpreter REQUIRED)

list(APPEND CMAKE_MODULE_PATH ${LLVM_CMAKE_DIR})
include(AddLLVM)
include_directories(SYSTEM ${LLVM_INCLUDE_DIRS})
separate_arguments(ACTIVETIME_LLVM_DEFINITIONS NATIVE_COMMAND ${LLVM_DEFINITIONS})
add_definitions(${ACTIVETIME_LLVM_DEFINITIONS})
