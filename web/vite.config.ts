import { createReadStream, readFileSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin, type UserConfig } from "vite";

// The web app is built into web/dist and served by the gateway. In development Vite serves it on
// :5173 and hands every server path to the gateway on :3000.
const root = fileURLToPath(new URL(".", import.meta.url));
const gateway = process.env.GATEWAY_URL ?? "http://localhost:3000";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Built files worth compressing: text formats and the uncompressed font formats. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|ttf|eot)$/;
/** Smaller files gain too little to be worth a second request path. */
const MIN_BYTES = 1024;

/**
 * Writes `x.br` (brotli, quality 11) and `x.gz` (gzip -9) beside each compressible file the build
 * emitted under assets/, when the copy is smaller than the original; the gateway serves them with
 * Content-Encoding to clients that accept them (gateway/src/http/webApp.ts).
 */
function precompress(): Plugin {
  return {
    name: "portal-precompress",
    apply: "build",
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? path.join(root, "dist");
      const names = Object.keys(bundle).filter(
        (name) => name.startsWith("assets/") && COMPRESSIBLE.test(name),
      );
      await Promise.all(
        names.map(async (name) => {
          const file = path.join(outDir, name);
          const data = await readFile(file);
          if (data.length < MIN_BYTES) return;
          const [br, gz] = await Promise.all([
            brotli(data, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
              },
            }),
            gzipAsync(data, { level: 9 }),
          ]);
          if (br.length < data.length) await writeFile(`${file}.br`, br);
          if (gz.length < data.length) await writeFile(`${file}.gz`, gz);
        }),
      );
    },
  };
}

const NO_ICON_PATHS = "\0portal-no-icon-paths";

const NO_ICON_LOADER = "\0portal-no-icon-loader";

/** What an icon asked for by name says (a console error, which the browser tests report). */
const ICON_BY_NAME_ERROR =
  '"Blueprint icon \'" + name + "\' was asked for by name: pass an icon element from @blueprintjs/icons"';

/**
 * Keeps Blueprint's icon path sets (two chunks of every icon's SVG paths, about 100 KB gzipped each)
 * out of the build, and its icon loader with them (the loader needs the table of every icon's name,
 * about 27 KB, and a case-conversion library: weight on the first page for nothing). Blueprint loads
 * paths only to draw an icon given by name (`icon="cross"`); the portal passes icon elements imported
 * one by one from @blueprintjs/icons, so the loader is replaced by one that draws nothing and says
 * which icon was asked for by name.
 */
function noIconPathLoaders(): Plugin {
  return {
    name: "portal-no-icon-paths",
    enforce: "pre",
    resolveId(source, importer) {
      if (!importer?.includes("@blueprintjs/icons")) return null;
      if (/^\.\/iconLoader(\.js)?$/.test(source)) return NO_ICON_LOADER;
      if (/\/paths-loaders\//.test(source)) return NO_ICON_PATHS;
      return null;
    },
    load(id) {
      if (id === NO_ICON_LOADER) {
        return `export class Icons {
  static setLoaderOptions() {}
  static async load(icons) {
    for (const name of Array.isArray(icons) ? icons : [icons]) console.error(${ICON_BY_NAME_ERROR});
  }
  static async loadAll() {}
  static getPaths() {
    return undefined;
  }
  static isValidIconName() {
    return false;
  }
}
`;
      }
      if (id !== NO_ICON_PATHS) return null;
      return `const loader = async (name) => {
  console.error(${ICON_BY_NAME_ERROR});
  return undefined;
};
export const allPathsLoader = loader;
export const splitPathsBySizeLoader = loader;
`;
    },
  };
}

const PDFJS_ROOT = path.join(root, "../node_modules/pdfjs-dist");
const PDFJS_VERSION = (
  JSON.parse(readFileSync(path.join(PDFJS_ROOT, "package.json"), "utf8")) as { version: string }
).version;
/** Where pdf.js's data files are served, versioned so they can be cached like hashed assets. */
const PDFJS_DATA_PATH = `assets/pdfjs-${PDFJS_VERSION}/`;
/**
 * The pdf.js data files the preview may need, by folder: CMaps (CJK text), the standard fonts (a
 * PDF that uses Helvetica & co. without embedding them) and the JPEG 2000 and JBIG2 decoders that
 * need no WebAssembly (the CSP allows no 'wasm-unsafe-eval', so the .wasm decoders are left out).
 */
const PDFJS_DATA: Record<string, RegExp> = {
  cmaps: /\.bcmap$/,
  standard_fonts: /\.(pfb|ttf)$/,
  wasm: /^(openjpeg|jbig2)_nowasm_fallback\.js$/,
};

/**
 * Serves pdf.js's data files from our own origin at /assets/pdfjs-<version>/ (web/src/lib/pdf.ts
 * points pdf.js there): copied into the build, and answered from node_modules by the dev server.
 * pdf.js would otherwise ask for them from nowhere (its defaults are null) and log failures.
 */
function pdfjsData(): Plugin {
  const files = async () => {
    const found: { name: string; file: string }[] = [];
    for (const [folder, pattern] of Object.entries(PDFJS_DATA)) {
      for (const name of await readdir(path.join(PDFJS_ROOT, folder))) {
        if (pattern.test(name))
          found.push({ name: `${folder}/${name}`, file: path.join(PDFJS_ROOT, folder, name) });
      }
    }
    return found;
  };
  return {
    name: "portal-pdfjs-data",
    configureServer(server) {
      server.middlewares.use(`/${PDFJS_DATA_PATH}`, (req, res, next) => {
        const name = decodeURIComponent((req.url ?? "").split("?")[0] ?? "").replace(/^\/+/, "");
        const [folder = "", file = "", ...rest] = name.split("/");
        const pattern = PDFJS_DATA[folder];
        if (!pattern || rest.length > 0 || !pattern.test(file)) return next();
        res.setHeader("Content-Type", file.endsWith(".js") ? "text/javascript" : "application/octet-stream");
        createReadStream(path.join(PDFJS_ROOT, folder, file))
          .on("error", next)
          .pipe(res);
      });
    },
    async generateBundle() {
      for (const { name, file } of await files()) {
        this.emitFile({ type: "asset", fileName: `${PDFJS_DATA_PATH}${name}`, source: await readFile(file) });
      }
    },
  };
}

/** One glyph rule of Blueprint's icon font: `.bp6-icon-add::before { content: "\f109" }`. */
const ICON_GLYPH_SELECTOR = /^\.bp6-icon-[a-z0-9-]+::?before$/;

/** A PostCSS plugin as Vite's `css.postcss.plugins` takes it (postcss is Vite's, not a dependency of ours). */
type PostCssPlugin = NonNullable<
  NonNullable<Exclude<NonNullable<UserConfig["css"]>["postcss"], string>>["plugins"]
>[number];

/**
 * Drops the icon font's glyph rules (about 1,400 of them, 60 KB) from Blueprint's stylesheet: the
 * portal does not load the icon font and draws every icon as an SVG element.
 */
function dropIconFontGlyphs(): PostCssPlugin {
  return {
    postcssPlugin: "portal-drop-icon-font-glyphs",
    Rule(rule) {
      const glyphOnly =
        rule.selectors.every((selector) => ICON_GLYPH_SELECTOR.test(selector.trim())) &&
        rule.nodes.every((node) => node.type === "decl" && node.prop === "content");
      if (glyphOnly) rule.remove();
    },
  };
}

export default defineConfig({
  root,
  plugins: [react(), noIconPathLoaders(), pdfjsData(), precompress()],
  css: { postcss: { plugins: [dropIconFontGlyphs()] } },
  // Imports name the app's own files from web/src and the shared zod schemas by alias, never by climbing.
  resolve: {
    alias: {
      "@web": path.join(root, "src"),
      "@schema": path.join(root, "../schema"),
    },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // No source maps: the built app is what production serves, and it serves none (issue 20).
    sourcemap: false,
    // Small assets become separate files: data: URIs would need a looser CSP for scripts and fonts.
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        // The data client (Apollo Client with rxjs and GraphQL's printer) loads with every page since
        // the provider sits at the root: kept as one chunk, it compresses better than the four shared
        // chunks the default split makes of it (the first page's 170 KB budget, e2e/firstPage.test.ts).
        codeSplitting: {
          groups: [
            {
              name: "data-client",
              test: /[\\/]node_modules[\\/](@apollo[\\/]client[\\/](core|cache|link[\\/]core|react[\\/](context|hooks)|utilities|errors|masking)|rxjs|@wry|optimism|graphql[\\/]language)[\\/]/,
            },
            // The email template editor's CodeMirror (web/src/ui/CodeEditor.tsx loads it on demand): the
            // editor apart from its languages (HTML with its nested CSS and JavaScript parsers), two
            // files fetched together rather than one of over 500 KB. The editor's group comes first: a
            // group takes the modules its own modules import, and a module goes to the first that takes it.
            {
              name: "codemirror",
              test: /[\\/]node_modules[\\/](@codemirror[\\/](?!lang-)|@lezer[\\/](common|highlight|lr)[\\/]|codemirror[\\/]|style-mod|crelt|w3c-keyname|@marijn)/,
            },
            {
              name: "codemirror-languages",
              test: /[\\/]node_modules[\\/](@codemirror[\\/]lang-|@lezer[\\/])/,
            },
          ],
        },
      },
    },
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
