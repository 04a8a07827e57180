import type { Request, Response } from "express";
import { logger } from "../../../services/shared/logger";

export type ReadinessChecks = Record<string, () => Promise<void>>;

/** How long one readiness check may take before it counts as failed. */
export const READINESS_TIMEOUT_MS = 2000;

type CheckResult = "ok" | "failed" | "timeout";

async function runCheck(name: string, check: () => Promise<void>, timeoutMs: number): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  try {
    return await Promise.race([
      Promise.resolve()
        .then(check)
        .then((): CheckResult => "ok"),
      timeout,
    ]);
  } catch (err) {
    logger("readiness").warn({ check: name, err }, "readiness check failed");
    return "failed";
  } finally {
    clearTimeout(timer);
  }
}

/**
 * GET /readyz: runs every check in parallel, each bounded by {@link READINESS_TIMEOUT_MS}. Answers
 * 200 { status: "ready", checks } or 503 { status: "unavailable", checks, failing } naming each
 * failing check ("failed" or "timeout"); never a stack trace.
 */
export function readinessHandler(checks: ReadinessChecks, timeoutMs = READINESS_TIMEOUT_MS) {
  return async (_req: Request, res: Response): Promise<void> => {
    const names = Object.keys(checks);
    const results = await Promise.all(
      names.map((name) => {
        const check = checks[name];
        return check ? runCheck(name, check, timeoutMs) : Promise.resolve<CheckResult>("failed");
      }),
    );
    const byName: Record<string, CheckResult> = {};
    names.forEach((name, i) => {
      byName[name] = results[i] ?? "failed";
    });
    const failing = names.filter((name) => byName[name] !== "ok");
    res.setHeader("Cache-Control", "no-store");
    if (failing.length === 0) {
      res.status(200).json({ status: "ready", checks: byName });
    } else {
      logger("readiness").warn({ failing }, "not ready");
      res.status(503).json({ status: "unavailable", checks: byName, failing });
    }
  };
}
