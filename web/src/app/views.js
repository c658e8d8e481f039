// The result panes (IR, regions, simulation) and the three-way linking between them and the
// editor: a source line lights its IR lines and regions, an IR line its source line and region,
// a region its source span and IR block. The breadcrumb shows the region path of the cursor.
//
// The components (web/src/ir, regions, sim, link) own rendering; this file owns the linking.
import { createIrView } from "../ir/ir-view.js";
import { createLinkIndex } from "../link/link-index.js";
import { createRegionView } from "../regions/region-view.js";
import { createSimView } from "../sim/sim-view.js";

const numbers = (a, b) => Array.from({ length: Math.max(0, b - a + 1) }, (_, k) => a + k);
const asSet = (x) => new Set(x == null ? [] : typeof x === "object" ? x : [x]);

/**
 * @param {object} opts
 * @param {object} opts.editor  from createEditor.
 */
export function createViews({ editor }) {
  const panels = {
    ir: document.getElementById("panel-ir"),
    regions: document.getElementById("panel-regions"),
    sim: document.getElementById("panel-sim"),
  };
  const breadcrumb = document.getElementById("breadcrumb");
  let link = null;
  let cursorLine = editor.cursorLine();

  const irView = createIrView(panels.ir, {
    onLineClick(record, index) {
      const line = link?.sourceLineForIrLine(index)?.line;
      if (line > 0) editor.select(line, 0, 0, 0, { focus: false });
      showIrLine(index);
    },
    onLineHover(record) {
      if (!record) return showSourceLine(cursorLine);
      // Only lines of the user's file link back (not library frames).
      const line = link?.file && record.loc?.file !== link.file ? null : record.loc?.line;
      editor.highlightLines(line > 0 ? [line] : []);
      setData(document.getElementById("editor"), line > 0 ? [line] : []);
    },
  });
  const regionView = createRegionView(panels.regions, {
    onRegionClick: (id) => showRegion(id, { select: true }),
    onRegionHover: (id) => (id == null ? showSourceLine(cursorLine) : showRegion(id, { select: false })),
  });
  // Simulator warnings and prints point at the source (a read of never-written memory…).
  const simView = createSimView(panels.sim, {
    onSourceClick(loc) {
      if (loc?.line > 0 && (!link?.file || !loc.file || loc.file.endsWith(link.file))) editor.select(loc.line, loc.col);
    },
  });

  function setData(el, values) {
    el.dataset.linkedLines = [...values].sort((a, b) => a - b).join(",");
  }

  function highlightIr(lines, regionId) {
    irView.highlight({ lines, regionId });
    setData(panels.ir, lines);
    const first = Math.min(...lines);
    if (Number.isFinite(first)) irView.scrollToLine(first);
  }

  function highlightRegions(ids) {
    regionView.highlight(ids);
    panels.regions.dataset.linkedRegions = [...ids].join(",");
  }

  /** A source line's IR lines and regions (cursor or pointer on that line). */
  function showSourceLine(line) {
    if (!link) return;
    const regions = asSet(link.regionsForSourceLine(line));
    // Regions come innermost first.
    highlightIr(asSet(link.irLinesForSourceLine(line)), [...regions][0] ?? null);
    highlightRegions(regions);
    editor.highlightLines([]);
    setData(document.getElementById("editor"), []);
  }

  function showIrLine(index) {
    const region = link?.regionForIrLine(index);
    const line = link?.sourceLineForIrLine(index)?.line;
    highlightIr(new Set([index]), region ?? null);
    highlightRegions(asSet(region));
    editor.highlightLines(line > 0 ? [line] : []);
    setData(document.getElementById("editor"), line > 0 ? [line] : []);
  }

  function showRegion(id, { select }) {
    if (!link) return;
    const ir = link.irRangeForRegion(id); // [first, last] IR line
    const span = link.sourceSpanForRegion(id); // {startLine, endLine} in the user's file
    const src = span ? [span.startLine, span.endLine] : null;
    // Selecting moves the cursor, which lights the cursor line's IR: do it before ours.
    if (select && src) editor.select(src[0], 0, 0, 0, { focus: false });
    highlightIr(new Set(ir ? numbers(...ir) : []), id);
    highlightRegions(new Set([id]));
    const lines = src ? numbers(...src) : [];
    editor.highlightLines(lines);
    setData(document.getElementById("editor"), lines);
  }

  function renderBreadcrumb(line) {
    const path = link ? link.regionPath(line) ?? [] : [];
    const items = path.map((entry) => {
      const li = document.createElement("li");
      // Entries may be labels or objects; the label is kernel-derived text, so textContent.
      let label = typeof entry === "string" ? entry : String(entry.label ?? entry.name ?? entry.kind ?? "");
      // The kernel's label is its whole header line; its name is enough here.
      if (/^kernel @/.test(label)) label = label.replace(/\(.*$/, "");
      const id = typeof entry === "object" ? entry.id : undefined;
      if (id === undefined) {
        li.textContent = label;
      } else {
        // A crumb picks its region (source span + IR block), like a click in the region tree.
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = label;
        button.title = label;
        button.addEventListener("click", () => showRegion(id, { select: false }));
        li.append(button);
      }
      return li;
    });
    const ol = document.createElement("ol");
    ol.append(...items);
    if (!items.length) {
      const span = document.createElement("span");
      span.className = "crumb-empty";
      span.textContent = link ? `Line ${line} is in no region` : "Run to see the regions";
      breadcrumb.replaceChildren(span);
    } else breadcrumb.replaceChildren(ol);
  }

  /** The IR, region and link panes (not the simulation) show `traces`. */
  function showTraces(traces) {
    link = traces.length ? createLinkIndex(traces) : null;
    irView.setTraces(traces, link); // the IR view reuses the index instead of building its own
    regionView.setTraces(traces, link);
    panels.ir.dataset.lines = String(traces.reduce((n, t) => n + (t.records?.length ?? 0), 0));
    setStale(["ir", "regions"], false);
    renderBreadcrumb(cursorLine);
    showSourceLine(cursorLine);
  }

  /** A stale pane stays readable but dimmed: the previous run's, until the new one arrives. */
  function setStale(names, stale) {
    for (const name of names) {
      if (stale) panels[name].dataset.stale = "true";
      else delete panels[name].dataset.stale;
    }
  }

  function setSimulations(simulations) {
    simView.setSimulations(simulations);
    setStale(["sim"], false);
  }

  return {
    /** A finished run: hand its traces and simulations to the panes. */
    setResult({ traces = [], simulations = [] }) {
      showTraces(traces);
      setSimulations(simulations);
    },
    /** Streamed traces (a run in flight) or a finished run's, when they differ from those shown. */
    showTraces,
    setSimulations,
    /** A run started: what is shown is the previous run's until its results replace it. */
    markStale() {
      setStale(["ir", "regions", "sim"], true);
    },
    clear() {
      setStale(["ir", "regions", "sim"], false);
      link = null;
      irView.clear();
      regionView.clear();
      simView.clear();
      panels.ir.dataset.lines = "0";
      renderBreadcrumb(cursorLine);
    },
    onCursorLine(line) {
      cursorLine = line;
      renderBreadcrumb(line);
      showSourceLine(line);
    },
    onHoverLine(line) {
      showSourceLine(line ?? cursorLine);
    },
    /** The IR lines in the index space the panes share (tests compare against these). */
    irLineTexts: () => (link?.lines ?? []).map((l) => l.text),
  };
}
