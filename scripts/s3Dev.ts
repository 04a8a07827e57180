import { mkdirSync } from "node:fs";
import path from "node:path";
import { startS3rver } from "@services/shared/testing/s3rver";

// `make s3`: an S3-protocol server (s3rver) for trying cloud storage with `make start`, where no
// MinIO or AWS account is at hand. It keeps its objects in DATA_DIR/s3rver and prints what to enter
// on /admin/storage. S3_DEV_PORT changes its port (default 4569). Stop it with Ctrl+C.

async function main(): Promise<void> {
  const port = Number(process.env.S3_DEV_PORT ?? 4569);
  const directory = path.resolve(process.env.DATA_DIR ?? "./data", "s3rver");
  mkdirSync(directory, { recursive: true });
  const server = await startS3rver({ port, directory });
  const s = server.settings;
  process.stdout.write(
    [
      `s3rver listening on ${s.endpoint}, objects in ${directory}`,
      "On /admin/storage choose Cloud and enter:",
      `  Endpoint ${s.endpoint}   Region ${s.region}   Bucket ${s.bucket}   Path-style on`,
      `  Access key ${s.accessKeyId}   Secret key ${s.secretAccessKey}`,
      "Ctrl+C stops it.",
      "",
    ].join("\n"),
  );
  const stop = () => void server.stop().finally(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
