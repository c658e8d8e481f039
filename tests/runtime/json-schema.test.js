// runtime/json-schema.mjs on its own: each keyword it supports accepts what it should and reports
// what it should not, with a JSON Pointer to the offending value. No runtime needed.
import { describe, expect, test } from "vitest";

import { validate } from "../../runtime/json-schema.mjs";

const paths = (errors) => errors.map((e) => e.path);

describe("json-schema validator", () => {
  test("type: integer is a number, arrays are not objects, null is its own type", () => {
    expect(validate({ type: "number" }, 3)).toEqual([]);
    expect(validate({ type: "integer" }, 3)).toEqual([]);
    expect(validate({ type: "integer" }, 3.5)).toEqual([{ path: "", message: "must be of type integer, got number" }]);
    expect(validate({ type: "object" }, [])).toEqual([{ path: "", message: "must be of type object, got array" }]);
    expect(validate({ type: ["object", "null"] }, null)).toEqual([]);
    expect(validate({ type: "string" }, null)[0].message).toBe("must be of type string, got null");
    expect(validate({ type: "boolean" }, false)).toEqual([]);
  });

  test("const and enum compare JSON values deeply", () => {
    expect(validate({ const: 1 }, 1)).toEqual([]);
    expect(validate({ const: 1 }, 2)).toEqual([{ path: "", message: "must be 1, got 2" }]);
    expect(validate({ const: [1, { a: 2 }] }, [1, { a: 2 }])).toEqual([]);
    expect(validate({ const: [1, { a: 2 }] }, [1, { a: 3 }])).toHaveLength(1);
    expect(validate({ const: { a: 1 } }, { a: 1, b: 2 })).toHaveLength(1);
    expect(validate({ enum: ["<", "<="] }, "<=")).toEqual([]);
    expect(validate({ enum: ["<", "<="] }, "=<")).toEqual([{ path: "", message: 'must be one of "<", "<=", got "=<"' }]);
  });

  test("properties, required and additionalProperties (false or a schema)", () => {
    const schema = {
      type: "object",
      required: ["id"],
      properties: { id: { type: "integer" }, "a/b~c": { type: "string" } },
      additionalProperties: false,
    };
    expect(validate(schema, { id: 1, "a/b~c": "x" })).toEqual([]);
    expect(validate(schema, {})).toEqual([{ path: "", message: 'is missing required property "id"' }]);
    expect(validate(schema, { id: 1, extra: 0 })).toEqual([{ path: "/extra", message: "is not an allowed property" }]);
    // JSON Pointer escaping of "/" and "~".
    expect(paths(validate(schema, { id: 1, "a/b~c": 5 }))).toEqual(["/a~1b~0c"]);
    const map = { type: "object", additionalProperties: { type: "integer" } };
    expect(validate(map, { x: 1, y: 2 })).toEqual([]);
    expect(paths(validate(map, { x: 1, y: "2" }))).toEqual(["/y"]);
  });

  test("items, prefixItems, minItems", () => {
    expect(validate({ type: "array", items: { type: "integer" } }, [1, 2])).toEqual([]);
    expect(paths(validate({ type: "array", items: { type: "integer" } }, [1, "2", 3.5]))).toEqual(["/1", "/2"]);
    const pair = { prefixItems: [{ type: "string" }, { type: "integer" }], items: { type: "boolean" } };
    expect(validate(pair, ["a", 1, true, false])).toEqual([]);
    expect(paths(validate(pair, [1, "a", 0]))).toEqual(["/0", "/1", "/2"]);
    expect(validate({ minItems: 1 }, [])).toEqual([{ path: "", message: "must have at least 1 item(s), got 0" }]);
  });

  test("minimum and pattern apply to their own types only", () => {
    expect(validate({ minimum: -1 }, -1)).toEqual([]);
    expect(validate({ minimum: 0 }, -1)).toEqual([{ path: "", message: "must be >= 0, got -1" }]);
    expect(validate({ minimum: 0 }, "x")).toEqual([]);
    expect(validate({ pattern: "^[a-z_]+$" }, "tensor_copy")).toEqual([]);
    expect(validate({ pattern: "^[a-z_]+$" }, "Tensor")[0].message).toBe('must match /^[a-z_]+$/, got "Tensor"');
  });

  test("anyOf and oneOf report the closest alternative's errors", () => {
    const number = { anyOf: [{ type: "number" }, { enum: ["NaN", "Infinity", "-Infinity"] }] };
    for (const ok of [1.5, "NaN", "-Infinity"]) expect(validate(number, ok)).toEqual([]);
    expect(validate(number, "nan")[0]).toEqual({ path: "", message: "matches none of the 2 anyOf alternatives" });
    // The object alternative got deeper into the document than "must be null": its error is shown.
    const nullable = { anyOf: [{ type: "null" }, { type: "object", properties: { a: { type: "integer" } } }] };
    expect(validate(nullable, { a: "x" })).toEqual([
      { path: "", message: "matches none of the 2 anyOf alternatives" },
      { path: "/a", message: "must be of type integer, got string" },
    ]);
    const one = { oneOf: [{ required: ["access"] }, { required: ["scalar"] }] };
    expect(validate(one, { access: 1 })).toEqual([]);
    expect(validate(one, { access: 1, scalar: 2 })).toEqual([
      { path: "", message: "matches 2 oneOf alternatives, must match exactly one" },
    ]);
    expect(validate(one, {})[0].message).toBe("matches none of the 2 oneOf alternatives");
  });

  test("allOf, if/then/else and boolean schemas", () => {
    const schema = {
      type: "object",
      allOf: [
        {
          if: { properties: { kind: { const: "loop" } }, required: ["kind"] },
          then: { required: ["axis"], properties: { name: false } },
          else: { properties: { axis: false } },
        },
      ],
    };
    expect(validate(schema, { kind: "loop", axis: 0 })).toEqual([]);
    expect(validate(schema, { kind: "func", name: "f" })).toEqual([]);
    expect(validate(schema, { kind: "loop" })).toEqual([{ path: "", message: 'is missing required property "axis"' }]);
    expect(validate(schema, { kind: "loop", axis: 0, name: "f" })).toEqual([{ path: "/name", message: "is not allowed here" }]);
    expect(paths(validate(schema, { kind: "func", axis: 0 }))).toEqual(["/axis"]);
    expect(validate(true, 1)).toEqual([]);
    expect(validate(false, 1)).toHaveLength(1);
  });

  test("$ref resolves into $defs, recursively", () => {
    const schema = {
      $defs: { node: { type: "object", required: ["kids"], properties: { kids: { items: { $ref: "#/$defs/node" } } } } },
      $ref: "#/$defs/node",
    };
    expect(validate(schema, { kids: [{ kids: [] }, { kids: [{ kids: [] }] }] })).toEqual([]);
    expect(validate(schema, { kids: [{ kids: [] }, { kids: [{}] }] })).toEqual([
      { path: "/kids/1/kids/0", message: 'is missing required property "kids"' },
    ]);
  });

  test("an unsupported keyword or an unresolvable $ref throws rather than passing silently", () => {
    expect(() => validate({ maxItems: 1 }, [])).toThrow('unsupported keyword "maxItems"');
    expect(() => validate({ items: { uniqueItems: true } }, [1])).toThrow("uniqueItems");
    expect(() => validate({ $ref: "#/$defs/nope" }, 1)).toThrow("unresolvable $ref #/$defs/nope");
    expect(() => validate({ $ref: "other.json#/x" }, 1)).toThrow("unresolvable");
    // Annotations are fine.
    expect(validate({ title: "t", description: "d", $comment: "c", $schema: "s", $id: "i" }, 1)).toEqual([]);
  });
});
