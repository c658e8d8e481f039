// Vite config for the playground page. Root is web/; the build goes to build/site.
// Run from the repository root: `vite build --config web/vite.config.js`.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: here("./"),
  // Relative URLs everywhere (./assets/...), so build/site can be served from any sub-path.
  // The worker finds the site root relative to its own URL (web/src/worker.js).
  base: "./",
  publicDir: here("./public"), // pyodide/ and nki-python.json, written by scripts/
  resolve: {
    alias: {
      // The Emscripten ES module; Vite turns its `new URL("nki_core.wasm", import.meta.url)`
      // into a hashed asset next to the worker bundle.
      "nki-core": here("../build/wasm/nki_core.mjs"),
    },
  },
  build: {
    target: "es2022",
    outDir: here("../build/site"),
    emptyOutDir: true,
    // views-test.html is built apart (vite.views-test.config.js): the site does not ship it.
    rollupOptions: { input: { main: here("./index.html") } },
  },
  worker: { format: "es" },
  optimizeDeps: { exclude: ["pyodide"] },
  server: { fs: { allow: [here("../")] } },
});
