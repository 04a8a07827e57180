import { z } from "zod";
import { id, text } from "./primitives";

// Validation of identity input, shared by the web forms (react-hook-form + zod) and the server's
// REST shims and GraphQL mutations, so both show the spec's messages (spec §5) word for word. Every
// text field is a text() and every id an id() (./primitives): nothing the database refuses gets past.

/** User kinds of spec §3. */
export const USER_TYPES = ["user", "prospect", "client", "mainAdmin", "userAdmin"] as const;
export type UserTypeName = (typeof USER_TYPES)[number];

/** What a registration form may ask for (spec §5); the server refuses the admin kinds (403). */
export const REGISTRATION_USER_TYPES = ["prospect", "client", "mainAdmin", "userAdmin"] as const;

export const PASSWORD_MAX_LENGTH = 128;
export const NOTES_MAX_WORDS = 250;
export const NOTES_TOO_LONG_MESSAGE = "Notes are limited to 250 words.";

const optionalText = (max: number, message: string) =>
  text()
    .trim()
    .max(max, message)
    .optional()
    .transform((v) => (v === "" ? undefined : v));

export const usernameSchema = text()
  .trim()
  .min(3, "Username must be at least 3 characters")
  .max(50, "Username must be less than 50 characters")
  // a login with "@" is an email: a username holding one could shadow someone's address
  .refine((v) => !v.includes("@"), "Username cannot contain @");

export const emailSchema = text().trim().toLowerCase().pipe(z.email("Please enter a valid email address"));

export const passwordSchema = text()
  .min(8, "Password must be at least 8 characters")
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`)
  .regex(/\d/, "Password must contain at least one number")
  .regex(/[^A-Za-z0-9\s]/, "Password must contain at least one special character");

const PHONE = /^\+?[\d\s\-()]{10,}$/;

export const phoneSchema = text().trim().regex(PHONE, "Please enter a valid phone number");

/** The registration form and POST /api/register (spec §5, Registration). */
export const registrationSchema = z.object({
  username: usernameSchema,
  email: emailSchema,
  password: passwordSchema,
  firstName: text()
    .trim()
    .min(1, "First name is required")
    .max(100, "First name must be at most 100 characters"),
  lastName: text()
    .trim()
    .min(1, "Last name is required")
    .max(100, "Last name must be at most 100 characters"),
  phone: text()
    .trim()
    .refine((v) => v === "" || PHONE.test(v), "Please enter a valid phone number")
    .optional()
    .transform((v) => (v === "" ? undefined : v)),
  companyName: optionalText(200, "Company name must be at most 200 characters"),
  notes: optionalText(2000, "Notes must be at most 2000 characters"),
  userType: z
    .enum(REGISTRATION_USER_TYPES, { message: "Please choose prospect or client" })
    .default("prospect"),
});
export type RegistrationInput = z.input<typeof registrationSchema>;
export type Registration = z.output<typeof registrationSchema>;

/** POST /api/login: a username or an email, and a password. */
export const loginSchema = z.object({
  login: text().trim().min(1, "Username or email is required").max(254, "Username or email is too long"),
  password: text().min(1, "Password is required").max(PASSWORD_MAX_LENGTH, "Invalid login credentials"),
});
export type LoginInput = z.input<typeof loginSchema>;

/** POST /api/reset-password: ask for a reset link. */
export const resetRequestSchema = z.object({ email: emailSchema });

/** Setting a new password with the emailed token. */
export const resetConfirmSchema = z.object({
  token: text().trim().min(16, "The reset link is invalid").max(512, "The reset link is invalid"),
  password: passwordSchema,
});

/** POST /api/verify-email. */
export const verifyEmailSchema = z.object({
  token: text()
    .trim()
    .min(16, "The verification link is invalid")
    .max(512, "The verification link is invalid"),
});

const question = text()
  .trim()
  .min(5, "Each question must be at least 5 characters")
  .max(200, "Each question must be at most 200 characters");
const answer = text()
  .trim()
  .min(2, "Each answer must be at least 2 characters")
  .max(200, "Each answer must be at most 200 characters");

/** POST /api/security-questions: userId and three questions with their answers (spec §5). */
export const securityQuestionsSchema = z.object({
  userId: id("userId must be a user's id"),
  questions: z
    .array(z.object({ question, answer }))
    .length(3, "Exactly three security questions are required")
    .refine(
      (qs) => new Set(qs.map((q) => q.question.toLowerCase())).size === qs.length,
      "Each security question must be different",
    ),
});
export type SecurityQuestionsInput = z.input<typeof securityQuestionsSchema>;

/** POST /api/verify-security-answers: the answer to the question the server asked. */
export const securityAnswersSchema = z.object({
  userId: id("userId must be a user's id"),
  answers: z
    .array(z.object({ questionIndex: z.number().int().min(0).max(2), answer }))
    .min(1, "An answer is required")
    .max(3, "At most three answers"),
});

/** Words in a note, as the console counts them: runs of non-space characters. */
export function countWords(text: string): number {
  const trimmed = text.trim();
  return trimmed === "" ? 0 : trimmed.split(/\s+/).length;
}

/** POST /api/user/notes: up to 250 words (spec §5, User notes). */
export const notesSchema = z.object({
  notes: text()
    .max(20_000, NOTES_TOO_LONG_MESSAGE)
    .refine((v) => countWords(v) <= NOTES_MAX_WORDS, NOTES_TOO_LONG_MESSAGE),
});

/** POST /api/user/password: a signed-in user changes their password. */
export const changePasswordSchema = z
  .object({
    currentPassword: text()
      .min(1, "Current password is required")
      .max(PASSWORD_MAX_LENGTH, "Current password is incorrect"),
    newPassword: passwordSchema,
  })
  .refine((v) => v.currentPassword !== v.newPassword, {
    message: "The new password must be different from the current one",
    path: ["newPassword"],
  });
export type ChangePasswordInput = z.input<typeof changePasswordSchema>;

/** A user's public unique id (GET /api/users/by-uniqueid/{uniqueId}, the userByUniqueId query). */
export const uniqueIdSchema = text({ error: "A unique id is required" })
  .trim()
  .min(1, "A unique id is required")
  .max(64, "A unique id is at most 64 characters");

/** POST /api/dev/roles/switch: the role switcher's demo user to sign in as (issue 21). */
export const roleSwitchSchema = z.object({ userId: id("userId must be a demo user's id") });
export type RoleSwitchInput = z.input<typeof roleSwitchSchema>;
