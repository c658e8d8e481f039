// The current NKI language (`import nki`, NKI 0.6.0) in real Pyodide on the real core: tracing
// (unrolled loops as regions, helpers as FunctionScopes, runtime loops over registers), views,
// the nki.isa instructions, the simulator's contract, and the errors at the user's line.
import { describe, expect, test } from "vitest";

import { irLines, locate, pythonHarness } from "./harness.js";

const h = pythonHarness("cur.py");

const HEAD = `import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa
`;

/** Runs HEAD + src; returns the result with the last trace's IR lines. */
function run(src) {
  const r = h.run(HEAD + src);
  const last = r.traces.at(-1);
  return { ...r, ir: last ? irLines(last.text) : [], text: last?.text ?? "" };
}

/** The one error diagnostic of a failed run, as "class: message @ line:col". */
function failure(r) {
  expect(r.exitCode, r.err).toBe(1);
  const d = r.diagnostics.find((x) => x.severity === "error");
  return `${d.class}: ${d.message} @ ${d.line}:${d.col}`;
}

const ADD = `
@nki.jit
def add(a, b):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for i in range(a.shape[1] // 512):
        x = nl.ndarray((128, 512), dtype=a.dtype, buffer=nl.sbuf)
        y = nl.ndarray((128, 512), dtype=a.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=x, src=a[:, i * 512:(i + 1) * 512])
        nisa.dma_copy(dst=y, src=b[:, nl.ds(i * 512, 512)])
        nisa.tensor_tensor(dst=x, data1=x, data2=y, op=nl.add)
        nisa.dma_copy(dst=out[:, i * 512:(i + 1) * 512], src=x)
    return out
`;

describe("tracing", () => {
  test("a Python loop is an unrolled loop region, one region per iteration, views in place", () => {
    const r = run(`${ADD}
a = np.ones((128, 1024), np.float32)
c = nki.simulate(add)(a, a)
print(c.shape, float(c.sum()))
`);
    expect(r.err).toBe("");
    expect(r.out).toBe("(128, 1024) 262144.0\n");
    expect(r.ir[0]).toBe("kernel @add(%a: hbm f32[128,1024], %b: hbm f32[128,1024]) -> (%out) nki 0.6.0 {");
    expect(r.ir).toContain("LoopScope unrolled %i in [0, 2) trip 2 {");
    expect(r.ir).toContain("ScopeRegion iteration %i = 1 {");
    expect(r.ir).toContain("dma.dma_copy %y.1, %b[p, f + 512]");
    expect(r.ir).toContain("vector.tensor_tensor %x.1, %x.1, %y.1 {op = add}");
    expect(r.ir).toContain("dma.dma_copy %out[p, f + 512], %x.1");
    expect(r.traces[0].simulated).toBe(true);
  });

  test("helpers are FunctionScopes; a tile made in a helper lives on in the caller", () => {
    const r = run(`
def load_doubled(src):
    t = nl.ndarray(src.shape, dtype=src.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=src)
    nisa.tensor_scalar(dst=t, data=t, op0=nl.multiply, operand0=2.0)
    return t

@nki.jit
def k(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=out, src=load_doubled(a))
    return out

print(nki.simulate(k)(np.full((4, 8), 3, np.float32))[0, :3])
`);
    expect(r.err).toBe("");
    expect(r.out).toBe("[6. 6. 6.]\n");
    expect(r.ir).toContain("FunctionScope @load_doubled {");
    expect(r.ir).toContain("vector.tensor_scalar %t, %t, 2.0 {op0 = multiply}");
    expect(r.ir).toContain("dma.dma_copy %out, %t");
  });

  test("a helper that calls itself is traced at every depth; NKIObject dataclasses take unannotated fields", () => {
    const r = run(`from dataclasses import dataclass

@dataclass
class Part(nl.NKIObject):
    start = None  # class attributes without annotations (nki-library's SectionParams)
    size = 1

def tiles(start, sizes):
    if not sizes:
        return []
    rest = tiles(start + sizes[0], sizes[1:])
    return [Part(start=start, size=sizes[0])] + rest

def copy_parts(dst, src, parts):
    if parts:
        p = parts[0]
        nisa.dma_copy(dst=dst[:, p.start:p.start + p.size], src=src[:, p.start:p.start + p.size])
        copy_parts(dst, src, parts[1:])

@nki.jit
def k(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.sbuf)
    copy_parts(t, a, tiles(0, (3, 1, 4)))
    nisa.dma_copy(dst=out, src=t)
    return out

x = np.arange(16, dtype=np.float32).reshape(2, 8)
print(np.array_equal(nki.simulate(k)(x), x), Part().start, Part(start=2).size)
`);
    expect(r.err).toBe("");
    expect(r.out).toBe("True None 1\n");
    // (The fourth call, on no parts, emits nothing and leaves no region.)
    expect(r.ir.filter((l) => l.startsWith("FunctionScope @copy_parts {"))).toHaveLength(3);
    expect(r.ir.filter((l) => l.startsWith("dma.dma_copy %t"))).toHaveLength(3);
  });

  test("nl.fori_loop traces its body once over a register with a dynamic offset", () => {
    const r = run(`
@nki.jit
def rows(a, n):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    n_sb = nl.ndarray((1, 1), dtype=nl.int32, buffer=nl.sbuf)
    nisa.dma_copy(dst=n_sb, src=n)
    ub = nisa.register_alloc()
    nisa.register_load(ub, n_sb)
    row = nl.ndarray((1, a.shape[1]), dtype=a.dtype, buffer=nl.sbuf)

    def body(i):
        nisa.dma_copy(dst=row, src=a.ap([[a.shape[1], 1], [1, a.shape[1]]], scalar_offset=i))
        nisa.dma_copy(dst=out.ap([[a.shape[1], 1], [1, a.shape[1]]], scalar_offset=i), src=row)

    nl.fori_loop(0, ub, body)
    return out

a = np.arange(32, dtype=np.float32).reshape(4, 8)
o = nki.simulate(rows)(a, np.array([[3]], np.int32))
print(o[:3].tolist() == a[:3].tolist(), np.isnan(o[3]).all())
`);
    expect(r.err).toBe("");
    expect(r.out).toBe("True True\n");
    expect(r.ir).toContain("LoopScope dynamic %i in [0, %ub) {");
    expect(r.ir).toContain("dma.dma_copy %row, %a[%i + p, f]");
  });

  test("nl.while_loop is pre-checked: a zero condition runs the body no time", () => {
    const r = run(`
@nki.jit
def count(n):
    out = nl.ndarray((1, 1), dtype=nl.float32, buffer=nl.shared_hbm)
    acc = nl.zeros((1, 1), dtype=nl.float32, buffer=nl.sbuf)
    cnt = nl.ndarray((1, 1), dtype=nl.int32, buffer=nl.sbuf)
    nisa.dma_copy(dst=cnt, src=n)
    reg = nisa.register_alloc()
    nisa.register_load(reg, cnt)

    def body(r):
        nisa.tensor_scalar(dst=acc, data=acc, op0=nl.add, operand0=1.0)
        nisa.tensor_scalar(dst=cnt, data=cnt, op0=nl.subtract, operand0=1)
        nisa.register_load(r, cnt)
        return r

    nl.while_loop(reg, body)
    nisa.dma_copy(dst=out, src=acc)
    return out

print(nki.simulate(count)(np.array([[4]], np.int32))[0, 0], nki.simulate(count)(np.array([[0]], np.int32))[0, 0])
`);
    expect(r.err).toBe("");
    expect(r.out).toBe("4.0 0.0\n");
    expect(r.ir).toContain("WhileScope while %reg != 0 {");
  });

  test("nl.dynamic_range and `while reg:` still work, with NKI 0.6.0's deprecation", () => {
    const r = run(`
@nki.jit
def k(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=a)
    for i in nl.dynamic_range(3):
        nisa.tensor_scalar(dst=t, data=t, op0=nl.add, operand0=1.0)
    go = nisa.register_alloc(0)
    while go:
        nisa.tensor_scalar(dst=t, data=t, op0=nl.add, operand0=100.0)
    nisa.dma_copy(dst=out, src=t)
    return out

print(nki.simulate(k)(np.zeros((2, 2), np.float32))[0, 0])
`);
    expect(r.out).toBe("3.0\n");
    expect(r.err).toMatch(/cur\.py:\d+: DeprecationWarning: nl\.dynamic_range is deprecated in NKI 0\.6\.0/);
    expect(r.err).toMatch(/`while reg:` is deprecated in NKI 0\.6\.0/);
    expect(r.ir).toContain("LoopScope dynamic %i in [0, 3) {");
    expect(r.ir).toContain("WhileScope while %go != 0 {");
  });

  test("LNC2: the body is traced once per core over shared HBM; program_id is a Python int", () => {
    const r = run(`
@nki.jit
def halves(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    pid = nl.program_id(0)
    rows = a.shape[0] // nl.num_programs(0)
    t = nl.ndarray((rows, a.shape[1]), dtype=a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=a[pid * rows:(pid + 1) * rows, :])
    if pid == 1:
        nisa.tensor_scalar(dst=t, data=t, op0=nl.multiply, operand0=10.0)
    nisa.dma_copy(dst=out[pid * rows:(pid + 1) * rows, :], src=t)
    return out

print(nki.simulate(halves[2])(np.ones((4, 2), np.float32)).tolist())
`);
    expect(r.err).toBe("");
    expect(r.out).toBe("[[1.0, 1.0], [1.0, 1.0], [10.0, 10.0], [10.0, 10.0]]\n");
    expect(r.ir[0]).toMatch(/nki 0\.6\.0 lnc 2 \{$/);
    expect(r.ir).toContain("ScopeRegion core 1 {");
  });
});

describe("views", () => {
  test("indexing keeps on-chip tensors 2-D and drops HBM dimensions; views are free", () => {
    const r = run(`
@nki.jit
def k(a):
    s = nl.ndarray((128, 4, 8), dtype=nl.float32, buffer=nl.sbuf)
    print(a[3].shape, a[3, 2:6].shape, s[5].shape, s[:, 1].shape, s[:, 1, 2].shape)
    print(s.permute((0, 2, 1)).shape, s.reshape((128, 32)).get_pattern(), s[:, 1:3, ::2].get_pattern())
    print(s.slice(1, 1, 3).offset, s.select(2, 7).strides, s[:, 0:1, :].broadcast(1, 5).strides)
    print(s.view(nl.bfloat16).shape, s.ap([[32, 128], [2, 16]], offset=1).get_pattern())
    return None

nki.simulate(k)(np.zeros((16, 64), np.float32))
`);
    expect(r.err).toBe("");
    expect(r.out).toBe(
      "(64,) (4,) (1, 4, 8) (128, 8) (128, 1)\n" +
        "(128, 8, 4) [[32, 128], [1, 32]] [[32, 128], [8, 2], [2, 4]]\n" +
        "8 (32, 8) (32, 0, 1)\n" +
        "(128, 4, 16) [[32, 128], [2, 16]]\n",
    );
    expect(r.traces[0].text).not.toMatch(/tensor_copy|dma/);
  });

  test("a view method's constraint is an error at the user's line", () => {
    const src = `
@nki.jit
def k(a):
    s = nl.ndarray((128, 4, 8), dtype=nl.float32, buffer=nl.sbuf)
    u = s.permute((1, 0, 2))
    return None

nki.simulate(k)(np.zeros((4, 4), np.float32))
`;
    expect(failure(run(src))).toBe(
      `ValueError: permute: the partition dimension stays first (dims[0] must be 0) @ ${locate(HEAD + src, "s.permute")}`,
    );
  });

  test(".ap on SBUF: the partition step must be the free size", () => {
    const src = `
@nki.jit
def k(a):
    s = nl.ndarray((16, 32), dtype=nl.float32, buffer=nl.sbuf)
    v = s.ap(pattern=[[64, 8], [1, 32]], offset=0)
    return None

nki.simulate(k)(np.zeros((4, 4), np.float32))
`;
    expect(failure(run(src))).toBe(
      "ValueError: ap: on SBUF/PSUM the first pair is the partition access: its step must be the tensor's free " +
        `size 32, got 64 @ ${locate(HEAD + src, "s.ap")}`,
    );
  });
});

describe("the parser front end's rejections, up front at the user's line", () => {
  const cases = [
    ["for i, x in enumerate(xs):\n        pass", "i, x", "expecting simple variable"],
    ["for i in range(2):\n        pass\n    else:\n        xs = 3", "xs = 3", "for-orelse is not supported in NKI"],
    ["y = [i for i in range(3)]", "[i for", "unsupported expression"],
    ["z = a @ a", "a @ a", "the matmul operator is not supported in NKI"],
    ["try:\n        pass\n    except Exception:\n        pass", "try:", "NKI does not support 'try' statements. Use 'if/else' control flow within kernels."],
    ["with open('x') as f:\n        pass", "open('x')", "NKI does not support name bindings in with statements"],
  ];
  test.each(cases)("%s", (body, fragment, message) => {
    const src = `
@nki.jit
def k(a):
    xs = (1, 2)
    ${body}
    return None

nki.simulate(k)(np.zeros((4, 4), np.float32))
`;
    const r = run(src);
    const where = locate(HEAD + src, fragment);
    expect(failure(r)).toBe(`SyntaxError: ${message} @ ${where}`);
    expect(r.traces).toEqual([]);
  });

  test("Python arithmetic on tensors and a register in Python control flow are TypeErrors", () => {
    const add = `
@nki.jit
def k(a):
    t = nl.ndarray((4, 4), dtype=nl.float32, buffer=nl.sbuf)
    u = t + 1.0
    return None
nki.simulate(k)(np.zeros((4, 4), np.float32))
`;
    expect(failure(run(add))).toBe(`TypeError: binary operators on tensors not supported. Use nki.isa directly. @ ${locate(HEAD + add, "t + 1.0")}`);
    const reg = `
@nki.jit
def k(a):
    r = nisa.register_alloc(3)
    if r:
        pass
    return None
nki.simulate(k)(np.zeros((4, 4), np.float32))
`;
    expect(failure(run(reg))).toMatch(/^TypeError: a VirtualRegister's value exists only on the device: it cannot be used in a Python `if` or `while`/);
  });

  test("a neuronxcc.nki API inside an nki kernel is the parser's mixing error; removed APIs say so", () => {
    const mix = `import neuronxcc.nki.language as bnl
@nki.jit
def k(a):
    t = bnl.load(a)
    return None
nki.simulate(k)(np.zeros((4, 4), np.float32))
`;
    expect(failure(run(mix))).toMatch(/^RuntimeError: beta-1 API \(neuronxcc\.nki\.language\.load\) used in kernel: APIs from neuronxcc may not be used in Beta-2 kernels @ /);
    expect(failure(run("nki.baremetal\n"))).toMatch(/^RuntimeError: nki\.baremetal is not part of NKI any more; call the kernel with NumPy arrays/);
    // the next run works
    expect(run(`${ADD}\nprint(nki.simulate(add)(np.ones((128, 512), np.float32), np.ones((128, 512), np.float32))[0, 0])\n`).out).toBe("2.0\n");
  });
});

describe("the simulator's contract", () => {
  test("never-written memory reads NaN and 4, labelled as nki-playground's check; inputs update in place", () => {
    const r = run(`
@nki.jit
def k(a, i):
    out = nl.ndarray((2, 2), dtype=nl.int32, buffer=nl.shared_hbm)
    s = nl.ndarray((2, 2), dtype=nl.int32, buffer=nl.sbuf)
    nisa.dma_copy(dst=out, src=s)
    t = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.sbuf)
    nisa.memset(dst=t, value=7.0)
    nisa.dma_copy(dst=a, src=t)
    return out

a = np.zeros((2, 2), np.float32)
print(nki.simulate(k)(a, np.zeros((1, 1), np.int32)).tolist(), a.tolist())
`);
    expect(r.out).toBe("[[4, 4], [4, 4]] [[7.0, 7.0], [7.0, 7.0]]\n");
    expect(r.err).toMatch(/warning: \[nki-playground check, not NKI's\] reading memory that was never written: 'dma_copy' reads `s\[0, 0\]`.*4 for integer tensors/);
  });

  test("NKI_PRECISE_FP=0 keeps bfloat16 tiles in fp32; NEURON_PLATFORM_TARGET_OVERRIDE selects checks", () => {
    const body = `
import os
@nki.jit
def k(a):
    out = nl.ndarray(a.shape, dtype=nl.float32, buffer=nl.shared_hbm)
    t = nl.ndarray(a.shape, dtype=nl.float32, buffer=nl.sbuf)
    h = nl.ndarray(a.shape, dtype=nl.bfloat16, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=a)
    nisa.tensor_copy(dst=h, src=t)
    nisa.tensor_scalar(dst=t, data=h, op0=nl.subtract, operand0=1.0)
    nisa.dma_copy(dst=out, src=t)
    return out
x = np.full((1, 1), 1 + 2.0 ** -10, np.float32)
print(nki.simulate(k)(x)[0, 0])
os.environ["NKI_PRECISE_FP"] = "0"
print(nki.simulate(k)(x)[0, 0])
del os.environ["NKI_PRECISE_FP"]
`;
    expect(run(body).out).toBe("0.0\n0.0009765625\n");
    const gen2 = `
import os
os.environ["NEURON_PLATFORM_TARGET_OVERRIDE"] = "trn1"
@nki.jit
def k(a):
    out = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.shared_hbm)
    s = nl.ndarray((128, 128), dtype=nl.bfloat16, buffer=nl.sbuf)
    nisa.dma_copy(dst=s, src=a)
    p = nl.ndarray((128, 128), dtype=nl.bfloat16, buffer=nl.psum)
    nisa.nc_matmul(dst=p, stationary=s, moving=s)
    return out
try:
    nki.simulate(k)(np.zeros((128, 128), np.float32))
finally:
    del os.environ["NEURON_PLATFORM_TARGET_OVERRIDE"]
`;
    expect(failure(run(gen2))).toMatch(/^ValueError: nc_matmul: nc_matmul dst dtype must be float32 on gen2, got bfloat16 @ /);
  });

  test("nc_matmul with accumulate=None: the first write overwrites, later ones accumulate", () => {
    const r = run(`
@nki.jit
def mm(lhsT, rhs):
    K, M = lhsT.shape
    out = nl.ndarray((M, rhs.shape[1]), dtype=nl.float32, buffer=nl.shared_hbm)
    acc = nl.ndarray((M, rhs.shape[1]), dtype=nl.float32, buffer=nl.psum)
    for k in range(K // 128):
        x = nl.ndarray((128, M), dtype=lhsT.dtype, buffer=nl.sbuf)
        y = nl.ndarray((128, rhs.shape[1]), dtype=rhs.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=x, src=lhsT[k * 128:(k + 1) * 128, :])
        nisa.dma_copy(dst=y, src=rhs[k * 128:(k + 1) * 128, :])
        nisa.nc_matmul(dst=acc, stationary=x, moving=y)
    res = nl.ndarray(acc.shape, dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_copy(dst=res, src=acc)
    nisa.dma_copy(dst=out, src=res)
    return out

rng = np.random.default_rng(0)
a = rng.standard_normal((384, 64)).astype(np.float32)
b = rng.standard_normal((384, 256)).astype(np.float32)
print(np.allclose(nki.simulate(mm)(a, b), a.T @ b, atol=1e-4))
`);
    expect(r.err).toBe("");
    expect(r.out).toBe("True\n");
    expect(r.ir).toContain("tensor.nc_matmul %acc, %x.2, %y.2 {accumulate = auto}");
  });
});

describe("rewritten kernels are cached per file", () => {
  test("the same kernel in two files reports each file's own line", () => {
    // Equal code objects (Python compares no file name) once shared one rewrite, compiled with
    // the first file's name: the second file's error pointed into the first.
    const src = `${HEAD}
@nki.jit
def k(a):
    out = nl.ndarray((4, 8), dtype=nl.float32, buffer=nl.shared_hbm)
    t = nl.ndarray((4, 9), dtype=nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=a)
    return out
nki.simulate(k)(np.ones((4, 8), np.float32))
`;
    const where = locate(src, "nisa.dma_copy");
    for (const file of ["one.py", "two.py"]) {
      const r = h.run(src, file);
      expect(failure(r)).toMatch(/^ValueError: 'dma_copy' needs dst\[4, 9\] and src\[4, 8\]/);
      expect(r.diagnostics.find((d) => d.severity === "error").file).toBe(file);
      expect(r.err).toContain(`${file}:${where}: error:`);
    }
  });
});
