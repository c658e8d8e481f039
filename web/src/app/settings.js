// Per-browser settings that are not part of a shared link: the theme override and the run
// time limit. Stored in localStorage; both controls are plain form elements in the toolbar.

const THEME_KEY = "nki-playground:theme";
const LIMIT_KEY = "nki-playground:time-limit";
const THEMES = ["system", "light", "dark"];

function read(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // storage disabled: the setting lasts for this page only
  }
}

/** The theme button cycles system → light → dark; "system" follows prefers-color-scheme. */
export function setupTheme(button) {
  let theme = THEMES.includes(read(THEME_KEY)) ? read(THEME_KEY) : "system";
  const apply = () => {
    if (theme === "system") delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = theme;
    button.textContent = `Theme: ${theme}`;
  };
  button.addEventListener("click", () => {
    theme = THEMES[(THEMES.indexOf(theme) + 1) % THEMES.length];
    write(THEME_KEY, theme === "system" ? null : theme);
    apply();
  });
  apply();
}

/**
 * The time limit input (seconds, 1–600); calls onChange(ms) now and on every valid change. A
 * value out of range (0, -5, empty, 1000) is marked invalid with a message saying which limit
 * runs keep instead; `check()` returns that message while the field is invalid (else null).
 */
export function setupTimeLimit(input, onChange, error = document.getElementById("time-limit-error")) {
  const saved = Number(read(LIMIT_KEY));
  if (saved >= 1 && saved <= 600) input.value = String(saved);
  let inUse = 10;
  const valid = () => input.value.trim() !== "" && input.validity.valid && Number(input.value) >= 1 && Number(input.value) <= 600;
  const problem = () => (valid() ? null : `The time limit is a whole number of seconds from 1 to 600; runs keep ${inUse} s.`);
  const apply = () => {
    const message = problem();
    if (message) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
    error.textContent = message ?? "";
    error.hidden = !message;
    if (message) return;
    inUse = Number(input.value);
    write(LIMIT_KEY, String(inUse));
    onChange(inUse * 1000);
  };
  input.addEventListener("change", apply);
  // While typing, a value that became valid applies at once (an error shows on change only).
  input.addEventListener("input", () => valid() && apply());
  apply();
  return { check: problem };
}