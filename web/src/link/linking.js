// Source ↔ IR ↔ region linking over the link index of the last run, for the full page
// (web/src/app/views.js) and every <nki-playground> embed (web/src/embed/live.js) alike: the
// cursor or pointer on a source line lights its IR lines and regions, an IR line its source line
// and region, a region its source span and IR block.
//
// It holds no element of its own: the caller hands over its editor and panes (attach), so the
// page's fixed elements and an embed's shadow-DOM parts are driven the same way. No DOM access
// beyond the optional `marks` elements' data attributes (what the browser tests read).

const numbers = (a, b) => Array.from({ length: Math.max(0, b - a + 1) }, (_, k) => a + k);
const asSet = (x) => new Set(x == null ? [] : typeof x === "object" ? x : [x]);
const byNumber = (a, b) => a - b;

/**
 * @param {object} [parts]  as for attach(); may also be given later (the editor's and the panes'
 *   callbacks need the linking before the editor and panes exist).
 */
export function createLinking(parts) {
  let editor = null;
  let irView = null;
  let regionView = null;
  let marks = {};
  let getLink = () => null;
  let cursor = 1;

  function mark(el, key, values) {
    if (el) el.dataset[key] = [...values].join(",");
  }

  function highlightSource(lines) {
    editor.highlightLines(lines);
    mark(marks.source, "linkedLines", lines);
  }

  function highlightIr(lines, regionId) {
    irView?.highlight({ lines, regionId });
    mark(marks.ir, "linkedLines", [...lines].sort(byNumber));
    const first = Math.min(...lines);
    if (Number.isFinite(first)) irView?.scrollToLine(first);
  }

  function highlightRegions(ids) {
    regionView?.highlight(ids);
    mark(marks.regions, "linkedRegions", ids);
  }

  /** A source line's IR lines and regions (cursor or pointer on that line). */
  function showSource(line) {
    const link = getLink();
    if (!link || !editor) return;
    const regions = asSet(link.regionsForSourceLine(line));
    // Regions come innermost first.
    highlightIr(asSet(link.irLinesForSourceLine(line)), [...regions][0] ?? null);
    highlightRegions(regions);
    highlightSource([]);
  }

  function showIrLine(index) {
    const link = getLink();
    const region = link?.regionForIrLine(index) ?? null;
    const line = link?.sourceLineForIrLine(index)?.line;
    highlightIr(new Set([index]), region);
    highlightRegions(asSet(region));
    highlightSource(line > 0 ? [line] : []);
  }

  function showRegion(id, { select }) {
    const link = getLink();
    if (!link || !editor) return;
    const ir = link.irRangeForRegion(id); // [first, last] IR line
    const span = link.sourceSpanForRegion(id); // {startLine, endLine} in the user's file
    // Selecting moves the cursor, which lights the cursor line's IR: do it before ours.
    if (select && span) editor.select(span.startLine, 0, 0, 0, { focus: false });
    highlightIr(new Set(ir ? numbers(...ir) : []), id);
    highlightRegions(new Set([id]));
    highlightSource(span ? numbers(span.startLine, span.endLine) : []);
  }

  const linking = {
    /**
     * @param {object} p
     * @param {object} p.editor  from createEditor: select(), highlightLines().
     * @param {() => object|null} p.getLink  the link index of the last run (null: none yet).
     * @param {object} [p.ir]  the IR view (highlight, scrollToLine), if shown.
     * @param {object} [p.regions]  the region view (highlight), if shown.
     * @param {{ir?: HTMLElement, regions?: HTMLElement, source?: HTMLElement}} [p.marks]
     *   elements that get `data-linked-lines` / `data-linked-regions`.
     * @param {number} [p.cursorLine]  the editor's cursor line now.
     */
    attach(p) {
      ({ editor, getLink, ir: irView = null, regions: regionView = null, marks = {} } = p);
      cursor = p.cursorLine ?? cursor;
    },
    /** The cursor line the links fall back to. */
    get cursor() {
      return cursor;
    },
    /** The editor's cursor moved to `line`. */
    cursorLine(line) {
      cursor = line;
      showSource(line);
    },
    /** Shows the cursor line's links again (after a new run). */
    refresh: () => showSource(cursor),
    /** The pointer is over source `line` (null: it left the editor). */
    hoverLine: (line) => showSource(line ?? cursor),
    irLineClick(index) {
      const line = getLink()?.sourceLineForIrLine(index)?.line;
      if (line > 0) editor.select(line, 0, 0, 0, { focus: false });
      showIrLine(index);
    },
    irLineHover(record) {
      if (!record) return showSource(cursor);
      // Only lines of the user's file link back (not library frames).
      const file = getLink()?.file;
      const line = file && record.loc?.file !== file ? null : record.loc?.line;
      highlightSource(line > 0 ? [line] : []);
    },
    regionClick: (id) => showRegion(id, { select: true }),
    regionHover: (id) => (id == null ? showSource(cursor) : showRegion(id, { select: false })),
    /** A region picked elsewhere (a breadcrumb): its span and IR block, the cursor stays. */
    showRegion: (id) => showRegion(id, { select: false }),
    /** A simulator warning's or print's position, when it is in the user's file. */
    sourceClick(loc) {
      const file = getLink()?.file;
      if (loc?.line > 0 && (!file || !loc.file || loc.file.endsWith(file))) editor.select(loc.line, loc.col);
    },
  };
  if (parts) linking.attach(parts);
  return linking;
}
