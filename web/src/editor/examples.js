// The examples menu, built at build time from kernels/*.py: each file's name, the first line of
// its module docstring (the menu entry's title) and the NKI language it is written in (what it
// imports: render/language.js).
import { detectLanguage } from "../../../render/language.js";

const files = import.meta.glob("../../../kernels/*.py", { query: "?raw", import: "default", eager: true });

/** First line of a module docstring, or "" when the file does not start with one. */
export function docstringTitle(source) {
  const m = /^\s*(?:#[^\n]*\n\s*)*[rRuU]?("""|''')\s*([^\n]*)/.exec(source);
  return m ? m[2].replace(/("""|''')\s*$/, "").trim() : "";
}

/** [{name: "tensor_add", file: "tensor_add.py", title, source, language}] sorted by name. */
export const examples = Object.entries(files)
  .map(([path, source]) => {
    const file = path.split("/").pop();
    const language = detectLanguage(source).id;
    return { name: file.replace(/\.py$/, ""), file, title: docstringTitle(source), source, language };
  })
  .sort((a, b) => a.name.localeCompare(b.name));

export const DEFAULT_EXAMPLE = "tensor_add";

export function findExample(name) {
  return examples.find((e) => e.name === name) ?? null;
}
