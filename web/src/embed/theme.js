// theme="auto|light|dark" → data-nkp-theme="light|dark" on the element, which element.css
// (and the live panes, through `color-scheme`) key their colours on.
//
// "auto" follows the host page, not just the OS: a docs theme that pins itself with
// `color-scheme: dark` (or light) on its root wins; a page that declares both or nothing
// follows prefers-color-scheme. The host can flip its color-scheme at runtime (a theme
// toggle), so we watch the root's class/style/data attributes for that too.

const DARK_QUERY = "(prefers-color-scheme: dark)";

/** The host's declared scheme around `el`: "light", "dark" or null (both / none declared). */
function hostScheme(el) {
  const parent = el.parentElement ?? el.ownerDocument.documentElement;
  const words = getComputedStyle(parent).colorScheme.split(/\s+/);
  const light = words.includes("light");
  const dark = words.includes("dark");
  if (light !== dark) return dark ? "dark" : "light";
  return null;
}

export function resolveTheme(el) {
  const asked = (el.getAttribute("theme") ?? "auto").trim().toLowerCase();
  if (asked === "light" || asked === "dark") return asked;
  const host = hostScheme(el);
  if (host) return host;
  return window.matchMedia?.(DARK_QUERY).matches ? "dark" : "light";
}

/** Applies the theme now and whenever the OS or host page changes it; returns a stop function. */
export function followTheme(el) {
  const apply = () => {
    const theme = resolveTheme(el);
    if (el.dataset.nkpTheme !== theme) el.dataset.nkpTheme = theme;
  };
  apply();
  const media = window.matchMedia?.(DARK_QUERY);
  media?.addEventListener("change", apply);
  const root = el.ownerDocument.documentElement;
  const observer = new MutationObserver(apply);
  const watched = { attributes: true, attributeFilter: ["class", "style", "data-theme", "data-color-scheme"] };
  observer.observe(root, watched);
  if (el.ownerDocument.body) observer.observe(el.ownerDocument.body, watched);
  return () => {
    media?.removeEventListener("change", apply);
    observer.disconnect();
  };
}
