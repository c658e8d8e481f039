// The link index: one pass over the traces' line records and IR JSON that answers, in O(1) or
// O(answer), every source ↔ IR line ↔ region question the panes ask while the pointer moves.
// Pure (no DOM): the page, the embed and Node tests share it.
//
// Region ids in the JSON are per trace; here they are `${traceIndex}:${regionId}` everywhere so
// several kernels in one run never collide.

/** @typedef {{file: string, line: number, col: number}} Loc */

const regionKey = (trace, region) => `${trace}:${region}`;

// The file most records point at: the user's script (helpers imported from other files and
// the library's own frames are not linked unless asked for).
function dominantFile(traces) {
  const counts = new Map();
  for (const t of traces) {
    for (const r of t.records) {
      if (r.loc && r.loc.file) counts.set(r.loc.file, (counts.get(r.loc.file) || 0) + 1);
    }
  }
  let best = null;
  for (const [file, n] of counts) if (best === null || n > counts.get(best)) best = file;
  return best;
}

/**
 * @param {Array<{kernel: string, text: string, records: object[], regions: object[], ir: object|string}>} traces
 * @param {{file?: string}} [opts] the user's file; default: the one most records point at
 */
export function createLinkIndex(traces, opts = {}) {
  traces = traces || [];
  const userFile = opts.file || dominantFile(traces);
  const lines = []; // {text, depth, op_id, region_id, loc, trace, region}
  const regions = new Map();
  const ranges = new Map(); // region key → [first, last] line index
  const bySourceLine = new Map(); // file → Map(line → int[])

  traces.forEach((trace, ti) => {
    if (ti > 0) {
      lines.push({ text: "", depth: 0, op_id: -1, region_id: -1, loc: null, trace: -1, region: null });
    }
    addRegions(trace, ti);
    for (const r of trace.records) {
      const i = lines.length;
      const key = r.region_id >= 0 ? regionKey(ti, r.region_id) : null;
      lines.push({ ...r, trace: ti, region: key });
      if (key !== null) {
        const range = ranges.get(key);
        if (range) range[1] = i;
        else ranges.set(key, [i, i]);
      }
      if (r.loc && r.loc.file) {
        let perFile = bySourceLine.get(r.loc.file);
        if (!perFile) bySourceLine.set(r.loc.file, (perFile = new Map()));
        const list = perFile.get(r.loc.line);
        if (list) list.push(i);
        else perFile.set(r.loc.line, [i]);
      }
    }
  });

  // One trace's region records (the printer's: label, detail, counts, engines, source span),
  // keyed globally, with their children and their loop axis (the IR's, for its trip count).
  function addRegions(trace, ti) {
    const records = trace.regions || [];
    if (!records.length) return;
    const ir = typeof trace.ir === "string" ? JSON.parse(trace.ir) : trace.ir;
    const axes = new Map((ir?.loop_axes || []).map((a) => [a.id, a]));
    const base = lines.length; // the trace's first line (after the blank line between kernels)
    for (const rec of records) {
      const key = regionKey(ti, rec.region);
      const axis = rec.axis === undefined ? null : axes.get(rec.axis) || null;
      regions.set(key, {
        id: key,
        kind: rec.kind,
        label: rec.label,
        detail: rec.detail,
        signature: rec.signature ?? null,
        parent: rec.parent === null ? null : regionKey(ti, rec.parent),
        children: [],
        trace: ti,
        depth: rec.depth,
        line: base + rec.line,
        loc: rec.loc || null,
        axis,
        tripCount: axis && typeof axis.trip_count === "number" ? axis.trip_count : null,
        instructionCount: rec.instructions,
        engines: new Set(rec.engines),
        // Linked only in the user's file (helpers imported from other files are not).
        span:
          rec.span && rec.span.file === userFile
            ? { file: rec.span.file, startLine: rec.span.start_line, endLine: rec.span.end_line }
            : null,
      });
      if (rec.parent !== null) regions.get(regionKey(ti, rec.parent)).children.push(key);
    }
  }

  const userLines = bySourceLine.get(userFile) || new Map();

  function irLinesForSourceLine(line, file = userFile) {
    const perFile = bySourceLine.get(file);
    return perFile && perFile.has(line) ? perFile.get(line).slice() : [];
  }

  const byDepthDesc = (a, b) => regions.get(b).depth - regions.get(a).depth;

  function regionsForSourceLine(line) {
    // The regions the line's own IR lines sit in (or open); a line with no IR of its own (a
    // comment, a blank line in a loop body) falls back to the regions whose span covers it.
    const found = new Set();
    for (const i of userLines.get(line) || []) if (lines[i].region) found.add(lines[i].region);
    if (found.size === 0) {
      for (const r of regions.values()) {
        if (r.span && r.span.startLine <= line && line <= r.span.endLine) found.add(r.id);
      }
    }
    return [...found].sort(byDepthDesc);
  }

  function sourceLineForIrLine(i) {
    const rec = lines[i];
    if (!rec || !rec.loc || rec.loc.file !== userFile) return null;
    return { file: rec.loc.file, line: rec.loc.line, col: rec.loc.col };
  }

  function regionForIrLine(i) {
    const rec = lines[i];
    return rec ? rec.region : null;
  }

  function irRangeForRegion(id) {
    const range = ranges.get(id);
    return range ? [range[0], range[1]] : null;
  }

  function sourceSpanForRegion(id) {
    const r = regions.get(id);
    return r && r.span ? { ...r.span } : null;
  }

  function pathTo(id) {
    const path = [];
    for (let r = regions.get(id); r; r = r.parent === null ? null : regions.get(r.parent)) {
      path.push({ id: r.id, kind: r.kind, label: r.label });
    }
    return path.reverse();
  }

  function regionPath(line) {
    const inner = regionsForSourceLine(line);
    return inner.length ? pathTo(inner[0]) : [];
  }

  return {
    lines,
    file: userFile,
    regions,
    irLinesForSourceLine,
    regionsForSourceLine,
    sourceLineForIrLine,
    regionForIrLine,
    irRangeForRegion,
    sourceSpanForRegion,
    regionPath,
    regionPathForId: pathTo,
  };
}
