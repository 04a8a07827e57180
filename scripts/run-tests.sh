#!/usr/bin/env bash
# `make test`'s last step: every Jest test, then the closing line "N passed, N failed" as the very
# last line of output (also when Jest could not start at all).
# A full run is ONE Jest run on two workers (this machine's two cores): unit, integration and browser
# files share the workers, longest first (scripts/jest/sequencer.js), so that neither core waits for
# the other. The browser files share one Chromium that globalSetup starts (each test still gets a
# context of its own), and each runs its portal in its worker. Arguments (paths, -t ...) run one Jest
# invocation as given.
set -uo pipefail
mkdir -p test-results
summary="test-results/summary.txt"
rm -f "$summary" test-results/summary-*.txt

# The gateway settles url.parse()'s deprecation warning at start-up with warnings muted
# (gateway/src/http/urlParseWarning.ts); inside Jest's sandbox the mute does not reach the real
# process, so the warning would be printed once per worker. Only that warning is left out.
NODE_OPTIONS="${NODE_OPTIONS:-} --disable-warning=DEP0169" JEST_SUMMARY_FILE="$summary" npx jest "$@"
rc=$?
if [ -s "$summary" ]; then cat "$summary"; else echo "0 passed, 1 failed"; fi
exit $rc
