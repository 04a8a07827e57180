import { BRANDING_MESSAGES, brandingSchema } from "./branding";
import { issueMessages } from "./testing";

const valid = {
  title: "Acme Receivables",
  logoUrl: "https://cdn.example.com/acme.png",
  supportPhone: "+1 (555) 010-0177",
  consultationEmail: "Help@Example.com",
  businessHours: "8AM-4PM PST",
};

describe("brandingSchema", () => {
  it("accepts the form's values, trimmed, with the email lower-cased", () => {
    const parsed = brandingSchema.parse({ ...valid, title: "  Acme  " });
    expect(parsed).toEqual({ ...valid, title: "Acme", consultationEmail: "help@example.com" });
  });

  it("accepts a path on the portal itself and a title of exactly 100 characters", () => {
    expect(brandingSchema.safeParse({ ...valid, logoUrl: "/logo.svg" }).success).toBe(true);
    expect(brandingSchema.safeParse({ ...valid, title: "x".repeat(100) }).success).toBe(true);
  });

  it.each([
    [{ title: "" }, "Title is required"],
    [{ title: "   " }, "Title is required"],
    [{ title: "x".repeat(101) }, "Title must be less than 100 characters"],
    [{ logoUrl: "" }, "Logo URL is required"],
    [{ logoUrl: "not a url" }, "Please enter a valid URL"],
    [{ logoUrl: "//evil.example/logo.png" }, "Please enter a valid URL"],
    [{ logoUrl: "https://" }, "Please enter a valid URL"],
    [{ logoUrl: "http://cdn.example.com/logo.png" }, BRANDING_MESSAGES.logoScheme],
    [{ logoUrl: "javascript:alert(1)" }, "Please enter a valid URL"],
    [{ logoUrl: "ftp://cdn.example.com/logo.png" }, BRANDING_MESSAGES.logoScheme],
    [{ supportPhone: "" }, BRANDING_MESSAGES.phoneRequired],
    [{ supportPhone: "call us" }, "Please enter a valid phone number"],
    [{ consultationEmail: "nobody" }, "Please enter a valid email address"],
    [{ businessHours: " " }, BRANDING_MESSAGES.hoursRequired],
    [{ businessHours: "x".repeat(101) }, BRANDING_MESSAGES.hoursTooLong],
    [{ title: "Acme\u0000" }, "Text cannot contain NUL characters or unpaired surrogates"],
  ])("refuses %j with its message", (override, message) => {
    expect(issueMessages(brandingSchema.safeParse({ ...valid, ...override }))).toEqual([message]);
  });
});
