// Writes scripts/jest/durations.json from a Jest JSON report:
//   npx jest --json --outputFile=/tmp/jest.json; node scripts/jest/recordDurations.js /tmp/jest.json
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "../..");
const report = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const durations = {};
for (const result of report.testResults) {
  durations[path.relative(root, result.name)] = Math.round(result.endTime - result.startTime);
}
const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => a.localeCompare(b)));
fs.writeFileSync(path.join(__dirname, "durations.json"), `${JSON.stringify(sorted, null, 2)}\n`);
