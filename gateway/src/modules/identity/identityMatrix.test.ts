import { identityAppFixture } from "@gateway/testing/fixtures";
import { sessionCookieOf } from "@gateway/testing/identityHarness";
import { expectInContract } from "@gateway/testing/openApiContract";
import type { UserType } from "@services/shared/generated/prisma/enums";
import {
  createAdmin,
  createSecurityQuestions,
  createUser,
  TEST_PASSWORD,
  TEST_SECURITY_ANSWERS,
} from "@services/shared/testing/factories";
import request from "supertest";

// The permission matrix for the unique-id lookup and the security questions, against all five
// user types: what each may read or set, for themselves, a plain user and a mainAdmin.

const h = identityAppFixture({}, { noLeaks: () => [...TEST_SECURITY_ANSWERS] });

const TYPES: UserType[] = ["mainAdmin", "userAdmin", "client", "prospect", "user"];
const QUESTIONS = [
  { question: "What was your first car?", answer: "Beetle" },
  { question: "Where did you meet your spouse?", answer: "Paris" },
  { question: "What is your grandmother's name?", answer: "Ada" },
];

/** Sends `test`, keeps its answer for the secrets scan, and expects it to hold to the OpenAPI document. */
async function call(test: request.Test): Promise<request.Response> {
  const res = await test;
  h.bodies.push(res.text);
  expectInContract(res);
  return res;
}

async function actorOf(userType: UserType) {
  const user =
    userType === "mainAdmin" || userType === "userAdmin"
      ? await createAdmin(h.db, { userType })
      : await createUser(h.db, { userType });
  const res = await call(
    request(h.app).post("/api/login").send({ login: user.username, password: TEST_PASSWORD }),
  );
  expect(res.status).toBe(200);
  return { user, cookie: sessionCookieOf(res) ?? "" };
}

describe("signed out", () => {
  it("is refused 401 everywhere", async () => {
    const target = await createUser(h.db);
    await createSecurityQuestions(h.db, target.id);
    expect((await call(request(h.app).get(`/api/users/by-uniqueid/${target.uniqueId}`))).status).toBe(401);
    expect((await call(request(h.app).get(`/api/security-questions/${target.id}`))).status).toBe(401);
    expect((await call(request(h.app).get("/api/admin/users/export.csv"))).status).toBe(401);
    expect(
      (
        await call(
          request(h.app).post("/api/security-questions").send({ userId: target.id, questions: QUESTIONS }),
        )
      ).status,
    ).toBe(401);
  });
});

describe.each(TYPES)("a %s", (userType) => {
  const manager = userType === "mainAdmin" || userType === "userAdmin";

  it("looks up their own unique id, and another's only with manage:users", async () => {
    const { user, cookie } = await actorOf(userType);
    const target = await createUser(h.db);
    const own = await call(
      request(h.app).get(`/api/users/by-uniqueid/${user.uniqueId}`).set("Cookie", cookie),
    );
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: user.id, uniqueId: user.uniqueId });
    const other = await call(
      request(h.app).get(`/api/users/by-uniqueid/${target.uniqueId}`).set("Cookie", cookie),
    );
    expect(other.status).toBe(manager ? 200 : 403);
    if (manager) expect(other.body).toMatchObject({ id: target.id });
  });

  it("exports the user directory only with manage:users", async () => {
    const { cookie } = await actorOf(userType);
    const res = await call(
      request(h.app)
        .get(`/api/admin/users/export.csv?q=${encodeURIComponent(cookie.slice(-12))}`)
        .set("Cookie", cookie),
    );
    expect(res.status).toBe(manager ? 200 : 403);
    if (manager) expect(res.headers["content-type"]).toMatch(/^text\/csv/);
  });

  it("reads security questions: own, a user's with manage:users, a mainAdmin's only as a mainAdmin", async () => {
    const { user, cookie } = await actorOf(userType);
    await createSecurityQuestions(h.db, user.id);
    const plain = await createUser(h.db);
    await createSecurityQuestions(h.db, plain.id);
    const boss = await createAdmin(h.db);
    await createSecurityQuestions(h.db, boss.id);
    const get = (id: number) =>
      call(request(h.app).get(`/api/security-questions/${id}`).set("Cookie", cookie));
    const own = await get(user.id);
    expect(own.status).toBe(200);
    expect(own.body.questions).toHaveLength(3);
    expect((await get(plain.id)).status).toBe(manager ? 200 : 403);
    expect((await get(boss.id)).status).toBe(userType === "mainAdmin" ? 200 : 403);
  });

  it("sets only their own security questions", async () => {
    const { user, cookie } = await actorOf(userType);
    const target = await createUser(h.db);
    const post = (userId: number) =>
      call(
        request(h.app)
          .post("/api/security-questions")
          .set("Cookie", cookie)
          .send({ userId, questions: QUESTIONS }),
      );
    const other = await post(target.id);
    expect(other.status).toBe(403);
    expect(other.body.message).toBe("You may only set your own security questions");
    expect(await h.db.prisma.securityQuestions.count({ where: { userId: target.id } })).toBe(0);
    const own = await post(user.id);
    expect(own.status).toBe(200);
    expect(own.body.message).toBe("Security questions saved");
  });
});
