import { AppError } from "@services/shared/errors";
import express from "express";
import request from "supertest";
import { errorHandler } from "./errorHandler";

function appThrowing(err: unknown) {
  const app = express();
  app.use((req, _res, next) => {
    req.id = "req-1234abcd";
    next();
  });
  app.get("/sync", () => {
    throw err;
  });
  app.get("/async", async () => {
    await Promise.resolve();
    throw err;
  });
  app.use(errorHandler());
  return app;
}

describe("errorHandler", () => {
  it("hides an unexpected error behind 500 Internal server error and the request id, without its message or stack", async () => {
    const app = appThrowing(new Error("password authentication failed for user postgres"));
    for (const path of ["/sync", "/async"]) {
      const res = await request(app).get(path).expect(500);
      expect(res.body).toEqual({
        message: "Internal server error",
        code: "INTERNAL",
        requestId: "req-1234abcd",
      });
      expect(res.text).not.toContain("postgres");
    }
  });

  it("answers an AppError with its status, message and details", async () => {
    const app = appThrowing(
      new AppError("FORBIDDEN", "This account has been archived.", { details: { status: "archived" } }),
    );
    const res = await request(app).get("/async").expect(403);
    // a client error needs no request id: its message says what to fix
    expect(res.body).toEqual({
      message: "This account has been archived.",
      code: "FORBIDDEN",
      status: "archived",
    });
  });

  it("survives a thrown non-Error value", async () => {
    const res = await request(appThrowing("just a string")).get("/sync").expect(500);
    expect(res.body.message).toBe("Internal server error");
  });
});
