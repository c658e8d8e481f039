// Test harness for the view components (web/views-test.html, built as an extra Vite input):
// tests/browser/views.test.js mounts the IR, region and simulation panes on traces produced in
// Node and reads the DOM. Every callback is recorded in window.__events.
import { createIrView } from "./ir/ir-view.js";
import { createLinkIndex } from "./link/link-index.js";
import { createRegionView } from "./regions/region-view.js";
import { createSimView } from "./sim/sim-view.js";

const events = [];
const record = (type) => (...args) => events.push({ type, args: JSON.parse(JSON.stringify(args)) });
const byId = (id) => document.getElementById(id);
let views = null;

// Tensor data crosses page.evaluate as plain arrays; the contract has Float32Array.
function withTypedData(simulations) {
  const fix = (t) => (t && Array.isArray(t.data) ? { ...t, data: Float32Array.from(t.data, (v) => (v === null ? NaN : v)) } : t);
  return (simulations || []).map((s) => ({
    ...s,
    inputs: (s.inputs || []).map(fix),
    outputs: (s.outputs || []).map(fix),
    comparisons: (s.comparisons || []).map((c) => ({ ...c, expected: fix(c.expected), actual: fix(c.actual) })),
  }));
}

window.__events = events;
window.__mount = (traces, simulations) => {
  if (views) for (const v of Object.values(views)) v.destroy?.();
  const index = createLinkIndex(traces);
  views = {
    ir: createIrView(byId("ir"), { onLineClick: record("lineClick"), onLineHover: record("lineHover") }),
    regions: createRegionView(byId("regions"), { onRegionClick: record("regionClick"), onRegionHover: record("regionHover") }),
    sim: createSimView(byId("sim"), { onSourceClick: record("sourceClick") }),
  };
  views.ir.setTraces(traces, index);
  views.regions.setTraces(traces, index);
  views.sim.setSimulations(withTypedData(simulations));
  window.__index = index;
  window.__views = views;
  return { lines: index.lines.length, regions: index.regions.size };
};
document.documentElement.dataset.harness = "ready";
