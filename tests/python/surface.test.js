// The Python surface (neuronxcc.nki) inside real Pyodide, over the real wasm core: the seed's
// accessors at the seed's module paths, trace lifecycle, error reports, the example's golden IR.
import { readdirSync, readFileSync } from "node:fs";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";

import { afterEach, beforeAll, describe, expect, test } from "vitest";

import { pythonHarness } from "./harness.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const OUTSIDE = "calling NKI API outside of NKI kernels is not supported.";
const BACKEND = "neuronxcc.nki.compiler.backends.neuron";

const h = pythonHarness("k.py");
const { py, run } = h;

const PRELUDE = `
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.typing as nt
from ${BACKEND} import nki_ctx as ctx_mod
from ${BACKEND}.TraceContext import TraceContext
from ${BACKEND} import sema
`;

const ADD = `
@nki.jit
def add_kernel(a, b):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    i_p = nl.arange(128)[:, None]
    i_f = nl.arange(512)[None, :]
    for j in nl.affine_range(a.shape[1] // 512):
        x = nl.load(a[i_p, j * 512 + i_f])
        y = nl.load(b[i_p, j * 512 + i_f])
        nl.store(out[i_p, j * 512 + i_f], value=x + y)
    return out
`;

beforeAll(() => {
  py(PRELUDE + ADD);
});

afterEach(() => {
  // Every case leaves the trace state clean in Python too (the harness checks the core's).
  expect(py("", "TraceContext.global_ctx is None")).toBe(true);
});

describe("the seed's accessors at the seed's module paths", () => {
  test("nki_ctx() outside a kernel raises RuntimeError with the exact message", () => {
    const r = py(
      `try:\n    ctx_mod.nki_ctx()\n    res = None\nexcept RuntimeError as e:\n    res = [type(e).__name__, str(e)]`,
      "res",
    );
    expect(r).toEqual(["RuntimeError", OUTSIDE]);
  });

  test("sema.err_nki_api_outside_of_nki_kernel raises the same error", () => {
    const r = py(
      `try:\n    sema.err_nki_api_outside_of_nki_kernel()\nexcept RuntimeError as e:\n    res = str(e)`,
      "res",
    );
    expect(r).toBe(OUTSIDE);
  });

  test("nki_ctx_or_none() and TraceContext.global_ctx are None between traces", () => {
    expect(py("", "ctx_mod.nki_ctx_or_none() is None and TraceContext.global_ctx is None")).toBe(true);
  });

  test("during a trace the accessors see the active NeuronCodegen and its cur_scope", () => {
    const r = py(
      `
seen = {}
@nki.jit
def probe(a):
    ctx = ctx_mod.nki_ctx()
    seen["same"] = ctx is TraceContext.global_ctx is ctx_mod.nki_ctx_or_none()
    seen["cls"] = type(ctx).__name__
    seen["builder"] = hasattr(ctx, "builder")
    seen["kernel_scope"] = ctx_mod.get_cur_scope().id
    for i in nl.affine_range(4):
        seen["loop_body_scope"] = ctx_mod.get_cur_scope().id
    t = nl.load(a)
    return None
nki.trace_kernel(probe, nt.tensor[[128, 64], nl.float32])`,
      "seen",
    );
    expect(r.same).toBe(true);
    expect(r.cls).toBe("NeuronCodegen");
    expect(r.builder).toBe(true);
    expect(r.loop_body_scope).toBeGreaterThan(r.kernel_scope); // the AllocationScope in the loop
  });

  test("cur_scope is the active region's object: its kind, loop axis and location, one per region", () => {
    const r = py(
      `
seen = {}
@nki.jit
def probe(a):
    seen["kernel"] = repr(ctx_mod.get_cur_scope())
    for i in nl.affine_range(4):
        s = ctx_mod.get_cur_scope()
        seen["loop_body"] = repr(s)
        seen["same"] = s is ctx_mod.get_cur_scope() is ctx_mod.nki_ctx().cur_scope
        seen["loop"] = [s.kind, s.parent.kind, s.parent.axis["name"], s.parent.axis["ub"],
                        s.parent.loc[1], s.parent.parent is ctx_mod.get_cur_scope().parent.parent]
        for j in nl.sequential_range(2):
            seen["inner"] = repr(ctx_mod.get_cur_scope().parent)
    t = nl.load(a)
    return None
nki.trace_kernel(probe, nt.tensor[[128, 64], nl.float32])`,
      "seen",
    );
    expect(r.kernel).toBe("<KernelScope #0 probe @ <exec>:3:1>");
    expect(r.loop_body).toBe(
      "<AllocationScope #2 @ <exec>:6:14 of <LoopScope #1 affine i in range(0, 4, 1) @ <exec>:6:14>>",
    );
    expect(r.same).toBe(true);
    expect(r.loop).toEqual(["AllocationScope", "LoopScope", "i", 4, 6, true]);
    expect(r.inner).toBe("<LoopScope #3 sequential i.1 in range(0, 2, 1) @ <exec>:12:18>");
  });

  test("get_cur_scope() calls nki_ctx through the module globals (patching is honoured)", () => {
    const r = py(
      `
class Fake:
    cur_scope = "patched"
orig = ctx_mod.nki_ctx
ctx_mod.nki_ctx = lambda: Fake()
try:
    res = ctx_mod.get_cur_scope()
finally:
    ctx_mod.nki_ctx = orig`,
      "res",
    );
    expect(r).toBe("patched");
  });

  test("get_cur_scope() outside a kernel raises the outside-kernel error", () => {
    const r = py(`try:\n    ctx_mod.get_cur_scope()\nexcept RuntimeError as e:\n    res = str(e)`, "res");
    expect(r).toBe(OUTSIDE);
  });

  test("nl.load outside a kernel raises the exact outside-kernel error", () => {
    const r = py(
      `try:\n    nl.load(nt.tensor[[128, 64], nl.float32])\nexcept RuntimeError as e:\n    res = str(e)`,
      "res",
    );
    expect(r).toBe(OUTSIDE);
  });
});

describe("tracing", () => {
  test("trace_kernel returns the IR: str() is the text, to_json() the versioned JSON", () => {
    const r = run(`${PRELUDE}${ADD}
import json
t = nki.trace_kernel(add_kernel, nt.tensor[[128, 1024], nl.bfloat16], nt.tensor[[128, 1024], nl.bfloat16])
j = json.loads(t.to_json())
recs = t.records()
print(json.dumps({"text": str(t), "version": j["version"], "kind": j["body"]["kind"],
                  "joined": "".join(r["text"] + "\\n" for r in recs) == str(t),
                  "n": t.instruction_count}))
t.close()
`);
    expect(r.err).toBe("");
    const res = JSON.parse(r.out);
    expect(res.version).toBe(1);
    expect(res.kind).toBe("KernelScope");
    expect(res.joined).toBe(true);
    expect(res.n).toBe(5);
    expect(res.text).toContain("KernelScope @add_kernel {");
    // Loop variables and tiles are named after the user's variables.
    expect(res.text).toContain("LoopScope affine %j in [0, 2) trip 2 {");
    expect(res.text).toContain("%x = dma.load %a[p, 512*%j + f] : sbuf bf16[128,512]");
    expect(res.text).toMatch(/vector\.tensor_tensor %x, %y \{op = add\} : sbuf bf16\[128,512\] +@ k\.py:\d+:\d+/);
    expect(r.traces.length).toBe(1); // the runner recorded it, even though the script closed it
  });

  test("a gridded kernel records its grid and program ids", () => {
    const r = py(
      `
@nki.jit
def rows(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    i_p = nl.arange(128)[:, None]
    i_f = nl.arange(64)[None, :]
    t = nl.load(a[nl.program_id(0) * 128 + i_p, i_f])
    nl.store(out[nl.program_id(0) * 128 + i_p, i_f], t)
    return out
res = str(nki.trace_kernel(rows[4], nt.tensor[[512, 64], nl.float16]))`,
      "res",
    );
    expect(r).toContain("grid [4]");
    expect(r).toContain("%a[128*%pid0 + p, f]");
  });

  test("a trip count of one emits no loop; static_range unrolls", () => {
    const r = py(
      `
@nki.jit
def k(a):
    out = nl.ndarray((128, 64), dtype=a.dtype, buffer=nl.shared_hbm)
    for i in nl.affine_range(1):
        t = nl.load(a[i * 128 + nl.arange(128)[:, None], nl.arange(64)[None, :]])
    for s in nl.static_range(2):
        u = nl.load(a[s * 128 + nl.arange(128)[:, None], nl.arange(64)[None, :]])
    nl.store(out, u)
    return out
res = str(nki.trace_kernel(k, nt.tensor[[256, 64], nl.float32]))`,
      "res",
    );
    expect(r).not.toContain("LoopScope");
    expect(r).toContain("%a[p + 128, f]");
    expect(r.match(/dma\.load/g).length).toBe(3);
  });

  test("a kernel that raises mid-trace leaves no active trace; the next trace works", () => {
    const r = py(
      `
@nki.jit
def bad(a):
    for i in nl.affine_range(2):
        t = nl.load(a[nl.arange(256)[:, None], nl.arange(64)[None, :]])
    return None
try:
    nki.trace_kernel(bad, nt.tensor[[256, 64], nl.float32])
except ValueError as e:
    msg = str(e)
after = ctx_mod.nki_ctx_or_none()
ok = "KernelScope" in str(nki.trace_kernel(add_kernel, nt.tensor[[128, 512], nl.float32], nt.tensor[[128, 512], nl.float32]))
res = [msg, after is None, ok]`,
      "res",
    );
    expect(r).toEqual(["number of partitions 256 exceed architecture limitation of 128.", true, true]);
  });

  test("a second trace while one is active is refused", () => {
    const r = py(
      `
from ${BACKEND}.TraceContext import TraceOptions
TraceContext.new_ctx(TraceOptions("first"))
try:
    TraceContext.new_ctx(TraceOptions("second"))
    res = None
except RuntimeError as e:
    res = str(e)
finally:
    TraceContext.abandon()`,
      "res",
    );
    expect(r).toContain("'first' is being traced");
  });

  test("a thousand failing traces keep the core's heap flat", () => {
    const before = h.runtime.core.heap_in_use();
    py(`
@nki.jit
def oob(a):
    return nl.load(a[nl.arange(128)[:, None], 100 + nl.arange(64)[None, :]])
for _ in range(1000):
    try:
        nki.trace_kernel(oob, nt.tensor[[128, 64], nl.float32])
    except IndexError:
        pass
import gc; gc.collect()`);
    const after = h.runtime.core.heap_in_use();
    expect(after - before).toBeLessThan(4096); // was 72 KB before errors stopped crossing C++ frames
  });
});

describe("error reports point at the user's line", () => {
  const cases = [
    {
      name: "outside-kernel load",
      src: `import neuronxcc.nki.language as nl\nimport neuronxcc.nki.typing as nt\nx = nt.tensor[[128, 64], nl.float32]\nt = nl.load(x)\n`,
      where: "bad.py:4:5",
      text: `RuntimeError: ${OUTSIDE}`,
    },
    {
      name: "partition limit",
      src: `${PRELUDE}\n@nki.jit\ndef k(a):\n    return nl.load(a[nl.arange(200)[:, None], nl.arange(8)[None, :]])\nnki.trace_kernel(k, nt.tensor[[200, 8], nl.float32])\n`,
      where: "bad.py:11:12",
      text: "ValueError: number of partitions 200 exceed architecture limitation of 128.",
    },
    {
      name: "load from SBUF",
      src: `${PRELUDE}\n@nki.jit\ndef k(a):\n    t = nl.ndarray((128, 8), nl.float32, buffer=nl.sbuf)\n    return nl.load(t)\nnki.trace_kernel(k, nt.tensor[[128, 8], nl.float32])\n`,
      where: "bad.py:12:12",
      text: "TypeError: Expected operand 'src' of 'load' to be in address space 'hbm', but got a tile in 'sbuf' instead.",
    },
    {
      name: "store into an input",
      src: `${PRELUDE}\n@nki.jit\ndef k(a):\n    t = nl.load(a)\n    nl.store(a, t)\nnki.trace_kernel(k, nt.tensor[[128, 8], nl.float32])\n`,
      where: "bad.py:12:5",
      text: "TypeError: Cannot update immutable parameter `a`",
    },
    {
      name: "static out-of-bounds",
      src: `${PRELUDE}\n@nki.jit\ndef k(x):\n    for i in nl.affine_range(8):\n        t = nl.load(x[nl.arange(128)[:, None], i * 512 + nl.arange(512)[None, :]])\nnki.trace_kernel(k, nt.tensor[[128, 4000], nl.float32])\n`,
      where: "bad.py:12:13",
      text: "IndexError: Out-of-bound access for tensor `x` on dimension 1: index range [0, 4095] exceed dimension size of 4000",
    },
    {
      name: "program_id beyond the grid",
      src: `${PRELUDE}\n@nki.jit\ndef k(a):\n    p = nl.program_id(1)\nnki.trace_kernel(k[2], nt.tensor[[128, 8], nl.float32])\n`,
      where: "bad.py:11:9",
      text: "IndexError: axis in `program_id` is out-of-bound(s) of the spmd launch grid",
    },
    {
      name: "a plain Python error in the kernel",
      src: `${PRELUDE}\n@nki.jit\ndef k(a):\n    return undefined_name\nnki.trace_kernel(k, nt.tensor[[128, 8], nl.float32])\n`,
      where: "bad.py:11:12",
      text: "NameError: name 'undefined_name' is not defined",
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const r = run(c.src, "bad.py");
      expect(r.exitCode).toBe(1);
      expect(r.err).toContain(`${c.where}: error: ${c.text}`);
      expect(r.err).toMatch(/\n {4}\S.*\n {4} *\^/); // the source line and a caret
      expect(r.err).not.toMatch(/neuronxcc|\/nki\/python|_core\.py|_kernel\.py/);
      expect(py("", "TraceContext.global_ctx is None")).toBe(true);
    });
  }
});

describe("kernels/ against their golden IR", () => {
  const kernels = readdirSync(`${ROOT}/kernels`).filter((f) => f.endsWith(".py"));
  test("there are example kernels", () => expect(kernels.length).toBeGreaterThan(0));
  for (const file of kernels) {
    test(`${file} traces to tests/golden/${basename(file, ".py")}.ir`, () => {
      const cwd = process.cwd();
      process.chdir(ROOT);
      try {
        const r = h.runtime.runFile(`kernels/${file}`);
        expect(r.exitCode).toBe(0);
        const golden = readFileSync(`${ROOT}/tests/golden/${basename(file, ".py")}.ir`, "utf8");
        // Not the traces the main block makes to simulate on small data (scripts/update-goldens.mjs).
        const shown = r.traces.filter((t) => !t.simulated);
        expect((shown.length ? shown : r.traces).map((t) => t.text).join("\n")).toBe(golden);
      } finally {
        process.chdir(cwd);
      }
    });
  }
});
