import { startProAppSimulator } from "./proAppSimulator";

// `make pro-app`: the Pro-app simulator (./proAppSimulator) beside `make start`, for trying the
// sync locally. Add an endpoint on /admin/esrt-communication pointing at the printed webhook URL,
// reveal its secret, and start this with it:
//   PRO_APP_SECRET=whsec_... make pro-app
// PRO_APP_SECRET may hold several secrets separated by spaces or commas (a rotation); PRO_APP_PORT
// changes the port (default 4600), PRO_APP_HOST the address (default 127.0.0.1). Ctrl+C stops it.

async function main(): Promise<void> {
  const secrets = (process.env.PRO_APP_SECRET ?? "").split(/[\s,]+/).filter((s) => s.length > 0);
  if (secrets.length === 0) {
    process.stderr.write(
      [
        "PRO_APP_SECRET is unset. Add an endpoint on /admin/esrt-communication (URL",
        `http://127.0.0.1:${process.env.PRO_APP_PORT ?? 4600}/webhooks), reveal its secret, then run`,
        "  PRO_APP_SECRET=whsec_... make pro-app",
        "",
      ].join("\n"),
    );
    process.exit(2);
  }
  const port = Number(process.env.PRO_APP_PORT ?? 4600);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error("PRO_APP_PORT must be a port number");
  const sim = await startProAppSimulator({ port, host: process.env.PRO_APP_HOST ?? "127.0.0.1", secrets });
  process.stdout.write(
    [
      `Pro-app simulator: webhooks at ${sim.webhookUrl}`,
      `  curl -X POST ${sim.url}/control -H 'Content-Type: application/json' -d '{"mode":"fail"}'`,
      '  modes: ok (204), fail (500, or "failStatus"), hang, gone (410), throttle (429, "retryAfterSeconds")',
      `  curl ${sim.url}/received      curl -X POST ${sim.url}/reset`,
      "Ctrl+C stops it.",
      "",
    ].join("\n"),
  );
  let shown = 0;
  let rejected = 0;
  const timer = setInterval(() => {
    for (const m of sim.received.slice(shown)) {
      const who = m.uniqueId ? ` ${m.uniqueId} v${m.version}` : "";
      const again = m.duplicate ? " (again)" : "";
      process.stdout.write(`${m.receivedAt} ${m.type}${who} ${m.id}${again} -> ${m.status ?? "no answer"}\n`);
    }
    shown = sim.received.length;
    if (sim.rejected() > rejected) {
      process.stdout.write(
        `${new Date().toISOString()} refused ${sim.rejected() - rejected} with 401 (bad signature)\n`,
      );
      rejected = sim.rejected();
    }
  }, 200);
  const stop = () => {
    clearInterval(timer);
    void sim.close().finally(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
