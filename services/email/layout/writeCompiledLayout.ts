import { writeFileSync } from "node:fs";
import path from "node:path";
import { compiledLayoutModule, compileLayout } from "./compileLayout";

// `npm run email:layout`: compiles the email layout's MJML (./layoutSource.ts) into
// ./compiledLayout.ts, which the portal fills for every email.

const target = path.join(__dirname, "compiledLayout.ts");

compileLayout()
  .then((html) => {
    writeFileSync(target, compiledLayoutModule(html));
    process.stdout.write(`wrote ${path.relative(process.cwd(), target)}\n`);
  })
  .catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
