#!/usr/bin/env bash
# `make test`'s last step: every Jest test, then the closing line "N passed, N failed" as the very
# last line of output (also when Jest could not start at all).
set -uo pipefail
summary="test-results/summary.txt"
rm -f "$summary"
JEST_SUMMARY_FILE="$summary" npx jest "$@"
rc=$?
if [ -s "$summary" ]; then
  cat "$summary"
else
  echo "0 passed, 1 failed"
fi
exit $rc
