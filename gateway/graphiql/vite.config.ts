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
    rollupOptions: {
      // GraphiQL's packages mark modules "use no memo" for the React Compiler, which this build does
      // not run: the directive means nothing here, so its "may not be preserved" notice is dropped.
      onwarn(warning, warn) {
        if (warning.code === "MODULE_LEVEL_DIRECTIVE" && warning.message.includes('"use no memo"')) return;
        warn(warning);
      },
    },
  },
  worker: { format: "es" },
});
