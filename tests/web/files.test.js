// The user's files (web/src/app/files.js) and the state rules over them (state.js): an example
// is the example only while unchanged, any other code is one of the user's files, a link or an
// older saved state adds its code to the files instead of replacing them.
import { describe, expect, test } from "vitest";

import { adoptCode, checkName, MAX_FILES, sanitizeFiles, uniqueName } from "../../web/src/app/files.js";
import { defaultState, fileName, linkState, sanitizeState } from "../../web/src/app/state.js";

describe("file names", () => {
  test("what the user types becomes a name, or a sentence saying why not", () => {
    expect(checkName(" my_add ")).toEqual({ name: "my_add.py" });
    expect(checkName("norm.v2.py")).toEqual({ name: "norm.v2.py" });
    expect(checkName("").error).toMatch(/needs a name/);
    expect(checkName("a/b").error).toMatch(/letters, digits/);
    expect(checkName("-x").error).toMatch(/starting with/);
  });

  test("a taken name gets the first free _N", () => {
    const files = [{ name: "kernel.py" }, { name: "kernel_2.py" }];
    expect(uniqueName(files, "kernel.py")).toBe("kernel_3.py");
    expect(uniqueName(files, "other.py")).toBe("other.py");
    expect(uniqueName(files, "kernel.py", 0)).toBe("kernel.py"); // a file keeps its own name
  });

  test("adopting code reuses the file holding it, else adds one; a full list drops the oldest", () => {
    let files = [{ name: "kernel.py", code: "a" }, { name: "b.py", code: "b" }];
    expect(adoptCode(files, "a")).toEqual({ files: [files[1], files[0]], index: 1, dropped: null });
    const added = adoptCode(files, "c", "kernel.py");
    expect(added.files.at(-1)).toEqual({ name: "kernel_2.py", code: "c" });
    files = Array.from({ length: MAX_FILES }, (_, i) => ({ name: `f${i}.py`, code: String(i) }));
    const full = adoptCode(files, "new");
    expect(full.files).toHaveLength(MAX_FILES);
    expect(full.dropped).toEqual({ name: "f0.py", code: "0" });
  });

  test("stored files are sanitized: bad entries dropped, names made valid and unique", () => {
    expect(sanitizeFiles([{ name: "a.py", code: "1" }, { name: "a.py", code: "2" }, { code: 3 }, { name: "x/y", code: "4" }])).toEqual([
      { name: "a.py", code: "1" },
      { name: "a_2.py", code: "2" },
      { name: "kernel.py", code: "4" },
    ]);
  });
});

describe("the page state", () => {
  test("an example is the example only while its text is unchanged", () => {
    const fresh = defaultState();
    expect(fileName(fresh)).toBe("tensor_add.py");
    const edited = sanitizeState({ code: `${fresh.code}\n# edit\n`, example: "tensor_add" });
    expect(edited.example).toBeNull();
    expect(edited.files).toEqual([{ name: "kernel.py", code: `${fresh.code}\n# edit\n` }]);
    expect(fileName(edited)).toBe("kernel.py");
  });

  test("a link's code joins the saved files under the link's name; the saved files stay", () => {
    const saved = sanitizeState({ code: "mine", example: null });
    const opened = sanitizeState({ code: "theirs", example: null, file: "shared.py", layout: {} }, saved);
    expect(opened.files.map((f) => [f.name, f.code])).toEqual([
      ["kernel.py", "mine"],
      ["shared.py", "theirs"],
    ]);
    expect(fileName(opened)).toBe("shared.py");
    expect(linkState(opened)).toEqual({ code: "theirs", example: null, file: "shared.py", layout: opened.layout });
  });
});
