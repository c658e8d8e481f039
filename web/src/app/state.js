// The page state that survives a reload and travels in a share link: the code, the example it
// came from, and the pane layout. One shape, sanitized on every way in (storage, URL hash), so
// the rest of the page never sees a malformed state.
import { DEFAULT_EXAMPLE, findExample } from "../editor/examples.js";

const STORAGE_KEY = "nki-playground:state";
const LEGACY_SOURCE_KEY = "nki-playground:source"; // the first page kept only the source here

export const TOP_TABS = ["ir", "regions", "sim"];
export const BOTTOM_TABS = ["output", "problems"];

export const DEFAULT_LAYOUT = Object.freeze({ top: "ir", bottom: "output", splitX: 0.5, splitY: 0.68 });

export function defaultState() {
  const example = findExample(DEFAULT_EXAMPLE);
  return { code: example?.source ?? "", example: example?.name ?? null, layout: { ...DEFAULT_LAYOUT } };
}

/** A valid state from anything (missing or wrong fields take their defaults). */
export function sanitizeState(raw, fallback = defaultState()) {
  const s = raw && typeof raw === "object" ? raw : {};
  const layout = s.layout && typeof s.layout === "object" ? s.layout : {};
  return {
    code: typeof s.code === "string" ? s.code : fallback.code,
    example: typeof s.example === "string" && findExample(s.example) ? s.example : null,
    layout: {
      top: TOP_TABS.includes(layout.top) ? layout.top : DEFAULT_LAYOUT.top,
      bottom: BOTTOM_TABS.includes(layout.bottom) ? layout.bottom : DEFAULT_LAYOUT.bottom,
      splitX: fraction(layout.splitX, DEFAULT_LAYOUT.splitX),
      splitY: fraction(layout.splitY, DEFAULT_LAYOUT.splitY),
    },
  };
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
