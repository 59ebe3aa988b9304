#!/usr/bin/env bash
# Sanitizer + fuzz run of the whole pipeline (parse, match, short symbolic run with Z3).
#   fuzz/run-pipeline-fuzz.sh BUILD_DIR SECONDS [SEED]
# Configures BUILD_DIR with clang-14, ASan+UBSan and libFuzzer (the whole engine), builds
# fuzz_pipeline and the Java fixtures, seeds a corpus with the compiled fixture classes and
# fuzzes for SECONDS. Exits non-zero on a fuzzer finding (crash, sanitizer report, uncaught
# exception, timeout); the input that caused it is kept in BUILD_DIR/fuzz-artifacts/.
# SEED (default 1) fixes libFuzzer's mutation sequence, so that a CI run is reproducible; a
# campaign passes other seeds. On a finding the script ends its output with the sanitizer's
# report and the input in base64 (fuzz/report-finding.sh), so that a CI log reproduces it.
set -euo pipefail
if [[ $# -lt 2 || $# -gt 3 ]]; then
  echo "usage: $0 BUILD_DIR SECONDS [SEED]" >&2
  exit 2
fi
build=$1
seconds=$2
seed=${3:-1}
src=$(cd "$(dirname "$0")/.." && pwd)

launcher=()
if command -v ccache > /dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
CC=clang-14 CXX=clang++-14 cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DPASDA_SANITIZE=ON -DPASDA_FUZZ=ON "${launcher[@]}"
cmake --build "$build" -j2 --target fuzz_pipeline java_fixtures

# Leaks: Z3 keeps global tables for the life of the process; those are reachable, not leaks.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

corpus="$build/fuzz-pipeline-corpus"
mkdir -p "$corpus"
# The fixtures of the stages that run methods (not the benchmark: its classes are many and
# large, and the frontend fuzzer covers them). Sorted, so that the seed is stable.
mapfile -t seeds < <(find "$build/tests/fixtures/classes" -path '*/benchmark' -prune -o -name '*.class' -size -16k -print | LC_ALL=C sort)
for f in "${seeds[@]}"; do
  cp "$f" "$corpus/$(printf '%s' "$f" | md5sum | cut -c1-16).class"
done
echo "seed corpus: $(ls "$corpus" | wc -l) files"

artifacts="$build/fuzz-artifacts"
mkdir -p "$artifacts"
# Inputs of earlier findings (fuzz/regressions/) run first, each once: a finding that comes back
# fails the test whatever the seed.
mapfile -t regressions < <(find "$src/fuzz/regressions" -type f | LC_ALL=C sort)
if [[ ${#regressions[@]} -gt 0 ]]; then
  echo "regression inputs: ${#regressions[@]}"
  "$build/fuzz/fuzz_pipeline" -timeout=60 -rss_limit_mb=3072 "${regressions[@]}"
fi

log="$build/fuzz-pipeline.log"
marker="$build/fuzz-pipeline.started"
: > "$marker"
status=0
"$build/fuzz/fuzz_pipeline" "$corpus" -seed="$seed" -max_total_time="$seconds" -max_len=65536 -timeout=60 \
  -rss_limit_mb=3072 -print_final_stats=1 -artifact_prefix="$artifacts/pipeline-" 2>&1 | tee "$log" || status=$?
if [[ $status -ne 0 ]]; then "$src/fuzz/report-finding.sh" "$log" "$artifacts" "$marker" "$seed"; fi
exit "$status"
