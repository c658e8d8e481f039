// The two NKI languages a file can be written in, told apart per file by what it imports (the
// Python copy is python/nki_playground/languages.py; tests/runtime/current-language.test.js pins
// them alike). Pure, like the rest of render/: the page, the element, the pre-render and the CLI
// read it.
//   - "nki":   the current language, `import nki` (NKI 0.6.0, Neuron SDK 2.32);
//   - "beta1": NKI Beta 1, `import neuronxcc.nki` / `from neuronxcc import nki`.
// A file may import both; one kernel may not mix them (NKI's error, raised by the front ends).

/** id -> what the product says about it. */
export const LANGUAGES = {
  nki: { id: "nki", frontEnd: "nki", label: "NKI 0.6.0", version: "0.6.0", importLine: "import nki" },
  beta1: { id: "beta1", frontEnd: "neuronxcc.nki", label: "NKI Beta 1", version: "beta1", importLine: "import neuronxcc.nki" },
};

const IMPORT = /^[ \t]*(?:import[ \t]+([^#\n]+)|from[ \t]+([\w.]+)[ \t]+import)/gm;

function languageOfModule(module) {
  const top = module.trim().split(/\s+/)[0].split(".")[0];
  if (top === "nki") return "nki";
  if (top === "neuronxcc") return "beta1";
  return null;
}

/** The languages `source` imports, in order of first import: [], ["nki"], ["beta1"] or both. */
export function detectLanguages(source) {
  const found = [];
  for (const m of String(source).matchAll(IMPORT)) {
    const mods = m[2] ? [m[2]] : m[1].split(",");
    for (const mod of mods) {
      const lang = languageOfModule(mod.split(/\s+as\s+/)[0]);
      if (lang && !found.includes(lang)) found.push(lang);
    }
  }
  return found;
}

/**
 * What a share link or a docs embed records of `source`: the languages it imports, each as
 * "id@version" ("nki@0.6.0", "beta1@beta1"), in order of first import.
 */
export function languageTags(source) {
  return detectLanguages(source).map((id) => `${id}@${LANGUAGES[id].version}`);
}

/**
 * The tags to record for `source` when an earlier record exists (a docs embed's `language`
 * attribute): each language the code imports keeps the version it was recorded with; a
 * recorded language this playground does not know stays; one the code no longer imports goes.
 */
export function mergeLanguageTags(source, recorded = []) {
  const given = recorded.filter((t) => typeof t === "string" && t.includes("@"));
  const known = detectLanguages(source).map((id) => given.find((t) => t.split("@")[0] === id) ?? `${id}@${LANGUAGES[id].version}`);
  const unknown = given.filter((t) => !Object.hasOwn(LANGUAGES, t.split("@")[0]));
  return [...known, ...unknown.filter((t) => !known.includes(t))];
}

/** The file's language (the first it imports; Beta 1 when it imports neither). */
export function detectLanguage(source) {
  return LANGUAGES[detectLanguages(source)[0] || "beta1"];
}
