#!/usr/bin/env bash
# Installs everything ActiveTime needs on Debian 12, idempotently: the LLVM/Clang 19
# packages, the test tools, and compiler-rt's source (for sanitizer_common), which Debian
# ships only inside the llvm-toolchain-19 source package.
set -euo pipefail

LLVM_VERSION=19
DEPS_DIR=${ACTIVETIME_DEPS_DIR:-/var/cache/activetime}
PACKAGES=(cmake ninja-build python3 "llvm-${LLVM_VERSION}-dev" "clang-${LLVM_VERSION}"
          "libclang-${LLVM_VERSION}-dev" "llvm-${LLVM_VERSION}-tools" "libomp-${LLVM_VERSION}-dev"
          "libclang-rt-${LLVM_VERSION}-dev" googletest libgtest-dev xz-utils
          libgcc-12-dev libgomp1  # libgomp: the test that OpenMP without OMPT is reported
          "lld-${LLVM_VERSION}"   # bench/symbol-order links with --symbol-ordering-file
          chromium fonts-dejavu-core python3-jsonschema  # HTML report browser test, schema checks
          dpkg-dev                # dpkg-source: the integration stage unpacks Debian sources
          uftrace)                # a peer in bench/overhead
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
if [ ! -f "$src_list" ]; then
  log "enabling deb-src for bookworm (source packages only)"
  as_root tee "$src_list" >/dev/null <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  apt_updated=0
  apt_update_once
fi

# compiler-rt source of the same LLVM version, extracted once into $DEPS_DIR.
CRT_DIR="$DEPS_DIR/compiler-rt-${LLVM_VERSION}"
if [ ! -f "$CRT_DIR/lib/sanitizer_common/sanitizer_common.h" ]; then
  apt_update_once
  dl=$(mktemp -d "$DEPS_DIR/dl.XXXXXX")
  log "fetching llvm-toolchain-${LLVM_VERSION} source package (only compiler-rt/ is extracted)"
  (cd "$dl" && as_root apt-get source --download-only -qq "llvm-toolchain-${LLVM_VERSION}")
  orig=$(ls "$dl"/llvm-toolchain-"${LLVM_VERSION}"_*.orig.tar.* | head -n1)
  tmp=$(mktemp -d "$DEPS_DIR/extract.XXXXXX")
  as_root tar -xf "$orig" -C "$tmp" --wildcards '*/compiler-rt/*'
  top=$(ls "$tmp")
  as_root rm -rf "$CRT_DIR"
  as_root mv "$tmp/$top/compiler-rt" "$CRT_DIR"
  # Only the toolchain download goes: $DEPS_DIR/src caches the integration sources.
  as_root rm -rf "$tmp" "$dl"
  log "compiler-rt source in $CRT_DIR"
fi
echo "$CRT_DIR"
