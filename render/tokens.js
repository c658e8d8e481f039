// Tokenizer for one line of the IR text form (docs/ir-format.md). Pure: no DOM, runs in Node,
// in the page and in the CLI's static HTML pre-render, which all colour with `ir-<cls>` classes.
//
// Contract: tokenizeIrLine(text) → [{text, cls}] whose texts join back to `text` exactly, with
// cls ∈ "kw" | "op" | "val" | "num" | "attr" | "loc" | "type" | "punct" | "". The printer's
// grammar is small and line-local, so a single left-to-right scan with a little state (have we
// seen the opcode yet?) is enough — no lookbehind over earlier lines.

// Region kinds and the words regions/headers are opened with.
const KEYWORDS = new Set([
  "kernel", "grid", "mutable",
  "KernelScope", "FunctionScope", "LoopScope", "IfScope", "WhileScope", "AllocationScope",
  "ScopeRegion",
  "affine", "sequential", "dynamic", "in", "step", "trip", "else", "continue_if",
  "mod", "div", "stage", "no_reorder",
]);

const BUFFERS = "hbm|shared_hbm|private_hbm|sbuf|psum|input";
// `sbuf f32[128,512]` — a buffer, a dtype short name, a shape — is one "type" token.
const TYPE_RE = new RegExp(`(?:${BUFFERS}) [A-Za-z][A-Za-z0-9_]*\\[[0-9, ]*\\]`, "y");
// The trailing source position: whitespace then `@ file:line:col` at the very end of the line.
const LOC_RE = /(\s+)(@ [^@]*:\d+:\d+)$/;
const VAL_RE = /%[A-Za-z_0-9]+(?:\.[A-Za-z_0-9]+)*/y;
const NAME_RE = /@[A-Za-z_0-9.]+/y; // `@tensor_add` after kernel / KernelScope
const NUM_RE = /(?:\d+\.?\d*(?:[eE][+-]?\d+)?|inf\b|nan\b)/y;
const IDENT_RE = /[A-Za-z_][A-Za-z_0-9]*/y;
const ENGINE_OP_RE = /[A-Za-z_][A-Za-z_0-9]*\.[A-Za-z_][A-Za-z_0-9]*/y;
const SPACE_RE = /\s+/y;
const PUNCT = "[](){},:=*+-<>&!/";
const BUFFER_START = new Set(["h", "s", "p", "i"]); // first letters of BUFFERS: skips most regex tries

const isWordStart = (c) => (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_";
const isWordChar = (c) => isWordStart(c) || (c >= "0" && c <= "9");

function matchAt(re, text, i) {
  re.lastIndex = i;
  const m = re.exec(text);
  return m ? m[0] : null;
}

// Append, merging with the previous token when the class is the same (fewer DOM nodes).
function push(out, text, cls) {
  if (!text) return;
  const last = out[out.length - 1];
  if (last && last.cls === cls && (cls === "" || cls === "punct")) last.text += text;
  else out.push({ text, cls });
}

function scanBody(text, out) {
  let i = 0;
  let sawOp = false; // the first bare word of an instruction line is its opcode (`ndarray`)
  let sawStructure = false; // once `{`, `[` or `(` appeared, bare words are no longer opcodes
  while (i < text.length) {
    const ch = text[i];
    let m;
    if ((m = matchAt(SPACE_RE, text, i))) {
      push(out, m, "");
    } else if (ch === "%" && (m = matchAt(VAL_RE, text, i))) {
      push(out, m, "val");
    } else if (ch === "@" && (m = matchAt(NAME_RE, text, i))) {
      push(out, m, "val");
    } else if (isWordStart(ch) && BUFFER_START.has(ch) && (i === 0 || !isWordChar(text[i - 1])) &&
               (m = matchAt(TYPE_RE, text, i))) {
      push(out, m, "type");
      sawStructure = true;
    } else if (isWordStart(ch)) {
      const engineOp = matchAt(ENGINE_OP_RE, text, i);
      const word = matchAt(IDENT_RE, text, i);
      if (engineOp && !sawOp && !sawStructure) {
        m = engineOp;
        push(out, m, "op");
        sawOp = true;
      } else if ((m = word) && /^(inf|nan)$/.test(word)) {
        push(out, m, "num");
      } else if (KEYWORDS.has(word)) {
        push(out, m, "kw");
        sawOp = true; // region and header lines carry no opcode: later bare words are plain
      } else if (isAttrName(text, i + word.length)) {
        push(out, m, "attr");
      } else if (!sawOp && !sawStructure) {
        push(out, m, "op");
        sawOp = true;
      } else {
        push(out, m, "");
      }
    } else if (ch >= "0" && ch <= "9" && (m = matchAt(NUM_RE, text, i))) {
      push(out, m, "num");
    } else if (PUNCT.includes(ch)) {
      m = ch;
      // A minus sign directly before a digit after `=`/`,`/`(`/space is part of the number.
      if (ch === "-" && /[0-9]/.test(text[i + 1] || "") && /[\s,(=[]$/.test(text.slice(0, i))) {
        const num = matchAt(NUM_RE, text, i + 1);
        m = "-" + num;
        push(out, m, "num");
      } else {
        if (ch === "{" || ch === "[" || ch === "(") sawStructure = true;
        if (ch === "=" && !sawOp) sawStructure = false; // `%out = ndarray`: opcode follows
        push(out, m, "punct");
      }
    } else {
      m = ch;
      push(out, m, "");
    }
    i += m.length;
  }
}

// `name = ` or `name=` (ScopeRegion's stage_id=…) — but not `==`.
function isAttrName(text, end) {
  let j = end;
  while (text[j] === " ") j++;
  return text[j] === "=" && text[j + 1] !== "=";
}

export function tokenizeIrLine(text) {
  const out = [];
  let body = text;
  let tail = null;
  const m = LOC_RE.exec(text);
  if (m) {
    body = text.slice(0, m.index);
    tail = m;
  }
  scanBody(body, out);
  if (tail) {
    push(out, tail[1], "");
    out.push({ text: tail[2], cls: "loc" });
  }
  return out;
}
