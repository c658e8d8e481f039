// Plain stand-ins for the IR view, region view, simulation view and link index, used only
// while the real components (web/src/ir, regions, sim, link) are missing from the build. They
// follow the same API (web/README.md) so the page, its linking and its tests work either way;
// they do not virtualize, colour or fold.

/** Flattens the traces' line records: [{record, trace, key}] with region keys "trace:region". */
function flatten(traces) {
  const lines = [];
  const regions = new Map(); // key -> {key, label, parent, first, last, depth}
  traces.forEach((trace, t) => {
    const stack = [];
    for (const record of trace.records ?? []) {
      const key = record.region_id >= 0 ? `${t}:${record.region_id}` : null;
      const index = lines.length;
      // The kernel header line carries the kernel region's id but opens nothing.
      if (record.op_id === -1 && key && !/^\s*kernel /.test(record.text)) {
        if (stack.at(-1) === key && record.text.trim().startsWith("}")) stack.pop();
        else if (!regions.has(key)) {
          const label = record.text.replace(/\s+@ .*$/, "").replace(/\{\s*$/, "").trim();
          regions.set(key, { key, label, parent: stack.at(-1) ?? null, first: index, last: index, depth: stack.length });
          stack.push(key);
        }
      }
      for (const k of [key, ...stack]) if (k && regions.has(k)) regions.get(k).last = index;
      lines.push({ record, key });
    }
  });
  return { lines, regions };
}

export function createLinkIndex(traces) {
  const { lines, regions } = flatten(traces);
  const irLinesForSourceLine = (line) =>
    lines.flatMap((l, i) => (l.record.loc?.line === line ? [i] : []));
  const regionForIrLine = (i) => lines[i]?.key ?? null;
  return {
    lines: lines.map((l) => l.record),
    irLinesForSourceLine,
    regionsForSourceLine: (line) => [...new Set(irLinesForSourceLine(line).map(regionForIrLine).filter(Boolean))],
    sourceLineForIrLine: (i) => lines[i]?.record.loc?.line ?? null,
    regionForIrLine,
    irRangeForRegion: (id) => (regions.has(id) ? { start: regions.get(id).first, end: regions.get(id).last } : null),
    sourceSpanForRegion(id) {
      const r = regions.get(id);
      if (!r) return null;
      const srcLines = lines.slice(r.first, r.last + 1).map((l) => l.record.loc?.line).filter((n) => n > 0);
      return srcLines.length ? { startLine: Math.min(...srcLines), endLine: Math.max(...srcLines) } : null;
    },
    regionPath(line) {
      const first = irLinesForSourceLine(line).find((i) => lines[i].key);
      const path = [];
      for (let k = first === undefined ? null : lines[first].key; k; k = regions.get(k)?.parent) {
        if (regions.has(k)) path.unshift({ id: k, label: regions.get(k).label });
      }
      return path;
    },
  };
}

export function createIrView(container, { onLineClick, onLineHover }) {
  const list = document.createElement("div");
  list.className = "fallback-ir";
  container.append(list);
  let rows = [];
  let records = [];
  list.addEventListener("click", (e) => {
    const i = Number(e.target.closest("[data-index]")?.dataset.index);
    if (Number.isInteger(i)) onLineClick?.(records[i], i);
  });
  list.addEventListener("mousemove", (e) => {
    const i = Number(e.target.closest("[data-index]")?.dataset.index);
    onLineHover?.(Number.isInteger(i) ? records[i] : null);
  });
  return {
    setTraces(traces) {
      records = traces.flatMap((t) => t.records ?? []);
      rows = records.map((r, i) => {
        const row = document.createElement("div");
        row.className = "ir-line";
        row.dataset.index = String(i);
        row.textContent = r.text || " ";
        return row;
      });
      list.replaceChildren(...rows);
    },
    highlight({ lines }) {
      rows.forEach((row, i) => row.classList.toggle("linked", lines?.has(i) ?? false));
    },
    scrollToLine: (i) => rows[i]?.scrollIntoView({ block: "nearest" }),
    clear() {
      rows = [];
      records = [];
      list.replaceChildren();
    },
    destroy: () => list.remove(),
  };
}

export function createRegionView(container, { onRegionClick, onRegionHover }) {
  const tree = document.createElement("ul");
  tree.setAttribute("role", "tree");
  tree.className = "fallback-regions";
  container.append(tree);
  let items = new Map();
  return {
    setTraces(traces) {
      const { regions } = flatten(traces);
      items = new Map();
      const children = new Map();
      for (const r of regions.values()) {
        const li = document.createElement("li");
        li.setAttribute("role", "treeitem");
        li.tabIndex = -1;
        li.dataset.region = r.key;
        const label = document.createElement("span");
        label.textContent = r.label;
        li.append(label);
        label.addEventListener("click", () => onRegionClick?.(r.key));
        label.addEventListener("mouseenter", () => onRegionHover?.(r.key));
        label.addEventListener("mouseleave", () => onRegionHover?.(null));
        items.set(r.key, li);
        const parent = r.parent ? items.get(r.parent) : null;
        if (parent) {
          if (!children.has(r.parent)) {
            const group = document.createElement("ul");
            group.setAttribute("role", "group");
            parent.append(group);
            children.set(r.parent, group);
          }
          children.get(r.parent).append(li);
        } else tree.append(li);
      }
      tree.firstElementChild?.setAttribute("tabindex", "0");
    },
    highlight(ids) {
      for (const [key, li] of items) li.classList.toggle("linked", ids?.has(key) ?? false);
    },
    clear() {
      items = new Map();
      tree.replaceChildren();
    },
  };
}

export function createSimView(container) {
  const pre = document.createElement("pre");
  container.append(pre);
  return {
    setSimulations(simulations) {
      pre.textContent = (simulations ?? [])
        .map((s) => [`${s.kernel}`, ...[...(s.outputs ?? [])].map((t) => `  ${t.name} ${t.dtype}[${t.shape}] min ${t.min} max ${t.max} mean ${t.mean}`)].join("\n"))
        .join("\n\n") || "No simulation in this run.";
    },
    clear: () => (pre.textContent = ""),
  };
}
