// The text and JSON forms the CLI prints for a run's traces (`run --ir`, `trace --format`,
// and the IR that `check` compares).

/** Every kernel's IR text, each ending in a newline, separated by a blank line. */
export function irText(traces) {
  return traces.map((t) => t.text.replace(/\n?$/, "\n")).join("\n");
}

/**
 * A JSON array of the kernels' IR objects, one per line, each the core printer's own text
 * (`irJson`): never re-serialised, so the bytes equal what the browser and the pre-render get.
 */
export function irJsonArray(traces) {
  if (traces.length === 0) return "[]\n";
  return `[\n${traces.map((t) => t.irJson).join(",\n")}\n]\n`;
}

/** @param {"text"|"json"} format */
export function formatTraces(format, traces) {
  return format === "json" ? irJsonArray(traces) : irText(traces);
}
