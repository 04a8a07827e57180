import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parse } from "yaml";

const root = path.resolve(__dirname, "..");

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  healthcheck?: { disable?: boolean };
  profiles?: string[];
  ports?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
}

describe("docker-compose.yml", () => {
  const compose = parse(fs.readFileSync(path.join(root, "docker-compose.yml"), "utf8"), { merge: true }) as {
    services: Record<string, ComposeService>;
  };

  it("runs the backing services, a mail catcher, the gateway and one worker per service", () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      [
        "postgres",
        "redis",
        "nats",
        "mailpit",
        "gateway",
        "user-worker",
        "document-worker",
        "appointment-worker",
        "email-worker",
        "esrt-sync-worker",
        "jaeger",
      ].sort(),
    );
    expect(compose.services.nats?.command).toContain("-js");
  });

  it("points the gateway and every worker at the compose services", () => {
    for (const [name, service] of Object.entries(compose.services)) {
      if (!(name === "gateway" || name.endsWith("-worker"))) continue;
      expect(service.environment?.DATABASE_URL).toMatch(/@postgres:5432\//);
      expect(service.environment?.REDIS_URL).toBe("redis://redis:6379");
      expect(service.environment?.NATS_URL).toBe("nats://nats:4222");
      expect(service.environment?.SMTP_URL).toBe("smtp://mailpit:1025");
    }
  });

  it("runs Jaeger only under the tracing profile, and the portal exports to it only when told", () => {
    expect(compose.services.jaeger?.profiles).toEqual(["tracing"]);
    expect(compose.services.jaeger?.ports).toContain("16686:16686");
    for (const [name, service] of Object.entries(compose.services)) {
      if (!(name === "gateway" || name.endsWith("-worker"))) continue;
      // biome-ignore lint/suspicious/noTemplateCurlyInString: compose's own substitution, read as text
      expect(service.environment?.OTEL_EXPORTER_OTLP_ENDPOINT).toBe("${OTEL_EXPORTER_OTLP_ENDPOINT:-}");
    }
  });

  it("starts each worker with the service it names, and that service exists", () => {
    for (const [name, service] of Object.entries(compose.services)) {
      if (!name.endsWith("-worker")) continue;
      const svc = name.replace(/-worker$/, "");
      // the image's compiled worker (scripts/runtimeImage.test.ts); the image's check is HTTP, the gateway's
      expect(service.command).toEqual(["node", "server/worker.js", svc]);
      expect(service.healthcheck).toEqual({ disable: true });
      expect(service.environment?.WORKERS).toBe(svc);
      expect(fs.existsSync(path.join(root, "services", svc))).toBe(true);
    }
  });

  it("runs the gateway with the image's command and health check, the heap set as for npm run start", () => {
    expect(compose.services.gateway?.command).toBeUndefined();
    expect(compose.services.gateway?.healthcheck).toBeUndefined();
    expect(compose.services.gateway?.environment?.NODE_OPTIONS).toBe(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: compose's own substitution, read as text
      "--max-old-space-size=${PORTAL_HEAP_MB:-1024}",
    );
  });

  it("gives the gateway (which receives uploads) and the document worker (which sweeps them) one data volume", () => {
    const dataDir = compose.services.gateway?.environment?.DATA_DIR;
    expect(dataDir).toBe("/app/data");
    for (const name of ["gateway", "document-worker"]) {
      expect(compose.services[name]?.volumes).toContain(`documents:${dataDir}`);
    }
  });

  it("starts only with its secrets given: no default session secret or database password", () => {
    const raw = fs.readFileSync(path.join(root, "docker-compose.yml"), "utf8");
    for (const [name, service] of Object.entries(compose.services)) {
      if (!(name === "gateway" || name.endsWith("-worker"))) continue;
      expect(service.environment?.SESSION_SECRET).toMatch(/^\$\{SESSION_SECRET:\?[^}]+\}$/);
      expect(service.environment?.DATABASE_URL).toMatch(
        /^postgresql:\/\/portal:\$\{POSTGRES_PASSWORD:\?[^}]+\}@/,
      );
    }
    expect(compose.services.postgres?.environment?.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
    // no fallback value for a secret anywhere in the file
    expect(raw).not.toMatch(/\$\{(SESSION_SECRET|POSTGRES_PASSWORD):-/);
  });

  // (PostgreSQL numbers its releases major.minor)
  it("pins every image to a release, and the Dockerfile's Node too", () => {
    for (const [name, service] of Object.entries(compose.services)) {
      if (service.build !== undefined) continue;
      expect({ name, image: service.image }).toEqual({
        name,
        image: expect.stringMatching(/^[\w./-]+:v?\d+\.\d+(\.\d+)?(-[\w.]+)?$/),
      });
    }
    const froms = [...fs.readFileSync(path.join(root, "Dockerfile"), "utf8").matchAll(/^FROM (\S+)/gm)];
    expect(froms.length).toBeGreaterThan(0);
    for (const [, image] of froms) expect(image).toMatch(/^node:24\.\d+\.\d+-/);
  });

  it("is valid for docker compose where a compose client exists", () => {
    const probe = spawnSync("docker", ["compose", "version"], { encoding: "utf8" });
    if (probe.status !== 0) {
      // No compose client on this machine: the structural checks above are what we can verify.
      expect(probe.status).not.toBe(0);
      return;
    }
    const file = path.join(root, "docker-compose.yml");
    const secrets = {
      ...process.env,
      SESSION_SECRET: "x".repeat(32),
      POSTGRES_PASSWORD: "portal",
      PRO_APP_URL: "https://pro.example.com",
    };
    expect(() =>
      execFileSync("docker", ["compose", "-f", file, "config", "-q"], { stdio: "pipe", env: secrets }),
    ).not.toThrow();
    // without the session secret it refuses to start
    const { SESSION_SECRET: _unset, ...without } = secrets;
    expect(() =>
      execFileSync("docker", ["compose", "-f", file, "config", "-q"], { stdio: "pipe", env: without }),
    ).toThrow();
  });
});
