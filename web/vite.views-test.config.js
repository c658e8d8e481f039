// Vite config for the view components' test page (views-test.html), built apart from the site
// into build/views-test/: it is for tests/browser/views.test.js and scripts/bench-views.mjs
// only, and the published site must not ship it (issue 14).
// Run from the repository root: `vite build --config web/vite.views-test.config.js`.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: here("./"),
  base: "./",
  publicDir: false,
  build: {
    target: "es2022",
    outDir: here("../build/views-test"),
    emptyOutDir: true,
    rollupOptions: { input: { "views-test": here("./views-test.html") } },
  },
});
