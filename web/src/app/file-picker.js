// The toolbar's file menu ("Your files", then the examples of each NKI language) and the editor
// pane's title (the file name the code runs under, the code's language, and Rename for the
// user's files). It only shows the state and
// reports what the user picked or typed; page.js changes the state (files.js rules).
import { LANGUAGES, detectLanguage } from "../../../render/language.js";
import { examples } from "../editor/examples.js";
import { checkName } from "./files.js";
import { fileName } from "./state.js";

const FILE_PREFIX = "file:"; // option values: "file:<name>" for the user's files, an example's name

/**
 * @param {object} opts
 * @param {() => object} opts.getState  The page state (state.js).
 * @param {(pick: {example: string} | {file: number}) => void} opts.onPick
 * @param {(name: string) => string | null} opts.onRename  Renames the current file; returns an
 *   error sentence, or null when it was done.
 */
export function createFilePicker({ getState, onPick, onRename }) {
  const select = document.getElementById("examples");
  const title = document.getElementById("filename");
  const kind = document.getElementById("file-kind");
  const rename = document.getElementById("rename");
  const form = document.getElementById("rename-form");
  const input = document.getElementById("rename-input");
  const error = document.getElementById("rename-error");
  const language = document.getElementById("language");

  function render() {
    const state = getState();
    const yours = document.createElement("optgroup");
    yours.label = "Your files";
    state.files.forEach((f, i) => {
      const option = new Option(f.name, FILE_PREFIX + f.name);
      option.dataset.index = String(i);
      yours.append(option);
    });
    // The examples, one group per NKI language.
    const groups = Object.values(LANGUAGES).map((lang) => {
      const group = document.createElement("optgroup");
      group.label = `Examples: ${lang.label} (${lang.importLine})`;
      group.dataset.language = lang.id;
      group.append(
        ...examples
          .filter((e) => e.language === lang.id)
          .map((e) => Object.assign(new Option(e.name, e.name), { title: e.title })),
      );
      return group;
    });
    select.replaceChildren(...(state.files.length ? [yours] : []), ...groups.filter((g) => g.children.length));
    select.value = state.example ?? FILE_PREFIX + state.files[state.current].name;
    title.textContent = fileName(state);
    kind.textContent = state.example !== null ? "example" : "your file";
    rename.hidden = state.example !== null || !form.hidden;
    showLanguage(state.code);
  }

  /** The label of the code's language (what it imports). */
  function showLanguage(code) {
    const lang = detectLanguage(code);
    language.dataset.language = lang.id;
    language.textContent = lang.label;
  }

  select.addEventListener("change", () => {
    const option = select.selectedOptions[0];
    if (!option) return;
    onPick(option.value.startsWith(FILE_PREFIX) ? { file: Number(option.dataset.index) } : { example: option.value });
  });

  // Rename: the title becomes a small form; Enter keeps the name, Escape (or leaving) cancels.
  function openRename() {
    form.hidden = false;
    rename.hidden = true;
    title.hidden = true;
    error.textContent = "";
    input.removeAttribute("aria-invalid");
    input.value = title.textContent;
    input.focus();
    input.select();
  }
  function closeRename({ focus = true } = {}) {
    form.hidden = true;
    title.hidden = false;
    render();
    if (focus) rename.focus();
  }
  rename.addEventListener("click", openRename);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const checked = checkName(input.value);
    const problem = checked.error ?? onRename(checked.name);
    if (problem) {
      error.textContent = problem;
      input.setAttribute("aria-invalid", "true");
      return;
    }
    closeRename();
  });
  input.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    closeRename();
  });
  form.addEventListener("focusout", (event) => {
    if (!form.contains(event.relatedTarget) && !form.hidden) closeRename({ focus: false });
  });

  render();
  return { render, showLanguage };
}
