import { AppError, appErrorCodes } from "@services/shared/errors";
import { UserError, userErrorCodes } from "@services/user";
import { appCodeForUserError, httpStatusFor, normalizeError, toGraphQLError, toHttpError } from "./errors";

describe("error mapper", () => {
  it("gives every code a client or server status", () => {
    for (const code of appErrorCodes) {
      const status = httpStatusFor(code);
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(600);
    }
    expect(httpStatusFor("UNAUTHENTICATED")).toBe(401);
    expect(httpStatusFor("RATE_LIMITED")).toBe(429);
    expect(httpStatusFor("UNAVAILABLE")).toBe(503);
  });

  it("maps body-parser failures to client errors", () => {
    expect(normalizeError({ type: "entity.parse.failed", status: 400 }).code).toBe("BAD_REQUEST");
    expect(normalizeError({ type: "entity.too.large", status: 413 }).code).toBe("PAYLOAD_TOO_LARGE");
    expect(
      normalizeError(Object.assign(new URIError("Failed to decode param '%E0'"), { status: 400 })).message,
    ).toBe("Malformed URL");
    expect(normalizeError(new TypeError("x is undefined")).code).toBe("INTERNAL");
  });

  it("never exposes the message of an internal error", () => {
    const internal = new AppError("INTERNAL", "pool exhausted at db-1");
    expect(toHttpError(internal).body.message).toBe("Internal server error");
    const gql = toGraphQLError(internal);
    expect(gql.message).toBe("Internal server error");
    expect(gql.extensions.code).toBe("INTERNAL_SERVER_ERROR");
  });

  it("carries code, status and details into GraphQL errors", () => {
    const gql = toGraphQLError(
      new AppError("VALIDATION_FAILED", "Title is required", { details: { field: "title" } }),
    );
    expect(gql.message).toBe("Title is required");
    expect(gql.extensions).toMatchObject({
      code: "VALIDATION_FAILED",
      field: "title",
      http: { status: 400 },
    });
  });
});

describe("user service errors", () => {
  it("map every UserError code to an HTTP status, keeping the client-safe details", () => {
    const statuses = Object.fromEntries(
      userErrorCodes.map((code) => [code, httpStatusFor(appCodeForUserError(code))]),
    );
    expect(statuses).toEqual({
      INVALID_CREDENTIALS: 401,
      ACCOUNT_NOT_FOUND: 404,
      ACCOUNT_INACTIVE: 403,
      EMAIL_NOT_VERIFIED: 403,
      ADMIN_REGISTRATION: 403,
      USERNAME_TAKEN: 409,
      EMAIL_TAKEN: 409,
      COMMON_PASSWORD: 400,
      INVALID_RESET_TOKEN: 400,
      INVALID_VERIFICATION_TOKEN: 400,
      SECURITY_VERIFICATION_FAILED: 401,
      NO_SECURITY_QUESTIONS: 404,
      USER_NOT_FOUND: 404,
      NOT_ALLOWED: 403,
      SECURITY_QUESTIONS_REQUIRED: 403,
      WRONG_PASSWORD: 400,
      TWO_FACTOR_FAILED: 401,
      INVALID_TWO_FACTOR_CODE: 400,
      TWO_FACTOR_CONFLICT: 409,
    });
    const { status, body } = toHttpError(
      new UserError("ACCOUNT_INACTIVE", "This account has been archived.", { status: "archived" }),
    );
    expect(status).toBe(403);
    expect(body).toMatchObject({ message: "This account has been archived.", status: "archived" });
  });
});
