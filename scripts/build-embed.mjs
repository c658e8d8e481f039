// Builds the <nki-playground> element into build/site/element/ (web/vite.element.config.js)
// and then the demo docs page that uses it (scripts/prerender-demo.mjs). Runs after the site
// build, which empties build/site.
//
//   node scripts/build-embed.mjs
import { fileURLToPath } from "node:url";

import { build } from "vite";

import { prerenderDemo } from "./prerender-demo.mjs";

await build({
  configFile: fileURLToPath(new URL("../web/vite.element.config.js", import.meta.url)),
  logLevel: "warn",
});
await prerenderDemo();
