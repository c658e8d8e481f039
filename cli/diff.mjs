// A line-based unified diff (the `diff -u` shape) for `check`'s mismatch reports. Expected
// blocks are small (an IR listing is tens to hundreds of lines), so the plain O(n·m) LCS
// table is fast enough and easy to trust.

/**
 * @param {string} a  expected text
 * @param {string} b  actual text
 * @param {{aName?: string, bName?: string, context?: number}} [opts]
 * @returns {string} "" when a === b
 */
export function unifiedDiff(a, b, { aName = "expected", bName = "actual", context = 3 } = {}) {
  if (a === b) return "";
  const x = toLines(a);
  const y = toLines(b);
  const ops = editScript(x, y);
  let out = `--- ${aName}\n+++ ${bName}\n`;
  for (const hunk of hunks(ops, context)) {
    const aStart = hunk[0].ai;
    const bStart = hunk[0].bi;
    const aLen = hunk.filter((o) => o.t !== "+").length;
    const bLen = hunk.filter((o) => o.t !== "-").length;
    out += `@@ -${range(aStart, aLen)} +${range(bStart, bLen)} @@\n`;
    for (const o of hunk) out += `${o.t}${o.text}\n`;
  }
  // A difference only in the final newline would otherwise print no lines.
  if (x.length === y.length && x.every((l, i) => l === y[i])) {
    out += "\\ (the texts differ only in their final newline)\n";
  }
  return out;
}

function toLines(text) {
  return text === "" ? [] : text.replace(/\n$/, "").split("\n");
}

/** diff -u numbering: 1-based start, or the line before an empty range. */
function range(start, len) {
  const first = len === 0 ? start : start + 1;
  return len === 1 ? `${first}` : `${first},${len}`;
}

/** [{t: " "|"-"|"+", text, ai, bi}] from a longest-common-subsequence table. */
function editScript(x, y) {
  const n = x.length;
  const m = y.length;
  // lcs[i][j] = LCS length of x[i:] and y[j:]
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] = x[i] === y[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const ops = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && x[i] === y[j]) ops.push({ t: " ", text: x[i], ai: i++, bi: j++ });
    // Deletions before insertions, as diff -u prints them.
    else if (i < n && (j === m || lcs[i + 1][j] >= lcs[i][j + 1])) ops.push({ t: "-", text: x[i], ai: i++, bi: j });
    else ops.push({ t: "+", text: y[j], ai: i, bi: j++ });
  }
  return ops;
}

/** Groups changes with `context` unchanged lines around them; nearby groups merge. */
function hunks(ops, context) {
  const out = [];
  let current = null;
  let lastChange = -Infinity;
  ops.forEach((op, k) => {
    if (op.t === " ") return;
    if (current && k - lastChange <= 2 * context) {
      current.push(...ops.slice(lastChange + 1, k + 1));
    } else {
      if (current) current.push(...ops.slice(lastChange + 1, lastChange + 1 + context));
      current = ops.slice(Math.max(0, k - context), k + 1);
      out.push(current);
    }
    lastChange = k;
  });
  if (current) current.push(...ops.slice(lastChange + 1, lastChange + 1 + context));
  return out;
}
