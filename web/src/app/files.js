// The user's files: what the editor holds once its text is no longer an example's. An example
// is shown as it is; the first edit makes a copy of it the user's own file, with a neutral
// name ("kernel.py", or one the user picks), and that name is what the title, every diagnostic,
// traceback and IR location, and a share link say. Picking another example or file never
// throws text away: every file stays in the menu ("Your files") until the list is full.
//
// Pure (no DOM): state.js sanitizes with it, page.js and the file picker act with it; a second
// language only adds examples (each with its own `file`) — files are plain named texts.

export const DEFAULT_FILE = "kernel.py";
/** Files kept; past this the one used longest ago is dropped (and the page says so). */
export const MAX_FILES = 20;

const NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;

/**
 * A file name from what the user typed: trimmed, `.py` added when it has no extension.
 * Returns {name} or {error} (a sentence for the user).
 */
export function checkName(text) {
  let name = String(text ?? "").trim();
  if (!name) return { error: "A file needs a name." };
  if (!/\.[A-Za-z0-9]+$/.test(name)) name += ".py";
  if (!NAME.test(name)) {
    return { error: "Use letters, digits, '_', '-' and '.' only (at most 64), starting with a letter, digit or '_'." };
  }
  return { name };
}

/** `wanted`, or `stem_2.ext`, `stem_3.ext`… — the first name no file in `files` has. */
export function uniqueName(files, wanted = DEFAULT_FILE, except = -1) {
  const taken = new Set(files.filter((_, i) => i !== except).map((f) => f.name));
  if (!taken.has(wanted)) return wanted;
  const dot = wanted.lastIndexOf(".");
  const [stem, ext] = dot > 0 ? [wanted.slice(0, dot), wanted.slice(dot)] : [wanted, ""];
  for (let n = 2; ; n++) if (!taken.has(`${stem}_${n}${ext}`)) return `${stem}_${n}${ext}`;
}

/** A valid file list from anything (bad entries dropped, names made valid and unique). */
export function sanitizeFiles(raw) {
  const out = [];
  for (const f of Array.isArray(raw) ? raw : []) {
    if (!f || typeof f.code !== "string") continue;
    const checked = checkName(f.name);
    out.push({ name: uniqueName(out, checked.name ?? DEFAULT_FILE), code: f.code });
  }
  return out.slice(-MAX_FILES);
}

/**
 * Makes `code` one of the user's files: the file that already holds exactly this text, or a new
 * one named `name` (made unique). The file picked comes last (the list is in order of use).
 * Returns {files, index, dropped} — `dropped`, a file that made room, or null.
 */
export function adoptCode(files, code, name = DEFAULT_FILE) {
  const same = files.findIndex((f) => f.code === code);
  if (same >= 0) return { ...touch(files, same), dropped: null };
  const checked = checkName(name);
  const list = [...files, { name: uniqueName(files, checked.name ?? DEFAULT_FILE), code }];
  const dropped = list.length > MAX_FILES ? list.shift() : null;
  return { files: list, index: list.length - 1, dropped };
}

/** Moves file `index` to the end (most recently used); returns {files, index}. */
export function touch(files, index) {
  const list = files.filter((_, i) => i !== index);
  list.push(files[index]);
  return { files: list, index: list.length - 1 };
}
