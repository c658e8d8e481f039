// Source ↔ IR ↔ region linking inside one embed, over the link index of its last run: the
// cursor or pointer on a source line lights its IR lines and regions, an IR line its source
// line, a region its source span and IR block. Same behaviour as the full page, scoped to the
// element's own editor and panes.

/** [start, end] inclusive from the range shapes the link index returns, or null. */
function bounds(range) {
  if (range == null) return null;
  if (Array.isArray(range)) return range.length ? [range[0], range.at(-1)] : null;
  const start = range.start ?? range.startLine ?? range.first ?? range.line;
  const end = range.end ?? range.endLine ?? range.last ?? start;
  return Number.isFinite(start) ? [start, end] : null;
}

const span = ([a, b]) => Array.from({ length: Math.max(0, b - a + 1) }, (_, k) => a + k);
const asSet = (x) => new Set(x == null ? [] : typeof x[Symbol.iterator] === "function" ? x : [x]);
const lineOf = (loc) => (typeof loc === "number" ? loc : loc?.line);

export function createLinking() {
  let editor = null;
  let views = {};
  let getLink = () => null;
  let cursor = 1;

  function highlightIr(lines, regionId) {
    views.ir?.highlight({ lines, regionId });
    const first = Math.min(...lines);
    if (Number.isFinite(first)) views.ir?.scrollToLine(first);
  }

  function showSource(line) {
    const link = getLink();
    if (!link || !editor) return;
    const regions = asSet(link.regionsForSourceLine(line));
    highlightIr(asSet(link.irLinesForSourceLine(line)), [...regions][0] ?? null);
    views.regions?.highlight(regions);
    editor.highlightLines([]);
  }

  function showIrLine(index) {
    const link = getLink();
    const region = link?.regionForIrLine(index) ?? null;
    const line = lineOf(link?.sourceLineForIrLine(index));
    highlightIr(new Set([index]), region);
    views.regions?.highlight(asSet(region));
    editor.highlightLines(line > 0 ? [line] : []);
    return line;
  }

  function showRegion(id, select) {
    const link = getLink();
    if (!link) return;
    const ir = bounds(link.irRangeForRegion(id));
    const src = bounds(link.sourceSpanForRegion(id));
    // Selecting moves the cursor, which lights the cursor line's IR: do it before ours.
    if (select && src) editor.select(src[0], 0, 0, 0, { focus: false });
    highlightIr(new Set(ir ? span(ir) : []), id);
    views.regions?.highlight(new Set([id]));
    editor.highlightLines(src ? span(src) : []);
  }

  return {
    attach(parts) {
      ({ editor, views, getLink } = parts);
    },
    sourceLine(line) {
      cursor = line;
      showSource(line);
    },
    hoverLine: (line) => showSource(line ?? cursor),
    irLineClick(index) {
      const line = lineOf(getLink()?.sourceLineForIrLine(index));
      if (line > 0) editor.select(line, 0, 0, 0, { focus: false });
      showIrLine(index);
    },
    irLineHover(record) {
      if (!record) return showSource(cursor);
      // Only lines of the user's file link back (not library frames).
      const file = getLink()?.file;
      const line = file && record.loc?.file !== file ? null : lineOf(record.loc);
      editor.highlightLines(line > 0 ? [line] : []);
    },
    /** A simulator warning or print's position, when it is in the user's file. */
    sourceClick(loc) {
      const file = getLink()?.file;
      if (loc?.line > 0 && (!file || !loc.file || loc.file.endsWith(file))) editor.select(loc.line, loc.col);
    },
    regionClick: (id) => showRegion(id, true),
    regionHover: (id) => (id == null ? showSource(cursor) : showRegion(id, false)),
  };
}
