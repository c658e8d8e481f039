// Node layers: the runtime, the CLI and the Python surface in real Pyodide + the real wasm core.
// Browser tests live in tests/browser and run with vitest.browser.config.js after `npm run build`.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.js", "docs/examples/**/*.test.js"],
    exclude: ["tests/browser/**", "**/node_modules/**"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Each file boots its own Pyodide (~4 s, ~120 MB): processes, two at a time.
    pool: "forks",
    maxWorkers: 2,
    fileParallelism: true,
  },
});
