// Longest files first, so that neither worker sits idle at the end of the run while the other
// finishes a long file. Jest does this from its own cache of the last run's times; a clean clone
// (CI) has no cache, so the times recorded in durations.json (relative path -> ms, from a full run;
// refresh with scripts/jest/recordDurations.js) stand in for it. A file in neither counts as short.
const path = require("node:path");
const Sequencer = require("@jest/test-sequencer").default;
const recorded = require("./durations.json");

const root = path.resolve(__dirname, "../..");

class LongestFirstSequencer extends Sequencer {
  time(test) {
    const cached = super.time(test);
    if (cached != null) return cached;
    return recorded[path.relative(root, test.path)] ?? 0;
  }
}

module.exports = LongestFirstSequencer;
