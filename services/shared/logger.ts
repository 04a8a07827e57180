import pino, { type Logger } from "pino";
import { config } from "./config";

let root: Logger | undefined;

/** The process-wide pino logger; `name` makes a child logger for one component. */
export function logger(name?: string): Logger {
  root ??= pino({
    level: config().LOG_LEVEL,
    base: { service: "portal" },
    redact: {
      paths: [
        "password",
        "*.password",
        "token",
        "*.token",
        "req.headers.cookie",
        'res.headers["set-cookie"]',
      ],
      censor: "[redacted]",
    },
  });
  return name ? root.child({ component: name }) : root;
}
