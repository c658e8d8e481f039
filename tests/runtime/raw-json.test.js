// runtime/raw-json.mjs: member texts cut out verbatim, whatever the strings inside contain.
import { describe, expect, test } from "vitest";

import { arrayMemberTexts } from "../../runtime/raw-json.mjs";

describe("arrayMemberTexts", () => {
  test("returns each element's member text byte for byte", () => {
    const ir0 = '{"v":1e-06,"s":"a \\"}\\" ] , {","n":[1,{"x":null}],"u":"\\u00e9"}';
    const text = `[{"kernel":"k0","text":"} ] \\\\","ir":${ir0}},\n { "kernel" : "k1" , "ir" : [ 1 , 2 ] , "z":true }]`;
    expect(JSON.parse(text)).toHaveLength(2);
    expect(arrayMemberTexts(text, "ir")).toEqual([ir0, "[ 1 , 2 ]"]);
    expect(arrayMemberTexts(text, "z")).toEqual([null, "true"]);
    expect(arrayMemberTexts(text, "kernel")).toEqual(['"k0"', '"k1"']);
  });

  test("an empty array, and a non-array is refused", () => {
    expect(arrayMemberTexts(" [ ] ", "ir")).toEqual([]);
    expect(() => arrayMemberTexts('{"ir":1}', "ir")).toThrow(SyntaxError);
  });
});
