#!/usr/bin/env bash
# `make test`'s last step: every Jest test, then the closing line "N passed, N failed" as the very
# last line of output (also when Jest could not start at all).
# A full run goes in two phases on this 2-core machine: unit and integration tests on two workers,
# then the browser tests (each drives Chromium against a portal of its own) on one, so that no two
# Chromium suites and their servers starve each other or the database. Arguments (paths, -t ...)
# run one Jest invocation as given.
set -uo pipefail
mkdir -p test-results
summary="test-results/summary.txt"
rm -f "$summary" test-results/summary-*.txt

if [ "$#" -gt 0 ]; then
  JEST_SUMMARY_FILE="$summary" npx jest "$@"
  rc=$?
  if [ -s "$summary" ]; then cat "$summary"; else echo "0 passed, 1 failed"; fi
  exit $rc
fi

JEST_SUMMARY_FILE="test-results/summary-1.txt" npx jest --testPathIgnorePatterns '/e2e/'
rc1=$?
JEST_SUMMARY_FILE="test-results/summary-2.txt" npx jest --maxWorkers=1 '/e2e/'
rc2=$?

passed=0 failed=0 skipped=0
for phase in 1 2; do
  line=$(cat "test-results/summary-$phase.txt" 2>/dev/null || true)
  if [[ "$line" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed(,\ ([0-9]+)\ skipped)?$ ]]; then
    passed=$((passed + BASH_REMATCH[1]))
    failed=$((failed + BASH_REMATCH[2]))
    skipped=$((skipped + ${BASH_REMATCH[4]:-0}))
  else
    failed=$((failed + 1)) # this phase could not start or report
  fi
done
line="$passed passed, $failed failed"
[ "$skipped" -gt 0 ] && line="$line, $skipped skipped"
echo "$line" > "$summary"
echo "$line"
[ "$rc1" -eq 0 ] && [ "$rc2" -eq 0 ] && [ "$failed" -eq 0 ]
