// One owner per fact (docs/architecture.md): the hardware limits, the targets and the operator /
// activation names are the core's (core/ir/target.h, core/ir/op_names.h), which both Python
// front ends read through door.facts(); their own nl.* functions and op tokens, and Beta 1's
// range-style argument parser, are pinned to the core here.
import { describe, expect, test } from "vitest";

import { locate, pythonHarness } from "./harness.js";

const h = pythonHarness("facts.py");
const facts = () => h.py("from nki_playground import door", "door.facts()");

describe("limits and targets the core owns", () => {
  test("Beta 1's nl.tile_size is the core's table", () => {
    const f = facts();
    expect(f.tile_size).toMatchObject({ pmax: 128, psum_fmax: 512, total_available_sbuf_size: 192 * 1024 });
    const py = h.py(
      "import neuronxcc.nki.language as nl",
      `{k: getattr(nl.tile_size, k) for k in ${JSON.stringify(Object.keys(f.tile_size))}}`,
    );
    expect(py).toEqual(f.tile_size);
    expect(h.py("", "sorted(set(door.facts()['tile_size']) - set(dir(nl.tile_size)))")).toEqual([]);
    expect(h.py("", "str(getattr(nl.tile_size, 'no_such_limit', 'missing'))")).toBe("missing");
  });

  test("the current language's nl.tile_size per NEURON_PLATFORM_TARGET_OVERRIDE is the core's", () => {
    const f = facts();
    expect(f.targets.map((t) => [t.name, t.nc_version, t.sbuf_partition_bytes])).toEqual([
      ["trn1", 2, 192 * 1024],
      ["trn2", 3, 224 * 1024],
      ["trn3", 4, 256 * 1024],
    ]);
    expect(f.psum).toEqual({ banks: 8, bank_bytes: 2048 });
    for (const t of f.targets) {
      for (const name of t.names) {
        const r = h.run(`import os
os.environ["NEURON_PLATFORM_TARGET_OVERRIDE"] = "${name}"
import nki.language as nl
import nki.isa as nisa
ts = nl.tile_size
print(ts.pmax, ts.psum_bank_fmax, ts.psum_bank_fmax_bytes, ts.psum_num_banks, ts.gemm_stationary_fmax,
      ts.gemm_moving_fmax, ts.bn_stats_fmax, ts.psum_min_align, ts.sbuf_min_align)
print(ts.sbuf_fmax_bytes, ts.total_available_sbuf_size, ts.sbuf_size_bytes, nisa.get_nc_version().value)
del os.environ["NEURON_PLATFORM_TARGET_OVERRIDE"]
`);
        expect(r.err).toBe("");
        const ts = f.tile_size;
        expect(r.out).toBe(
          `${ts.pmax} ${ts.psum_fmax} ${f.psum.bank_bytes} ${f.psum.banks} ${ts.gemm_stationary_fmax} ` +
            `${ts.gemm_moving_fmax} ${ts.bn_stats_fmax} ${ts.psum_min_align} ${ts.sbuf_min_align}\n` +
            `${t.sbuf_partition_bytes} ${t.sbuf_partition_bytes} ${t.sbuf_partition_bytes * ts.pmax} ${t.nc_version}\n`,
        );
      }
    }
    // Unset: trn3. An unknown name lists the table's names.
    expect(h.run("import nki.language as nl\nprint(nl.tile_size.sbuf_fmax_bytes)\n").out).toBe(`${256 * 1024}\n`);
    const src = `import os
os.environ["NEURON_PLATFORM_TARGET_OVERRIDE"] = "trn9"
import nki.language as nl
try:
    nl.tile_size.sbuf_fmax_bytes
except ValueError as e:
    print(e)
del os.environ["NEURON_PLATFORM_TARGET_OVERRIDE"]
`;
    expect(h.run(src).out).toBe(
      "NEURON_PLATFORM_TARGET_OVERRIDE=trn9 names no target: trn1 (inf2, gen2), trn2 (gen3) or trn3 (gen4)\n",
    );
  });
});

describe("operator and activation names the core owns", () => {
  test("every activation function and ALU operator of the core is a Beta 1 nl function, and back", () => {
    const f = facts();
    const nl = new Set(h.py("import neuronxcc.nki.language as nl", "[n for n in dir(nl) if callable(getattr(nl, n))]"));
    // copy is nl.copy's activation (a movement op too); bypass is an absent operator.
    const missing = [...f.activation, ...f.alu].filter((n) => !nl.has(n) && n !== "bypass");
    expect(missing).toEqual([]);
    // The other way: an nl function documented as an activation is one of the core's.
    const documented = h.py(
      "",
      "[n for n in dir(nl) if callable(getattr(nl, n)) and '(activation)' in (getattr(nl, n).__doc__ or '')]",
    );
    expect(documented.length).toBeGreaterThan(20);
    expect(documented.filter((n) => !f.activation.includes(n))).toEqual([]);
    // NumPy spellings map to a name of the tables.
    for (const to of Object.values(f.aliases)) expect([...f.alu, ...f.activation]).toContain(to);
  });

  test("the current language's op tokens are the core's operators of their kind, or named here", () => {
    const f = facts();
    const tokens = h.py(
      "from nki import _optokens as t",
      "{'binary': list(t.BINARY), 'unary_alu': list(t.UNARY_ALU), 'activation': list(t.ACTIVATIONS)}",
    );
    const binary = f.alu.filter((n) => n !== "bypass" && !f.unary_alu.includes(n));
    // NKI 0.6.0 tokens the simulator does not run (the core refuses them as an instruction's op).
    const notSimulated = ["abs_max", "abs_min", "gelu_apprx_sigmoid_dx"];
    const unknown = (names, table) => names.filter((n) => !table.includes(n));
    expect(unknown(tokens.binary, binary)).toEqual(["abs_max", "abs_min"]);
    expect(unknown(tokens.unary_alu, f.unary_alu)).toEqual([]);
    expect(unknown(tokens.activation, f.activation)).toEqual(["gelu_apprx_sigmoid_dx"]);
    // And back: every binary operator and activation of the core is a token, but copy and abs
    // (nl.copy and nl.abs are functions of their own).
    const all = [...tokens.binary, ...tokens.unary_alu, ...tokens.activation];
    expect(unknown(binary, all)).toEqual([]);
    expect(unknown(f.activation, all)).toEqual(["copy", "abs"]);
    expect(notSimulated.filter((n) => all.includes(n))).toEqual(notSimulated);
  });

  test("a NumPy spelling of an operator reaches the core unmapped and means NKI's operator", () => {
    const r = h.run(`import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa

@nki.jit
def k(a, b):
    out = nl.ndarray(a.shape, dtype=nl.float32, buffer=nl.shared_hbm)
    x = nl.ndarray(a.shape, dtype=nl.float32, buffer=nl.sbuf)
    y = nl.ndarray(a.shape, dtype=nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=x, src=a)
    nisa.dma_copy(dst=y, src=b)
    nisa.tensor_tensor(dst=x, data1=x, data2=y, op=np.amax)
    nisa.dma_copy(dst=out, src=x)
    return out

a = np.array([[1.0, 5.0], [-2.0, 0.5]], np.float32)
b = np.array([[3.0, 2.0], [-1.0, 0.25]], np.float32)
print(k(a, b).tolist())
`);
    expect(r.exitCode, r.err).toBe(0);
    expect(r.out).toBe("[[3.0, 5.0], [-1.0, 0.5]]\n");
    expect(r.traces[0].text).toContain("op = maximum");
  });
});

describe("checks and parsers owned once", () => {
  test("program_id's axis is checked by the core for both front ends", () => {
    const beta1 = `import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.typing as nt
@nki.jit
def k(a):
    p = nl.program_id(AXIS)
    return None
nki.trace_kernel(k[2], nt.tensor[[128, 8], nl.float32])
`;
    for (const [axis, message] of [
      ["1", "axis in `program_id` is out-of-bound(s) of the spmd launch grid (axis=1, grid rank 1)"],
      ["1.5", "axis in `program_id` is out-of-bound(s) of the spmd launch grid (axis=1, grid rank 1)"],
    ]) {
      const src = beta1.replace("AXIS", axis);
      const r = h.run(src);
      expect(r.exitCode).toBe(1);
      const d = r.diagnostics.find((x) => x.severity === "error");
      expect(`${d.class}: ${d.message} @ ${d.line}:${d.col}`).toBe(`IndexError: ${message} @ ${locate(src, "nl.program_id")}`);
    }
    expect(h.run(beta1.replace("AXIS", "0")).exitCode).toBe(0);
    const current = `import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa
@nki.jit
def k(a):
    print("core", nl.program_id(AXIS))
    return None
k(np.ones((2, 2), np.float32))
`;
    for (const axis of ["1", "True", "0.5"]) {
      const src = current.replace("AXIS", axis);
      const r = h.run(src);
      expect(r.exitCode).toBe(1);
      const d = r.diagnostics.find((x) => x.severity === "error");
      expect(`${d.class}: ${d.message} @ ${d.line}:${d.col}`).toBe(
        `ValueError: invalid program axis ${axis} (must be zero) @ ${locate(src, "nl.program_id")}`,
      );
    }
    const ok = h.run(current.replace("AXIS", "0"));
    expect(ok.err).toBe("");
    expect(ok.out).toBe("core 0\n");
  });

  test("loops and nl.arange parse range-style arguments alike; the core's trip count is len(range)", () => {
    const cases = [[5], [2, 9], [0, 10, 3], [1, 2, 5], [3, 3], [7, 2]];
    for (const args of cases) {
      const a = args.join(", ");
      const r = h.run(`import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.typing as nt
@nki.jit
def k(x):
    for i in nl.affine_range(${a}):
        t = nl.load(x[0:1, 0:1])
    return None
nki.trace_kernel(k, nt.tensor[[4, 4], nl.float32])
print(len(range(${a})), nl.arange(${a}).shape[0])
`);
      expect(r.exitCode, r.err).toBe(0);
      const [n, arange] = r.out.trim().split(" ").map(Number);
      expect(arange).toBe(n);
      const loop = r.traces[0].regions.find((x) => x.kind === "LoopScope");
      // A loop of more than one trip is a LoopScope with that trip count (one or none may be
      // no loop at all).
      if (loop) expect(loop.detail).toMatch(new RegExp(`trip ${n}$`));
      else expect(n).toBeLessThanOrEqual(1);
      if (n > 1) expect(loop).toBeDefined();
    }
    for (const bad of ["1.5", "True", "1, 2, 3, 4"]) {
      const loopErr = h.run(`import neuronxcc.nki.language as nl\ntry:\n    nl.affine_range(${bad})\nexcept TypeError as e:\n    print(e)\n`).out;
      const arangeErr = h.run(`import neuronxcc.nki.language as nl\ntry:\n    nl.arange(${bad})\nexcept TypeError as e:\n    print(e)\n`).out;
      expect(loopErr).not.toBe("");
      expect(arangeErr.replace(/^arange /, "")).toBe(loopErr.replace(/^loop /, ""));
    }
  });
});
