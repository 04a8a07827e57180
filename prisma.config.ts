import { defineConfig } from "prisma/config";

// Prisma 7 CLI configuration. Only `prisma generate` is used: migrations are applied by
// prisma/migrate.ts. The URL default keeps `prisma generate` working without a database.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: {
    url: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/portal",
  },
});
