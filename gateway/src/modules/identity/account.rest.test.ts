import { identityAppFixture, prospectRegistration, signInOk } from "@gateway/testing/fixtures";
import { leakedSecrets, sessionCookieOf } from "@gateway/testing/identityHarness";
import { unseal } from "@services/shared/sealed";
import {
  createAdmin,
  createSecurityQuestions,
  createUser,
  TEST_PASSWORD,
  TEST_SECURITY_ANSWERS,
  uniqueSuffix,
} from "@services/shared/testing/factories";
import { updateUserProfile } from "@services/user";
import request from "supertest";

const tokens: string[] = [];

const h = identityAppFixture({
  resetEmail: { points: 2, durationSec: 60 },
  securityAnswers: { free: 1, maxDelaySec: 1, memorySec: 60 },
});

async function call(test: request.Test): Promise<request.Response> {
  const res = await test;
  h.bodies.push(res.text);
  return res;
}

function signIn(username: string): Promise<string> {
  return signInOk(h.app, username, TEST_PASSWORD, h.bodies);
}

async function lastEvent(type: string, userId: number): Promise<Record<string, unknown> | undefined> {
  const rows = await h.db.prisma.outboxEvent.findMany({ where: { type }, orderBy: { createdAt: "desc" } });
  return rows
    .map((r) => (r.envelope as { payload: Record<string, unknown> }).payload)
    .find((p) => p.userId === userId);
}

async function tokenFrom(type: string, userId: number): Promise<string> {
  const payload = await lastEvent(type, userId);
  const token = unseal(String(payload?.sealedToken));
  tokens.push(token);
  return token;
}

describe("password reset", () => {
  const message = "If an account exists with this email, you will receive reset instructions.";

  it("refuses an invalid email with 400", async () => {
    const res = await call(request(h.app).post("/api/reset-password").send({ email: "not-an-email" }));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Please enter a valid email address");
  });

  it("answers the same for an unknown email and emits nothing", async () => {
    const res = await call(
      request(h.app)
        .post("/api/reset-password")
        .send({ email: `ghost_${uniqueSuffix()}@example.test` }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message });
  });

  it("refuses a bad token, then sets the password with the emailed one (single use) and ends every session", async () => {
    const user = await createUser(h.db);
    const cookieA = await signIn(user.username);
    const cookieB = await signIn(user.username);

    const bad = await call(
      request(h.app)
        .post("/api/reset-password/confirm")
        .send({ token: "x".repeat(43), password: "New-Secret-77!" }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("This reset link is invalid or has expired");

    const asked = await call(
      request(h.app).post("/api/reset-password").send({ email: user.email.toUpperCase() }),
    );
    expect(asked.body).toEqual({ message });
    const event = await lastEvent("user.password_reset_requested", user.id);
    expect(event).toMatchObject({ userId: user.id, email: user.email });
    const token = await tokenFrom("user.password_reset_requested", user.id);

    const ok = await call(
      request(h.app).post("/api/reset-password/confirm").send({ token, password: "New-Secret-77!" }),
    );
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe("Password updated");
    expect(await lastEvent("user.password_changed", user.id)).toMatchObject({ via: "reset" });
    expect(
      await h.db.prisma.auditLog.count({
        where: { action: "user.password_changed", targetId: String(user.id) },
      }),
    ).toBe(1);

    // revocation: both earlier sessions are gone
    expect((await call(request(h.app).get("/api/user").set("Cookie", cookieA))).status).toBe(401);
    expect((await call(request(h.app).get("/api/user").set("Cookie", cookieB))).status).toBe(401);

    const again = await call(
      request(h.app).post("/api/reset-password/confirm").send({ token, password: "Other-Secret-78!" }),
    );
    expect(again.status).toBe(400);
    const login = await call(
      request(h.app).post("/api/login").send({ login: user.username, password: "New-Secret-77!" }),
    );
    expect(login.status).toBe(200);
  });

  it("ends an unused reset link once the password is changed another way", async () => {
    const user = await createUser(h.db);
    await call(request(h.app).post("/api/reset-password").send({ email: user.email }));
    const token = await tokenFrom("user.password_reset_requested", user.id);
    const cookie = await signIn(user.username);
    const changed = await call(
      request(h.app)
        .post("/api/user/password")
        .set("Cookie", cookie)
        .send({ currentPassword: TEST_PASSWORD, newPassword: "Changed-Elsewhere-5!" }),
    );
    expect(changed.status).toBe(200);

    const late = await call(
      request(h.app).post("/api/reset-password/confirm").send({ token, password: "Attacker-Choice-6!" }),
    );
    expect(late.status).toBe(400);
    expect(late.body.message).toBe("This reset link is invalid or has expired");
    const login = await call(
      request(h.app).post("/api/login").send({ login: user.username, password: "Changed-Elsewhere-5!" }),
    );
    expect(login.status).toBe(200);
  });

  it("ends an unused reset link once an administrator changes the account's email", async () => {
    const user = await createUser(h.db);
    const admin = await createAdmin(h.db);
    await call(request(h.app).post("/api/reset-password").send({ email: user.email }));
    const token = await tokenFrom("user.password_reset_requested", user.id);
    await updateUserProfile({
      db: h.db,
      actor: { id: admin.id, userType: admin.userType },
      userId: user.id,
      profile: {
        username: user.username,
        email: `moved_${uniqueSuffix()}@example.test`,
        firstName: user.firstName,
        lastName: user.lastName,
        phone: undefined,
        companyName: undefined,
      },
    });

    const late = await call(
      request(h.app).post("/api/reset-password/confirm").send({ token, password: "Attacker-Choice-6!" }),
    );
    expect(late.status).toBe(400);
    expect(late.body.message).toBe("This reset link is invalid or has expired");
  });

  it("limits reset requests per email with 429", async () => {
    const user = await createUser(h.db);
    await call(request(h.app).post("/api/reset-password").send({ email: user.email }));
    await call(request(h.app).post("/api/reset-password").send({ email: user.email }));
    const res = await call(request(h.app).post("/api/reset-password").send({ email: user.email }));
    expect(res.status).toBe(429);
    expect(res.headers["retry-after"]).toBeDefined();
  });
});

describe("POST /api/verify-email", () => {
  it("refuses a missing or unknown token, then verifies with the registration's token", async () => {
    expect((await call(request(h.app).post("/api/verify-email").send({}))).status).toBe(400);
    const unknown = await call(
      request(h.app)
        .post("/api/verify-email")
        .send({ token: "y".repeat(43) }),
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe("This verification link is invalid or has expired");

    const s = uniqueSuffix();
    const reg = await call(
      request(h.app)
        .post("/api/register")
        .send(prospectRegistration(`ver_${s}`, "Vera", "Verify")),
    );
    expect(reg.status).toBe(201);
    const token = await tokenFrom("user.registered", reg.body.id);
    const ok = await call(request(h.app).post("/api/verify-email").send({ token }));
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ message: "Email verified", emailVerified: true });
    expect(await lastEvent("user.email_verified", reg.body.id)).toMatchObject({ userId: reg.body.id });
    expect((await call(request(h.app).post("/api/verify-email").send({ token }))).status).toBe(400);
  });
});

describe("security questions", () => {
  const questions = [
    { question: "What was your first car?", answer: "Beetle" },
    { question: "Where did you meet your spouse?", answer: "Paris" },
    { question: "What is your grandmother's name?", answer: "Ada" },
  ];
  /** POST /api/security-questions of `body` as the session `cookie`. */
  const saveQuestions = (cookie: string, body: { userId: number; questions: unknown[] }) =>
    call(request(h.app).post("/api/security-questions").set("Cookie", cookie).send(body));

  it("refuses signed-out, invalid and someone else's set-up", async () => {
    const user = await createUser(h.db);
    const other = await createUser(h.db);
    expect(
      (await call(request(h.app).post("/api/security-questions").send({ userId: user.id, questions })))
        .status,
    ).toBe(401);
    const cookie = await signIn(user.username);
    const invalid = await saveQuestions(cookie, {
      userId: user.id,
      questions: [{ question: "Hi", answer: "x" }],
    });
    expect(invalid.status).toBe(400);
    const forbidden = await saveQuestions(cookie, { userId: other.id, questions });
    expect(forbidden.status).toBe(403);
    expect(
      (await call(request(h.app).get(`/api/security-questions/${other.id}`).set("Cookie", cookie))).status,
    ).toBe(403);
    expect((await call(request(h.app).get(`/api/security-questions/${user.id}`))).status).toBe(401);
  });

  it("saves, reads back without answers, and answers 404 when none are set", async () => {
    const user = await createUser(h.db);
    const cookie = await signIn(user.username);
    expect(
      (await call(request(h.app).get(`/api/security-questions/${user.id}`).set("Cookie", cookie))).status,
    ).toBe(404);
    const saved = await saveQuestions(cookie, { userId: user.id, questions });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe("Security questions saved");
    expect(await lastEvent("user.security_questions_set", user.id)).toMatchObject({ userId: user.id });
    const read = await call(request(h.app).get(`/api/security-questions/${user.id}`).set("Cookie", cookie));
    expect(read.body).toEqual({ userId: user.id, questions: questions.map((q) => q.question) });
    expect(read.text).not.toContain("Beetle");
    const me = await call(request(h.app).get("/api/user").set("Cookie", cookie));
    expect(me.body.securityQuestionsSet).toBe(true);

    const admin = await createAdmin(h.db, { userType: "userAdmin" });
    const adminCookie = await signIn(admin.username);
    expect(
      (await call(request(h.app).get(`/api/security-questions/${user.id}`).set("Cookie", adminCookie)))
        .status,
    ).toBe(200);
  });

  it("asks an enhanced-security user a question before granting the session", async () => {
    const user = await createUser(h.db, { securityLevel: "enhanced" });
    await createSecurityQuestions(h.db, user.id);
    const first = await call(
      request(h.app).post("/api/login").send({ login: user.username, password: TEST_PASSWORD }),
    );
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ needsSecurityAnswer: true, userId: user.id });
    const index: number = first.body.question.index;
    const pendingCookie = sessionCookieOf(first) ?? "";
    expect((await call(request(h.app).get("/api/user").set("Cookie", pendingCookie))).status).toBe(401);
    const asked = await call(
      request(h.app).get(`/api/security-questions/${user.id}`).set("Cookie", pendingCookie),
    );
    expect(asked.status).toBe(200);

    const wrong = await call(
      request(h.app)
        .post("/api/verify-security-answers")
        .set("Cookie", pendingCookie)
        .send({ userId: user.id, answers: [{ questionIndex: index, answer: "nope" }] }),
    );
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe("Security verification failed");
    await new Promise((r) => setTimeout(r, 1100));

    const answer = ` ${(TEST_SECURITY_ANSWERS[index] ?? "").toUpperCase()} `;
    const right = await call(
      request(h.app)
        .post("/api/verify-security-answers")
        .set("Cookie", pendingCookie)
        .send({ userId: user.id, answers: [{ questionIndex: index, answer }] }),
    );
    expect(right.status).toBe(200);
    expect(right.body).toMatchObject({ id: user.id, username: user.username });
    const granted = sessionCookieOf(right) ?? "";
    expect(granted).not.toBe(pendingCookie);
    expect((await call(request(h.app).get("/api/user").set("Cookie", granted))).body.id).toBe(user.id);
  });

  it("keeps the question of a pending sign-in, however often the password is given again", async () => {
    const user = await createUser(h.db, { securityLevel: "enhanced" });
    await createSecurityQuestions(h.db, user.id);
    const login = () =>
      call(request(h.app).post("/api/login").send({ login: user.username, password: TEST_PASSWORD }));
    // fresh browsers, one after another and several at once: one question (a redraw each time would
    // match twelve times with a chance of 1 in 177,147)
    const answers = [await login()];
    for (let i = 0; i < 5; i++) answers.push(await login());
    answers.push(...(await Promise.all(Array.from({ length: 6 }, login))));
    const indexes = new Set(answers.map((res) => res.body.question?.index));
    expect(indexes.size).toBe(1);
    const [index] = [...indexes] as number[];
    const cookie = sessionCookieOf(answers[3] as request.Response) ?? "";

    // another question's right answer does not stand in for the one asked
    const other = ((index ?? 0) + 1) % 3;
    const sidestep = await call(
      request(h.app)
        .post("/api/verify-security-answers")
        .set("Cookie", cookie)
        .send({ userId: user.id, answers: [{ questionIndex: other, answer: TEST_SECURITY_ANSWERS[other] }] }),
    );
    expect(sidestep.status).toBe(401);
    await new Promise((r) => setTimeout(r, 1100));

    // answered: the sign-in completes and the next one draws anew
    const right = await call(
      request(h.app)
        .post("/api/verify-security-answers")
        .set("Cookie", cookie)
        .send({
          userId: user.id,
          answers: [{ questionIndex: index, answer: TEST_SECURITY_ANSWERS[index ?? 0] }],
        }),
    );
    expect(right.status).toBe(200);
    expect(
      await h.db.prisma.securityQuestions.findUniqueOrThrow({ where: { userId: user.id } }),
    ).toMatchObject({ pendingQuestionIndex: null, pendingQuestionUntil: null });

    // a pending sign-in whose ten minutes ended no longer holds its question, nor its session
    const next = await login();
    const pendingCookie = sessionCookieOf(next) ?? "";
    await h.db.prisma.securityQuestions.update({
      where: { userId: user.id },
      data: { pendingQuestionUntil: new Date(Date.now() - 1000) },
    });
    const late = await call(
      request(h.app)
        .post("/api/verify-security-answers")
        .set("Cookie", pendingCookie)
        .send({
          userId: user.id,
          answers: [
            {
              questionIndex: next.body.question.index,
              answer: TEST_SECURITY_ANSWERS[next.body.question.index],
            },
          ],
        }),
    );
    expect(late.status).toBe(401);
  });

  it("refuses answers for a user nobody is signing in as", async () => {
    const user = await createUser(h.db);
    await createSecurityQuestions(h.db, user.id);
    const res = await call(
      request(h.app)
        .post("/api/verify-security-answers")
        .send({ userId: user.id, answers: [{ questionIndex: 0, answer: "Rex" }] }),
    );
    expect(res.status).toBe(401);
  });
});

describe("POST /api/user/notes", () => {
  it("refuses signed-out and over-long notes, then saves with history and an event", async () => {
    expect((await call(request(h.app).post("/api/user/notes").send({ notes: "hello" }))).status).toBe(401);
    const user = await createUser(h.db);
    const cookie = await signIn(user.username);
    const long = await call(
      request(h.app)
        .post("/api/user/notes")
        .set("Cookie", cookie)
        .send({ notes: "word ".repeat(251) }),
    );
    expect(long.status).toBe(400);
    expect(long.body.error).toBe("Notes are limited to 250 words.");

    const ok = await call(
      request(h.app).post("/api/user/notes").set("Cookie", cookie).send({ notes: "Please call me back" }),
    );
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ notes: "Please call me back", wordCount: 4, message: "Notes saved" });
    expect((await h.db.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).notes).toBe(
      "Please call me back",
    );
    expect(await h.db.prisma.noteHistory.count({ where: { userId: user.id } })).toBe(1);
    expect(await lastEvent("user.notes_updated", user.id)).toMatchObject({
      notes: "Please call me back",
      wordCount: 4,
    });
  });
});

describe("GET /api/users/by-uniqueid/:uniqueId", () => {
  it("answers 401 signed out, 403 for someone else, 404 unknown for admins, and the card for self", async () => {
    const user = await createUser(h.db, { companyName: "Acme" });
    const other = await createUser(h.db);
    expect((await call(request(h.app).get(`/api/users/by-uniqueid/${user.uniqueId}`))).status).toBe(401);
    const cookie = await signIn(user.username);
    const lookUp = (uniqueId: string, as: string) =>
      call(request(h.app).get(`/api/users/by-uniqueid/${uniqueId}`).set("Cookie", as));
    expect((await lookUp(other.uniqueId, cookie)).status).toBe(403);
    expect((await lookUp("ESRT-NOPE", cookie)).status).toBe(403);
    const self = await lookUp(user.uniqueId, cookie);
    expect(self.status).toBe(200);
    expect(self.body).toEqual({
      id: user.id,
      uniqueId: user.uniqueId,
      firstName: user.firstName,
      lastName: user.lastName,
      companyName: "Acme",
      esrtSynced: false,
    });
    const admin = await createAdmin(h.db);
    const adminCookie = await signIn(admin.username);
    expect((await lookUp(other.uniqueId, adminCookie)).status).toBe(200);
    expect((await lookUp("ESRT-NOPE", adminCookie)).status).toBe(404);
  });
});

describe("answers", () => {
  it("never carried a password, hash, token or security answer", () => {
    expect(leakedSecrets(h.bodies, [...tokens, "New-Secret-77!", "$argon2id"])).toEqual([]);
  });
});
