import path from "node:path";
import { loadConfig, register } from "tsconfig-paths";

// Jest's global set-up and tear-down run outside Jest's module system, so its moduleNameMapper does
// not apply to them: this makes Node resolve tsconfig.json's path aliases (@services/*, @db/*, ...)
// for the code they load. Imported first, for its effect.
const loaded = loadConfig(path.resolve(__dirname, "../.."));
if (loaded.resultType === "failed") throw new Error(`tsconfig.json: ${loaded.message}`);
register({ baseUrl: loaded.absoluteBaseUrl, paths: loaded.paths });
