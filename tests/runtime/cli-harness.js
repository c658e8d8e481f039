// Runs the CLI as a user does: a separate node process, paths relative to the repository root.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const CLI = fileURLToPath(new URL("../../bin/nki-playground.mjs", import.meta.url));

/** Resolves {code, stdout, stderr}; `opts.cwd` defaults to the repository root. */
export function cli(args, { cwd = ROOT, env = process.env } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** `text` with the five entities the HTML escaper writes turned back into characters. */
export function decodeEntities(text) {
  return text.replace(/&(lt|gt|amp|quot|#39);/g, (_, e) => ({ lt: "<", gt: ">", amp: "&", quot: '"', "#39": "'" })[e]);
}

/** The text of the <template class="nkp-ir-json"> in a pre-rendered embed, entity-decoded. */
export function embeddedJson(html) {
  const m = /<template class="nkp-ir-json">([\s\S]*?)<\/template>/.exec(html);
  return m ? decodeEntities(m[1]) : null;
}
