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

/** The time limit input (seconds); calls onChange(ms) now and on every valid change. */
export function setupTimeLimit(input, onChange) {
  const saved = Number(read(LIMIT_KEY));
  if (saved >= 1 && saved <= 600) input.value = String(saved);
  const apply = () => {
    const seconds = Number(input.value);
    if (!(seconds >= 1 && seconds <= 600)) return;
    write(LIMIT_KEY, String(seconds));
    onChange(seconds * 1000);
  };
  input.addEventListener("change", apply);
  apply();
}
