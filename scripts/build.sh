#!/usr/bin/env bash
# build.sh — builds the native engine + tests (build/native), the wasm module + tests (build/wasm)
# and the pages' script bundle (web/bundle/, scripts/bundle.js; `build.sh bundle` for that alone).
# `build.sh sanitize`: the native engine + tests with ASan + UBSan in build/sanitize (npm run test:sanitize);
# the fuzz build (clang, build/fuzz) is scripts/fuzz.js's own.
# Incremental: configure runs once per build folder, ninja rebuilds only what changed.
# Emscripten 3.1.6 from Debian needs NODE_PATH for acorn (docs: toolchain gotcha 1).
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs
JOBS=${JOBS:-2}
what=${1:-all}

if [ "$what" = all ] || [ "$what" = native ]; then
  [ -f build/native/build.ninja ] || cmake -S . -B build/native -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/native -j "$JOBS"
fi
if [ "$what" = sanitize ]; then
  [ -f build/sanitize/build.ninja ] || cmake -S . -B build/sanitize -G Ninja -DCMAKE_BUILD_TYPE=Release -DPT_SANITIZE=ON >/dev/null
  cmake --build build/sanitize -j "$JOBS"
fi
if [ "$what" = all ] || [ "$what" = wasm ]; then
  [ -f build/wasm/build.ninja ] || emcmake cmake -S . -B build/wasm -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/wasm -j "$JOBS"
  wasm=dist/pt2e_engine.wasm; js=dist/pt2e_engine.mjs
  if [ -f "$wasm" ]; then
    gz=$(( $(gzip -9c "$wasm" | wc -c) + $(gzip -9c "$js" | wc -c) ))
    echo "build: dist/pt2e_engine.{wasm,mjs} gzipped: $(awk "BEGIN{printf \"%.2f\", $gz/1048576}") MB (goal < 1.5 MB)"
  fi
fi
if [ "$what" = all ] || [ "$what" = wasm ] || [ "$what" = bundle ]; then
  node scripts/bundle.js
fi
