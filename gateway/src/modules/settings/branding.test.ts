import {
  expectRefusals,
  graphqlClient,
  isolatedAppFixture,
  refusedCallers,
  signedInAs,
} from "@gateway/testing/fixtures";
import { BRANDING_MESSAGES } from "@schema/validation/branding";
import { createUser, TEST_PASSWORD } from "@services/shared/testing/factories";
import { FALLBACK_BRANDING } from "@services/user";
import request from "supertest";

// The branding settings (issue 12) on a database of their own (branding_config is read by every
// sign-in and page of the run): who may read and change them, the shared schema's messages, the
// audit rows, and the change applied at once to the public answer and the sign-in's messages.

const harness = isolatedAppFixture();

const gql = graphqlClient(harness);

function signIn(userType: "client" | "prospect" | "userAdmin" | "mainAdmin"): Promise<string> {
  return signedInAs(harness, userType, { firstName: "Bria", lastName: `${userType} Brand` });
}

const SETTINGS =
  "{ brandingSettings { title logoUrl supportPhone consultationEmail businessHours updatedAt updatedBy } }";
const UPDATE = `mutation ($input: BrandingInput!) { updateBranding(input: $input) {
  __typename
  ... on AppError { code message }
  ... on MutationUpdateBrandingSuccess { data { title logoUrl supportPhone consultationEmail businessHours
    updatedAt updatedBy } }
} }`;

const input = (overrides: Record<string, unknown> = {}) => ({
  title: "Acme Receivables",
  logoUrl: "https://cdn.example.com/acme.png",
  supportPhone: "(555) 777-0101",
  consultationEmail: "talk@acme.example",
  businessHours: "8AM-4PM PST",
  ...overrides,
});

describe("branding settings over GraphQL", () => {
  it("refuses the signed out, clients, prospects and userAdmins, and changes nothing", async () => {
    const cases = await refusedCallers(signIn, ["client", "prospect", "userAdmin"]);
    await expectRefusals(gql, cases, [
      [SETTINGS, "brandingSettings"],
      [UPDATE, "updateBranding", { input: input() }],
    ]);
    expect(await harness.db.prisma.auditLog.count({ where: { action: "branding.updated" } })).toBe(0);
    const res = await request(harness.app).get("/api/branding");
    expect(res.body.title).toBe(FALLBACK_BRANDING.title);
  });

  it("refuses invalid branding with the shared schema's messages and changes nothing", async () => {
    const admin = await signIn("mainAdmin");
    const before = (await gql(SETTINGS, admin)).data?.brandingSettings;
    const cases: [Record<string, unknown>, string][] = [
      [input({ title: "" }), "Title is required"],
      [input({ title: "   " }), "Title is required"],
      [input({ title: "x".repeat(101) }), "Title must be less than 100 characters"],
      [input({ logoUrl: "" }), "Logo URL is required"],
      [input({ logoUrl: "not a url" }), "Please enter a valid URL"],
      [input({ logoUrl: "http://cdn.example.com/a.png" }), BRANDING_MESSAGES.logoScheme],
      [input({ supportPhone: "call us" }), "Please enter a valid phone number"],
      [input({ consultationEmail: "nobody" }), "Please enter a valid email address"],
      [input({ businessHours: "" }), BRANDING_MESSAGES.hoursRequired],
    ];
    for (const [bad, message] of cases) {
      const res = await gql(UPDATE, admin, { input: bad });
      expect(res.data?.updateBranding).toEqual({
        __typename: "AppError",
        code: "VALIDATION_FAILED",
        message,
      });
    }
    expect((await gql(SETTINGS, admin)).data?.brandingSettings).toEqual(before);
    expect(await harness.db.prisma.auditLog.count({ where: { action: "branding.updated" } })).toBe(0);
  });

  it("lets a mainAdmin change it: audited with before and after, applied at once everywhere", async () => {
    const inactive = await createUser(harness.db, { userStatus: "inactive" });
    const login = () =>
      request(harness.app).post("/api/login").send({ login: inactive.username, password: TEST_PASSWORD });
    const first = await login();
    expect(first.status).toBe(403);
    expect(first.body.message).toBe(
      `This account has been deactivated. Please contact support at ${FALLBACK_BRANDING.supportPhone} for assistance.`,
    );

    const admin = await signIn("mainAdmin");
    const saved = await gql(UPDATE, admin, { input: input({ title: "  Acme Receivables  " }) });
    expect(saved.errors).toBeUndefined();
    expect(saved.data?.updateBranding).toEqual({
      __typename: "MutationUpdateBrandingSuccess",
      data: { ...input(), updatedAt: expect.any(String), updatedBy: "Bria mainAdmin Brand" },
    });
    expect((await gql(SETTINGS, admin)).data?.brandingSettings).toEqual(saved.data?.updateBranding.data);

    // the public answer (the registration toast's product name, the top bar) and GraphQL's
    const pub = await request(harness.app).get("/api/branding");
    expect(pub.body).toEqual({
      title: "Acme Receivables",
      logoUrl: "https://cdn.example.com/acme.png",
      supportPhone: "(555) 777-0101",
      consultationEmail: "talk@acme.example",
      businessHours: "8AM-4PM PST",
    });
    expect((await gql("{ branding { title supportPhone } }")).data?.branding).toEqual({
      title: "Acme Receivables",
      supportPhone: "(555) 777-0101",
    });
    // the deactivated-account message names the new phone at the next sign-in
    const second = await login();
    expect(second.status).toBe(403);
    expect(second.body.message).toBe(
      "This account has been deactivated. Please contact support at (555) 777-0101 for assistance.",
    );

    const [entry, ...others] = await harness.db.prisma.auditLog.findMany({
      where: { action: "branding.updated" },
    });
    expect(others).toEqual([]);
    expect(entry).toMatchObject({
      targetType: "branding_config",
      before: {
        title: FALLBACK_BRANDING.title,
        logoUrl: FALLBACK_BRANDING.logoUrl,
        supportPhone: FALLBACK_BRANDING.supportPhone,
      },
      after: { title: "Acme Receivables", supportPhone: "(555) 777-0101" },
      metadata: { changed: ["title", "logoUrl", "supportPhone", "consultationEmail", "businessHours"] },
    });
    expect(entry?.actorId).toEqual(expect.any(Number));

    // saving the same values again is no change: no second audit row
    await gql(UPDATE, admin, { input: input() });
    expect(await harness.db.prisma.auditLog.count({ where: { action: "branding.updated" } })).toBe(1);
    // a path on the portal is a valid logo too
    const path = await gql(UPDATE, admin, { input: input({ logoUrl: "/logo.svg" }) });
    expect(path.data?.updateBranding.data.logoUrl).toBe("/logo.svg");
    expect(await harness.db.prisma.auditLog.count({ where: { action: "branding.updated" } })).toBe(2);
  });
});
