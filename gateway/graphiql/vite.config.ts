import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// Builds the self-hosted GraphiQL page into gateway/graphiql/dist; the gateway serves it at
// /graphiql outside production. No CDN: every script, style and worker is a file of this build.
const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  root,
  base: "/graphiql/",
  logLevel: "warn",
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 8000,
  },
  worker: { format: "es" },
});
