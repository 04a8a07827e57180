import path from "node:path";
import { boundaryViolations, repositorySources } from "./boundaries";

const file = (p: string, ...imports: string[]) => ({
  path: p,
  text: imports.map((spec, i) => `import { x${i} } from "${spec}";`).join("\n"),
});

describe("the layout's boundaries", () => {
  it("refuses imports that climb, reach inside a service, or cross rooms by relative path", () => {
    const problems = boundaryViolations([
      file("gateway/src/modules/users/users.ts", "../../../../services/user/loginUser"),
      file("gateway/src/modules/users/rest.ts", "@services/user/loginUser"),
      file("services/email/consumers/x.ts", "../../appointment/bookAppointment"),
      file("services/user/registerUser.ts", "@services/email/testing"),
      file("services/user/audit.ts", "@services/shared/testing/db"),
      file("web/src/features/auth/Login.tsx", "@services/user"),
      file("services/user/x.ts", "@gateway/app"),
      file("schema/validation/x.ts", "@services/user"),
      file("e2e/support/x.ts", "../../gateway/src/app"),
    ]);
    expect(problems).toEqual([
      expect.stringContaining("climbs three or more"),
      expect.stringContaining("reaches from gateway into service:user"),
      expect.stringContaining("inside the user service"),
      expect.stringContaining("inside the user service"),
      expect.stringContaining("reaches from service:email into service:appointment"),
      expect.stringContaining("inside the appointment service"),
      expect.stringContaining("production code imports another service's test helpers"),
      expect.stringContaining("production code imports test helpers"),
      expect.stringContaining("the web app imports only itself"),
      expect.stringContaining("never import the gateway"),
      expect.stringContaining("import no service"),
      expect.stringContaining("reaches from tools into gateway"),
    ]);
  });

  it("lets faces, shared subpaths, test helpers in tests and a room's own files through", () => {
    expect(
      boundaryViolations([
        file(
          "gateway/src/modules/users/users.ts",
          "@services/user",
          "@services/shared/db",
          "@schema/validation/user",
        ),
        file(
          "gateway/src/modules/users/users.test.ts",
          "@services/email/testing",
          "@services/shared/testing/db",
        ),
        file("services/user/directory/searchUsers.ts", "../errors", "./filter", "@services/shared/db"),
        file("services/diagnostics/demoData.ts", "@services/document", "@services/registry"),
        file("web/src/features/auth/Login.tsx", "@web/ui/Field", "@schema/validation/user", "react"),
        file("bench/firstPage.bench.ts", "../e2e/support/portal"),
      ]),
    ).toEqual([]);
  });

  it("holds across the repository", () => {
    const problems = boundaryViolations(repositorySources(path.resolve(__dirname, "..")));
    expect(problems).toEqual([]);
  });
});
