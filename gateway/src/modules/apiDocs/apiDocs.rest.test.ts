import { buildRedisApp, fakeWebDist, type RedisApp, testConfig } from "@gateway/testing/appHarness";
import {
  apiRoutes,
  contractProblems,
  documentedOperations,
  opaqueApiMounts,
  openApiPath,
} from "@gateway/testing/openApiContract";
import Ajv2020 from "ajv/dist/2020";
import request from "supertest";
import { API_DOCS_PATH, OPENAPI_JSON_PATH, openApiDocument } from "./openApiDocument";

// The described REST API (issue 22): GET /api/openapi.json and the reference page GET /api/docs, in
// development and in production, and the document equal to the router: every /api route Express
// has is an operation of the document, and every operation a route (or, under the tus uploads'
// handler, a request it serves).

const web = fakeWebDist();
let dev: RedisApp;
let prod: RedisApp;

beforeAll(async () => {
  dev = await buildRedisApp(() => ({ webDist: web.dir }));
  prod = await buildRedisApp(() => ({
    webDist: web.dir,
    config: testConfig({ NODE_ENV: "production", SESSION_SECRET: "s".repeat(32) }),
  }));
});

afterAll(async () => {
  await dev?.stop();
  await prod?.stop();
  web.remove();
});

const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

describe("the OpenAPI document", () => {
  it("describes every route of the router, and nothing the router lacks", () => {
    const routes = apiRoutes(dev.app).map((r) => key({ method: r.method, path: openApiPath(r.path) }));
    const documented = documentedOperations().map(key);
    const mounts = opaqueApiMounts(dev.app);
    expect(mounts).toEqual(["/api/uploads"]);
    const underMount = (op: string) => mounts.some((m) => op.split(" ")[1]?.startsWith(m));

    expect(routes.filter((r) => !documented.includes(r))).toEqual([]);
    expect(documented.filter((op) => !routes.includes(op) && !underMount(op))).toEqual([]);
    // the walk found the routes (a broken walk would find none and pass the above)
    expect(routes.length).toBeGreaterThanOrEqual(40);
    for (const mount of mounts)
      expect(documented.some((op) => underMount(op) && op.includes(mount))).toBe(true);
  });

  it("is OpenAPI 3.1 whose schemas compile as JSON Schema 2020-12", () => {
    const doc = openApiDocument();
    expect(doc.openapi).toBe("3.1.0");
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const schemas = new Set<string>();
    for (const item of Object.values(doc.paths ?? {})) {
      for (const op of Object.values(item ?? {})) {
        for (const response of Object.values((op as { responses?: object }).responses ?? {})) {
          for (const media of Object.values((response as { content?: object }).content ?? {})) {
            schemas.add(JSON.stringify((media as { schema: object }).schema));
          }
        }
      }
    }
    for (const schema of schemas) ajv.compile({ ...JSON.parse(schema), components: doc.components });
    expect(schemas.size).toBeGreaterThan(20);
  });

  it("names the session cookie and the Pro app's bearer key, the key on its two routes only", () => {
    const doc = openApiDocument();
    expect(doc.components?.securitySchemes).toMatchObject({
      sessionCookie: { type: "apiKey", in: "cookie", name: "portal.sid" },
      proAppKey: { type: "http", scheme: "bearer" },
    });
    const withKey = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
      Object.entries(item ?? {})
        .filter(([, op]) =>
          JSON.stringify((op as { security?: unknown }).security ?? []).includes("proAppKey"),
        )
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(withKey.sort()).toEqual(["GET /api/users/by-uniqueid/{uniqueId}", "POST /api/esrt/ack"]);
  });
});

describe("an answer checked against the document", () => {
  const card = {
    id: 7,
    uniqueId: "ESRT-1",
    firstName: "A",
    lastName: "B",
    companyName: null,
    esrtSynced: false,
  };
  const answer = (status: number, body: unknown, url = "/api/users/by-uniqueid/ESRT-1") => ({
    method: "GET",
    url: `http://127.0.0.1:1${url}?x=1`,
    status,
    contentType: "application/json; charset=utf-8",
    text: JSON.stringify(body),
  });

  it("holds when its status is listed and its body validates", () => {
    expect(contractProblems(answer(200, card))).toEqual([]);
    expect(
      contractProblems(answer(404, { message: "User not found", code: "NOT_FOUND", reason: "X" })),
    ).toEqual([]);
    // a path no route serves, answered by the API's own 404
    expect(contractProblems(answer(404, { message: "Not found" }, "/api/nothing/here"))).toEqual([]);
  });

  it("fails an unlisted status, a body off its schema, an undocumented field and an unknown path", () => {
    expect(contractProblems(answer(418, card))[0]).toMatch(/lists only 200, 400, 401, 403, 404, 500, 503/);
    expect(contractProblems(answer(200, { ...card, id: "7" }))[0]).toMatch(/\/id must be integer/);
    expect(contractProblems(answer(200, { ...card, password: "x" }))[0]).toMatch(/additional properties/);
    expect(contractProblems(answer(401, { code: "UNAUTHENTICATED" }))[0]).toMatch(
      /must have required property 'message'/,
    );
    expect(contractProblems(answer(400, { message: "x" }, "/api/nothing/here"))[0]).toMatch(/no operation/);
  });
});

describe.each([
  ["development", () => dev],
  ["production", () => prod],
])("in %s", (_mode, app) => {
  it("serves the document to anyone, revalidated with its ETag", async () => {
    const res = await request(app().app).get(OPENAPI_JSON_PATH).expect(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.headers["cache-control"]).toBe("no-cache");
    expect(res.body.openapi).toBe("3.1.0");
    expect(Object.keys(res.body.paths)).toContain("/api/esrt/ack");
    const etag = res.headers.etag;
    expect(etag).toBeTruthy();
    await request(app().app).get(OPENAPI_JSON_PATH).set("If-None-Match", String(etag)).expect(304);
  });

  it("serves the reference page with no inline script and its files from the portal", async () => {
    const res = await request(app().app).get(API_DOCS_PATH).expect(200);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toMatch(/(^|;)script-src 'self'(;|$)/);
    expect(csp).toMatch(/(^|;)style-src 'self'(;|$)/);
    expect(csp).not.toContain("unsafe");
    expect(csp).not.toMatch(/https?:/);
    // every script is a file of the portal's; none is inline
    const scripts = [...res.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBe(2);
    for (const [, attributes, content] of scripts) {
      expect(attributes).toMatch(/ src="\/api\/docs\/[\w.-]+"/);
      expect(content).toBe("");
    }
    expect(res.text).not.toMatch(/(src|href)="(https?:)?\/\//);
    for (const file of ["swagger-ui-bundle.js", "swagger-ui.css", "init.js"]) {
      const asset = await request(app().app).get(`${API_DOCS_PATH}/${file}`).expect(200);
      expect(asset.headers["content-type"]).toMatch(
        file.endsWith(".css") ? /^text\/css/ : /^text\/javascript/,
      );
    }
    const init = await request(app().app).get(`${API_DOCS_PATH}/init.js`);
    expect(init.text).toContain(`url: "${OPENAPI_JSON_PATH}"`);
    expect(init.text).toContain("validatorUrl: null");
  });

  it("serves no other file of swagger-ui-dist", async () => {
    for (const file of ["package.json", "index.html", "swagger-initializer.js", "..%2Fpackage.json"]) {
      const res = await request(app().app).get(`${API_DOCS_PATH}/${file}`).expect(404);
      expect(res.body).toEqual({ message: "Not found" });
    }
  });
});
