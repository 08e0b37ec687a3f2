#===- test/integration/projects.py - third-party projects -----------------===#
#
# Part of ActiveTime. Fetches Debian 12 source packages (cached), unpacks them
# with the Debian patches applied and builds them with a given compiler and
# flags, each build cached under a key of source + toolchain + flags.
# Shared by the integration test (run.py here), bench/overhead, bench/truth
# and bench/corpus.
#
#===----------------------------------------------------------------------===#

import concurrent.futures
import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time

SRC_CACHE = os.environ.get("ACTIVETIME_SRC_CACHE", "/var/cache/activetime/src")
# The plain builds use the same clang as the build under test
# (ACTIVETIME_LLVM_VERSION, set by test/CMakeLists.txt; 19 by default).
LLVM_VERSION = os.environ.get("ACTIVETIME_LLVM_VERSION") or "19"
CLANG = "clang-" + LLVM_VERSION
CLANGXX = "clang++-" + LLVM_VERSION


def log(msg):
    print("[integration] " + msg, flush=True)


def run(cmd, cwd=None, env=None, stdout=None, stdin=None, check=True):
    r = subprocess.run(cmd, cwd=cwd, env=env, stdout=stdout, stdin=stdin,
                       stderr=subprocess.PIPE)
    if check and r.returncode != 0:
        err = r.stderr.decode(errors="replace")[-3000:] if r.stderr else ""
        raise RuntimeError("command failed (%d): %s\n%s" % (r.returncode, " ".join(cmd), err))
    return r


def fetch(package):
    """The .dsc of `package` in SRC_CACHE, downloaded with apt-get when missing."""
    dscs = sorted(glob.glob(os.path.join(SRC_CACHE, package + "_*.dsc")))
    if not dscs:
        log("downloading source package %s into %s" % (package, SRC_CACHE))
        os.makedirs(SRC_CACHE, exist_ok=True)
        run(["apt-get", "source", "--download-only", "-qq", package], cwd=SRC_CACHE)
        dscs = sorted(glob.glob(os.path.join(SRC_CACHE, package + "_*.dsc")))
        if not dscs:
            raise RuntimeError("apt-get source %s left no .dsc in %s" % (package, SRC_CACHE))
    return dscs[-1]


def file_hash(h, path):
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)


def source_key(dsc):
    """Hash of the .dsc and every file it lists (the sources and patches)."""
    h = hashlib.sha256()
    file_hash(h, dsc)
    d = os.path.dirname(dsc)
    base = os.path.basename(dsc).rsplit("_", 1)[0]
    for f in sorted(glob.glob(os.path.join(d, base + "_*"))):
        if f != dsc and not f.endswith(".dsc"):
            file_hash(h, f)
    return h.hexdigest()[:16]


def toolchain_key(build_dir, instrumented):
    h = hashlib.sha256()
    h.update(subprocess.run([CLANG, "--version"], stdout=subprocess.PIPE).stdout)
    if instrumented:
        for f in ("lib/ActiveTime.so", "lib/ActiveTimeClang.so", "lib/libactivetime_rt.a",
                  "bin/activetime-clang", "bin/activetime-clang++"):
            file_hash(h, os.path.join(build_dir, f))
    return h.hexdigest()[:16]


def unpack(dsc, dest):
    if os.path.exists(dest):
        shutil.rmtree(dest)
    run(["dpkg-source", "--no-check", "--no-copy", "-x", dsc, dest], stdout=subprocess.DEVNULL)


def compile_sources(cc, flags, sources, objdir, jobs):
    os.makedirs(objdir, exist_ok=True)

    def one(src):
        obj = os.path.join(objdir, os.path.splitext(os.path.basename(src))[0] + ".o")
        run(list(cc) + flags + ["-c", src, "-o", obj])
        return obj

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        return list(ex.map(one, sources))


class Variant:
    """How to compile: a C and a C++ compiler command and flags.
    `link_extra` objects/flags go after the inputs at link time (e.g. the
    empty hooks object); `instrumented` says whether our toolchain is in the
    key."""

    def __init__(self, name, cc, cxx, cflags, ldflags=(), link_extra=(), instrumented=False,
                 key_files=()):
        self.name = name
        self.cc = list(cc)
        self.cxx = list(cxx)
        self.cflags = list(cflags)
        self.ldflags = list(ldflags)
        self.link_extra = list(link_extra)
        self.instrumented = instrumented
        self.key_files = list(key_files)
        self.tool_dir = None  # the ActiveTime build whose toolchain this uses

    def key(self, build_dir):
        h = hashlib.sha256()
        h.update(repr((self.cc, self.cxx, self.cflags, self.ldflags)).encode())
        for f in self.key_files + [x for x in self.link_extra if os.path.isfile(x)]:
            file_hash(h, f)
        h.update(toolchain_key(self.tool_dir or build_dir, self.instrumented).encode())
        return h.hexdigest()[:16]


def plain_variant():
    return Variant("plain", [CLANG], [CLANGXX], ["-O2", "-g"])


def activetime_variant(build_dir, extra=()):
    v = Variant("activetime" + "".join(e for e in extra if e != "-mllvm").replace("-activetime", ""),
                [os.path.join(build_dir, "bin", "activetime-clang")],
                [os.path.join(build_dir, "bin", "activetime-clang++")],
                ["-O2", "-g"] + list(extra), instrumented=True)
    v.tool_dir = build_dir
    return v


# --- the projects ----------------------------------------------------------
# Each build function gets the unpacked source tree, the variant and the job
# count, builds in place and returns {name: path} of what it produced.

def build_lua(src, v, jobs):
    # Debian's Makefile goes through libtool; the upstream source list is
    # every src/*.c except the compiler luac.c (lua.c holds main).
    s = os.path.join(src, "src")
    sources = sorted(f for f in glob.glob(os.path.join(s, "*.c"))
                     if os.path.basename(f) not in ("luac.c",))
    # Debian's patched luaconf.h includes a header debian/rules generates.
    with open(os.path.join(s, "lua5.4-deb-multiarch.h"), "w") as f:
        f.write('#define DEB_HOST_MULTIARCH "x86_64-linux-gnu"\n')
    flags = v.cflags + ["-std=gnu99", "-DLUA_COMPAT_5_3", "-DLUA_USE_LINUX"]
    objs = compile_sources(v.cc, flags, sources, os.path.join(src, "obj"), jobs)
    exe = os.path.join(src, "lua")
    run(v.cc + v.cflags + v.ldflags + objs + v.link_extra + ["-Wl,-E", "-lm", "-ldl", "-o", exe])
    return {"lua": exe}


ZLIB_LIB = ["adler32", "crc32", "deflate", "infback", "inffast", "inflate", "inftrees",
            "trees", "zutil", "compress", "uncompr", "gzclose", "gzlib", "gzread", "gzwrite"]


def build_zlib(src, v, jobs):
    # zlib's own configure + make (its `teststatic` programs: example, minigzip).
    env = dict(os.environ)
    env["CC"] = " ".join(v.cc)
    env["CFLAGS"] = " ".join(v.cflags)
    env["LDFLAGS"] = " ".join(v.ldflags + v.link_extra)
    run(["./configure", "--static"], cwd=src, env=env, stdout=subprocess.DEVNULL)
    run(["make", "-j%d" % jobs, "example", "minigzip"], cwd=src, env=env,
        stdout=subprocess.DEVNULL)
    return {"example": os.path.join(src, "example"), "minigzip": os.path.join(src, "minigzip")}


def zlib_corpus(work, tree):
    """Deterministic 3 MiB or more of mixed text and binary: zlib's own
    sources and documentation (from the unpacked tree), repeated; made once
    in work."""
    corpus = os.path.join(work, "zlib-corpus")
    if os.path.exists(corpus):
        return corpus
    data = b""
    for pat in ("*.[ch]", "doc/*", "test/*.c", "contrib/*/*"):
        for f in sorted(glob.glob(os.path.join(tree, pat))):
            if os.path.isfile(f) and not f.endswith(".o"):
                with open(f, "rb") as fh:
                    data += fh.read()
    if not data:
        raise RuntimeError("no zlib sources found for the corpus")
    with open(corpus + ".tmp", "wb") as out:
        while out.tell() < 3 << 20:
            out.write(data)
    os.rename(corpus + ".tmp", corpus)
    return corpus


def build_tinyxml2(src, v, jobs, extra_main=None):
    # tinyxml2's Makefile builds xmltest from xmltest.cpp + libtinyxml2.a.
    env = dict(os.environ)
    cxx = " ".join(v.cxx)
    args = ["CXX=" + cxx, "CXXFLAGS=" + " ".join(v.cflags + ["-fPIC"]),
            "LDFLAGS=" + " ".join(v.ldflags), "LDLIBS=" + " ".join(v.link_extra)]
    run(["make", "-j%d" % jobs, "xmltest"] + args, cwd=src, env=env, stdout=subprocess.DEVNULL)
    out = {"xmltest": os.path.join(src, "xmltest")}
    if extra_main:
        exe = os.path.join(src, os.path.splitext(os.path.basename(extra_main))[0])
        run(v.cxx + v.cflags + v.ldflags + ["-I" + src, extra_main,
                                            os.path.join(src, "libtinyxml2.a")] +
            v.link_extra + ["-o", exe])
        out[os.path.basename(exe)] = exe
    return out


def build_sqlite3(src, v, jobs, extra_main=None):
    # The amalgamation (sqlite3.c) and the shell source are generated by the
    # project's own build (tclsh, lemon) with the plain compiler; only those
    # two files are then compiled with the variant, as sqlite's own
    # amalgamation build does.
    bld = os.path.join(src, "amalgamation")
    os.makedirs(bld, exist_ok=True)
    env = dict(os.environ)
    env["CC"] = CLANG
    env["CFLAGS"] = "-O1"
    run(["../configure", "--disable-tcl", "--disable-readline"], cwd=bld, env=env,
        stdout=subprocess.DEVNULL)
    run(["make", "-j%d" % jobs, "sqlite3.c", "shell.c"], cwd=bld, env=env,
        stdout=subprocess.DEVNULL)
    defs = ["-DSQLITE_THREADSAFE=0", "-DSQLITE_OMIT_LOAD_EXTENSION", "-I" + bld]
    objs = compile_sources(v.cc, v.cflags + defs, [os.path.join(bld, "sqlite3.c"),
                                                   os.path.join(bld, "shell.c")],
                           os.path.join(src, "obj"), jobs)
    exe = os.path.join(src, "sqlite3")
    run(v.cc + v.cflags + v.ldflags + objs + v.link_extra + ["-lm", "-o", exe])
    return {"sqlite3": exe}


def build_yaml_cpp(src, v, jobs, extra_main=None):
    # yaml-cpp's library sources (what its CMakeLists globs: src/*.cpp and
    # src/contrib/*.cpp) plus a driver program.
    sources = sorted(glob.glob(os.path.join(src, "src", "*.cpp")) +
                     glob.glob(os.path.join(src, "src", "contrib", "*.cpp")))
    flags = v.cflags + ["-std=c++14", "-I" + os.path.join(src, "include")]
    objs = compile_sources(v.cxx, flags, sources, os.path.join(src, "obj"), jobs)
    out = {}
    if extra_main:
        exe = os.path.join(src, os.path.splitext(os.path.basename(extra_main))[0])
        run(v.cxx + flags + v.ldflags + [extra_main] + objs + v.link_extra + ["-o", exe])
        out[os.path.basename(exe)] = exe
    return out


def cmake_build(src, v, jobs, defs, targets, bld="at-build"):
    """Configures `src` with CMake for variant `v` (its compilers and flags,
    build type None so that only the given flags apply) and builds
    `targets`; returns the build directory. The flags go in through the
    CMAKE_*_FLAGS variables, the compilers through CMAKE_*_COMPILER."""
    b = os.path.join(src, bld)
    flags = " ".join(v.cflags)
    ld = " ".join(v.ldflags + v.link_extra)
    cmd = ["cmake", "-S", src, "-B", b, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=None",
           "-DCMAKE_C_COMPILER=" + v.cc[0], "-DCMAKE_CXX_COMPILER=" + v.cxx[0],
           "-DCMAKE_C_FLAGS=" + flags, "-DCMAKE_CXX_FLAGS=" + flags,
           "-DCMAKE_EXE_LINKER_FLAGS=" + ld, "-DCMAKE_SHARED_LINKER_FLAGS=" + ld]
    run(cmd + ["-D" + d for d in defs], stdout=subprocess.DEVNULL)
    run(["cmake", "--build", b, "-j", str(jobs), "--target"] + list(targets),
        stdout=subprocess.DEVNULL)
    return b


def build_leveldb(src, v, jobs, extra_main=None):
    # db_bench of the static library (upstream builds it only then: it uses
    # internals the shared library hides). Every optional dependency is
    # fixed so that the program is the same on every machine: snappy on (as
    # Debian builds it; libsnappy-dev), crc32c and tcmalloc off. NDEBUG as
    # in Debian's RelWithDebInfo build.
    v = Variant(v.name, v.cc, v.cxx, v.cflags + ["-DNDEBUG"], v.ldflags, v.link_extra)
    b = cmake_build(src, v, jobs, ["LEVELDB_BUILD_TESTS=OFF", "LEVELDB_BUILD_BENCHMARKS=ON",
                                   "LEVELDB_INSTALL=OFF", "BUILD_SHARED_LIBS=OFF",
                                   "HAVE_SNAPPY=1", "HAVE_CRC32C=0", "HAVE_TCMALLOC=0"],
                    ["db_bench"])
    return {"db_bench": os.path.join(b, "db_bench")}


def build_zstd(src, v, jobs, extra_main=None):
    # The zstd command (programs/Makefile, multi-threaded: a compression
    # worker pool and asynchronous I/O threads), the library compiled in;
    # no zlib/lzma/lz4 formats, so nothing else is linked.
    env = dict(os.environ)
    args = ["CC=" + " ".join(v.cc), "CFLAGS=" + " ".join(v.cflags),
            "LDFLAGS=" + " ".join(v.ldflags), "LDLIBS=" + " ".join(v.link_extra),
            "HAVE_ZLIB=0", "HAVE_LZMA=0", "HAVE_LZ4=0", "MOREFLAGS=", "DEBUGFLAGS="]
    run(["make", "-j%d" % jobs, "-C", os.path.join(src, "programs"), "zstd"] + args,
        env=env, stdout=subprocess.DEVNULL)
    return {"zstd": os.path.join(src, "programs", "zstd")}


def build_pbzip2(src, v, jobs, extra_main=None):
    # pbzip2 (one C++ file, its Makefile's defines): a producer, a pool of
    # consumer threads and a writer thread handing blocks through queues
    # under a mutex and condition variables, libbz2 (Debian's, not
    # instrumented) doing the compression; a signal-handling thread and a
    # terminator thread wait all the program's life. Clang refuses its
    # pre-C++11 string macros ("%"PRIu64) without the warning turned down.
    flags = v.cflags + ["-pthread", "-D_POSIX_PTHREAD_SEMANTICS", "-D_LARGEFILE64_SOURCE",
                        "-D_FILE_OFFSET_BITS=64", "-DUSE_STACKSIZE_CUSTOMIZATION",
                        "-Wno-reserved-user-defined-literal"]
    args = ["CXX=" + " ".join(v.cxx), "CXXFLAGS=" + " ".join(flags),
            "LDFLAGS=" + " ".join(v.ldflags + v.link_extra)]
    run(["make", "-j%d" % jobs, "-C", src, "pbzip2"] + args, stdout=subprocess.DEVNULL)
    return {"pbzip2": os.path.join(src, "pbzip2")}


PROJECTS = {
    "lua": ("lua5.4", build_lua),
    "zlib": ("zlib", build_zlib),
    "tinyxml2": ("tinyxml2", build_tinyxml2),
    "sqlite3": ("sqlite3", build_sqlite3),
    "yaml-cpp": ("yaml-cpp", build_yaml_cpp),
    "leveldb": ("leveldb", build_leveldb),
    "zstd": ("libzstd", build_zstd),  # the source package of the zstd command
    "pbzip2": ("pbzip2", build_pbzip2),
}


def build_seconds(tree):
    """The wall time the cached build in `tree` took (None if unknown)."""
    try:
        with open(os.path.join(tree, ".activetime-build-seconds")) as f:
            return float(f.read())
    except (OSError, ValueError):
        return None


def build(project, variant, build_dir, work_dir, jobs=2, **kw):
    """Builds `project` with `variant` (cached); returns (tree, {name: path})."""
    package, fn = PROJECTS[project]
    dsc = fetch(package)
    extra_key = hashlib.sha256()
    for f in kw.values():
        if f and os.path.isfile(f):
            file_hash(extra_key, f)
    key = "%s-%s-%s" % (source_key(dsc), variant.key(build_dir), extra_key.hexdigest()[:8])
    tree = os.path.join(work_dir, "%s-%s" % (project, variant.name))
    stamp = os.path.join(tree, ".activetime-build-key")
    if os.path.exists(stamp) and open(stamp).read().strip() == key:
        outputs = json.load(open(stamp + ".out"))
        if all(os.path.exists(p) for p in outputs.values()):
            log("%s (%s): cached build" % (project, variant.name))
            return tree, outputs
    log("%s (%s): building" % (project, variant.name))
    t0 = time.time()
    unpack(dsc, tree)
    outputs = fn(tree, variant, jobs, **kw)
    with open(os.path.join(tree, ".activetime-build-seconds"), "w") as f:
        f.write("%.1f\n" % (time.time() - t0))
    with open(stamp + ".out", "w") as f:
        json.dump(outputs, f)
    with open(stamp, "w") as f:
        f.write(key)
    return tree, outputs
