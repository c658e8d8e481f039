// JS lint (npm run lint): ESLint's recommended rules over the runtime, the CLI, the renderer, the
// page, the scripts and the tests. Formatting is not checked here.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["build/**", "node_modules/**", "web/public/**", "**/*.d.ts"] },
  js.configs.recommended,
  {
    files: ["**/*.js", "**/*.mjs"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.node, ...globals.browser },
    },
    rules: {
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none", ignoreRestSiblings: true }],
    },
  },
  {
    // Emscripten's pre/post-js shims run inside the generated module's scope.
    files: ["wasm/bind/*.js", "tests/sim/sim_bench_pre.js"],
    languageOptions: { sourceType: "script" },
    rules: { "no-undef": "off", "no-unused-vars": "off", "no-redeclare": "off" },
  },
];
