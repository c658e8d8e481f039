// The porting bench's result: a report of runtime/compare.mjs drawn as the verdict, per compared
// call a table of its outputs (max abs / rel error, elements off, each side's statistics and
// what stands out: all zeros, NaN), the IR counts of both sides side by side, and per output the
// old and new values and |difference| as heatmaps — the Simulation pane's comparison view
// (sim-view.js), reused with the words old / new and match / mismatch.
//
// Kernel-derived text only ever reaches the DOM through textContent.
import { fmt } from "./heatmap.js";
import { createSimView } from "./sim-view.js";
import "./compare-view.css";

const VERDICT_TEXT = {
  match: "every output matches within tolerance",
  mismatch: "the outputs differ",
  "inputs differ": "the inputs differ: give both scripts the same data (same seed, shapes and dtypes)",
  "not compared": "not compared",
};

/**
 * @param {HTMLElement} container
 * @param {{onSourceClick?: (loc: object) => void}} [opts]
 * @returns {{element, show({report, old, new}), clear(text?), destroy()}}
 *   `old` / `new`: the two runs ({file, simulations, ...}) the report was made from; their
 *   tensors' values feed the heatmaps.
 */
export function createCompareView(container, opts = {}) {
  const doc = container.ownerDocument;
  const root = doc.createElement("div");
  root.className = "nkp-cmp";
  container.append(root);
  let simViews = [];

  function el(tag, cls, text) {
    const e = doc.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function reset() {
    for (const v of simViews) v.destroy();
    simViews = [];
    root.replaceChildren();
  }

  function table(caption, head, rows, cls) {
    const t = el("table", `nkp-cmp-table ${cls}`);
    t.append(el("caption", "", caption));
    const tr = el("tr");
    for (const h of head) {
      const th = el("th", "", h);
      th.scope = "col";
      tr.append(th);
    }
    t.append(el("thead"));
    t.tHead.append(tr);
    const body = el("tbody");
    for (const row of rows) {
      const r = el("tr", row.cls);
      row.cells.forEach((cell, i) => {
        const c = el(i === 0 ? "th" : "td", "", cell);
        if (i === 0) c.scope = "row";
        r.append(c);
      });
      body.append(r);
    }
    t.append(body);
    return t;
  }

  function sideStats(s) {
    const parts = [`min ${fmt(s.min)}`, `max ${fmt(s.max)}`, `mean ${fmt(s.mean)}`];
    return parts.join("  ");
  }

  function outputsTable(pair) {
    const rows = pair.outputs.map((o) => ({
      cls: `nkp-cmp-${o.status.replace(/\W+/g, "-")}`,
      cells: [
        o.name,
        `${o.new.dtype}[${o.new.shape.join(", ")}]`,
        fmt(o.max_abs),
        fmt(o.max_rel),
        o.mismatched === null ? "–" : `${o.mismatched.toLocaleString("en-US")} of ${o.size.toLocaleString("en-US")}`,
        [sideStats(o.old), ...o.old.flags].join("  "),
        [sideStats(o.new), ...o.new.flags].join("  "),
        o.status === "shape" ? `other shapes: ${o.detail}` : o.status === "no-data" ? "not compared (too large)" : o.status,
      ],
    }));
    return table("Outputs, element by element", ["output", "type", "max abs error", "max rel error", "elements off", "old", "new", "verdict"], rows, "nkp-cmp-outputs");
  }

  function countsTable(c) {
    const rows = [];
    const v = (w, n) => (c.traced[w] ? String(n) : "?");
    rows.push({ cls: "nkp-cmp-total", cells: ["instructions", v("old", c.instructions.old), v("new", c.instructions.new)] });
    for (const e of c.engines) rows.push({ cls: "nkp-cmp-sub", cells: [e.key === "none" ? "no engine" : e.key, String(e.old), String(e.new)] });
    rows.push({ cls: "nkp-cmp-total", cells: ["regions", v("old", c.regions.old), v("new", c.regions.new)] });
    for (const r of c.regionKinds) rows.push({ cls: "nkp-cmp-sub", cells: [r.key, String(r.old), String(r.new)] });
    if (c.executed.old !== null || c.executed.new !== null) {
      rows.push({ cls: "nkp-cmp-total", cells: ["executed (simulated)", String(c.executed.old ?? "–"), String(c.executed.new ?? "–")] });
    }
    return table("The IR of each side: instructions per engine, regions per kind", ["IR", "old", "new"], rows, "nkp-cmp-counts");
  }

  function flagNotes(pair) {
    const notes = [];
    for (const o of pair.outputs) {
      for (const word of ["old", "new"]) {
        for (const f of o[word][`flags`]) {
          const text =
            f === "all zeros"
              ? `${word} ${o.name} is all zeros: a kernel that never writes its output (nki-samples#134) looks like this.`
              : `${word} ${o.name} ${f === "all NaN" ? "is all NaN" : `holds ${f} values`}: never-written memory reads NaN in the simulator.`;
          notes.push(el("li", "nkp-cmp-flag", text));
        }
      }
      if (o.worst) {
        notes.push(el("li", "nkp-cmp-worst", `worst element ${o.name}[${o.worst.index.join(", ")}]: old ${fmt(o.worst.old)}, new ${fmt(o.worst.new)}`));
      }
    }
    if (!notes.length) return null;
    const ul = el("ul", "nkp-cmp-notes");
    ul.append(...notes);
    return ul;
  }

  function pairBlock(pair, oldRun, newRun) {
    const block = el("section", `nkp-cmp-pair ${pair.ok ? "nkp-cmp-pair-ok" : "nkp-cmp-pair-failed"}`);
    block.append(el("h3", "nkp-cmp-pair-title", `call ${pair.index + 1}: @${pair.old.kernel} → @${pair.new.kernel}`));
    const ins = pair.inputs;
    if (ins.same) {
      const list = ins.names.map((n, i) => `${n} ${ins.types[i]}`).join(", ");
      block.append(el("p", "nkp-cmp-inputs", `inputs: ${ins.count} equal${ins.unchecked ? " in shape and dtype" : ""}${list ? ` (${list})` : ""}`));
    } else {
      const p = el("div", "nkp-cmp-inputs nkp-cmp-inputs-differ");
      p.append(el("p", "", "inputs differ, so the outputs cannot be expected to agree:"));
      const ul = el("ul");
      for (const d of ins.differences) ul.append(el("li", "", d));
      p.append(ul);
      block.append(p);
    }
    for (const problem of pair.problems) block.append(el("p", "nkp-cmp-problem", problem));
    if (pair.outputs.length) block.append(outputsTable(pair));
    const notes = flagNotes(pair);
    if (notes) block.append(notes);
    block.append(countsTable(pair.counts));
    // The heatmaps: old and new on one colour range, then |difference| (sim-view's comparison).
    const a = oldRun.simulations[pair.index];
    const b = newRun.simulations[pair.index];
    const comparisons = pair.outputs.map((o, j) => ({
      label: `${o.name}: old vs new`,
      ok: o.status === "match",
      max_abs_err: o.max_abs,
      expected: { ...a.outputs[j], name: "" },
      actual: { ...b.outputs[j], name: "" },
    }));
    if (comparisons.length) {
      const maps = el("div", "nkp-cmp-maps");
      block.append(maps);
      const view = createSimView(maps, { ...opts, words: { expected: "old", actual: "new", ok: "match", failed: "mismatch" } });
      view.setSimulations([{ kernel: "", inputs: [], outputs: [], prints: [], warnings: [], comparisons }]);
      // The sim view's kernel heading says nothing here (the pair's title does).
      view.element.querySelector(".nkp-sim-kernel-name")?.remove();
      simViews.push(view);
    }
    return block;
  }

  function show({ report, old, new: neu }) {
    reset();
    const head = el("div", `nkp-cmp-head nkp-cmp-${report.ok ? "ok" : "failed"}`);
    head.dataset.verdict = report.verdict;
    head.append(el("span", `nkp-badge ${report.ok ? "nkp-badge-ok" : "nkp-badge-failed"}`, report.verdict));
    head.append(el("span", "nkp-cmp-verdict", VERDICT_TEXT[report.verdict] ?? report.verdict));
    root.append(head);
    const files = el("p", "nkp-cmp-files");
    files.append(
      el("span", "nkp-cmp-file", `old: ${report.old.file}${report.old.language ? ` (${report.old.language})` : ""}`),
      " → ",
      el("span", "nkp-cmp-file", `new: ${report.new.file}${report.new.language ? ` (${report.new.language})` : ""}`),
    );
    root.append(files);
    const { rtol, atol } = report.tolerance;
    root.append(el("p", "nkp-cmp-tolerance", `an element matches when |new − old| ≤ ${atol} + ${rtol} · |old|`));
    if (report.problems.length) {
      const ul = el("ul", "nkp-cmp-problems");
      for (const p of report.problems) ul.append(el("li", "nkp-cmp-problem", p.message));
      root.append(ul);
    }
    for (const pair of report.pairs) root.append(pairBlock(pair, old, neu));
  }

  return {
    element: root,
    show,
    clear(text = "") {
      reset();
      if (text) root.append(el("p", "nkp-cmp-empty", text));
    },
    destroy() {
      reset();
      root.remove();
    },
  };
}
