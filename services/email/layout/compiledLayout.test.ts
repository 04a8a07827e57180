import { readFileSync } from "node:fs";
import path from "node:path";
import { compiledLayoutModule, compileLayout } from "./compileLayout";

// The layout every email is sent in is compiled from its MJML source when it changes; the portal
// only fills the compiled HTML. This fails when the source changed without `npm run email:layout`.

describe("the compiled email layout", () => {
  it("is what compiling the MJML source gives (run `npm run email:layout` after changing the source)", async () => {
    const committed = readFileSync(path.join(__dirname, "compiledLayout.ts"), "utf8");
    expect(committed).toBe(compiledLayoutModule(await compileLayout()));
  });
});
