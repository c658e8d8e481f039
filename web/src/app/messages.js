// The Output pane (the script's stdout/stderr and the page's own notes) and the Problems
// list. Everything a kernel wrote is inserted as text nodes only.

/**
 * Where a diagnostic's `code` is explained: docs/errors.md as the site publishes it
 * (scripts/build-docs.mjs), one section per code. Relative to the page, which sits at the site
 * root, so it works when the site is served from a sub-path.
 */
export const ERRORS_PAGE = "./docs/errors.html#";

const OUTPUT_CAP = 2_000_000; // characters kept in the Output pane per run

export function createMessages({ onProblemClick }) {
  const output = document.getElementById("output");
  const list = document.getElementById("problems");
  const count = document.getElementById("problem-count");

  // A chatty script writes thousands of small chunks: extend the last node of the same stream
  // instead of adding one per write, and stop at a cap rather than grow the DOM without bound.
  let written = 0;
  let truncated = false;
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

  function write(text, cls) {
    if (!text) return;
    const last = output.lastChild;
    if (!cls && last?.nodeType === Node.TEXT_NODE) last.appendData(text);
    else if (cls && last?.nodeType === Node.ELEMENT_NODE && last.className === cls) last.firstChild.appendData(text);
    else if (!cls) output.append(document.createTextNode(text));
    else {
      const span = document.createElement("span");
      span.className = cls;
      span.textContent = text;
      output.append(span);
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
      output.replaceChildren();
      written = 0;
      truncated = false;
    },
    stdout: (text) => append(text, ""),
    stderr: (text) => append(text, "stderr"),
    // The page's own notes are never cut off by the cap.
    note: (text) => write(text.endsWith("\n") ? text : `${text}\n`, "note"),
    setProblems,
  };
}
