// The page state that survives a reload: the code in the editor, the example it is (unchanged)
// or else the user's file it is (files.js), the user's files, and the pane layout. A share link
// carries the code, its example or file name, and the layout. One shape, sanitized on every way
// in (storage, URL hash), so the rest of the page never sees a malformed state.
import { DEFAULT_EXAMPLE, findExample } from "../editor/examples.js";
import { DEFAULT_FILE, adoptCode, sanitizeFiles } from "./files.js";

const STORAGE_KEY = "nki-playground:state";
const LEGACY_SOURCE_KEY = "nki-playground:source"; // the first page kept only the source here

export const TOP_TABS = ["ir", "regions", "sim", "compare"];
export const BOTTOM_TABS = ["output", "problems"];

export const DEFAULT_LAYOUT = Object.freeze({ top: "ir", bottom: "output", splitX: 0.5, splitY: 0.68 });

/**
 * {code, example, files, current, layout}: `example` names the example shown unchanged, else
 * null and `files[current]` is the user's file the editor shows (its `code` is `code`).
 */
export function defaultState() {
  const example = findExample(DEFAULT_EXAMPLE);
  return {
    code: example?.source ?? "",
    example: example?.name ?? null,
    files: [],
    current: null,
    layout: { ...DEFAULT_LAYOUT },
  };
}

/**
 * A valid state from anything (missing or wrong fields take their defaults). A state without
 * `files` (a share link, an older saved state) keeps `fallback`'s files, and its code, unless
 * it is an example's text unchanged, becomes one of them (named `raw.file`).
 */
export function sanitizeState(raw, fallback = defaultState()) {
  const s = raw && typeof raw === "object" ? raw : {};
  const layout = s.layout && typeof s.layout === "object" ? s.layout : {};
  const code = typeof s.code === "string" ? s.code : fallback.code;
  // An example is what the editor shows only while its text is the example's own.
  const example = typeof s.example === "string" && findExample(s.example)?.source === code ? s.example : null;
  let files = Array.isArray(s.files) ? sanitizeFiles(s.files) : fallback.files ?? [];
  let current = null;
  if (example === null) {
    if (Number.isInteger(s.current) && files[s.current]?.code === code) current = s.current;
    else ({ files, index: current } = adoptCode(files, code, typeof s.file === "string" ? s.file : DEFAULT_FILE));
  }
  return {
    code,
    example,
    files,
    current,
    layout: {
      top: TOP_TABS.includes(layout.top) ? layout.top : DEFAULT_LAYOUT.top,
      bottom: BOTTOM_TABS.includes(layout.bottom) ? layout.bottom : DEFAULT_LAYOUT.bottom,
      splitX: fraction(layout.splitX, DEFAULT_LAYOUT.splitX),
      splitY: fraction(layout.splitY, DEFAULT_LAYOUT.splitY),
    },
  };
}

/** The name the code runs under: the example's file, or the user's file's name. */
export function fileName(state) {
  if (state.example !== null) return findExample(state.example)?.file ?? DEFAULT_FILE;
  return state.files[state.current]?.name ?? DEFAULT_FILE;
}

/** What a share link carries: the code, its example or file name, the layout. */
export function linkState(state) {
  return { code: state.code, example: state.example, file: state.example === null ? fileName(state) : undefined, layout: state.layout };
}

function fraction(value, fallback) {
  return typeof value === "number" && Number.isFinite(value) ? Math.min(0.85, Math.max(0.15, value)) : fallback;
}

/** The saved state, or null when there is none (or storage is unavailable). */
export function loadSaved() {
  try {
    const json = localStorage.getItem(STORAGE_KEY);
    if (json) return sanitizeState(JSON.parse(json));
    const legacy = localStorage.getItem(LEGACY_SOURCE_KEY);
    if (legacy !== null) return sanitizeState({ code: legacy });
  } catch {
    // storage disabled or a corrupt entry: start from the default
  }
  return null;
}

export function save(state) {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(state));
  } catch {
    // storage full or disabled: keep working without persistence
  }
}

/** Calls fn at most once per `ms`, with the last arguments; flush() runs a pending call now. */
export function debounce(fn, ms) {
  let timer = null;
  let args = null;
  const debounced = (...a) => {
    args = a;
    clearTimeout(timer);
    timer = setTimeout(debounced.flush, ms);
  };
  debounced.flush = () => {
    clearTimeout(timer);
    if (args) fn(...args);
    args = null;
  };
  return debounced;
}
