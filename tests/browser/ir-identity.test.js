// One printer, every sink: for each kernel in kernels/, the IR JSON text is the same bytes
// from the CLI (`trace --format json`), the Node runtime (traces[i].irJson), the browser's
// worker (the built site's worker asset in Chromium) and the docs pre-render's embedded JSON.
// Lives in the browser layer because it needs build/site and Chromium.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, test } from "vitest";

import { createNodeRuntime } from "../../runtime/node.mjs";
import { ROOT, cli, decodeEntities } from "../runtime/cli-harness.js";
import { openWorkerPage, usePlayground } from "./harness.js";

const KERNELS = readdirSync(join(ROOT, "kernels"))
  .filter((f) => f.endsWith(".py"))
  .sort()
  .map((f) => `kernels/${f}`);

/** The CLI's stdout for `args` (run from the repository root); fails on a non-zero exit. */
async function cliStdout(args) {
  const { code, stdout, stderr } = await cli(args);
  expect(code, stderr).toBe(0);
  return stdout;
}

/** `[\n{k0},\n{k1}\n]\n` → ["{k0}", "{k1}"] (the CLI's one-kernel-per-line array form). */
function entries(arrayText) {
  expect(arrayText.startsWith("[\n") && arrayText.endsWith("\n]\n")).toBe(true);
  return arrayText.slice(2, -3).split(",\n");
}

const pg = usePlayground({ open: false });

/** Runs every kernel through the built worker in Chromium; returns [[irJson...] per kernel]. */
async function browserIrJson() {
  const page = await openWorkerPage(pg.browser.context, pg.server.url);
  const runs = KERNELS.map((file) => ({ filename: file, source: readFileSync(join(ROOT, file), "utf8") }));
  const result = await page.evaluate(async (runs) => {
    const { done, messages } = await window.runInBuiltWorker(runs);
    // The IR JSON text as posted: each trace's message (its printed form), in the order `done`
    // refers to them.
    const posted = (id, index) => messages.find((m) => m.type === "trace" && m.id === id && m.index === index).trace.ir;
    return done.map((d) => ({ exitCode: d.exitCode, irJson: d.traces.map((ref) => posted(d.id, ref.index)) }));
  }, runs);
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
