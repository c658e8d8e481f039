// The simulation pane: per simulated kernel, its outputs then inputs as heatmaps with
// min/max/mean (and NaN count), device_print output, warnings (reads of never-written memory…)
// pointing at the source, and comparisons — expected, actual and |difference| side by side
// with the max abs error and an ok/failed badge. Input: the run result's `simulations` (shape
// in web/src/sim/README.md).
//
// Kernel-derived text only ever reaches the DOM through textContent.

import { createHeatmap, createLegend, fmt, sliceOf } from "./heatmap.js";
import { download, npyDtype, toNpy } from "./npy.js";
import "./sim-view.css"; // a shadow-root host imports "./sim-view.css?inline" itself

/**
 * @param {HTMLElement} container
 * @param {{onSourceClick?: (loc: {file: string, line: number, col: number}) => void,
 *          errorHref?: (code: string) => string,
 *          words?: {expected?: string, actual?: string, ok?: string, failed?: string}}} [opts]
 *   `errorHref`: the errors-page URL of a warning's code; without it codes are shown unlinked.
 *   `words`: how a comparison names its sides and verdicts (the Compare tab: old / new, match /
 *   mismatch); default expected / actual, ok / failed.
 */
const NO_SIMULATION = "No simulation in this run. Call the kernel on NumPy arrays (or nki.simulate_kernel) to see its data here.";

export function createSimView(container, opts = {}) {
  const { onSourceClick = () => {}, errorHref = null } = opts;
  const words = { expected: "expected", actual: "actual", ok: "ok", failed: "failed", ...opts.words };
  const doc = container.ownerDocument;
  const root = doc.createElement("div");
  root.className = "nkp-sim";
  container.append(root);

  function el(tag, cls, text) {
    const e = doc.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // `file:line:col` as a button that asks the host to show that source position.
  function sourceButton(loc) {
    if (!loc || !loc.line) return null;
    const b = el("button", "nkp-sim-src", `${baseName(loc.file)}:${loc.line}${loc.col ? `:${loc.col}` : ""}`);
    b.type = "button";
    b.title = "Show in the source";
    b.addEventListener("click", () => onSourceClick({ file: loc.file, line: loc.line, col: loc.col }));
    return b;
  }

  // A warning's code, linking to its section of the errors page (cause and fix).
  function codeLink(code) {
    if (!errorHref) return el("code", "nkp-sim-code", code);
    const a = el("a", "nkp-sim-code", code);
    a.href = errorHref(code);
    a.target = "_blank";
    a.rel = "noopener";
    a.title = "What this warning means and how to fix it";
    return a;
  }

  function statsText(t) {
    const parts = [`min ${fmt(t.min)}`, `max ${fmt(t.max)}`, `mean ${fmt(t.mean)}`];
    if (t.nan_count) parts.push(`nan ${t.nan_count}`);
    return parts.join("  ");
  }

  // One tensor: name, shape and dtype, stats, heatmap over [lo, hi] (its own range by default),
  // a .npy download, and for more than two dimensions a slice picker (index the leading
  // dimensions; "all" keeps a dimension flattened into the rows).
  function tensorCard(t, { title = t.name, lo = t.min, hi = t.max } = {}) {
    const card = el("figure", "nkp-tensor");
    const cap = el("figcaption", "nkp-tensor-head");
    cap.append(el("span", "nkp-tensor-name", title));
    cap.append(el("span", "nkp-tensor-type", `${t.dtype || ""}[${(t.shape || []).join(", ")}]`));
    const shape = t.shape || (t.data ? [t.data.length] : []);
    if (t.data && t.data.length) cap.append(downloadButton(t, title));
    card.append(cap);
    card.append(el("div", "nkp-tensor-stats", statsText(t)));
    const hover = el("div", "nkp-tensor-hover", "\u00a0");
    hover.setAttribute("aria-live", "off");
    if (t.data && t.data.length) {
      const finite = Number.isFinite(lo) && Number.isFinite(hi);
      const name = t.name || title;
      const draw = (fixed) => {
        const { data, shape: sub, label, indexOf } = sliceOf(t.data, shape, fixed, name);
        return createHeatmap(doc, {
          data,
          shape: sub,
          name,
          indexOf,
          lo: finite ? lo : 0,
          hi: finite ? hi : 0,
          label,
          onHover: (text) => (hover.textContent = text || "\u00a0"),
        });
      };
      let map = draw([]);
      if (shape.length > 2) card.append(slicePicker(shape, (fixed) => map.replaceWith((map = draw(fixed)))));
      card.append(map);
      card.append(createLegend(doc, lo, hi), hover);
      // A uniform tensor draws one flat colour: say what it is.
      if (t.min !== null && t.min === t.max && !t.nan_count) {
        card.append(el("div", "nkp-tensor-note", `all ${t.data.length.toLocaleString("en-US")} values are ${fmt(t.min)}`));
      }
    } else {
      const n = shape.reduce((a, b) => a * b, 1);
      card.append(el("div", "nkp-tensor-nodata", `values not kept (${n.toLocaleString("en-US")} elements)`));
    }
    return card;
  }

  function downloadButton(t, title) {
    const b = el("button", "nkp-sim-download", ".npy");
    b.type = "button";
    const as = npyDtype(t.dtype);
    const file = `${String(title || t.name || "tensor").replace(/[^\w.-]+/g, "_")}.npy`;
    b.title = `Download ${file} (np.load reads it; ${as}${as !== t.dtype ? `, as ${t.dtype} has no NumPy type` : ""})`;
    b.setAttribute("aria-label", `Download ${title || t.name} as ${file}`);
    b.addEventListener("click", () => download(doc, file, toNpy(t.data, t.shape || [t.data.length], t.dtype)));
    return b;
  }

  // One select per leading dimension (all but the last two): "all" or an index.
  function slicePicker(shape, onChange) {
    const box = el("div", "nkp-slice");
    box.append(el("span", "nkp-slice-label", "slice ["));
    const selects = shape.slice(0, -2).map((n, d) => {
      const select = el("select", "nkp-slice-dim");
      select.setAttribute("aria-label", `Index of dimension ${d}`);
      select.append(new Option(":", ""));
      for (let i = 0; i < n; i++) select.append(new Option(String(i), String(i)));
      select.addEventListener("change", () => onChange(selects.map((s) => (s.value === "" ? null : Number(s.value)))));
      return select;
    });
    selects.forEach((sel, d) => box.append(sel, d < selects.length - 1 ? ", " : ""));
    box.append(el("span", "nkp-slice-label", ", :, :]"));
    return box;
  }

  function section(title, cls) {
    const s = el("section", `nkp-sim-section ${cls}`);
    s.append(el("h4", "nkp-sim-title", title));
    return s;
  }

  // |expected − actual| as a tensor summary, when both kept their values and agree in size.
  function difference(c) {
    const a = c.expected && c.expected.data;
    const b = c.actual && c.actual.data;
    if (!a || !b || a.length !== b.length) return null;
    const d = new Float32Array(a.length);
    let min = Infinity, max = -Infinity, sum = 0, n = 0, nans = 0;
    for (let i = 0; i < a.length; i++) {
      const v = Math.abs(a[i] - b[i]);
      d[i] = v;
      if (v !== v) { nans++; continue; }
      if (v < min) min = v;
      if (v > max) max = v;
      sum += v;
      n++;
    }
    const t = { name: "|difference|", shape: c.actual.shape, dtype: "f32", data: d,
      min: n ? min : NaN, max: n ? max : NaN, mean: n ? sum / n : NaN };
    if (nans) t.nan_count = nans;
    return t;
  }

  function comparisonBlock(c) {
    const box = el("div", `nkp-compare ${c.ok ? "nkp-compare-ok" : "nkp-compare-failed"}`);
    const head = el("div", "nkp-compare-head");
    head.append(el("span", `nkp-badge ${c.ok ? "nkp-badge-ok" : "nkp-badge-failed"}`, c.ok ? words.ok : words.failed));
    head.append(el("span", "nkp-compare-label", c.label || "comparison"));
    head.append(el("span", "nkp-compare-err", `max abs error ${fmt(c.max_abs_err)}`));
    const src = sourceButton(c);
    if (src) head.append(src);
    box.append(head);
    const row = el("div", "nkp-tensor-row");
    // Expected and actual share one colour range so equal values look equal.
    const lo = Math.min(c.expected?.min ?? Infinity, c.actual?.min ?? Infinity);
    const hi = Math.max(c.expected?.max ?? -Infinity, c.actual?.max ?? -Infinity);
    const titled = (word, t) => (!t.name || t.name === word ? word : `${word} ${t.name}`);
    if (c.expected) row.append(tensorCard(c.expected, { title: titled(words.expected, c.expected), lo, hi }));
    if (c.actual) row.append(tensorCard(c.actual, { title: titled(words.actual, c.actual), lo, hi }));
    const diff = difference(c);
    if (diff && diff.max === 0 && !diff.nan_count) {
      // Nothing to draw: a flat heatmap of zeros would read as "something is there".
      row.append(el("p", "nkp-compare-same", `|difference| is 0 everywhere: ${words.expected} and ${words.actual} are equal element for element.`));
    } else if (diff) row.append(tensorCard(diff, { lo: 0, hi: diff.max }));
    box.append(row);
    return box;
  }

  function simulationBlock(sim) {
    const block = el("article", "nkp-sim-kernel");
    block.append(el("h3", "nkp-sim-kernel-name", sim.kernel ? `@${sim.kernel}` : "simulation"));
    if (sim.warnings && sim.warnings.length) {
      const s = section("Warnings", "nkp-sim-warnings");
      const ul = el("ul");
      for (const w of sim.warnings) {
        const li = el("li", "nkp-sim-warning");
        li.append(el("span", "nkp-sim-warning-text", w.message));
        const src = sourceButton(w);
        if (src) li.append(" ", src);
        if (w.code) li.append(" ", codeLink(w.code));
        ul.append(li);
      }
      s.append(ul);
      if (sim.warnings_dropped) s.append(el("p", "nkp-sim-more", `${sim.warnings_dropped} more simulator warnings were not kept`));
      block.append(s);
    }
    if (sim.comparisons && sim.comparisons.length) {
      const s = section("Expected vs actual", "nkp-sim-comparisons");
      for (const c of sim.comparisons) s.append(comparisonBlock(c));
      block.append(s);
    }
    for (const [title, list, cls] of [["Outputs", sim.outputs, "nkp-sim-outputs"], ["Inputs", sim.inputs, "nkp-sim-inputs"]]) {
      if (!list || !list.length) continue;
      const s = section(title, cls);
      const row = el("div", "nkp-tensor-row");
      for (const t of list) row.append(tensorCard(t));
      s.append(row);
      block.append(s);
    }
    const prints = sim.prints || [];
    if (prints.length || sim.prints_dropped) {
      const s = section("device_print", "nkp-sim-prints");
      for (const p of prints) {
        const line = el("div", "nkp-sim-print");
        line.append(el("pre", "nkp-sim-print-text", p.text));
        const src = sourceButton(p);
        if (src) line.append(src);
        s.append(line);
      }
      // The simulator keeps the first prints of a run only (a print in a long loop).
      if (sim.prints_dropped) {
        s.append(el("p", "nkp-sim-more", `${sim.prints_dropped} more device_print outputs were not kept (the first ${prints.length} are above)`));
      }
      block.append(s);
    }
    return block;
  }

  // `empty`: what the pane says when there is no simulation (the host knows why).
  function setSimulations(simulations, { empty = NO_SIMULATION } = {}) {
    root.replaceChildren();
    const list = simulations || [];
    if (!list.length) {
      root.append(el("p", "nkp-sim-empty", empty));
      return;
    }
    for (const sim of list) root.append(simulationBlock(sim));
  }

  setSimulations([]);
  return {
    element: root,
    setSimulations,
    clear(opts) {
      setSimulations([], opts);
    },
    destroy() {
      root.remove();
    },
  };
}

function baseName(file) {
  return String(file || "").split("/").pop();
}
