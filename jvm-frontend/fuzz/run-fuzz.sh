#!/usr/bin/env bash
# Sanitizer + fuzz run of jvm-frontend.
#   jvm-frontend/fuzz/run-fuzz.sh BUILD_DIR SECONDS [SEED]
# Configures BUILD_DIR with clang-14, ASan+UBSan and libFuzzer (frontend only), builds
# jvm_frontend, test_jvm and fuzz_classfile, runs test_jvm under the sanitizers, seeds a corpus
# with the compiled fixture (and benchmark) classes and fuzzes for SECONDS. Exits non-zero on a
# failing test or a fuzzer finding (crash, sanitizer report, leak, timeout). SEED (default 1)
# fixes the mutation sequence so that a CI run is reproducible; on a finding the output ends
# with the input in base64 and the report (fuzz/report-finding.sh).
set -euo pipefail
if [[ $# -lt 2 || $# -gt 3 ]]; then
  echo "usage: $0 BUILD_DIR SECONDS [SEED]" >&2
  exit 2
fi
build=$1
seconds=$2
seed=${3:-1}
src=$(cd "$(dirname "$0")/../.." && pwd)

CC=clang-14 CXX=clang++-14 cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DPASDA_FRONTEND_ONLY=ON -DPASDA_SANITIZE=ON -DPASDA_FUZZ=ON
cmake --build "$build" -j2 --target jvm_frontend test_jvm fuzz_classfile

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
"$build/tests/test_jvm"

corpus="$build/fuzz-corpus"
mkdir -p "$corpus"
fixtures="$build/tests/fixtures/classes"
# No `find | head` here: with pipefail, find dying of SIGPIPE when head has enough would fail
# the script. Collect the list first, then take the first 400 (sorted, so the seed is stable).
mapfile -t seeds < <(find "$fixtures" -name '*.class' -size -64k | LC_ALL=C sort)
for f in "${seeds[@]:0:400}"; do
  cp "$f" "$corpus/$(printf '%s' "$f" | md5sum | cut -c1-16).class"
done
echo "seed corpus: $(ls "$corpus" | wc -l) files"

artifacts="$build/fuzz-artifacts"
mkdir -p "$artifacts"
log="$build/fuzz-classfile.log"
marker="$build/fuzz-classfile.started"
: > "$marker"
status=0
"$build/jvm-frontend/fuzz_classfile" "$corpus" -seed="$seed" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
  -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts/" 2>&1 | tee "$log" || status=$?
if [[ $status -ne 0 ]]; then "$src/fuzz/report-finding.sh" "$log" "$artifacts" "$marker" "$seed"; fi
exit "$status"
