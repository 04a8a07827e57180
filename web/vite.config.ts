import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The web app is built into web/dist and served by the gateway. In development Vite serves it on
// :5173 and hands every server path to the gateway on :3000.
const root = fileURLToPath(new URL(".", import.meta.url));
const gateway = process.env.GATEWAY_URL ?? "http://localhost:3000";

export default defineConfig({
  root,
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Maps are written for debugging but not referenced by the bundle a browser loads.
    sourcemap: "hidden",
    // Small assets become separate files: data: URIs would need a looser CSP for scripts and fonts.
    assetsInlineLimit: 0,
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      "/api": gateway,
      "/graphql": gateway,
      "/graphiql": gateway,
      "/healthz": gateway,
    },
  },
});
