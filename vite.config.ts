import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { build, defineConfig, type Plugin, type UserConfig } from "vite";

const clientRoot = fileURLToPath(new URL("./src/client", import.meta.url));
const sharedRoot = fileURLToPath(new URL("./src/shared", import.meta.url));
const outDir = fileURLToPath(new URL("./dist/client", import.meta.url));

/** The public pages (signing, verification) have their own entry: sign.html. */
const PUBLIC_PAGE = /^\/(assinar|verificar)(\/|$)/;

const common = (): UserConfig => ({
  root: clientRoot,
  plugins: [react(), tailwindcss()],
  resolve: { alias: { "@shared": sharedRoot, "@": clientRoot } },
});

/**
 * The public bundle's `cn` joins classes without tailwind-merge (see public-pages/lib/class-names.ts),
 * and its React is Preact's compatibility layer: react-dom alone is ~59 KB brotli, the whole public
 * page must stay under 60 KB on a phone (decision 033). The public pages use plain hooks only.
 * `vite dev` and the unit tests keep React; the e2e tests run the built bundle, with Preact.
 */
const publicAliases = [
  { find: /^react-dom\/client$/, replacement: "preact/compat/client" },
  { find: /^react-dom$/, replacement: "preact/compat" },
  { find: /^react\/jsx-runtime$/, replacement: "preact/compat/jsx-runtime" },
  { find: /^react\/jsx-dev-runtime$/, replacement: "preact/compat/jsx-dev-runtime" },
  { find: /^react$/, replacement: "preact/compat" },
  {
    find: /^@\/lib\/utils$/,
    replacement: fileURLToPath(new URL("./src/client/public-pages/lib/class-names.ts", import.meta.url)),
  },
  { find: "@shared", replacement: sharedRoot },
  { find: "@", replacement: clientRoot },
];

/** In development, /assinar/* and /verificar/* answer sign.html, as the server does in production. */
function publicPagesFallback(): Plugin {
  return {
    name: "consentir-public-pages-fallback",
    apply: "serve",
    configureServer(server) {
      server.middlewares.use((request, _response, next) => {
        if (request.url && PUBLIC_PAGE.test(request.url) && !request.url.includes(".")) request.url = "/sign.html";
        next();
      });
    },
  };
}

/**
 * The public signing page ships its own small bundle (DESIGN.md §6). A second entry in the same
 * Rollup graph would share chunks with the staff app, and a shared chunk carries whatever the
 * staff app also uses from it (zod, for one). So sign.html is built on its own, right after the
 * staff app, into the same dist/client: its chunks hold only what the public pages import.
 */
function publicBundle(): Plugin {
  let logLevel: UserConfig["logLevel"];
  let target = outDir;
  return {
    name: "consentir-public-bundle",
    apply: "build",
    configResolved(config) {
      logLevel = config.logLevel;
      target = config.build.outDir;
    },
    async closeBundle() {
      await build({
        ...common(),
        resolve: { alias: publicAliases },
        configFile: false,
        logLevel,
        build: {
          outDir: target,
          emptyOutDir: false,
          // Maps are written for debugging but not referenced from the bundles, and the server
          // does not serve them in production (client-app.ts).
          sourcemap: "hidden",
          rollupOptions: {
            input: { sign: fileURLToPath(new URL("./src/client/sign.html", import.meta.url)) },
          },
        },
      });
    },
  };
}

/**
 * The saveable verifier (decision 077): dist/client/verificador.html, one file with its script,
 * its worker (as text, started from a Blob) and its styles inline, so it works opened from disk
 * (file://) with no network. Bundled with esbuild: Vite writes chunks, this page must have none.
 */
function offlineVerifier(): Plugin {
  let target = outDir;
  const shared: esbuild.Plugin = {
    name: "shared-alias",
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^@shared\// }, (args) => ({
        path: path.join(sharedRoot, `${args.path.slice("@shared/".length)}.ts`),
      }));
    },
  };
  const bundle = async (entry: string, define: Record<string, string> = {}) => {
    const result = await esbuild.build({
      entryPoints: [fileURLToPath(new URL(entry, import.meta.url))],
      bundle: true,
      format: "iife",
      platform: "browser",
      target: "es2022",
      minify: true,
      write: false,
      legalComments: "none",
      plugins: [shared],
      define,
    });
    return result.outputFiles[0]!.text;
  };
  return {
    name: "consentir-offline-verifier",
    apply: "build",
    configResolved(config) {
      target = config.build.outDir;
    },
    async closeBundle() {
      const worker = await bundle("./src/client/public-pages/lib/verify-worker.ts");
      const page = await bundle("./src/client/offline-verifier/main.ts", {
        __VERIFY_WORKER_SOURCE__: JSON.stringify(worker),
      });
      const html = await readFile(
        fileURLToPath(new URL("./src/client/offline-verifier/page.html", import.meta.url)),
        "utf8",
      );
      // "</script" inside the code would end the element early: written as "<\/script".
      const script = `<script>${page.replace(/<\/script/gi, "<\\/script")}</script>`;
      await writeFile(
        path.join(target, "verificador.html"),
        html.replace("<!--SCRIPT-->", () => script),
      );
    },
  };
}

/**
 * The shared zod schema modules have no side effects a browser needs (building a schema is pure;
 * the one that matters, the pt-BR error map, lives in zod-locale.ts and stays). Declared so, a
 * screen that imports only a constant or a label re-exported by a schema module (DOCUMENT_MESSAGES
 * from document.ts, re-exported from document-basics.ts) does not pull zod into its chunk: the
 * dashboard's first load stays free of it (decision 033).
 */
const SIDE_EFFECT_FREE = /\/src\/shared\/(schemas\/(?!zod-locale\.)[^/]+|notices\/notice-schemas)\.ts$/;

export default defineConfig({
  ...common(),
  plugins: [...(common().plugins ?? []), publicPagesFallback(), publicBundle(), offlineVerifier()],
  build: {
    outDir,
    emptyOutDir: true,
    sourcemap: "hidden",
    rollupOptions: {
      treeshake: { moduleSideEffects: (id, external) => external || !SIDE_EFFECT_FREE.test(id) },
    },
  },
  server: {
    port: 3000,
    proxy: { "/api": "http://127.0.0.1:3001" },
  },
});
