// A trace's signature as the page shows it beside the kernel's name — its argument types and
// grid, `(f32[256,1024], f32[256,1024]) grid [2]` — so two traces of one kernel (other shapes,
// another grid) can be told apart. Read from the printer's own header line (docs/ir-format.md:
// `kernel @name(%a: hbm f32[256,1024], …) -> (%out) grid [2] {`): the page formats no IR.

/** `(types…) grid [..]` of `trace` (its first line record), or "" when it has no header. */
export function traceSignature(trace) {
  const header = trace?.records?.[0]?.text ?? trace?.text?.split("\n", 1)[0] ?? "";
  const m = /^kernel @[^(]*\((.*?)\)(?:\s*->\s*\([^)]*\))?(\s+grid \[[^\]]*\])?/.exec(header.trim());
  if (!m) return "";
  // Each parameter is `%name: <memory> <type>`; the type is what tells two calls apart.
  const types = m[1] ? m[1].split(/,\s*(?=%)/).map((p) => p.replace(/^%[^:]*:\s*(?:\w+\s+)?/, "").trim()) : [];
  return `(${types.join(", ")})${m[2] ?? ""}`;
}
