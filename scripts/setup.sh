#!/usr/bin/env bash
# setup.sh — installs what the build needs, once; a second run only checks and returns.
#   apt:  emscripten (Debian 3.1.6), catch2, chromium, ninja-build, libsimde-dev (simde/wasm/simd128.h:
#         the native build compiles engine/kernels' SIMD128 variants through it); python3-pyflakes,
#         python3-nbformat (lesson scripts)
#   src:  Dear ImGui from Debian's source package (apt-get source imgui) into third_party/imgui
#   npm:  npm ci (playwright-core, markdown-it + its CJK plugins, katex, opencc-js)
#   `setup.sh fuzz` (npm run fuzz) also: clang-14, libclang-rt-14-dev (libFuzzer and clang's sanitizer runtimes)
# Without root, a missing system package is not installed: the exact command is printed instead.
set -euo pipefail
cd "$(dirname "$0")/.."

need_pkgs=()
extra_pkgs=()
[ "${1:-}" = fuzz ] && extra_pkgs=(clang-14 libclang-rt-14-dev)
for p in emscripten catch2 chromium ninja-build libsimde-dev "${extra_pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need_pkgs+=("$p")
done
# The lessons' PyTorch scripts and notebooks are checked with Debian's pyflakes3 and nbformat
# (tests/api/pytorch_scripts.test.js).
for p in python3-pyflakes python3-nbformat; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need_pkgs+=("$p")
done
have_imgui=0; [ -f third_party/imgui/imgui.cpp ] && have_imgui=1

as_root() { [ "$(id -u)" = 0 ]; }
if [ ${#need_pkgs[@]} -gt 0 ] || [ $have_imgui = 0 ]; then
  if ! as_root; then
    echo "setup: missing: ${need_pkgs[*]} $([ $have_imgui = 0 ] && echo 'imgui sources')" >&2
    echo "setup: run as root, or install them with:" >&2
    [ ${#need_pkgs[@]} -gt 0 ] && echo "  sudo apt-get update && sudo apt-get install -y ${need_pkgs[*]}" >&2
    [ $have_imgui = 0 ] && echo "  sudo bash scripts/setup.sh   # adds a deb-src entry and runs apt-get source imgui" >&2
    exit 1
  fi
fi

if [ ${#need_pkgs[@]} -gt 0 ]; then
  echo "setup: apt-get install ${need_pkgs[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_pkgs[@]}" >/dev/null
fi

if [ $have_imgui = 0 ]; then
  echo "setup: fetching Dear ImGui sources (apt-get source imgui)"
  src_list=/etc/apt/sources.list.d/pt2e-playground-src.sources
  if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ && ! grep -qs '^deb-src' /etc/apt/sources.list; then
    # Derive a deb-src entry from the machine's own Debian sources entry (no host written by hand).
    if [ -f /etc/apt/sources.list.d/debian.sources ]; then
      sed -e 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources |
        awk 'BEGIN{RS="";ORS="\n\n"} /Types: deb-src/ && !/security/' > "$src_list"
    else
      grep -E '^deb ' /etc/apt/sources.list | grep -v security | sed 's/^deb /deb-src /' > /etc/apt/sources.list.d/pt2e-playground-src.list
    fi
    apt-get update -qq
  fi
  tmp=$(mktemp -d)
  (cd "$tmp" && apt-get source -qq imgui >/dev/null 2>&1)
  mkdir -p third_party
  rm -rf third_party/imgui
  mv "$tmp"/imgui-*/ third_party/imgui
  rm -rf "$tmp"
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi
