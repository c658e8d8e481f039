// The IR pane: the printer's line records, coloured by tokens.js, virtualized (only the rows in
// view plus an overscan are in the DOM; a spacer gives the scroller its full height) so tens of
// thousands of lines scroll as smoothly as ten. Regions fold from their opening line. Plain DOM,
// no globals: the playground page and each <nki-playground> embed create their own.
//
// Kernel-derived text only ever reaches the DOM through textContent.

import { createLinkIndex } from "../link/link-index.js";
import { tokenizeIrLine } from "../../../render/tokens.js";
import "./ir-view.css"; // a shadow-root host imports "./ir-view.css?inline" itself

// Fixed row height (px): row i sits at i * LINE_HEIGHT, so scrollTop ↔ row is arithmetic.
// ir-view.css uses the same value for .nkp-ir-line.
export const LINE_HEIGHT = 18;
const OVERSCAN = 12;
let instances = 0; // only for unique element ids (aria-activedescendant), not shared state

/**
 * @param {HTMLElement} container
 * @param {{onLineClick?: (record: object, index: number) => void,
 *          onLineHover?: (record: object|null) => void}} [opts]
 */
export function createIrView(container, opts = {}) {
  const { onLineClick = () => {}, onLineHover = () => {} } = opts;
  const uid = `nkp-ir-${++instances}`;
  const doc = container.ownerDocument;

  const root = doc.createElement("div");
  root.className = "nkp-ir";
  root.tabIndex = 0;
  // A tree of lines (flat in the DOM, aria-level per line): a region's opening line can be
  // expanded and collapsed, which a listbox's options cannot say (aria-expanded).
  root.setAttribute("role", "tree");
  root.setAttribute("aria-label", "IR");
  const spacer = doc.createElement("div");
  spacer.className = "nkp-ir-spacer";
  root.append(spacer);
  container.append(root);

  let index = createLinkIndex([]);
  let lines = index.lines;
  let tokenCache = []; // line index → tokens, filled as rows come into view
  let foldable = new Map(); // opening line index → region id
  let collapsed = new Set(); // region ids
  let rows = new Int32Array(0); // visible row → line index
  let rowOfLine = new Int32Array(0); // line index → visible row, −1 when folded away
  let highlighted = new Set();
  let regionRange = null; // [first, last] of the highlighted region
  let active = -1; // line index of the keyboard cursor
  let hovered = -1;
  let rendered = { start: -1, end: -1 };
  let frame = 0;

  function rebuildRows() {
    const out = [];
    rowOfLine = new Int32Array(lines.length).fill(-1);
    for (let i = 0; i < lines.length; i++) {
      rowOfLine[i] = out.length;
      out.push(i);
      const id = foldable.get(i);
      if (id !== undefined && collapsed.has(id)) {
        const range = index.irRangeForRegion(id);
        if (range && range[1] > i) i = range[1]; // hide through the closing `}`
      }
    }
    rows = Int32Array.from(out);
    spacer.style.height = `${rows.length * LINE_HEIGHT}px`;
    rendered = { start: -1, end: -1 };
  }

  // `prebuilt`: the caller's createLinkIndex(traces), so the page links and draws from one index.
  function setTraces(traces, prebuilt) {
    index = prebuilt || createLinkIndex(traces || []);
    lines = index.lines;
    tokenCache = new Array(lines.length);
    foldable = new Map();
    for (const r of index.regions.values()) {
      const range = index.irRangeForRegion(r.id);
      // A region whose block is more than its opening and closing lines can fold.
      if (r.line >= 0 && range && range[1] - range[0] > 1) foldable.set(r.line, r.id);
    }
    // Rows are absolutely positioned, so the spacer carries the width of the longest line
    // (monospace: characters are `ch`) for the horizontal scrollbar.
    let widest = 0;
    for (const l of lines) if (l.text.length > widest) widest = l.text.length;
    spacer.style.width = `calc(${widest + 12}ch + 2em)`;
    collapsed = new Set();
    highlighted = new Set();
    regionRange = null;
    active = -1;
    hovered = -1;
    root.removeAttribute("aria-activedescendant");
    rebuildRows();
    root.scrollTop = 0;
    render();
  }

  function tokensOf(i) {
    return (tokenCache[i] ??= tokenizeIrLine(lines[i].text));
  }

  function buildRow(row, i) {
    const el = doc.createElement("div");
    el.className = "nkp-ir-line";
    el.id = `${uid}-l${i}`;
    el.dataset.line = String(i);
    el.setAttribute("role", "treeitem");
    el.setAttribute("aria-level", String((lines[i].depth ?? 0) + 1));
    el.style.top = `${row * LINE_HEIGHT}px`;
    const gutter = doc.createElement("span");
    gutter.className = "nkp-ir-gutter";
    const regionId = foldable.get(i);
    if (regionId !== undefined) {
      const isCollapsed = collapsed.has(regionId);
      gutter.classList.add("nkp-ir-fold");
      gutter.dataset.fold = regionId;
      gutter.textContent = isCollapsed ? "▸" : "▾";
      gutter.title = isCollapsed ? "Expand region" : "Collapse region";
      if (isCollapsed) el.classList.add("nkp-ir-collapsed");
      el.setAttribute("aria-expanded", String(!isCollapsed));
    }
    el.append(gutter);
    // .nkp-ir-code holds the line's whole text: the code, then its location column.
    const code = doc.createElement("span");
    code.className = "nkp-ir-code";
    const body = doc.createElement("span");
    body.className = "nkp-ir-text";
    code.append(body);
    let loc = null;
    for (const t of tokensOf(i)) {
      if (t.cls === "loc") {
        // The `@ file:line:col` column stays in view at the pane's right edge (ir-view.css),
        // however long the line; the row's text is unchanged (it follows the code).
        loc = doc.createElement("span");
        loc.className = "ir-loc";
        loc.textContent = t.text;
      } else if (t.cls) {
        const span = doc.createElement("span");
        span.className = `ir-${t.cls}`;
        span.textContent = t.text;
        body.append(span);
      } else {
        body.append(doc.createTextNode(t.text));
      }
    }
    if (regionId !== undefined && collapsed.has(regionId)) {
      const more = doc.createElement("span");
      more.className = "nkp-ir-ellipsis";
      const range = index.irRangeForRegion(regionId);
      more.textContent = ` … ${range[1] - range[0] - 1} lines }`;
      body.append(more);
    }
    if (loc) code.append(loc);
    el.append(code);
    decorate(el, i);
    return el;
  }

  function decorate(el, i) {
    el.classList.toggle("nkp-ir-hl", highlighted.has(i));
    const id = foldable.get(i);
    el.classList.toggle("nkp-ir-hl-inside", id !== undefined && collapsed.has(id) && hidesHighlight(id));
    el.classList.toggle("nkp-ir-region", !!regionRange && i >= regionRange[0] && i <= regionRange[1]);
    el.classList.toggle("nkp-ir-active", i === active);
    el.setAttribute("aria-selected", String(i === active));
  }

  function hidesHighlight(id) {
    const [a, b] = index.irRangeForRegion(id);
    for (const i of highlighted) if (i > a && i <= b) return true;
    return false;
  }

  // Renders the rows in view (plus overscan). Rows already in the DOM are kept, so a small
  // scroll only adds and removes a few elements.
  function render() {
    frame = 0;
    const top = root.scrollTop;
    const height = root.clientHeight || 400;
    const start = Math.max(0, Math.floor(top / LINE_HEIGHT) - OVERSCAN);
    const end = Math.min(rows.length, Math.ceil((top + height) / LINE_HEIGHT) + OVERSCAN);
    if (start === rendered.start && end === rendered.end) return;
    const keep = new Map();
    for (const el of [...spacer.children]) {
      const i = Number(el.dataset.line);
      const row = rowOfLine[i];
      if (row >= start && row < end && rendered.start >= 0) keep.set(i, el);
      else el.remove();
    }
    for (let row = start; row < end; row++) {
      const i = rows[row];
      if (!keep.has(i)) spacer.append(buildRow(row, i));
    }
    rendered = { start, end };
  }

  function refreshDecorations() {
    for (const el of spacer.children) decorate(el, Number(el.dataset.line));
  }

  function rerenderAll() {
    spacer.replaceChildren();
    rendered = { start: -1, end: -1 };
    render();
  }

  function toggleFold(regionId) {
    if (collapsed.has(regionId)) collapsed.delete(regionId);
    else collapsed.add(regionId);
    rebuildRows();
    if (active >= 0 && rowOfLine[active] < 0) active = index.regions.get(regionId).line;
    rerenderAll();
  }

  // Opens every collapsed region that hides line i.
  function reveal(i) {
    let changed = false;
    for (const id of [...collapsed]) {
      const range = index.irRangeForRegion(id);
      if (range && i > range[0] && i <= range[1]) {
        collapsed.delete(id);
        changed = true;
      }
    }
    if (changed) {
      rebuildRows();
      rerenderAll();
    }
  }

  // The row showing line i: its own, or the opening line of the collapsed region hiding it.
  function rowFor(i) {
    let row = rowOfLine[i];
    for (let j = i; row < 0 && j > 0; ) row = rowOfLine[--j];
    return Math.max(0, row);
  }

  // Scrolls line i into view without unfolding (hover-driven highlights must not reshape the
  // pane); `{reveal: true}` unfolds the regions hiding it first.
  // `{top: true}` puts the line at the top of the pane (a kernel picked by name).
  function scrollToLine(i, { reveal: open = false, top = false } = {}) {
    if (i < 0 || i >= lines.length) return;
    if (open) reveal(i);
    const y = rowFor(i) * LINE_HEIGHT;
    const h = root.clientHeight || 400;
    if (top) root.scrollTop = y;
    else if (y < root.scrollTop || y + LINE_HEIGHT > root.scrollTop + h) {
      root.scrollTop = Math.max(0, y - h / 3);
    }
    render();
  }

  function setActive(i, scroll = true) {
    active = i;
    if (scroll) scrollToLine(i, { reveal: true });
    root.setAttribute("aria-activedescendant", `${uid}-l${i}`);
    refreshDecorations();
  }

  function lineFromEvent(e) {
    const el = e.target.closest?.(".nkp-ir-line");
    return el && spacer.contains(el) ? Number(el.dataset.line) : -1;
  }

  function onClick(e) {
    const fold = e.target.closest?.(".nkp-ir-fold");
    if (fold && spacer.contains(fold)) {
      toggleFold(fold.dataset.fold);
      return;
    }
    const i = lineFromEvent(e);
    if (i < 0) return;
    setActive(i, false);
    onLineClick(lines[i], i);
  }

  function onMove(e) {
    const i = lineFromEvent(e);
    if (i === hovered) return;
    hovered = i;
    onLineHover(i >= 0 ? lines[i] : null);
  }

  function onLeave() {
    if (hovered === -1) return;
    hovered = -1;
    onLineHover(null);
  }

  function onKey(e) {
    if (!rows.length) return;
    const row = active >= 0 ? rowOfLine[active] : -1;
    const page = Math.max(1, Math.floor((root.clientHeight || 400) / LINE_HEIGHT) - 1);
    const go = (r) => setActive(rows[Math.max(0, Math.min(rows.length - 1, r))]);
    const fold = active >= 0 ? foldable.get(active) : undefined;
    switch (e.key) {
      case "ArrowDown": go(row + 1); break;
      case "ArrowUp": go(row < 0 ? 0 : row - 1); break;
      case "PageDown": go(row + page); break;
      case "PageUp": go(row - page); break;
      case "Home": go(0); break;
      case "End": go(rows.length - 1); break;
      case "ArrowLeft":
        if (fold === undefined || collapsed.has(fold)) return;
        toggleFold(fold);
        break;
      case "ArrowRight":
        if (fold === undefined || !collapsed.has(fold)) return;
        toggleFold(fold);
        break;
      case "Enter":
        if (active < 0) return;
        onLineClick(lines[active], active);
        break;
      default:
        return;
    }
    e.preventDefault();
  }

  const onScroll = () => {
    if (!frame) frame = requestAnimationFrame(render);
  };
  root.addEventListener("scroll", onScroll, { passive: true });
  root.addEventListener("click", onClick);
  root.addEventListener("mousemove", onMove);
  root.addEventListener("mouseleave", onLeave);
  root.addEventListener("keydown", onKey);
  // The pane may be resized (layout changes, the embed growing): render what became visible.
  const resize = typeof ResizeObserver === "function" ? new ResizeObserver(() => render()) : null;
  resize?.observe(root);

  return {
    element: root,
    /** The link index behind the lines (built by setTraces, or the one passed to it). */
    get index() {
      return index;
    },
    setTraces,
    highlight({ lines: hl = new Set(), regionId = null } = {}) {
      highlighted = hl instanceof Set ? hl : new Set(hl);
      regionRange = regionId !== null && regionId !== undefined ? index.irRangeForRegion(regionId) : null;
      refreshDecorations();
    },
    scrollToLine,
    toggleFold,
    /** Folds every region (each kernel shows its header and one folded line), or none. */
    setAllFolded(folded) {
      collapsed = folded ? new Set(foldable.values()) : new Set();
      rebuildRows();
      if (active >= 0 && rowOfLine[active] < 0) active = -1;
      rerenderAll();
    },
    clear() {
      setTraces([]);
    },
    destroy() {
      if (frame) cancelAnimationFrame(frame);
      resize?.disconnect();
      root.remove();
    },
  };
}
