import { serviceNamesFor, workloadFor } from "./registry";

describe("workloadFor", () => {
  it("runs every service for all, none for none, and the named ones otherwise", () => {
    expect(serviceNamesFor("all")).toEqual(["user", "document", "appointment", "email", "esrt-sync"]);
    expect(workloadFor("none")).toEqual({ consumers: [], workers: [] });
    const email = workloadFor("email");
    expect(email.consumers.length).toBeGreaterThan(0);
    expect(email.workers).toHaveLength(1);
    expect(workloadFor("document").workers).toHaveLength(1);
    // the user service runs its job runner (bulk changes and imports, issue 11)
    expect(workloadFor("user").workers).toHaveLength(1);
  });

  it("refuses an unknown service by name", () => {
    expect(() => workloadFor("user,billing")).toThrow('WORKERS names an unknown service "billing"');
  });
});
