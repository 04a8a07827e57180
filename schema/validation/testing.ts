// Test helpers for the shared schemas: their own tests and the web forms' tests built on them.

/** A registration that registrationSchema accepts (the email in mixed case: the schema lower-cases it). */
export const VALID_REGISTRATION = {
  username: "jdoe",
  email: "J.Doe@Example.com",
  password: "s3cret-pass",
  firstName: "Jane",
  lastName: "Doe",
};

/** The messages of a `safeParse` result in order; none when it succeeded. */
export function issueMessages(result: {
  success: boolean;
  error?: { issues: { message: string }[] };
}): string[] {
  return result.success ? [] : (result.error?.issues.map((i) => i.message) ?? []);
}
