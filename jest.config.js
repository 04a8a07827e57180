// One Jest run covers unit, integration (real PostgreSQL, Redis, NATS) and browser tests (Chromium).
// scripts/jest/globalSetup.ts gives the run its own database, Redis key prefix and stream names.
/** @type {import('jest').Config} */
const swc = [
  "@swc/jest",
  {
    jsc: {
      parser: { syntax: "typescript", tsx: false, decorators: false },
      target: "es2022",
    },
    module: { type: "commonjs" },
  },
];

const swcTsx = [
  "@swc/jest",
  {
    jsc: {
      parser: { syntax: "typescript", tsx: true },
      transform: { react: { runtime: "automatic" } },
      target: "es2022",
    },
    module: { type: "commonjs" },
  },
];

module.exports = {
  testEnvironment: "node",
  roots: [
    "<rootDir>/web/src",
    "<rootDir>/gateway",
    "<rootDir>/services",
    "<rootDir>/schema",
    "<rootDir>/prisma",
    "<rootDir>/e2e",
    "<rootDir>/scripts",
  ],
  testMatch: ["**/*.test.ts?(x)"],
  transform: { "^.+\\.tsx$": swcTsx, "^.+\\.(t|j|mj|cj)s$": swc },
  // ESM-only packages are compiled to CommonJS like our own code.
  transformIgnorePatterns: [
    "/node_modules/(?!(uuid|@nats-io|@electric-sql/pglite|pglite-prisma-adapter|@tus/server|@tus/utils|srvx|@tus/file-store|file-type|strtok3|token-types|@tokenizer|uint8array-extras|@borewit)/)",
  ],
  // The generated Prisma client imports its own files as "./x.js".
  moduleNameMapper: {
    "^(\\.{1,2}/.*)\\.js$": "$1",
    // The path aliases of tsconfig.json.
    "^@services/(.*)$": "<rootDir>/services/$1",
    "^@schema/(.*)$": "<rootDir>/schema/$1",
    "^@gateway/(.*)$": "<rootDir>/gateway/src/$1",
    "^@db/(.*)$": "<rootDir>/prisma/$1",
    "^@web/(.*)$": "<rootDir>/web/src/$1",
  },
  // the embedded database's tests start from one initdb per run (scripts/jest/pgliteInitdbCache.ts)
  setupFiles: ["<rootDir>/scripts/jest/pgliteInitdbCache.ts"],
  globalSetup: "<rootDir>/scripts/jest/globalSetup.ts",
  globalTeardown: "<rootDir>/scripts/jest/globalTeardown.ts",
  reporters: ["default", "<rootDir>/scripts/jest/summaryReporter.js"],
  // longest files first, from durations.json on a clean clone (scripts/jest/sequencer.js)
  testSequencer: "<rootDir>/scripts/jest/sequencer.js",
  testTimeout: 30000,
  maxWorkers: 2,
  forceExit: false,
};
