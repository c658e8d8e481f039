// Browser layer: the built site (build/site) in Debian's Chromium via playwright-core.
// Run after `npm run build`: `vitest run --config vitest.browser.config.js`.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/browser/**/*.test.js"],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: "forks",
    maxWorkers: 1,
  },
});
