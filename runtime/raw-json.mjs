// Cuts member texts out of a JSON document without re-serialising them.
//
// Why: the IR's JSON form is written by the core's printer, and the CLI, the browser and the
// docs pre-render promise the *same bytes* for the same kernel. JSON.parse + JSON.stringify
// would reformat numbers (the printer writes doubles its own way) and string escapes, so the
// runtime keeps the printer's text of every trace's `ir` next to the parsed object.

/**
 * For a JSON array of objects, returns the verbatim text of member `key` of each element
 * (null for an element that lacks it). Assumes `text` is valid JSON (it has been parsed).
 *
 * @param {string} text  e.g. `[{"kernel":"k","ir":{...}},...]`
 * @param {string} key
 * @returns {(string|null)[]}
 */
export function arrayMemberTexts(text, key) {
  const out = [];
  let i = skipSpace(text, 0);
  if (text[i] !== "[") throw new SyntaxError("arrayMemberTexts: not a JSON array");
  i = skipSpace(text, i + 1);
  if (text[i] === "]") return out;
  for (;;) {
    const { members, end } = scanObject(text, i);
    const span = members.get(key);
    out.push(span ? text.slice(span[0], span[1]) : null);
    i = skipSpace(text, end);
    if (text[i] === "]") return out;
    i = skipSpace(text, i + 1); // past the ','
  }
}

/** The verbatim text of member `key` of the JSON object `text`, or null. */
export function objectMemberText(text, key) {
  const span = scanObject(text, skipSpace(text, 0)).members.get(key);
  return span ? text.slice(span[0], span[1]) : null;
}

/** Members of the object starting at `i` as name → [start, end) of their value text. */
function scanObject(text, i) {
  if (text[i] !== "{") throw new SyntaxError(`raw-json: no JSON object at ${i}`);
  const members = new Map();
  i = skipSpace(text, i + 1);
  while (text[i] !== "}") {
    const keyEnd = valueEnd(text, i);
    const name = JSON.parse(text.slice(i, keyEnd));
    const start = skipSpace(text, skipSpace(text, keyEnd) + 1); // past the ':'
    const end = valueEnd(text, start);
    members.set(name, [start, end]);
    i = skipSpace(text, end);
    if (text[i] === ",") i = skipSpace(text, i + 1);
  }
  return { members, end: i + 1 };
}

function skipSpace(text, i) {
  while (i < text.length && " \t\r\n".includes(text[i])) i++;
  return i;
}

/** Index just past the JSON value starting at `i`. */
function valueEnd(text, i) {
  const c = text[i];
  if (c === '"') return stringEnd(text, i);
  if (c === "{" || c === "[") {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const d = text[j];
      if (d === '"') j = stringEnd(text, j) - 1;
      else if (d === "{" || d === "[") depth++;
      else if (d === "}" || d === "]") {
        if (--depth === 0) return j + 1;
      }
    }
    throw new SyntaxError("unterminated JSON container");
  }
  let j = i;
  while (j < text.length && !",]} \t\r\n".includes(text[j])) j++;
  return j;
}

function stringEnd(text, i) {
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === "\\") j++;
    else if (text[j] === '"') return j + 1;
  }
  throw new SyntaxError("unterminated JSON string");
}
