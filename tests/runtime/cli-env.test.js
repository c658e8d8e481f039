// A script sees the host's environment as `python` would (os.environ), in every CLI command
// that runs Python and through the Node JS API's `env` option; the names Pyodide keeps
// (runtime/node.mjs RESERVED_ENV) keep Pyodide's values.
import { beforeAll, describe, expect, test } from "vitest";

import { createNodeRuntime, isReservedEnv } from "../../runtime/node.mjs";
import { cli } from "./cli-harness.js";

const SCRIPT = "tests/runtime/fixtures/environment.py";
/** The host's environment without the variables the tests set themselves. */
const HOST = Object.fromEntries(Object.entries(process.env).filter(([k]) =>
  !["FOO", "NEURON_PLATFORM_TARGET_OVERRIDE", "PYTHONPATH"].includes(k)));

describe("the CLI forwards the host's environment", () => {
  test("--help says so, and names the reserved variables", async () => {
    const { code, stdout } = await cli(["--help"]);
    expect(code).toBe(0);
    expect(stdout).toContain("Environment: run, trace, check and compare give the scripts the host's environment");
    expect(stdout).toContain("PATH, LD_LIBRARY_PATH and PYTHON*, which keep Pyodide's values");
  });

  test("run: FOO=42 reaches os.environ; PATH and PYTHONPATH keep Pyodide's", async () => {
    const env = { ...HOST, FOO: "42", PYTHONPATH: "/somewhere/on/the/host" };
    const { code, stdout } = await cli(["run", SCRIPT], { env });
    expect(code).toBe(0);
    expect(stdout).toContain("FOO = 42\n");
    expect(stdout).toContain("PATH = /\n");
    expect(stdout).toContain("PYTHONPATH = None\n");
  });

  test("run: NEURON_PLATFORM_TARGET_OVERRIDE=trn2 changes the target a kernel sees (trn3 unset)", async () => {
    const plain = await cli(["run", SCRIPT], { env: HOST });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain("FOO = None\n");
    expect(plain.stdout).toContain("kernel sees gen4, sbuf 262144 bytes per partition\n");
    const trn2 = await cli(["run", SCRIPT], { env: { ...HOST, NEURON_PLATFORM_TARGET_OVERRIDE: "trn2" } });
    expect(trn2.code).toBe(0);
    expect(trn2.stdout).toContain("kernel sees gen3, sbuf 229376 bytes per partition\n");
  });

  test("trace: the scripts see it too (their prints on stderr, the IR on stdout)", async () => {
    const env = { ...HOST, FOO: "traced", NEURON_PLATFORM_TARGET_OVERRIDE: "trn1" };
    const { code, stdout, stderr } = await cli(["trace", SCRIPT], { env });
    expect(code).toBe(0);
    expect(stderr).toContain("FOO = traced\n");
    expect(stderr).toContain("kernel sees gen2, sbuf 196608 bytes per partition\n");
    expect(stdout).toContain("kernel @copy(");
  });
});

describe("the Node JS API's env option", () => {
  let runtime;
  let out = "";
  beforeAll(async () => {
    runtime = await createNodeRuntime({
      stdout: (t) => (out += t),
      stderr: () => {},
      env: { FOO: "from js", PATH: "/usr/bin", PYTHONHOME: "/opt/python", LD_LIBRARY_PATH: "/opt/lib", NKI_PRECISE_FP: "0" },
    });
  });

  test("sets os.environ but the reserved names", () => {
    out = "";
    const r = runtime.runSource(
      'import os\nfor n in ("FOO", "PATH", "PYTHONHOME", "LD_LIBRARY_PATH", "NKI_PRECISE_FP"):\n    print(n, os.environ.get(n))\n');
    expect(r.exitCode).toBe(0);
    expect(out).toBe("FOO from js\nPATH /\nPYTHONHOME None\nLD_LIBRARY_PATH /usr/lib:/lib/python3.13/site-packages\nNKI_PRECISE_FP 0\n");
    expect(["PATH", "LD_LIBRARY_PATH", "PYTHONPATH", "PYTHONHOME"].every(isReservedEnv)).toBe(true);
    expect(["HOME", "FOO", "NEURON_PLATFORM_TARGET_OVERRIDE", "NKI_PLAYGROUND_SIM_PLAN"].some(isReservedEnv)).toBe(false);
  });

  test("without env nothing of the host's is added", async () => {
    process.env.NKP_NOT_FORWARDED = "1";
    try {
      let text = "";
      const plain = await createNodeRuntime({ stdout: (t) => (text += t), stderr: () => {} });
      plain.runSource('import os\nprint(os.environ.get("NKP_NOT_FORWARDED"))\n');
      expect(text).toBe("None\n");
    } finally {
      delete process.env.NKP_NOT_FORWARDED;
    }
  });
});
