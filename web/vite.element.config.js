// Vite config for the <nki-playground> element (web/src/embed/), built apart from the page
// into build/site/element/ with stable, unhashed file names: docs pages reference
// `element/nki-playground.js` directly and must keep working across releases (an old page
// that cached the entry must still find the chunks it names).
//
// Every URL is relative (`base: "./"`): the entry finds its chunks, the worker and the core
// wasm through `import.meta.url`, so the site can be served from any sub-path.
// Run from the repository root after the site build (which empties build/site):
//   vite build --config web/vite.element.config.js
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

const names = {
  entryFileNames: "[name].js",
  chunkFileNames: "[name].js",
  assetFileNames: "[name][extname]",
};

export default defineConfig({
  root: here("./"),
  base: "./",
  publicDir: false,
  resolve: { alias: { "nki-core": here("../build/wasm/nki_core.mjs") } },
  build: {
    target: "es2022",
    outDir: here("../build/site/element"),
    emptyOutDir: true,
    modulePreload: false,
    rollupOptions: {
      input: { "nki-playground": here("src/embed/nki-playground.js") },
      preserveEntrySignatures: "exports-only",
      output: names,
    },
  },
  worker: { format: "es", rollupOptions: { output: names } },
});
