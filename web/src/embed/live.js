// The live part of <nki-playground>, loaded on the first Run: the page's CodeMirror editor in
// place of the static code, a compact tab strip over the IR / Regions / Simulation / Output
// panes, diagnostics inline, and runs through the page's one shared runtime worker.
// Kernel-derived text (output, diagnostics, names) only ever goes in through textContent or
// the components, which do the same.
import { EditorState, StateEffect, Compartment } from "@codemirror/state";
import { EditorView } from "@codemirror/view";

import { simulatorDiagnostics, checkDiagnostics, isNotice } from "../editor/diagnostics.js";
import { createEditor } from "../editor/editor.js";
import editorCss from "./editor.css?inline";
import liveCss from "./live.css?inline";
import { createIrView, createLinkIndex, createLinking, createRegionView, createSimView } from "./panes.js";
import { runShared, stopShared, watchRuntimeStatus } from "./runtime.js";
import { createTabs } from "./tabs.js";

const PANE_TITLES = { ir: "IR", regions: "Regions", sim: "Simulation", output: "Output" };
const STAGES = {
  downloading: "downloading the runtime…",
  starting: "starting Python…",
  ready: "ready",
  error: "the runtime failed to load",
};

/**
 * Turns `el` live. Returns the handle the element keeps.
 * @param {HTMLElement} el
 * @param {{source: string, filename: string, panes: string[], readOnly: boolean,
 *          setStatus: (state: string, text: string, code?: string | null) => void, onSourceChange: () => void,
 *          runButton: HTMLButtonElement,
 *          adoptStyle: (root: Document | ShadowRoot, key: string, css: string) => void,
 *          errorsPageHref: (code: string) => string}} opts
 *   adoptStyle and errorsPageHref are the element's own (nki-playground.js passes them): live.js
 *   imports nothing from the entry, so the two modules form no circle, and it imports no shared
 *   module of its own, which would split the entry into a facade and a second chunk.
 */
export async function mountLive(el, opts) {
  const doc = el.ownerDocument;
  const { filename, setStatus, runButton, adoptStyle, errorsPageHref } = opts;
  adoptStyle(doc, "__nkpLiveStyle", liveCss);

  const live = doc.createElement("div");
  live.className = "nkp-live";
  const editorHost = doc.createElement("div");
  editorHost.className = "nkp-editor";
  const tabs = createTabs(doc, opts.panes.map((id) => ({ id, title: PANE_TITLES[id] })));
  live.append(editorHost, tabs.element);
  el.append(live);

  const stopButton = doc.createElement("button");
  stopButton.type = "button";
  stopButton.className = "nkp-stop";
  stopButton.textContent = "Stop";
  stopButton.hidden = true;
  runButton.after(stopButton);

  let running = false;
  let runsDone = 0;
  let link = null;
  const linking = createLinking();

  // The editor lives in a shadow root: CodeMirror then mounts its styles as constructed sheets
  // there instead of a <style> in <head>, which a strict style-src policy would block.
  const editorRoot = editorHost.attachShadow({ mode: "open" });
  adoptStyle(editorRoot, "__nkpEditorStyle", editorCss);
  const editorMount = doc.createElement("div");
  editorRoot.append(editorMount);
  const editor = createEditor(editorMount, {
    doc: opts.source,
    label: `${filename} (NKI kernel source)`,
    onChange: () => opts.onSourceChange(),
    onRun: () => handle.run(),
    onCursorLine: (line) => linking.cursorLine(line),
    onHoverLine: (line) => linking.hoverLine(line),
  });
  const readOnly = new Compartment();
  editor.view.dispatch({
    effects: StateEffect.appendConfig.of(readOnly.of(readOnlyExtensions(opts.readOnly))),
  });

  const views = {};
  if (tabs.panel("ir")) {
    views.ir = createIrView(tabs.panel("ir"), {
      onLineClick: (record, index) => linking.irLineClick(index),
      onLineHover: (record) => linking.irLineHover(record),
    });
  }
  if (tabs.panel("regions")) {
    views.regions = createRegionView(tabs.panel("regions"), {
      onRegionClick: (id) => linking.regionClick(id),
      onRegionHover: (id) => linking.regionHover(id),
    });
  }
  if (tabs.panel("sim")) {
    views.sim = createSimView(tabs.panel("sim"), {
      onSourceClick: (loc) => linking.sourceClick(loc),
      errorHref: errorsPageHref,
    });
  }
  const output = tabs.panel("output") ? doc.createElement("pre") : null;
  if (output) {
    output.className = "nkp-output";
    tabs.panel("output").append(output);
  }
  linking.attach({ editor, ir: views.ir, regions: views.regions, getLink: () => link, cursorLine: editor.cursorLine() });

  function appendOutput(stream, text) {
    if (!output) return;
    const span = doc.createElement("span");
    span.className = `nkp-${stream}`;
    span.textContent = text;
    output.append(span);
  }

  // Staged progress of the shared runtime, shown while this element waits for it.
  let runtimeState = "downloading";
  const unwatch = watchRuntimeStatus((state) => {
    runtimeState = state;
    if (running && state !== "ready") setStatus(state === "error" ? "error" : "loading", STAGES[state] ?? state);
  });

  /** The IR and region panes (and the linking) show `traces`: streamed ones, then the final. */
  function showTraces(traces) {
    link = traces.length ? createLinkIndex(traces) : null;
    // The views reuse this index instead of building their own.
    views.ir?.setTraces(traces, link);
    views.regions?.setTraces(traces, link);
    linking.cursorLine(editor.cursorLine());
    el.dataset.irLines = String(traces.reduce((n, t) => n + (t.records?.length ?? 0), 0));
  }

  function showResult(result) {
    const { exitCode, traces = [], diagnostics = [], simulations = [] } = result;
    showTraces(traces);
    views.sim?.setSimulations(simulations);
    // Simulator warnings are marked in the source like the run's own warnings.
    const failed = checkDiagnostics(simulations, diagnostics);
    editor.setProblems([...diagnostics.filter((d) => !isNotice(d)), ...failed, ...simulatorDiagnostics(simulations)], filename);
    // The rendered diagnostics are already in Output: the runtime wrote them to stderr.
    const errors = diagnostics.filter((d) => d.severity !== "warning");
    if (exitCode === 0 && failed.length) {
      // A wrong kernel: its check against the reference said False (issue 14).
      setStatus("error", `check failed at line ${failed[0].line ?? "?"}: expected and actual differ`);
      if (tabs.has("sim")) tabs.select("sim");
    } else if (exitCode === 0) {
      setStatus("done", traces.length ? `traced ${traces.map((t) => t.kernel).join(", ")}` : "done (no kernel traced)");
      if (!traces.length && tabs.has("output")) tabs.select("output");
      else if (simulations.length && tabs.has("sim") && !tabs.has("ir")) tabs.select("sim");
    } else {
      const first = errors[0];
      setStatus("error", first ? `${first.class ?? "error"} at line ${first.line}: ${first.message}` : `failed (exit code ${exitCode})`, first?.code);
      if (tabs.has("output")) tabs.select("output");
    }
  }

  const handle = {
    getSource: () => editor.text(),
    setReadOnly(value) {
      editor.view.dispatch({ effects: readOnly.reconfigure(readOnlyExtensions(value)) });
    },
    async run() {
      if (running) return null;
      running = true;
      el.dataset.state = "running";
      runButton.disabled = true;
      stopButton.hidden = false;
      output?.replaceChildren();
      setStatus("running", runtimeState === "ready" ? "running…" : STAGES[runtimeState] ?? "starting…");
      let outcome;
      try {
        // Each kernel's IR shows as soon as it is traced, while the example goes on simulating.
        const streamed = [];
        const onTrace = (trace) => {
          streamed.push(trace);
          showTraces(streamed.slice());
          setStatus("running", `traced ${streamed.map((t) => t.kernel).join(", ")}; still running…`);
        };
        outcome = await runShared(el, editor.text(), filename, appendOutput, onTrace);
      } catch (err) {
        outcome = { kind: "failed", message: String(err?.message ?? err) };
      }
      running = false;
      runButton.disabled = false;
      stopButton.hidden = true;
      if (outcome.kind === "done") showResult(outcome.result);
      else if (outcome.kind === "stopped") {
        setStatus("error", outcome.reason === "timeout"
          ? `stopped after ${(outcome.elapsedMs / 1000).toFixed(1)} s: the script did not finish`
          : "stopped");
      } else setStatus("error", `internal error: ${outcome.message ?? outcome.kind}`);
      el.dataset.state = outcome.kind === "done" && outcome.result.exitCode === 0 ? "done" : "error";
      el.dataset.runsDone = String(++runsDone);
      return outcome;
    },
    destroy() {
      unwatch();
      views.ir?.destroy?.();
      editor.view.destroy();
      live.remove();
      stopButton.remove();
    },
  };
  stopButton.addEventListener("click", () => stopShared(el));
  return handle;
}

function readOnlyExtensions(value) {
  return value ? [EditorState.readOnly.of(true), EditorView.editable.of(false)] : [];
}
