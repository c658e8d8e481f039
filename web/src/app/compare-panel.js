// The Compare tab (the porting bench, docs/compare.md): the code in the editor against another
// file — one of the user's files or an example, the Beta 1 version of an `_nki` example
// proposed first. Both run as scripts in the page's worker, one after the other; their runs are
// compared by runtime/compare.mjs (the CLI's `compare` uses the same) and drawn by
// ../sim/compare-view.js. The IR and Regions tabs keep the editor's own last run.
import { compareRuns, DEFAULT_TOLERANCE } from "../../../runtime/compare.mjs";
import { detectLanguage } from "../../../render/language.js";
import { examples, findExample } from "../editor/examples.js";
import { createCompareView } from "../sim/compare-view.js";
import { fileName } from "./state.js";

const EXAMPLE = "example:";
const FILE = "file:";

/** The other version of an example: the one it says it ports, or its `_nki` twin either way. */
export function counterpart(name, source) {
  const said = /The port of (\w+)\.py/.exec(source ?? "");
  if (said && findExample(said[1])) return said[1];
  if (name?.endsWith("_nki") && findExample(name.slice(0, -4))) return name.slice(0, -4);
  if (name && findExample(`${name}_nki`)) return `${name}_nki`;
  const porter = examples.find((e) => name && e.source.includes(`The port of ${name}.py`));
  return porter?.name ?? null;
}

/**
 * @param {object} opts
 * @param {HTMLElement} opts.panel  the tab panel (#panel-compare)
 * @param {object} opts.client  the worker client (worker-client.js)
 * @param {() => object} opts.getState  the page state
 * @param {() => string} opts.editorText
 * @param {(text: string) => void} opts.note  a note in Output
 * @param {(busy: boolean) => void} opts.onBusy  a compare started / ended (the toolbar's buttons)
 * @param {(state: string, text: string) => void} opts.setStatus  the toolbar's status line
 * @param {(loc: object) => void} [opts.onSourceClick]
 */
export function createComparePanel({ panel, client, getState, editorText, note, onBusy, setStatus, onSourceClick }) {
  const doc = panel.ownerDocument;
  const el = (tag, attrs = {}, text) => {
    const e = doc.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  };

  const bar = el("div", { class: "compare-bar" });
  const withLabel = el("label", { class: "field" }, "Compare the editor with ");
  const select = el("select", { id: "compare-with", title: "The other version: one of your files or an example" });
  withLabel.append(select);
  const swap = el("button", { id: "compare-swap", type: "button", class: "small", title: "Swap which side is the old one (the reference)" }, "Swap old/new");
  const tol = (name, value) => {
    const label = el("label", { class: "field", title: `${name}: an element matches when |new − old| ≤ atol + rtol · |old|` }, `${name} `);
    const input = el("input", { id: `compare-${name}`, type: "text", inputmode: "decimal", size: "7", value: String(value), spellcheck: "false", "aria-describedby": "compare-status" });
    label.append(input);
    return [label, input];
  };
  const [rtolLabel, rtol] = tol("rtol", DEFAULT_TOLERANCE.rtol);
  const [atolLabel, atol] = tol("atol", DEFAULT_TOLERANCE.atol);
  const go = el("button", { id: "compare-run", type: "button", title: "Run both scripts and compare their simulated outputs" }, "Compare");
  bar.append(withLabel, swap, rtolLabel, atolLabel, go);
  const sides = el("p", { id: "compare-sides", class: "compare-sides" });
  const status = el("p", { id: "compare-status", class: "compare-status", role: "status", "aria-live": "polite" });
  const other = el("details", { id: "compare-other", class: "compare-other" });
  const otherSummary = el("summary", {});
  const otherCode = el("pre", { class: "compare-other-code", tabindex: "0" });
  other.append(otherSummary, otherCode);
  const result = el("div", { id: "compare-result", class: "compare-result" });
  panel.append(bar, sides, status, other, result);
  const view = createCompareView(result, { onSourceClick });
  view.clear("Pick the other version of the kernel and press Compare: both scripts run, their simulated calls are paired in order (their inputs must be equal: seed the data alike), and every output is compared element by element.");

  let swapped = false;
  let editorKey = null;

  /** The editor's side: {file, source, language, key}. */
  function editorSide() {
    const state = getState();
    const source = editorText();
    return { file: fileName(state), source, language: detectLanguage(source), key: state.example !== null ? EXAMPLE + state.example : FILE + state.current };
  }

  /** The file picked in the menu: {file, source, language}, or null. */
  function otherSide() {
    const v = select.value;
    if (v.startsWith(EXAMPLE)) {
      const e = findExample(v.slice(EXAMPLE.length));
      return e && { file: e.file, source: e.source, language: detectLanguage(e.source) };
    }
    if (v.startsWith(FILE)) {
      const f = getState().files[Number(v.slice(FILE.length))];
      return f && { file: f.name, source: f.code, language: detectLanguage(f.code) };
    }
    return null;
  }

  /** [old, new]: the Beta 1 side is the old one; same language: the editor is the new one. */
  function order(mine, theirs) {
    const editorFirst = mine.language.id === "beta1" && theirs.language.id !== "beta1";
    return editorFirst !== swapped ? [mine, theirs] : [theirs, mine];
  }

  /** Rebuilds the menu (the user's files change); proposes the counterpart for a new editor file. */
  function render() {
    const state = getState();
    const mine = editorSide();
    const previous = select.value;
    const yours = el("optgroup", { label: "Your files" });
    state.files.forEach((f, i) => {
      if (mine.key !== FILE + i) yours.append(new Option(f.name, FILE + i));
    });
    const groups = [];
    for (const id of ["beta1", "nki"]) {
      const group = el("optgroup", { label: `Examples: ${id === "nki" ? "NKI 0.6.0" : "NKI Beta 1"}` });
      for (const e of examples.filter((x) => x.language === id)) {
        if (mine.key !== EXAMPLE + e.name) group.append(Object.assign(new Option(e.name, EXAMPLE + e.name), { title: e.title }));
      }
      if (group.children.length) groups.push(group);
    }
    select.replaceChildren(...(yours.children.length ? [yours] : []), ...groups);
    if (mine.key !== editorKey) {
      editorKey = mine.key;
      swapped = false;
      const twin = counterpart(state.example, mine.source);
      if (twin) select.value = EXAMPLE + twin;
    } else if ([...select.options].some((o) => o.value === previous)) select.value = previous;
    describe();
  }

  function describe() {
    const mine = editorSide();
    const theirs = otherSide();
    if (!theirs) {
      sides.textContent = "";
      other.hidden = true;
      return;
    }
    const [o, n] = order(mine, theirs);
    const name = (s) => `${s === mine ? `the editor (${s.file})` : s.file}, ${s.language.label}`;
    sides.textContent = `old: ${name(o)} → new: ${name(n)}`;
    other.hidden = false;
    otherSummary.textContent = `Source of ${theirs.file}`;
    otherCode.textContent = theirs.source;
  }

  function tolerance() {
    const read = (input) => {
      const text = input.value.trim();
      const v = Number(text);
      const ok = text !== "" && Number.isFinite(v) && v >= 0;
      if (ok) input.removeAttribute("aria-invalid");
      else input.setAttribute("aria-invalid", "true");
      return ok ? v : null;
    };
    return { rtol: read(rtol), atol: read(atol) };
  }

  function say(state, text) {
    panel.dataset.state = state;
    status.textContent = text;
  }

  async function runSide(side, word) {
    say("running", `running the ${word} side, ${side.file}…`);
    setStatus("running", `comparing: running ${side.file}…`);
    const outcome = await client.run(side.source, side.file);
    if (outcome.kind !== "done") return { outcome };
    const { exitCode, traces = [], simulations = [] } = outcome.result;
    return { side: { file: side.file, language: side.language.label, exitCode, traces, simulations } };
  }

  async function compare() {
    if (client.running) {
      say("busy", "A run is in progress: wait for it or press Stop, then Compare.");
      return;
    }
    const theirs = otherSide();
    if (!theirs) {
      say("error", "Pick the other version in the menu first.");
      return;
    }
    const t = tolerance();
    if (t.rtol === null || t.atol === null) {
      say("error", "rtol and atol must be numbers ≥ 0 (e.g. 1e-5).");
      return;
    }
    const [o, n] = order(editorSide(), theirs);
    go.disabled = true;
    onBusy(true);
    note(`compare: running ${o.file} (old), then ${n.file} (new)`);
    try {
      const a = await runSide(o, "old");
      const b = a.side ? await runSide(n, "new") : null;
      const stopped = a.outcome ?? b?.outcome;
      if (stopped) {
        const why = stopped.kind === "stopped" ? "stopped" : stopped.kind === "crashed" ? `the runtime crashed (${stopped.message})` : stopped.message ?? stopped.kind;
        say("stopped", `Not compared: ${why}.`);
        setStatus("stopped", "compare stopped");
        view.clear();
        return;
      }
      const report = compareRuns(a.side, b.side, t);
      view.show({ report, old: a.side, new: b.side });
      say("done", `${report.verdict}: ${summary(report)}`);
      panel.dataset.verdict = report.verdict;
      setStatus(report.ok ? "ready" : "failed", `compare: ${report.verdict}`);
    } finally {
      go.disabled = false;
      onBusy(false);
    }
  }

  swap.addEventListener("click", () => {
    swapped = !swapped;
    describe();
  });
  select.addEventListener("change", describe);
  go.addEventListener("click", compare);
  for (const input of [rtol, atol]) {
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") compare();
    });
  }
  render();
  return { render, compare };
}

function summary(report) {
  const outputs = report.pairs.flatMap((p) => p.outputs);
  if (report.verdict === "not compared") return report.problems.map((p) => p.message).join("; ");
  const off = outputs.filter((o) => o.status !== "match").length;
  const calls = `${report.pairs.length} call${report.pairs.length === 1 ? "" : "s"}`;
  const of = `${off} of ${outputs.length} output${outputs.length === 1 ? "" : "s"} ${off === 1 ? "differs" : "differ"}`;
  return off ? `${of} (${calls})` : `${outputs.length} output${outputs.length === 1 ? "" : "s"} within tolerance (${calls})`;
}
