// The examples menu, built at build time from kernels/*.py: each file's name and the first
// line of its module docstring (the menu entry's title).
const files = import.meta.glob("../../../kernels/*.py", { query: "?raw", import: "default", eager: true });

/** First line of a module docstring, or "" when the file does not start with one. */
export function docstringTitle(source) {
  const m = /^\s*(?:#[^\n]*\n\s*)*[rRuU]?("""|''')\s*([^\n]*)/.exec(source);
  return m ? m[2].replace(/("""|''')\s*$/, "").trim() : "";
}

/** [{name: "tensor_add", file: "tensor_add.py", title, source}] sorted by name. */
export const examples = Object.entries(files)
  .map(([path, source]) => {
    const file = path.split("/").pop();
    return { name: file.replace(/\.py$/, ""), file, title: docstringTitle(source), source };
  })
  .sort((a, b) => a.name.localeCompare(b.name));

export const DEFAULT_EXAMPLE = "tensor_add";

export function findExample(name) {
  return examples.find((e) => e.name === name) ?? null;
}
