#!/usr/bin/env bash
# Prints what a failed libFuzzer run found, so that the log of a CI run alone reproduces it:
# every input written since MARKER in base64 (decode with `base64 -d > crash.class` and pass the
# file to the fuzz target), then the first report line and the stack frames inside the project.
# The input first, the report last: a log shown by its tail keeps the stack.
#   fuzz/report-finding.sh LOG ARTIFACT_DIR MARKER SEED
set -uo pipefail
if [[ $# -ne 4 ]]; then
  echo "usage: $0 LOG ARTIFACT_DIR MARKER SEED" >&2
  exit 2
fi
log=$1 artifacts=$2 marker=$3 seed=$4
while IFS= read -r f; do
  echo "=== input $(basename "$f") ($(stat -c %s "$f") bytes), base64 ==="
  base64 -w 100 "$f"
done < <(find "$artifacts" -type f -newer "$marker")
echo "=== fuzz finding (seed $seed): the report, and its frames inside the project ==="
grep -m1 -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|terminate called|what\(\)' "$log"
# A leak's frames are mostly inside libraries (Z3's allocations): its first report whole, so
# that the log says who allocated it.
if grep -q 'ERROR: LeakSanitizer' "$log"; then
  grep -m1 -A40 -E '^(Direct|Indirect) leak of' "$log"
fi
grep -E '^ *#[0-9]+ .* in .*(/src/|/jvm-frontend/|/fuzz/fuzz_)' "$log" | grep -v ' in malloc \| in operator new' | head -30
exit 0
