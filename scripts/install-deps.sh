#!/usr/bin/env bash
# Installs everything ActiveTime needs on Debian 12, idempotently: the LLVM/Clang
# packages, the test tools, and compiler-rt's source (for sanitizer_common), which Debian
# ships only inside the llvm-toolchain-N source package.
# ACTIVETIME_LLVM_VERSION selects the LLVM major: 19 (default) or 22.
set -euo pipefail

LLVM_VERSION=${ACTIVETIME_LLVM_VERSION:-19}
case "$LLVM_VERSION" in
  19|22) ;;
  *) echo "[install-deps] ACTIVETIME_LLVM_VERSION=$LLVM_VERSION: only 19 and 22 are supported" >&2; exit 1 ;;
esac
DEPS_DIR=${ACTIVETIME_DEPS_DIR:-/var/cache/activetime}
# libomp-N-dev packages conflict with each other, and the default build needs
# libomp-19-dev: for another version only its headers are unpacked (below).
# (Debian's libomp-22-dev links to libomp5-19's library anyway.)
OMP_DEV=("libomp-19-dev")
PACKAGES=(cmake ninja-build python3 "llvm-${LLVM_VERSION}-dev" "clang-${LLVM_VERSION}"
          "libclang-${LLVM_VERSION}-dev" "llvm-${LLVM_VERSION}-tools" "${OMP_DEV[@]}"
          "libclang-rt-${LLVM_VERSION}-dev" googletest libgtest-dev xz-utils
          libgcc-12-dev libgomp1  # libgomp: the test that OpenMP without OMPT is reported
          "lld-${LLVM_VERSION}"   # bench/symbol-order links with --symbol-ordering-file
          chromium fonts-dejavu-core python3-jsonschema  # HTML report browser test, schema checks
          dpkg-dev                # dpkg-source: the integration stage unpacks Debian sources
          uftrace                 # a peer in bench/overhead
          linux-perf tcl          # bench/truth: perf stat/record as the truth; sqlite3's amalgamation
          libsnappy-dev libgmock-dev  # bench/truth and bench/corpus: leveldb's db_bench
          libbz2-dev              # bench/truth: pbzip2
          libbenchmark-dev        # bench/corpus: snappy's packaged-testing CMake
          unicode-data            # bench/corpus: re2's Unicode tables (Debian's source drops them)
          libxxhash-dev           # the runtime's profile checksums (header-only XXH3)
          python3-xxhash          # test/Inputs/mkraw.py writes the same checksums
          # export --format=pprof: C++ generated from pprof's packaged profile.proto,
          # gzip by zlib; the tests decode it with protoc and python3-protobuf
          libprotobuf-dev protobuf-compiler golang-github-google-pprof-dev zlib1g-dev
          python3-protobuf
          # the optional MPI runtime part (libactivetime_mpi.a) and its tests (test/mpi)
          openmpi-bin libopenmpi-dev
          libblas-dev)            # bench/mpi/hpcc.py: HPCC's BLAS (reference BLAS)
# JavaScript bundled into `activetime report --html` and the speedscope schema the
# tests validate against: npm tarballs, unpacked once into $DEPS_DIR/js/NAME-VERSION.
JS_PACKAGES=(d3@7.9.2 d3-flame-graph@5.0.0 speedscope@1.22.2)

log() { echo "[install-deps] $*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

apt_updated=0
apt_update_once() {
  if [ $apt_updated -eq 0 ]; then as_root apt-get update -qq; apt_updated=1; fi
}

if [ ${#missing[@]} -gt 0 ]; then
  log "installing: ${missing[*]}"
  apt_update_once
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if ! command -v npm >/dev/null 2>&1; then
  log "installing npm"
  apt_update_once
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends npm
fi
for spec in "${JS_PACKAGES[@]}"; do
  dir="$DEPS_DIR/js/${spec/@/-}"
  [ -f "$dir/package.json" ] && continue
  log "fetching $spec from the npm registry"
  as_root mkdir -p "$DEPS_DIR/js"
  tmp=$(as_root mktemp -d "$DEPS_DIR/js/fetch.XXXXXX")
  (cd "$tmp" && as_root npm pack --silent "$spec" >/dev/null 2>&1)
  as_root tar -xzf "$tmp"/*.tgz -C "$tmp"
  as_root rm -rf "$dir"
  as_root mv "$tmp/package" "$dir"
  as_root rm -rf "$tmp"
done

# deb-src for bookworm: compiler-rt's source below, and the integration test
# stage's source packages (test/integration, fetched there when missing).
src_list=/etc/apt/sources.list.d/activetime-deb-src.sources
# bookworm-security: llvm-toolchain-22 is published there.
if ! grep -qs debian-security "$src_list"; then
  log "enabling deb-src for bookworm (source packages only)"
  as_root tee "$src_list" >/dev/null <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  apt_updated=0
  apt_update_once
fi

# compiler-rt source of the same LLVM version, extracted once into $DEPS_DIR.
fetch_crt() { # version -> $DEPS_DIR/compiler-rt-VERSION, or non-zero if the source is not served
  local v=$1 dir="$DEPS_DIR/compiler-rt-$1" dl tmp orig top
  [ -f "$dir/lib/sanitizer_common/sanitizer_common.h" ] && return 0
  apt_update_once
  dl=$(as_root mktemp -d "$DEPS_DIR/dl.XXXXXX")
  log "fetching llvm-toolchain-$v source package (only compiler-rt/ is extracted)"
  if ! (cd "$dl" && as_root apt-get source --download-only -qq "llvm-toolchain-$v") ||
     ! orig=$(ls "$dl"/llvm-toolchain-"$v"_*.orig.tar.* 2>/dev/null | head -n1) || [ -z "$orig" ]; then
    as_root rm -rf "$dl"
    return 1
  fi
  tmp=$(as_root mktemp -d "$DEPS_DIR/extract.XXXXXX")
  as_root tar -xf "$orig" -C "$tmp" --wildcards '*/compiler-rt/*'
  top=$(ls "$tmp")
  as_root rm -rf "$dir"
  as_root mv "$tmp/$top/compiler-rt" "$dir"
  # Only the toolchain download goes: $DEPS_DIR/src caches the integration sources.
  as_root rm -rf "$tmp" "$dl"
  log "compiler-rt source in $dir"
}
CRT_DIR="$DEPS_DIR/compiler-rt-${LLVM_VERSION}"
if ! fetch_crt "$LLVM_VERSION"; then
  [ "$LLVM_VERSION" != 19 ] || { log "could not fetch llvm-toolchain-19's source"; exit 1; }
  # The runtime only compiles sanitizer_common's sources into itself, so 19's
  # tree serves when the archive does not carry llvm-toolchain-22's sources
  # (bookworm-security lists them but may not serve them).
  log "llvm-toolchain-$LLVM_VERSION source not available: using compiler-rt 19's sanitizer_common"
  fetch_crt 19
  CRT_DIR="$DEPS_DIR/compiler-rt-19"
fi

# OpenMP headers of a non-default version (omp.h, omp-tools.h, ompt-multiplex.h
# for clang-N's resource directory), unpacked from libomp-N-dev into $DEPS_DIR.
if [ "$LLVM_VERSION" != 19 ]; then
  OMP_INC="$DEPS_DIR/libomp-${LLVM_VERSION}/include"
  if [ ! -f "$OMP_INC/omp-tools.h" ]; then
    apt_update_once
    dl=$(as_root mktemp -d "$DEPS_DIR/dl.XXXXXX")
    log "unpacking libomp-${LLVM_VERSION}-dev's headers into $OMP_INC"
    (cd "$dl" && as_root apt-get download -qq "libomp-${LLVM_VERSION}-dev" 2>/dev/null)
    as_root dpkg-deb -x "$dl"/libomp-"${LLVM_VERSION}"-dev_*.deb "$dl/root"
    as_root rm -rf "$OMP_INC"
    as_root mkdir -p "$(dirname "$OMP_INC")"
    as_root mv "$dl/root/usr/lib/llvm-${LLVM_VERSION}/lib/clang/${LLVM_VERSION}/include" "$OMP_INC"
    as_root rm -rf "$dl"
  fi
fi
echo "$CRT_DIR"
