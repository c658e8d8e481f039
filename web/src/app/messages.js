// The Output pane (the script's stdout/stderr and the page's own notes) and the Problems
// list. Everything a kernel wrote is inserted as text nodes only.

/**
 * Where a diagnostic's `code` is explained: docs/errors.md as the site publishes it
 * (scripts/build-docs.mjs), one section per code. Relative to the page, which sits at the site
 * root, so it works when the site is served from a sub-path.
 */
export const ERRORS_PAGE = "./docs/errors.html#";

const OUTPUT_CAP = 2_000_000; // characters kept in the Output pane per run (the worker cuts first)
// Characters per block of the Output pane. The text lives in blocks of about this size, cut at
// line ends, so appending lays out one small block instead of re-laying out one text node
// holding everything printed so far (a 2 MB text node took seconds per append).
const BLOCK = 4 * 1024;
// What one frame draws at most. Laying out new text costs ~5 µs a line here (each line is a box),
// so a flood drawn at once froze the tab; drawn this way every frame stays short.
const FRAME_CHARS = 64 * 1024;
const LONG_BLOCKS = 16; // from this many blocks on, blocks off screen are skipped (style.css)
const FRAME_LINES = 500; // to start with
const MIN_FRAME_LINES = 100;
const MAX_FRAME_LINES = 4000;

function lineCount(text) {
  let n = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** "2 errors, 1 warning" (the Problems badge's title). */
function problemSummary(diagnostics) {
  const errors = diagnostics.filter((d) => d.severity !== "warning").length;
  const warnings = diagnostics.length - errors;
  const part = (n, word) => (n ? `${n} ${word}${n > 1 ? "s" : ""}` : "");
  return [part(errors, "error"), part(warnings, "warning")].filter(Boolean).join(", ");
}

export function createMessages({ onProblemClick }) {
  const output = document.getElementById("output");
  const list = document.getElementById("problems");
  const count = document.getElementById("problem-count");

  // Writes are queued and drawn at the next frames, at most FRAME_CHARS / FRAME_LINES a frame.
  // `data-pending` on the pane says that queued text is still to come.
  let pending = [];
  let pendingChars = 0;
  let drawFrame = 0;
  let written = 0;
  let truncated = false;
  let tail = null; // {segment, cls, block, length, endsLine} of the last block written
  let blocks = 0;
  let waiters = [];

  function queue(text, cls) {
    if (!text) return;
    pending.push([text, cls]);
    pendingChars += text.length;
    output.dataset.pending = "true";
    if (!drawFrame) drawFrame = requestAnimationFrame(drawSome);
  }

  // The line budget adapts to the machine: it grows while frames come on time and halves when
  // one is late (a loaded machine draws less per frame rather than freezing).
  let budget = FRAME_LINES;
  let lastFrame = 0;
  function drawSome(now) {
    drawFrame = 0;
    if (lastFrame) budget = now - lastFrame < 25 ? Math.min(MAX_FRAME_LINES, budget * 1.25) : Math.max(MIN_FRAME_LINES, budget / 2);
    lastFrame = now;
    draw(FRAME_CHARS, Math.floor(budget));
    if (pending.length) drawFrame = requestAnimationFrame(drawSome);
    else lastFrame = 0;
  }

  function draw(chars, lines) {
    while (pending.length && chars > 0 && lines > 0) {
      const item = pending[0];
      const [whole, cls] = item;
      // The longest head of this item within both budgets.
      let end = Math.min(whole.length, chars);
      for (let i = whole.indexOf("\n"), n = 0; i >= 0 && i < end; i = whole.indexOf("\n", i + 1)) {
        if (++n === lines) end = i + 1;
      }
      const text = end < whole.length ? whole.slice(0, end) : whole;
      if (end < whole.length) item[0] = whole.slice(end);
      else pending.shift();
      chars -= text.length;
      lines -= lineCount(text);
      pendingChars -= text.length;
      if (cls === "note") write(text, cls);
      else append(text, cls);
    }
    if (pending.length) return;
    delete output.dataset.pending;
    for (const resolve of waiters.splice(0)) resolve();
  }

  /** Draws what is queued now when it is little (a run's end shows its last lines at once). */
  function settle() {
    if (pendingChars > FRAME_CHARS / 4) return;
    if (drawFrame) cancelAnimationFrame(drawFrame);
    drawFrame = 0;
    draw(Infinity, Infinity);
  }

  function append(text, cls) {
    if (truncated) return;
    const room = OUTPUT_CAP - written;
    if (text.length > room) {
      write(text.slice(0, room), cls);
      truncated = true;
      write(`\n[output truncated after ${OUTPUT_CAP} characters]\n`, "note");
      return;
    }
    written += text.length;
    write(text, cls);
  }

  // The pane holds one segment per run of one stream (`cls`: "" stdout, "stderr", "note"), each
  // a sequence of blocks; a segment is `display: contents`, so only the blocks are boxes.
  function write(text, cls) {
    if (!text) return;
    if (!tail || tail.cls !== cls) {
      const segment = document.createElement("span");
      segment.className = `out-segment${cls ? ` ${cls}` : ""}`;
      output.append(segment);
      tail = { segment, cls, block: null, length: 0 };
    }
    while (text) {
      if (!tail.block || (tail.length >= BLOCK && tail.endsLine)) {
        tail.block = document.createElement("span");
        tail.block.className = "out-block";
        if (++blocks === LONG_BLOCKS) output.dataset.long = "true";
        tail.block.append(document.createTextNode(""));
        tail.segment.append(tail.block);
        tail.length = 0;
      }
      // Fill this block to BLOCK characters, then to the end of that line.
      const cut = text.length <= BLOCK - tail.length ? -1 : text.indexOf("\n", Math.max(0, BLOCK - tail.length - 1));
      const part = cut < 0 ? text : text.slice(0, cut + 1);
      tail.block.firstChild.appendData(part);
      tail.length += part.length;
      tail.endsLine = part.endsWith("\n");
      text = text.slice(part.length);
    }
    if (follow && !frame) frame = requestAnimationFrame(scrollToEnd);
  }

  // Follow the output while the reader is at the bottom (once per frame, not per write).
  const pane = output.parentElement;
  let follow = true;
  let frame = 0;
  const scrollToEnd = () => {
    frame = 0;
    pane.scrollTop = pane.scrollHeight;
  };
  pane.addEventListener("scroll", () => {
    follow = pane.scrollHeight - pane.scrollTop - pane.clientHeight < 40;
  });

  function setProblems(diagnostics) {
    list.replaceChildren();
    count.textContent = diagnostics.length ? String(diagnostics.length) : "";
    // Red when something is wrong; warnings alone are amber.
    count.className = `badge ${diagnostics.some((d) => d.severity !== "warning") ? "error" : "warning"}`;
    count.title = problemSummary(diagnostics);
    for (const d of diagnostics) {
      const li = document.createElement("li");
      li.className = `problem ${d.severity === "warning" ? "warning" : "error"}`;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "problem-goto";
      const where = document.createElement("span");
      where.className = "problem-where";
      where.textContent = `${d.file ?? ""}:${d.line ?? "?"}:${d.col ?? "?"}`;
      const message = document.createElement("span");
      message.className = "problem-message";
      message.textContent = `${d.severity ?? "error"}: ${d.class ? `${d.class}: ` : ""}${d.message ?? ""}`;
      button.append(where, " ", message);
      button.addEventListener("click", () => onProblemClick(d));
      li.append(button);
      if (d.code) {
        const link = document.createElement("a");
        link.href = ERRORS_PAGE + encodeURIComponent(d.code);
        link.target = "_blank";
        link.rel = "noopener";
        link.className = "problem-code";
        link.textContent = d.code;
        link.title = `What this ${d.severity === "warning" ? "warning" : "error"} means and how to fix it`;
        li.append(" ", link);
      }
      list.append(li);
    }
    if (!diagnostics.length) {
      const li = document.createElement("li");
      li.className = "problem-none";
      li.textContent = "No problems.";
      list.append(li);
    }
  }

  return {
    clear() {
      if (drawFrame) cancelAnimationFrame(drawFrame);
      drawFrame = 0;
      pending = [];
      pendingChars = 0;
      delete output.dataset.pending;
      for (const resolve of waiters.splice(0)) resolve();
      output.replaceChildren();
      delete output.dataset.long;
      blocks = 0;
      tail = null;
      written = 0;
      truncated = false;
    },
    stdout: (text) => queue(text, ""),
    stderr: (text) => queue(text, "stderr"),
    /** The worker's notes ("output truncated…"): in order with the output, never cut off. */
    workerNote: (text) => queue(text, "note"),
    // The page's own notes are never cut off by the cap; they come after what is queued.
    note(text) {
      queue(text.endsWith("\n") ? text : `${text}\n`, "note");
      settle();
    },
    settle,
    /** Resolves once everything queued is drawn. */
    drained: () => (pending.length ? new Promise((resolve) => waiters.push(resolve)) : Promise.resolve()),
    setProblems,
  };
}
