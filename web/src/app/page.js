// The playground page: wires the editor, the runtime worker's client, the result panes,
// sharing and the settings together. Each part lives in its own module (editor/, app/,
// share/); this file only decides what happens when. Kernel-derived text is only ever
// inserted as text. Loaded by ../main.js once the worker is already booting.
import { createLayout } from "./layout.js";
import { createMessages } from "./messages.js";
import { setupTheme, setupTimeLimit } from "./settings.js";
import { setStatus } from "./status.js";
import { adoptCode, DEFAULT_FILE, touch, uniqueName } from "./files.js";
import { createFilePicker } from "./file-picker.js";
import { debounce, defaultState, fileName, linkState, loadSaved, sanitizeState, save } from "./state.js";
import { createViews } from "./views.js";
import { createComparePanel } from "./compare-panel.js";
import { checkDiagnostics, definedKernels, isNotice, simulatorDiagnostics } from "../editor/diagnostics.js";
import { createEditor } from "../editor/editor.js";
import { adoptStyle } from "../adopt-style.js";
import editorCss from "./editor.css?inline";
import { findExample } from "../editor/examples.js";
import { decodeState, encodeState, languageNotice } from "../share/codec.js";

const $ = (id) => document.getElementById(id);
const status = $("status");
const notice = $("notice");

/** The run's final traces are the ones drawn while it streamed (the same objects, in order). */
function sameTraces(a, b) {
  return a !== null && a.length === b.length && a.every((t, i) => t === b[i]);
}

/** What to do when a file defines kernels but the run traced none of them. */
function untracedNote(names) {
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  const k = names[0];
  return (
    `the script defines ${names.length === 1 ? "the kernel" : "the kernels"} ${list} but calls none, so nothing was traced. ` +
    `Call one on NumPy arrays (e.g. ${k}(a, b) with np.ndarray inputs) to trace and simulate it, or trace it ` +
    `without data: nki.trace_kernel(${k}, nt.tensor[[128, 512], nl.float32], …) with neuronxcc.nki.typing as nt.`
  );
}

// The notice floats over the page (it never pushes the workspace down). A transient one ("Link
// copied.") goes away by itself; one the reader must act on stays until dismissed.
let noticeTimer = 0;
function showNotice(text, { transient = false } = {}) {
  clearTimeout(noticeTimer);
  $("notice-text").textContent = text;
  notice.hidden = !text;
  if (text && transient) noticeTimer = setTimeout(() => (notice.hidden = true), 3000);
}

/**
 * Builds the page around a worker client that is already booting.
 * @returns {Promise<{onStatus, onOutput, onIdleCrash}>} what the client's callbacks call.
 */
export async function startPage(client) {
  let busy = false; // a run is in flight: its status line wins over the worker's stages
  // A run's outcome shown while the worker that replaced the stopped one still boots: its
  // "ready" ends the "starting a fresh runtime…" suffix, never the outcome (with a warm spare
  // the outcome stays as well, so what the page says does not depend on the spare's timing).
  let outcomeShown = null; // {state, text}
  const hooks = {
    onStatus(state, message) {
      if (busy && state !== "error") return;
      if (outcomeShown && state !== "error") {
        if (state === "ready") {
          setStatus(outcomeShown.state, outcomeShown.text);
          outcomeShown = null;
        }
        return;
      }
      outcomeShown = null;
      setStatus(state);
      if (state === "error" && message) messages.stderr(`${message}\n`);
    },
    onOutput(stream, text) {
      if (stream === "stderr") messages.stderr(text);
      else if (stream === "note") messages.workerNote(text);
      else messages.stdout(text);
    },
    onIdleCrash: (message) =>
      messages.note(`the runtime stopped unexpectedly (${message}). A fresh one was started; your code is unchanged.`),
  };

  const messages = createMessages({
    onProblemClick: (d) => editor.select(d.line ?? 1, d.col ?? 1, d.end_line ?? undefined, d.end_col ?? undefined),
  });

  // State: a share link wins over the saved state, which wins over the default example.
  let state = loadSaved() ?? defaultState();
  try {
    const shared = await decodeState(location.hash);
    if (shared) state = sanitizeState(shared, state);
    showNotice(languageNotice(shared));
  } catch (err) {
    showNotice(`This link could not be opened: ${err.message}. Showing your saved code instead.`);
  }

  const filename = () => fileName(state);

  const persist = debounce(async () => {
    save(state);
    try {
      history.replaceState(null, "", `#${await encodeState(linkState(state))}`);
    } catch {
      // CompressionStream missing (very old browser): the link just is not kept in sync
    }
  }, 300);
  addEventListener("pagehide", () => persist.flush());

  // The editor lives in a shadow root, where CodeMirror adopts its style sheets instead of
  // adding a <style> to the document (which a strict Content-Security-Policy blocks).
  const editorRoot = $("editor").attachShadow({ mode: "open" });
  adoptStyle(editorRoot, "__nkpPageEditorStyle", editorCss);
  const editorMount = document.createElement("div");
  editorMount.id = "editor-mount";
  editorRoot.append(editorMount);
  const editor = createEditor(editorMount, {
    doc: state.code,
    onChange(text) {
      state.code = text;
      if (state.example === null) state.files[state.current].code = text;
      else if (text !== findExample(state.example)?.source) forkExample(text);
      picker.showLanguage(text);
      persist();
    },
    onRun: () => run(),
    onCursorLine: (line) => views?.onCursorLine(line),
    onHoverLine: (line) => views?.onHoverLine(line),
  });
  const views = createViews({ editor, fileName: () => filename() });
  let comparePanel = null;
  const layout = createLayout({
    layout: state.layout,
    onChange(next) {
      state.layout = next;
      persist();
    },
    onShow: (tab) => tab === "compare" && comparePanel?.render(),
  });

  // Files: an example is shown as it is; the first edit makes it the user's file (files.js).
  function forkExample(text) {
    const { files, index, dropped } = adoptCode(state.files, text, DEFAULT_FILE);
    Object.assign(state, { files, current: index, example: null });
    if (dropped) showNotice(`Your file list is full: ${dropped.name}, used longest ago, was removed.`);
    picker.render();
    comparePanel?.render();
  }
  const picker = createFilePicker({
    getState: () => state,
    onPick(pick) {
      if (pick.example !== undefined) {
        const example = findExample(pick.example);
        Object.assign(state, { example: example.name, current: null, code: example.source });
      } else {
        const { files, index } = touch(state.files, pick.file);
        Object.assign(state, { files, current: index, example: null, code: files[index].code });
      }
      editor.setText(state.code); // one undo step: Ctrl+Z brings the previous text back
      picker.render();
      comparePanel?.render();
      views.clear();
      persist();
    },
    onRename(name) {
      if (uniqueName(state.files, name, state.current) !== name) return `You already have a file named ${name}.`;
      state.files[state.current].name = name;
      persist();
      return null;
    },
  });

  // Running.
  const runButton = $("run");
  const stopButton = $("stop");
  const timeLimit = setupTimeLimit($("time-limit"), (ms) => (client.timeLimitMs = ms));
  setupTheme($("theme"));

  let lastResult = null;

  // The Compare tab: the editor's code against another version (the porting bench).
  comparePanel = createComparePanel({
    panel: $("panel-compare"),
    client,
    getState: () => state,
    editorText: () => editor.text(),
    note: (text) => messages.note(text),
    onBusy(on) {
      runButton.disabled = on;
      stopButton.disabled = !on;
    },
    setStatus,
    onSourceClick: (loc) => editor.select(loc.line ?? 1, loc.col ?? 1),
  });

  /** The Simulation tab's badge: how many kernels were simulated, red when a check failed. */
  function showSimCount(simulated, failedChecks) {
    const badge = $("sim-count");
    badge.textContent = simulated ? String(simulated) : "";
    badge.className = `badge ${failedChecks ? "error" : "info"}`;
    badge.title = failedChecks ? `${failedChecks} check${failedChecks > 1 ? "s" : ""} failed` : "";
  }

  async function run() {
    if (client.running) {
      setStatus("running", "already running: wait for it or press Stop");
      return;
    }
    busy = true;
    outcomeShown = null;
    persist.flush();
    showNotice("");
    messages.clear();
    const limitProblem = timeLimit.check();
    if (limitProblem) messages.note(limitProblem);
    showSimCount(0, 0);
    messages.setProblems([]);
    editor.setProblems([], filename());
    runButton.disabled = true;
    stopButton.disabled = false;
    setStatus("running", client.state === "ready" ? "tracing…" : "running (waiting for the runtime to load…)");
    views.markStale();
    const stream = streamTraces();
    const source = editor.text();
    const outcome = { ...(await client.run(source, filename(), { onTrace: stream.add })), source };
    stream.end();
    messages.settle(); // the run's last lines show at once (a flood's backlog draws over frames)
    busy = false;
    runButton.disabled = false;
    stopButton.disabled = true;
    const seconds = (outcome.elapsedMs / 1000).toFixed(1);
    switch (outcome.kind) {
      case "done": {
        lastResult = outcome.result;
        const { exitCode, traces = [], diagnostics = [], simulations = [] } = outcome.result;
        // The final traces are the streamed ones: drawn already, the DOM stays.
        if (!sameTraces(stream.shown(), traces)) views.showTraces(traces);
        views.setSimulations(simulations);
        // A failed check (np.allclose said False) is a failure of the run, at the check's line.
        const checks = simulations.flatMap((sim) => sim.comparisons ?? []);
        const failed = checkDiagnostics(simulations, diagnostics);
        showSimCount(simulations.length, checks.filter((c) => !c.ok).length);
        // Simulator warnings (a read of never-written memory…) are problems of the source too.
        const problems = [...diagnostics.filter((d) => !isNotice(d)), ...failed, ...simulatorDiagnostics(simulations)];
        messages.setProblems(problems);
        editor.setProblems(problems, filename());
        // A file that defines kernels and calls none (a library file, a published kernel):
        // say what happened and what to do instead of showing blank panes.
        const untraced = exitCode === 0 && !traces.length ? definedKernels(outcome.source) : [];
        if (!traces.length) views.showEmpty(exitCode === 0 ? "none" : "failed");
        if (untraced.length) messages.note(untracedNote(untraced));
        if (exitCode !== 0) setStatus("error", `error (exit code ${exitCode})`);
        else if (untraced.length) setStatus("empty", "ran, but no kernel was traced (see Output)");
        else if (failed.length) {
          const bad = checks.filter((c) => !c.ok).length;
          setStatus("failed", `check failed: ${bad} of ${checks.length} comparison${checks.length > 1 ? "s" : ""} (line ${failed[0].line ?? "?"})`);
        } else setStatus("ready", "ready");
        break;
      }
      case "stopped": {
        const why =
          outcome.reason === "timeout"
            ? `the script did not finish within the time limit (${client.timeLimitMs / 1000} s; change it in the toolbar)`
            : "stopped by you";
        if (outcome.started === false) {
          // Stopped while it waited for the runtime: the runtime keeps booting, nothing ran.
          messages.note("stopped before it started (the runtime was still loading); your code is unchanged.");
          setStatus("stopped", "stopped; the runtime is still starting…");
          break;
        }
        messages.note(
          `stopped after ${seconds} s: ${why}. A fresh Python runtime replaced the old one; your code is unchanged.`,
        );
        setStatus("stopped", `stopped after ${seconds} s`);
        if (stream.shown()?.length) {
          messages.note(
            "the IR shown is what the script traced before it was stopped (no simulation results).",
          );
        }
        break;
      }
      case "crashed":
        messages.note(
          `the runtime crashed after ${seconds} s (${outcome.message}). A fresh one was started; your code is unchanged.`,
        );
        setStatus("error", "the runtime crashed; restarted");
        break;
      case "failed":
        messages.note(`internal error: ${outcome.message}`);
        setStatus("error");
        break;
    }
    // A replaced worker still booting (no warm spare yet): say so until it is ready (hooks.onStatus).
    if (outcome.kind !== "done" && outcome.started !== false && client.state !== "ready") {
      outcomeShown = { state: status.dataset.state, text: status.textContent };
      setStatus(outcomeShown.state, `${outcomeShown.text}; starting a fresh runtime…`);
    }
  }

  /**
   * One run's streamed traces: shown at the next frame after they arrive (several arriving
   * together draw once), so the IR is up while the script still simulates.
   */
  function streamTraces() {
    const received = [];
    let shown = null; // null: the panes still show the previous run's
    let frame = 0;
    let open = true;
    const draw = () => {
      frame = 0;
      shown = received.slice();
      views.showTraces(shown);
      if (!open) return;
      // A trace made to simulate comes just before its simulation runs.
      const n = shown.length;
      const last = shown[n - 1];
      setStatus("running", last.simulated ? "simulating…" : `IR shown (${n} kernel${n > 1 ? "s" : ""}); still running…`);
    };
    return {
      add(trace) {
        if (!open) return;
        received.push(trace);
        if (!frame) frame = requestAnimationFrame(draw);
      },
      /** The run is over: draw what is pending now (the outcome is handled right after). */
      end() {
        open = false;
        if (frame) {
          cancelAnimationFrame(frame);
          draw();
        }
      },
      shown: () => shown,
    };
  }

  $("notice-close").addEventListener("click", () => showNotice(""));
  runButton.addEventListener("click", run);
  stopButton.addEventListener("click", () => client.stop());
  // Ctrl/Cmd+Enter anywhere on the page (the editor binds it too).
  document.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && !event.defaultPrevented) {
      event.preventDefault();
      run();
    }
  });

  // Sharing.
  $("copy-link").addEventListener("click", async () => {
    const url = `${location.href.split("#")[0]}#${await encodeState(linkState(state))}`;
    history.replaceState(null, "", url);
    try {
      await navigator.clipboard.writeText(url);
      showNotice("Link copied.", { transient: true });
    } catch {
      showNotice(`Copy this link: ${url}`);
    }
  });
  // A pasted link in the same tab (our own replaceState does not fire hashchange).
  addEventListener("hashchange", async () => {
    try {
      const shared = await decodeState(location.hash);
      if (!shared) return;
      state = sanitizeState(shared, state);
      showNotice(languageNotice(shared));
      editor.setText(state.code);
      layout.apply(state.layout);
      picker.render();
      comparePanel.render();
      views.clear();
    } catch (err) {
      showNotice(`This link could not be opened: ${err.message}. Your code is unchanged.`);
    }
  });

  // Tests and benchmarks read these; nothing in the page depends on them.
  window.nkiPlayground = {
    client,
    editor,
    views,
    get state() {
      return state;
    },
    get lastResult() {
      return lastResult;
    },
  };
  document.documentElement.dataset.editorReady = "true";
  performance.mark("nki:editor-ready");

  return hooks;
}
