// A validator for the subset of JSON Schema (draft 2020-12) that docs/ir.schema.json uses, so
// tests and users can check the IR's JSON form without a dependency. Pure: no Node or DOM APIs.
//
//   validate(schema, document) → [{path, message}]   (empty when the document is valid)
//
// `path` is a JSON Pointer into the document ("/body/body/0/kind"). Supported keywords: type,
// const, enum, properties, required, additionalProperties, items, prefixItems, minItems,
// minimum, pattern, anyOf, oneOf, allOf, if/then/else, $ref to "#/$defs/..." and boolean
// schemas. A keyword outside that set throws: silently ignoring a constraint would let a
// document pass that the schema means to reject.

const ANNOTATIONS = new Set(["$schema", "$id", "$comment", "title", "description", "examples", "default"]);
const KEYWORDS = new Set([
  "$defs", "$ref", "type", "const", "enum", "properties", "required", "additionalProperties",
  "items", "prefixItems", "minItems", "minimum", "pattern", "anyOf", "oneOf", "allOf", "if",
  "then", "else",
]);

/** The JSON Schema type names `value` belongs to ("integer" values are also "number"). */
function typesOf(value) {
  if (value === null) return ["null"];
  if (Array.isArray(value)) return ["array"];
  if (typeof value === "number") return Number.isInteger(value) ? ["integer", "number"] : ["number"];
  if (typeof value === "object") return ["object"];
  return [typeof value]; // "string", "boolean"
}

/** Deep equality of JSON values (for const and enum). */
function jsonEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
}

const show = (v) => JSON.stringify(v);
const pointer = (path, key) => `${path}/${String(key).replace(/~/g, "~0").replace(/\//g, "~1")}`;

/**
 * Validates `document` against `schema`; returns every error found as {path, message}, in
 * document order of discovery. Throws on a keyword the validator does not implement.
 */
export function validate(schema, document) {
  const errors = [];
  check(schema, document, "", errors, schema);
  return errors;
}

function resolve(root, ref) {
  const m = /^#\/\$defs\/([^/]+)$/.exec(ref);
  const target = m && root.$defs && root.$defs[m[1]];
  if (target === undefined || target === null) throw new Error(`json-schema: unresolvable $ref ${ref}`);
  return target;
}

/** Errors of `value` against `schema` collected into a fresh list (for anyOf/oneOf/if). */
function errorsOf(schema, value, path, root) {
  const out = [];
  check(schema, value, path, out, root);
  return out;
}

function check(schema, value, path, errors, root) {
  if (schema === true) return;
  if (schema === false) {
    errors.push({ path, message: "is not allowed here" });
    return;
  }
  for (const key of Object.keys(schema)) {
    if (!KEYWORDS.has(key) && !ANNOTATIONS.has(key)) throw new Error(`json-schema: unsupported keyword "${key}"`);
  }
  if (schema.$ref !== undefined) check(resolve(root, schema.$ref), value, path, errors, root);

  const types = typesOf(value);
  if (schema.type !== undefined) {
    const allowed = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!allowed.some((t) => types.includes(t))) {
      errors.push({ path, message: `must be of type ${allowed.join(" or ")}, got ${types[0]}` });
      return; // the other keywords' messages would only repeat this one
    }
  }
  if (schema.const !== undefined && !jsonEqual(value, schema.const)) {
    errors.push({ path, message: `must be ${show(schema.const)}, got ${show(value)}` });
  }
  if (schema.enum !== undefined && !schema.enum.some((e) => jsonEqual(value, e))) {
    errors.push({ path, message: `must be one of ${schema.enum.map(show).join(", ")}, got ${show(value)}` });
  }
  if (typeof value === "number" && schema.minimum !== undefined && value < schema.minimum) {
    errors.push({ path, message: `must be >= ${schema.minimum}, got ${value}` });
  }
  if (typeof value === "string" && schema.pattern !== undefined && !new RegExp(schema.pattern, "u").test(value)) {
    errors.push({ path, message: `must match /${schema.pattern}/, got ${show(value)}` });
  }
  if (types[0] === "object") checkObject(schema, value, path, errors, root);
  if (types[0] === "array") checkArray(schema, value, path, errors, root);

  if (schema.allOf) for (const sub of schema.allOf) check(sub, value, path, errors, root);
  if (schema.anyOf) checkAlternatives(schema.anyOf, "anyOf", value, path, errors, root);
  if (schema.oneOf) checkAlternatives(schema.oneOf, "oneOf", value, path, errors, root);
  if (schema.if !== undefined) {
    const branch = errorsOf(schema.if, value, path, root).length === 0 ? schema.then : schema.else;
    if (branch !== undefined) check(branch, value, path, errors, root);
  }
}

function checkObject(schema, value, path, errors, root) {
  for (const name of schema.required ?? []) {
    if (!Object.hasOwn(value, name)) errors.push({ path, message: `is missing required property "${name}"` });
  }
  const props = schema.properties ?? {};
  for (const [name, member] of Object.entries(value)) {
    if (Object.hasOwn(props, name)) {
      check(props[name], member, pointer(path, name), errors, root);
    } else if (schema.additionalProperties === false) {
      errors.push({ path: pointer(path, name), message: `is not an allowed property` });
    } else if (schema.additionalProperties !== undefined) {
      check(schema.additionalProperties, member, pointer(path, name), errors, root);
    }
  }
}

function checkArray(schema, value, path, errors, root) {
  if (schema.minItems !== undefined && value.length < schema.minItems) {
    errors.push({ path, message: `must have at least ${schema.minItems} item(s), got ${value.length}` });
  }
  const prefix = schema.prefixItems ?? [];
  value.forEach((item, i) => {
    if (i < prefix.length) check(prefix[i], item, pointer(path, i), errors, root);
    else if (schema.items !== undefined) check(schema.items, item, pointer(path, i), errors, root);
  });
}

/**
 * anyOf: at least one alternative matches; oneOf: exactly one. When none matches, the errors of
 * the alternative that came closest follow a summary, so the message points at the field that is
 * wrong rather than only saying "no alternative matched". Closest = got deepest into the document
 * (a region with one bad expr beats "is not null"), then fewest errors.
 */
function checkAlternatives(alternatives, keyword, value, path, errors, root) {
  const results = alternatives.map((sub) => errorsOf(sub, value, path, root));
  const matching = results.filter((r) => r.length === 0).length;
  if (matching === 0) {
    const depth = (r) => Math.max(...r.map((e) => e.path.split("/").length));
    const closer = (a, b) => depth(a) > depth(b) || (depth(a) === depth(b) && a.length < b.length);
    const closest = results.reduce((best, r) => (closer(r, best) ? r : best));
    errors.push({ path, message: `matches none of the ${alternatives.length} ${keyword} alternatives` });
    errors.push(...closest);
  } else if (keyword === "oneOf" && matching > 1) {
    errors.push({ path, message: `matches ${matching} oneOf alternatives, must match exactly one` });
  }
}
