import { passwordSchema } from "@schema/validation/user";
import { type Config, ConfigError, config } from "@services/shared/config";
import { connectPostgres, type Db, openEmbedded } from "@services/shared/db";
import { BackingServiceError, chooseBacking } from "@services/shared/runtime";
import {
  COMMON_PASSWORD_MESSAGE,
  generatePassword,
  hashPassword,
  isCommonPassword,
  storeNewPassword,
} from "@services/user";
import { config as loadEnvFile } from "dotenv";

// `make admin-password`: sets a new password for the mainAdmin, for whoever missed the one printed
// at the first start (or lost it). Run it on the machine that runs the portal, with its environment.

/** Raised when the command cannot do what it was asked; its message is meant for the person. */
export class AdminPasswordError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AdminPasswordError";
  }
}

/** What `setAdminPassword` did. */
export interface AdminPasswordResult {
  id: number;
  username: string;
  email: string;
  /** the new password, when none was given (shown once, never stored in clear) */
  generatedPassword?: string;
}

/**
 * Sets a new password for a mainAdmin: the one whose email is `email` (ADMIN_EMAIL) when given, else
 * the one named `username` (ADMIN_USERNAME), else the first mainAdmin. The password is `password`
 * (ADMIN_PASSWORD), which must follow the portal's password rules, or a generated one that the
 * result returns. The hash is argon2id; every session the admin had ends (sessionsValidAfter), and
 * user.password_changed (via "admin") and an audit row are written in the same transaction.
 * @throws AdminPasswordError when no such mainAdmin exists or the given password breaks a rule.
 */
export async function setAdminPassword(props: {
  db: Db;
  email?: string;
  username?: string;
  password?: string;
}): Promise<AdminPasswordResult> {
  const { db } = props;
  if (props.password !== undefined) {
    const checked = passwordSchema.safeParse(props.password);
    if (!checked.success) {
      throw new AdminPasswordError(
        `ADMIN_PASSWORD: ${checked.error.issues.map((issue) => issue.message).join("; ")}`,
      );
    }
    if (isCommonPassword(props.password))
      throw new AdminPasswordError(`ADMIN_PASSWORD: ${COMMON_PASSWORD_MESSAGE}`);
  }
  const admins = await db.prisma.user.findMany({ where: { userType: "mainAdmin" }, orderBy: { id: "asc" } });
  if (admins.length === 0) {
    throw new AdminPasswordError("There is no mainAdmin yet: `make start` (or `make db-seed`) creates one.");
  }
  let admin = admins[0];
  if (props.email) {
    const wanted = props.email.toLowerCase();
    admin = admins.find((a) => a.email.toLowerCase() === wanted);
    if (!admin) {
      throw new AdminPasswordError(
        `No mainAdmin has the email ${props.email} (ADMIN_EMAIL); the mainAdmins are: ` +
          admins.map((a) => `${a.username} <${a.email}>`).join(", "),
      );
    }
  } else if (props.username) {
    const wanted = props.username.toLowerCase();
    admin = admins.find((a) => a.username.toLowerCase() === wanted) ?? admins[0];
  }
  if (!admin) throw new AdminPasswordError("There is no mainAdmin yet: `make start` creates one.");

  const generatedPassword = props.password === undefined ? generatePassword() : undefined;
  const hash = await hashPassword(props.password ?? generatedPassword ?? "");
  const target = admin;
  await db.prisma.$transaction((tx) =>
    storeNewPassword(tx, {
      userId: target.id,
      hash,
      via: "admin",
      actor: { kind: "system" },
      auditVia: "admin-password command",
    }),
  );
  return { id: target.id, username: target.username, email: target.email, generatedPassword };
}

/** Opens the database `make start` would use: DATABASE_URL, else the local port, else embedded. */
async function openDatabase(cfg: Config): Promise<Db> {
  const { database } = await chooseBacking(cfg, true);
  if (database.kind === "url") return connectPostgres(database.url);
  return openEmbedded(cfg.DATA_DIR);
}

async function main(): Promise<void> {
  loadEnvFile({ quiet: true });
  const cfg = config();
  const db = await openDatabase(cfg);
  try {
    const result = await setAdminPassword({
      db,
      email: cfg.ADMIN_EMAIL,
      username: cfg.ADMIN_USERNAME,
      password: cfg.ADMIN_PASSWORD,
    });
    const who = `mainAdmin "${result.username}" (${result.email})`;
    process.stdout.write(
      result.generatedPassword
        ? `New password for ${who}: ${result.generatedPassword}\nIt is shown only this once. Their sessions have ended.\n`
        : `The password of ${who} is now ADMIN_PASSWORD. Their sessions have ended.\n`,
    );
  } finally {
    await db.close();
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    const known =
      err instanceof AdminPasswordError || err instanceof ConfigError || err instanceof BackingServiceError;
    process.stderr.write(
      `${known ? (err as Error).message : `admin-password failed: ${err instanceof Error ? err.message : String(err)}`}\n`,
    );
    process.exit(1);
  });
}
