import { writeFileSync } from "node:fs";
import { createInterface } from "node:readline";

// A minimal Prisma generator (the JSON-RPC protocol of @prisma/generator-helper: requests on stdin,
// answers on stderr) that writes Prisma's DMMF datamodel as JSON to its `output`. The schema drift
// test runs it through `prisma generate` to read schema.prisma exactly as Prisma reads it.

interface GeneratorRequest {
  id: number;
  method: string;
  params?: { dmmf?: { datamodel?: unknown }; generator?: { output?: { value?: string | null } | null } };
}

function respond(message: object): void {
  process.stderr.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
}

/** Serves Prisma's generator requests until stdin closes. */
export function serveDmmfGenerator(): void {
  const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  lines.on("line", (line) => {
    const request = JSON.parse(line) as GeneratorRequest;
    if (request.method === "getManifest") {
      respond({ id: request.id, result: { manifest: { prettyName: "DMMF dump", requiresEngines: [] } } });
      return;
    }
    if (request.method === "generate") {
      try {
        const output = request.params?.generator?.output?.value;
        if (!output) throw new Error("the dmmf generator needs an output path");
        writeFileSync(output, JSON.stringify(request.params?.dmmf?.datamodel ?? null));
        respond({ id: request.id, result: null });
      } catch (err) {
        respond({
          id: request.id,
          error: { code: -32000, message: err instanceof Error ? err.message : String(err) },
        });
      }
    }
  });
}

if (require.main === module) serveDmmfGenerator();
