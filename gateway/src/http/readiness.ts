import { logger } from "@services/shared/logger";
import { withTimeout } from "@services/shared/timeout";
import type { Request, Response } from "express";

/** One readiness check: resolves when healthy. With a mode, /readyz also says how it is provided. */
export type ReadinessCheck = (() => Promise<void>) | { mode: string; check: () => Promise<void> };

export type ReadinessChecks = Record<string, ReadinessCheck>;

/**
 * How long one readiness check may take before it counts as failed ("timeout"). The checks run in
 * parallel, so the whole answer comes within about this long even while a service is away or frozen:
 * well under the 1 s a load balancer's probe allows.
 */
export const READINESS_TIMEOUT_MS = 500;

type CheckResult = "ok" | "failed" | "timeout";

async function runCheck(name: string, check: () => Promise<void>, timeoutMs: number): Promise<CheckResult> {
  const late = new Error("timeout");
  try {
    await withTimeout(check, timeoutMs, () => late);
    return "ok";
  } catch (err) {
    if (err === late) return "timeout";
    logger("readiness").warn({ check: name, err }, "readiness check failed");
    return "failed";
  }
}

/**
 * GET /readyz: runs every check in parallel, each bounded by {@link READINESS_TIMEOUT_MS} (a check
 * that never answers counts as "timeout", and is left behind). Answers 200 { status: "ready",
 * checks } or 503 { status: "unavailable", checks, failing } naming each failing check ("failed" or
 * "timeout"), plus { modes } naming how each service is provided when the checks say; never a stack
 * trace.
 */
export function readinessHandler(checks: ReadinessChecks, timeoutMs = READINESS_TIMEOUT_MS) {
  const names = Object.keys(checks);
  const modes: Record<string, string> = {};
  for (const name of names) {
    const entry = checks[name];
    if (entry && typeof entry !== "function") modes[name] = entry.mode;
  }
  const hasModes = Object.keys(modes).length > 0;
  return async (_req: Request, res: Response): Promise<void> => {
    const results = await Promise.all(
      names.map((name) => {
        const entry = checks[name];
        if (!entry) return Promise.resolve<CheckResult>("failed");
        return runCheck(name, typeof entry === "function" ? entry : entry.check, timeoutMs);
      }),
    );
    const byName: Record<string, CheckResult> = {};
    names.forEach((name, i) => {
      byName[name] = results[i] ?? "failed";
    });
    const failing = names.filter((name) => byName[name] !== "ok");
    const described = hasModes ? { modes } : {};
    res.setHeader("Cache-Control", "no-store");
    if (failing.length === 0) {
      res.status(200).json({ status: "ready", checks: byName, ...described });
    } else {
      logger("readiness").warn({ failing }, "not ready");
      res.status(503).json({ status: "unavailable", checks: byName, failing, ...described });
    }
  };
}
