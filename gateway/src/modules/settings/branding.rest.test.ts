import { identityAppFixture } from "@gateway/testing/fixtures";
import { getPublicBranding } from "@services/user";
import request from "supertest";

const h = identityAppFixture();

describe("GET /api/branding", () => {
  it("answers anyone, signed out, with the branding, revalidated on every read", async () => {
    const res = await request(h.app).get("/api/branding");
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-cache");
    expect(res.headers.etag).toBeTruthy();
    expect(res.body).toEqual(await getPublicBranding({ db: h.db }));
    expect(res.body.title.length).toBeGreaterThan(0);
    expect(Object.keys(res.body).sort()).toEqual([
      "businessHours",
      "consultationEmail",
      "logoUrl",
      "supportPhone",
      "title",
    ]);
  });

  it("is the same over GraphQL, signed out", async () => {
    const res = await request(h.app)
      .post("/graphql")
      .send({ query: "{ branding { title logoUrl supportPhone consultationEmail businessHours } }" });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.branding).toEqual(await getPublicBranding({ db: h.db }));
  });
});
