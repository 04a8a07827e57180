// The closing line CI reads: "N passed, N failed" (", N skipped" when any were skipped).
// Under `make test` (JEST_SUMMARY_FILE set) it is written to that file, and scripts/run-tests.sh prints
// it as the very last line, after Jest's own summary; otherwise it is printed here.
const fs = require("node:fs");
const path = require("node:path");

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const skipped = results.numPendingTests + results.numTodoTests;
    const line = `${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`;
    const file = process.env.JEST_SUMMARY_FILE;
    if (file) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, `${line}\n`);
    } else {
      process.stdout.write(`\n${line}\n`);
    }
  }
}
module.exports = SummaryReporter;
