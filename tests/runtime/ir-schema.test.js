// docs/ir.schema.json against the printer's real output: every kernel in kernels/, the simulator
// goldens' cases (tests/sim/trace_goldens.mjs's traces and the committed kernel.json files), the
// docs' examples and snippets that reach every optional field — traced with real Pyodide and the
// real wasm core — validate with no error; a mutation of each $def is rejected at its path.
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

import Ajv2020 from "ajv/dist/2020.js";
import { beforeAll, describe, expect, test } from "vitest";

import { findExamples } from "../../cli/doc-examples.mjs";
import { createNodeRuntime } from "../../runtime/node.mjs";
import { SNIPPETS, SNIPPET_HEAD } from "./ir-schema-snippets.js";

const root = new URL("../../", import.meta.url);
const schema = JSON.parse(readFileSync(new URL("docs/ir.schema.json", root), "utf8"));
// Ajv checks the schema against the 2020-12 meta-schema when it compiles it, and in strict mode
// refuses unknown keywords and formats. `required` inside a `then` naming properties declared
// beside the `if` is standard JSON Schema that Ajv's strict mode only warns about (strictRequired).
const check = new Ajv2020({ allErrors: true, strict: true, strictRequired: false }).compile(schema);

/** The document's errors as {path, message}: `path` a JSON Pointer to the offending value (for an
 * extra property, the property itself), `message` Ajv's. Empty when the document is valid. */
function validate(doc) {
  if (check(doc)) return [];
  return check.errors.map((e) => ({
    path: e.instancePath + (e.keyword === "additionalProperties" ? `/${e.params.additionalProperty}` : ""),
    message: e.message,
  }));
}
const NON_FINITE = ["NaN", "Infinity", "-Infinity"];

let runtime;
let err = "";
/** Documents by source: [{label, doc}] (doc = JSON.parse of the printer's own bytes). */
const docs = { kernels: [], simCases: [], simCommitted: [], docExamples: [], snippets: [], current: [] };

/** Runs a script file or source; returns its traces' parsed JSON, labelled. */
function traced(label, run) {
  err = "";
  const { exitCode, traces } = run();
  if (exitCode !== 0 || traces.length === 0) throw new Error(`${label}: exit ${exitCode}, ${traces.length} traces\n${err}`);
  return traces.map((t) => ({ label: `${label} ${t.kernel}`, doc: JSON.parse(t.irJson) }));
}

beforeAll(async () => {
  runtime = await createNodeRuntime({ stdout: () => {}, stderr: (t) => (err += t) });
  process.chdir(new URL(".", root).pathname);
  for (const file of readdirSync("kernels").filter((f) => f.endsWith(".py")).sort()) {
    docs.kernels.push(...traced(`kernels/${file}`, () => runtime.runFile(`kernels/${file}`)));
  }
  // As tests/sim/trace_goldens.mjs does: the sim cases' module imported inside Pyodide.
  const py = runtime.pyodide;
  expect(runtime.runFile("tests/sim/sim_cases.py").exitCode).toBe(0);
  py.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(`${process.cwd()}/tests/sim`)})\nimport sim_cases`);
  const cases = JSON.parse(py.runPython("import json\njson.dumps(sim_cases.cases())"));
  cases.forEach((c, i) => {
    docs.simCases.push({ label: c.name, doc: JSON.parse(py.runPython(`sim_cases.trace(sim_cases.cases()[${i}])`)) });
    const committed = `tests/sim/goldens/${c.name}/kernel.json`;
    docs.simCommitted.push({ label: committed, doc: JSON.parse(readFileSync(committed, "utf8")) });
  });
  // The docs' NKI examples, run as `nki-playground check` runs them.
  for (const md of readdirSync("docs").filter((f) => f.endsWith(".md")).sort()) {
    for (const ex of findExamples(readFileSync(`docs/${md}`, "utf8"), "markdown")) {
      docs.docExamples.push(...traced(`docs/${md}:${ex.line}`, () => runtime.runSource(ex.source, { filename: `docs/${md}` })));
    }
  }
  // The current language's constructs, as the core's own test builds and pins them.
  docs.current.push({ label: "tests/golden/current_core.json", doc: JSON.parse(readFileSync("tests/golden/current_core.json", "utf8")) });
  for (const [name, body] of Object.entries(SNIPPETS)) {
    docs.snippets.push(...traced(name, () => runtime.runSource(SNIPPET_HEAD + body, { filename: `${name}.py` })));
  }
});

/** {label: errors} for the documents with errors (empty object when all are valid). */
function invalid(list) {
  const out = {};
  for (const { label, doc } of list) {
    const errors = validate(doc);
    if (errors.length) out[label] = errors.slice(0, 5);
  }
  return out;
}

/** Every object in `doc` with its JSON Pointer, depth first, in document order. */
function* objects(value, path = "") {
  if (value === null || typeof value !== "object") return;
  if (!Array.isArray(value)) yield [value, path];
  for (const [k, v] of Object.entries(value)) yield* objects(v, `${path}/${k}`);
}

/** What a document exercises: region kinds, optional fields, var kinds, non-finite numbers. */
function features(doc) {
  const out = new Set();
  const nonFinite = (where, v) => NON_FINITE.includes(v) && out.add(`non-finite ${where}`);
  for (const t of doc.tensors) {
    for (const f of ["mutable", "alias_of", "partition_dim", "constant"]) if (f in t) out.add(f);
    (t.constant ?? []).forEach((v) => nonFinite("constant", v));
  }
  for (const a of doc.loop_axes) out.add(a.tag).add(`axis ${a.axis_type}`);
  if (doc.grid.length) out.add("grid");
  for (const [o] of objects(doc.body)) {
    if (o.kind) out.add(`kind ${o.kind}`);
    for (const f of ["else", "tag", "stage_id", "execution_order", "condition", "mask", "indirect"]) {
      if (f in o) out.add(f === "tag" ? `tag ${o.tag}` : f);
    }
    if (o.condition) nonFinite("condition rhs", o.condition.rhs);
    if (o.var) out.add(`var ${o.var}`);
    if (o.lhs) out.add(`compare ${o.op}`);
    if (o.role && "scalar" in o) nonFinite("scalar operand", o.scalar);
    for (const v of Object.values(o.attrs ?? {})) {
      if (NON_FINITE.includes(v)) out.add("non-finite attr");
      else out.add(`attr ${Array.isArray(v) ? "list" : Number.isInteger(v) ? "integer" : typeof v}`);
    }
  }
  return out;
}

describe("docs/ir.schema.json holds for the printer's output", () => {
  test("every kernel in kernels/ (every trace its script makes)", () => {
    expect(docs.kernels.length).toBeGreaterThanOrEqual(readdirSync("kernels").filter((f) => f.endsWith(".py")).length);
    expect(invalid(docs.kernels)).toEqual({});
  });

  test("the simulator goldens' cases, traced now and as committed (tests/sim/goldens/*/kernel.json)", () => {
    expect(docs.simCases.length).toBeGreaterThan(0);
    expect(invalid(docs.simCases)).toEqual({});
    expect(invalid(docs.simCommitted)).toEqual({});
  });

  test("the current language's IR (tests/golden/current_core.json, pinned by ctest)", () => {
    expect(invalid(docs.current)).toEqual({});
    const seen = features(docs.current[0].doc);
    expect(["UnrolledAxis", "DynamicAxis", "var register", "indirect", "tag core", "tag iteration"].filter((f) => !seen.has(f))).toEqual([]);
  });

  test("the docs' NKI examples (docs/*.md, as `nki-playground check` runs them)", () => {
    expect(docs.docExamples.length).toBeGreaterThan(0);
    expect(invalid(docs.docExamples)).toEqual({});
  });

  test("snippets reaching every region kind, optional field, var kind and non-finite number", () => {
    expect(invalid(docs.snippets)).toEqual({});
    const seen = new Set(docs.snippets.flatMap(({ doc }) => [...features(doc)]));
    const wanted = [
      ...["KernelScope", "FunctionScope", "LoopScope", "IfScope", "WhileScope", "AllocationScope", "ScopeRegion"].map((k) => `kind ${k}`),
      "AffineAxis", "DynamicAxis", "axis affine", "axis sequential", "grid",
      "else", "tag stage", "tag no_reorder", "stage_id", "execution_order", "condition", "mask", "indirect",
      "var loop", "var loop_mod", "var loop_div", "var program_id", "var tile",
      "compare <", "compare >", "compare >=", "compare !=",
      "mutable", "alias_of", "partition_dim", "constant",
      "non-finite constant", "non-finite condition rhs", "non-finite scalar operand", "non-finite attr",
      "attr integer", "attr number", "attr string", "attr list",
    ];
    expect(wanted.filter((f) => !seen.has(f))).toEqual([]);
  });
});

/**
 * One or more mutations per $def: `pick` finds the object to break (with its path) in the first
 * snippet or kernel document that has one; `mutate` breaks it; the validator must report
 * `message` at `path(found path)`.
 */
const MUTATIONS = [
  { def: "(root)", what: "missing version", pick: (o, p) => p === "", mutate: (o) => delete o.version, at: (p) => p, message: "must have required property 'version'" },
  { def: "(root)", what: "version 2", pick: (o, p) => p === "", mutate: (o) => (o.version = 2), at: () => "/version", message: "must be equal to constant" },
  { def: "(root)", what: "extra field", pick: (o, p) => p === "", mutate: (o) => (o.generator = "x"), at: () => "/generator", message: "must NOT have additional properties" },
  { def: "tensorId", what: "negative output id", pick: (o, p) => p === "" && o.outputs.length, mutate: (o) => (o.outputs[0] = -1), at: () => "/outputs/0", message: "must be >= 0" },
  { def: "number", what: "lower-case nan scalar", pick: (o) => o.role && "scalar" in o, mutate: (o) => (o.scalar = "nan"), at: (p) => `${p}/scalar`, message: "must match a schema in anyOf" },
  { def: "loc", what: "loc without col", pick: (o) => o.opcode && o.loc, mutate: (o) => delete o.loc.col, at: (p) => `${p}/loc`, message: "must have required property 'col'" },
  { def: "tensor", what: "unknown dtype", pick: (o) => o.dtype, mutate: (o) => (o.dtype = "float64"), at: (p) => `${p}/dtype`, message: "must be equal to one of the allowed values" },
  { def: "tensor", what: "sbuf tensor in hbm", pick: (o) => o.buffer === "sbuf", mutate: (o) => (o.memory = "hbm"), at: (p) => `${p}/memory`, message: "must be equal to constant" },
  { def: "loopAxis", what: "DynamicAxis with bounds", pick: (o) => o.tag === "DynamicAxis", mutate: (o) => (o.lb = 0), at: (p) => `${p}/lb`, message: "boolean schema is false" },
  { def: "loopAxis", what: "AffineAxis without trip_count", pick: (o) => o.tag === "AffineAxis", mutate: (o) => delete o.trip_count, at: (p) => p, message: "must have required property 'trip_count'" },
  { def: "region", what: "wrong kind", pick: (o) => o.kind === "LoopScope", mutate: (o) => (o.kind = "ForScope"), at: (p) => `${p}/kind`, message: "must be equal to one of the allowed values" },
  { def: "region", what: "LoopScope without axis", pick: (o) => o.kind === "LoopScope", mutate: (o) => delete o.axis, at: (p) => p, message: "must have required property 'axis'" },
  { def: "region", what: "extra field", pick: (o) => o.kind === "IfScope", mutate: (o) => (o.negated = true), at: (p) => `${p}/negated`, message: "must NOT have additional properties" },
  { def: "region", what: "AllocationScope with a tag", pick: (o) => o.kind === "AllocationScope", mutate: (o) => (o.tag = "stage"), at: (p) => `${p}/tag`, message: "boolean schema is false" },
  { def: "item", what: "a bare number in a body", pick: (o) => o.kind === "KernelScope", mutate: (o) => o.body.push(7), at: (p, o) => `${p}/body/${o.body.length - 1}`, message: "must be object" },
  { def: "instruction", what: "opcode with engine prefix", pick: (o) => o.opcode, mutate: (o) => (o.opcode = `dma.${o.opcode}`), at: (p) => `${p}/opcode`, message: "must match" },
  { def: "instruction", what: "unknown engine", pick: (o) => o.opcode, mutate: (o) => (o.engine = "pe"), at: (p) => `${p}/engine`, message: "must be equal to one of the allowed values" },
  { def: "operand", what: "both access and scalar", pick: (o) => o.role && o.access, mutate: (o) => (o.scalar = 1), at: (p) => p, message: "must match exactly one schema in oneOf" },
  { def: "attr", what: "an object attribute", pick: (o) => o.attrs && Object.keys(o.attrs).length, mutate: (o) => (o.attrs[Object.keys(o.attrs)[0]] = {}), at: (p, o) => `${p}/attrs/${Object.keys(o.attrs)[0]}`, message: "must match a schema in anyOf" },
  { def: "access", what: "access without tile_shape", pick: (o) => o.tensor !== undefined && o.index, mutate: (o) => delete o.tile_shape, at: (p) => p, message: "must have required property 'tile_shape'" },
  { def: "access", what: "indirect with a negative dim", pick: (o) => o.indirect, mutate: (o) => (o.indirect.dim = -1), at: (p) => `${p}/indirect/dim`, message: "must be >= 0" },
  { def: "expr", what: "fractional constant", pick: (o) => "const" in o && o.terms, mutate: (o) => (o.const = 0.5), at: (p) => `${p}/const`, message: "must be integer" },
  { def: "expr", what: "expr without terms", pick: (o) => "const" in o && o.terms, mutate: (o) => delete o.terms, at: (p) => p, message: "must have required property 'terms'" },
  { def: "term", what: "loop_mod without mod", pick: (o) => o.var === "loop_mod", mutate: (o) => delete o.mod, at: (p) => p, message: "must have required property 'mod'" },
  { def: "term", what: "tile term with an offset", pick: (o) => o.var === "tile", mutate: (o) => (o.off = 1), at: (p) => `${p}/off`, message: "boolean schema is false" },
  { def: "term", what: "unknown var kind", pick: (o) => o.var === "loop", mutate: (o) => (o.var = "iv"), at: (p) => `${p}/var`, message: "must be equal to one of the allowed values" },
  { def: "predicate", what: "empty mask", pick: (o) => o.mask, mutate: (o) => (o.mask = []), at: (p) => `${p}/mask`, message: "must NOT have fewer than 1 items" },
  { def: "registerId", what: "negative induction register", pick: (o) => "iv_register" in o, mutate: (o) => (o.iv_register = -1), at: (p) => `${p}/iv_register`, message: "must be >= 0" },
  { def: "register", what: "register without loc", pick: (o, p) => /^\/registers\/\d+$/.test(p), mutate: (o) => delete o.loc, at: (p) => p, message: "must have required property 'loc'" },
  { def: "loopAxis", what: "UnrolledAxis without iterates", pick: (o) => o.tag === "UnrolledAxis", mutate: (o) => delete o.iterates, at: (p) => p, message: "must have required property 'iterates'" },
  { def: "operand", what: "register and scalar", pick: (o) => o.role && "register" in o, mutate: (o) => (o.scalar = 1), at: (p) => p, message: "must match exactly one schema in oneOf" },
  { def: "predicate", what: "unknown comparison", pick: (o) => o.lhs && o.rhs, mutate: (o) => (o.op = "=<"), at: (p) => `${p}/op`, message: "must be equal to one of the allowed values" },
];

test("the package exports the schema: nki-playground/ir.schema.json is this file, and it ships", () => {
  const resolved = createRequire(import.meta.url).resolve("nki-playground/ir.schema.json");
  expect(resolved).toBe(fileURLToPath(new URL("docs/ir.schema.json", root)));
  const pkg = JSON.parse(readFileSync(new URL("package.json", root), "utf8"));
  expect(pkg.files).toContain("docs/ir.schema.json");
});

describe("the schema rejects broken documents with a useful path", () => {
  test("every $def has at least one mutation", () => {
    const covered = new Set(MUTATIONS.map((m) => m.def));
    expect(Object.keys(schema.$defs).filter((d) => !covered.has(d))).toEqual([]);
  });

  test.each(MUTATIONS.map((m) => [`${m.def}: ${m.what}`, m]))("%s", (_, m) => {
    const pool = [...docs.snippets, ...docs.kernels, ...docs.current];
    const source = pool.find(({ doc }) => [...objects(doc)].some(([o, p]) => m.pick(o, p)));
    expect(source, "no document has what this mutation breaks").toBeDefined();
    const doc = structuredClone(source.doc);
    expect(validate(doc)).toEqual([]);
    const [target, path] = [...objects(doc)].find(([o, p]) => m.pick(o, p));
    m.mutate(target);
    const errors = validate(doc);
    expect(errors).toContainEqual({ path: m.at(path, target), message: expect.stringContaining(m.message) });
  });
});
