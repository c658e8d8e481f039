// One printer, every sink: for each kernel in kernels/, the IR JSON text is the same bytes
// from the CLI (`trace --format json`), the Node runtime (traces[i].irJson), the browser's
// worker (the built site's worker asset in Chromium) and the docs pre-render's embedded JSON.
// Lives in the browser layer because it needs build/site and Chromium.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { createNodeRuntime } from "../../wasm/js/node.mjs";
import { serve } from "../../scripts/serve.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SITE = join(ROOT, "build/site");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const KERNELS = readdirSync(join(ROOT, "kernels"))
  .filter((f) => f.endsWith(".py"))
  .sort()
  .map((f) => `kernels/${f}`);

/** The CLI's stdout for `args` (run from the repository root); rejects on a non-zero exit. */
function cliStdout(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["bin/nki-playground.mjs", ...args], { cwd: ROOT });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${err}`))));
  });
}

/** `[\n{k0},\n{k1}\n]\n` → ["{k0}", "{k1}"] (the CLI's one-kernel-per-line array form). */
function entries(arrayText) {
  expect(arrayText.startsWith("[\n") && arrayText.endsWith("\n]\n")).toBe(true);
  return arrayText.slice(2, -3).split(",\n");
}

function decodeEntities(text) {
  return text.replace(/&(lt|gt|amp|quot|#39);/g, (_, e) => ({ lt: "<", gt: ">", amp: "&", quot: '"', "#39": "'" })[e]);
}

let server;
let context;
let profileDir;

beforeAll(async () => {
  if (!existsSync(join(SITE, "index.html"))) throw new Error(`${SITE} has no index.html; run \`npm run build\` first`);
  ({ server } = await serve({ root: SITE, port: 0 }));
  profileDir = mkdtempSync(join(tmpdir(), "nki-chromium-profile-"));
  context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
});

afterAll(async () => {
  await context?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
  if (profileDir) rmSync(profileDir, { recursive: true, force: true });
});

/** Runs every kernel through the built worker in Chromium; returns [[irJson...] per kernel]. */
async function browserIrJson() {
  const worker = readdirSync(join(SITE, "assets")).find((f) => /^worker-.*\.js$/.test(f));
  expect(worker, "the built site has a worker asset").toBeTruthy();
  const page = await context.newPage();
  // A same-origin document that runs no page script of its own: only our worker boots.
  await page.goto(`http://127.0.0.1:${server.address().port}/nki-python.json`);
  const sources = KERNELS.map((file) => ({ file, source: readFileSync(join(ROOT, file), "utf8") }));
  const result = await page.evaluate(
    ({ workerUrl, sources }) =>
      new Promise((resolve, reject) => {
        const w = new Worker(workerUrl, { type: "module" });
        const out = [];
        let next = 0;
        const runNext = () => {
          if (next === sources.length) return resolve(out);
          const { file, source } = sources[next];
          w.postMessage({ type: "run", id: next, source, filename: file });
        };
        w.onerror = (e) => reject(new Error(`worker error: ${e.message}`));
        w.onmessage = ({ data }) => {
          if (data.type === "status" && data.state === "ready") runNext();
          else if (data.type === "status" && data.state === "error") reject(new Error(data.message));
          else if (data.type === "failed") reject(new Error(data.message));
          else if (data.type === "done") {
            out.push({ exitCode: data.exitCode, irJson: data.traces.map((t) => t.irJson) });
            next++;
            runNext();
          }
        };
      }),
    { workerUrl: `/assets/${worker}`, sources },
  );
  await page.close();
  return result;
}

describe("IR JSON byte identity", () => {
  test("CLI == Node runtime == browser worker == pre-render, for every kernel in kernels/", async () => {
    const [cliJson, cliHtml, browser] = await Promise.all([
      cliStdout(["trace", "--format", "json", ...KERNELS]),
      cliStdout(["trace", "--format", "html", ...KERNELS]),
      browserIrJson(),
    ]);

    const runtime = await createNodeRuntime({ stdout: () => {}, stderr: () => {} });
    const node = KERNELS.map((file) => {
      const { exitCode, traces } = runtime.runFile(file);
      expect({ file, exitCode }).toEqual({ file, exitCode: 0 });
      return traces.map((t) => t.irJson);
    });

    const html = [...cliHtml.matchAll(/<template class="nkp-ir-json">([\s\S]*?)<\/template>/g)].map((m) =>
      entries(decodeEntities(m[1])),
    );
    expect(html.length).toBe(KERNELS.length);
    expect(browser.map((b) => b.exitCode)).toEqual(KERNELS.map(() => 0));

    expect(entries(cliJson)).toEqual(node.flat());
    expect(browser.map((b) => b.irJson)).toEqual(node);
    expect(html).toEqual(node);
    expect(node.flat().length).toBeGreaterThanOrEqual(KERNELS.length);
    // The comparison is of the printer's text: re-serialising would have changed some kernels
    // (the printer writes 1e-06 where JSON.stringify writes 0.000001), and the test would see it.
    const reserialised = node.flat().filter((text) => JSON.stringify(JSON.parse(text)) !== text);
    expect(reserialised.length).toBeGreaterThan(0);
  });
});
