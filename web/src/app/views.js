// The page's result panes (IR, regions, simulation) on its fixed elements, linked to the editor
// (web/src/link/linking.js, shared with the embed: a source line lights its IR lines and regions,
// an IR line its source line and region, a region its source span and IR block), and the
// breadcrumb with the region path of the cursor.
//
// The components (web/src/ir, regions, sim, link) own rendering and linking; this file wires
// them to the page's elements.
import { createIrView } from "../ir/ir-view.js";
import { createLinkIndex } from "../link/link-index.js";
import { createLinking } from "../link/linking.js";
import { createRegionView } from "../regions/region-view.js";
import { createSimView } from "../sim/sim-view.js";
import { ERRORS_PAGE } from "./messages.js";
import { download } from "../sim/npy.js";

// What an empty pane says, by why it is empty: never run, the run traced no kernel, the run
// failed before it traced one.
const TRACE_HOWTO = "call a kernel on NumPy arrays, or trace it without data with nki.trace_kernel(kernel, nt.tensor[[128, 512], nl.float32], …)";
const EMPTY = {
  initial: {
    ir: "Run the script (Run, or Ctrl+Enter): the IR of each kernel it traces shows here, linked to the source.",
    regions: "Run the script: each traced kernel's scope regions (loops, allocations, branches) show here as nested boxes.",
    sim: "Run the script: a kernel called on NumPy arrays (or through nki.simulate_kernel) is simulated, and its inputs, outputs, device_print output and checks show here.",
  },
  none: {
    ir: `The last run traced no kernel, so there is no IR to show. To trace one, ${TRACE_HOWTO}.`,
    regions: `The last run traced no kernel, so there are no regions. To trace one, ${TRACE_HOWTO}.`,
    sim: "The last run simulated nothing: call a kernel on NumPy arrays (or use nki.simulate_kernel) to see its data here.",
  },
  failed: {
    ir: "The last run failed before it traced a kernel: its error is in Problems and Output.",
    regions: "The last run failed before it traced a kernel: its error is in Problems and Output.",
    sim: "The last run failed before it simulated a kernel: its error is in Problems and Output.",
  },
};

/**
 * @param {object} opts
 * @param {object} opts.editor  from createEditor.
 * @param {() => string} [opts.fileName]  The script's file name (names the IR download).
 */
export function createViews({ editor, fileName = () => "kernel.py" }) {
  const panels = {
    ir: document.getElementById("panel-ir"),
    regions: document.getElementById("panel-regions"),
    sim: document.getElementById("panel-sim"),
  };
  const breadcrumb = document.getElementById("breadcrumb");
  // The empty panes' notes (over the IR and region components, which stay mounted).
  const notes = {};
  for (const name of ["ir", "regions"]) {
    notes[name] = document.createElement("p");
    notes[name].className = "pane-empty";
    notes[name].id = `empty-${name}`;
  }
  let emptyWhy = "initial";
  function showEmpty(why) {
    emptyWhy = why;
    for (const [name, note] of Object.entries(notes)) {
      note.textContent = why ? EMPTY[why][name] : "";
      note.hidden = !why;
    }
  }
  let link = null;
  const linking = createLinking();

  const irView = createIrView(panels.ir, {
    onLineClick: (record, index) => linking.irLineClick(index),
    onLineHover: (record) => linking.irLineHover(record),
  });
  const regionView = createRegionView(panels.regions, {
    onRegionClick: (id) => linking.regionClick(id),
    onRegionHover: (id) => linking.regionHover(id),
  });
  // Simulator warnings and prints point at the source (a read of never-written memory…).
  const simView = createSimView(panels.sim, {
    onSourceClick: (loc) => linking.sourceClick(loc),
    errorHref: (code) => ERRORS_PAGE + encodeURIComponent(code),
  });
  panels.ir.append(notes.ir);
  panels.regions.append(notes.regions);
  showEmpty("initial");
  simView.clear({ empty: EMPTY.initial.sim });
  linking.attach({
    editor,
    getLink: () => link,
    ir: irView,
    regions: regionView,
    // The linked lines and regions as data attributes: what the browser tests read.
    marks: { ir: panels.ir, regions: panels.regions, source: document.getElementById("editor") },
    cursorLine: editor.cursorLine(),
  });

  function renderBreadcrumb(line) {
    const path = link ? link.regionPath(line) ?? [] : [];
    const items = path.map((entry) => {
      const li = document.createElement("li");
      // Entries may be labels or objects; the label is kernel-derived text, so textContent.
      const label = typeof entry === "string" ? entry : String(entry.label ?? entry.name ?? entry.kind ?? "");
      const id = typeof entry === "object" ? entry.id : undefined;
      if (id === undefined) {
        li.textContent = label;
      } else {
        // A crumb picks its region (source span + IR block), like a click in the region tree.
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = label;
        button.title = label;
        button.addEventListener("click", () => linking.showRegion(id));
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

  // The kernel picker (a run with several traces) and Collapse all / Expand all.
  const bar = document.getElementById("kernel-bar");
  const picker = document.getElementById("kernel-picker");
  function showKernelBar(traces) {
    shownTraces = traces;
    bar.hidden = !traces.length;
    const all = new Option(`All ${traces.length} kernel${traces.length === 1 ? "" : "s"}`, "");
    picker.replaceChildren(all, ...traces.map((t, i) => new Option(`${i + 1}. ${t.kernel}${t.regions?.[0]?.signature ?? ""}`, String(i))));
    picker.disabled = traces.length < 2;
  }
  picker.addEventListener("change", () => {
    if (!link || picker.value === "") return;
    const ti = Number(picker.value);
    const header = link.lines.findIndex((l) => l.trace === ti);
    const root = [...link.regions.values()].find((r) => r.trace === ti && r.parent === null);
    if (root) {
      regionView.reveal(root.id);
      linking.showRegion(root.id);
    }
    irView.scrollToLine(header, { reveal: true, top: true });
  });
  // The IR as JSON: the printer's own bytes (irJson), one kernel's or an array of all.
  let shownTraces = [];
  document.getElementById("download-ir").addEventListener("click", () => {
    const one = picker.value === "" ? null : shownTraces[Number(picker.value)];
    const stem = fileName().replace(/\.[^.]*$/, "");
    const text = one ? one.irJson ?? JSON.stringify(one.ir) : `[${shownTraces.map((t) => t.irJson ?? JSON.stringify(t.ir)).join(",")}]`;
    const name = one ? `${stem}.${one.kernel}.ir.json` : `${stem}.ir.json`;
    download(document, name, new TextEncoder().encode(text), "application/json");
  });
  document.getElementById("collapse-all").addEventListener("click", () => {
    irView.setAllFolded(true);
    regionView.setAllExpanded(false);
  });
  document.getElementById("expand-all").addEventListener("click", () => {
    irView.setAllFolded(false);
    regionView.setAllExpanded(true);
  });

  /** The IR, region and link panes (not the simulation) show `traces`. */
  function showTraces(traces) {
    showKernelBar(traces);
    link = traces.length ? createLinkIndex(traces) : null;
    irView.setTraces(traces, link); // the IR view reuses the index instead of building its own
    if (traces.length) showEmpty(null);
    regionView.setTraces(traces, link);
    panels.ir.dataset.lines = String(traces.reduce((n, t) => n + (t.records?.length ?? 0), 0));
    setStale(["ir", "regions"], false);
    renderBreadcrumb(linking.cursor);
    linking.refresh();
  }

  /** A stale pane stays readable but dimmed: the previous run's, until the new one arrives. */
  function setStale(names, stale) {
    for (const name of names) {
      if (stale) panels[name].dataset.stale = "true";
      else delete panels[name].dataset.stale;
    }
  }

  function setSimulations(simulations) {
    simView.setSimulations(simulations, { empty: EMPTY[emptyWhy ?? "none"].sim });
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
    /** The run is over and showed no kernel: "none" (it traced none) or "failed". */
    showEmpty(why) {
      showEmpty(why);
      simView.clear({ empty: EMPTY[why].sim });
    },
    /** A run started: what is shown is the previous run's until its results replace it. */
    markStale() {
      setStale(["ir", "regions", "sim"], true);
    },
    clear() {
      setStale(["ir", "regions", "sim"], false);
      link = null;
      showKernelBar([]);
      irView.clear();
      regionView.clear();
      showEmpty("initial");
      simView.clear({ empty: EMPTY.initial.sim });
      panels.ir.dataset.lines = "0";
      renderBreadcrumb(linking.cursor);
    },
    onCursorLine(line) {
      renderBreadcrumb(line);
      linking.cursorLine(line);
    },
    onHoverLine: (line) => linking.hoverLine(line),
    /** The IR lines in the index space the panes share (tests compare against these). */
    irLineTexts: () => (link?.lines ?? []).map((l) => l.text),
  };
}
