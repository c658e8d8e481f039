// Node-only helper: reads the Python package from disk as {relativePath: text}.
// Shared by node.mjs (headless runtime) and scripts/bundle-python.mjs (web bundle).
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** The package root in the repository: python (holds neuronxcc/...). */
export const PYTHON_PACKAGE_DIR = fileURLToPath(new URL("../python/", import.meta.url));

/**
 * Every `*.py` file under `root`, keyed by its path relative to `root` with `/` separators,
 * in sorted order so bundles are reproducible.
 */
export function readPythonFiles(root = PYTHON_PACKAGE_DIR) {
  const files = {};
  const walk = (dir) => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    for (const entry of entries) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "__pycache__" && !entry.name.startsWith(".")) walk(full);
      } else if (entry.isFile() && entry.name.endsWith(".py")) {
        files[relative(root, full).split(sep).join("/")] = readFileSync(full, "utf8");
      }
    }
  };
  walk(root);
  if (Object.keys(files).length === 0) throw new Error(`no Python files under ${root}`);
  return files;
}
