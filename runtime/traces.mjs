// A run's traces in their two shapes, and the step between them. Environment-agnostic (Node,
// the browser worker and the page).
//
// - The printed form: what the core's run session hands over for one kernel,
//   `{kernel, simulated, records, regions, ir}` with records, regions and ir as the printer's
//   JSON texts. It is the only form a trace travels in (worker → page): strings only, so a post
//   copies them once and nothing is parsed or rebuilt on the way.
// - The trace entry of the JS API (docs/js-api.md): `{kernel, text, records, regions, ir,
//   simulated, irJson}`, built from the printed form where it is used.

/** The printed form of entry `i` of the core's run session (its `text` is left out: see textOf). */
export function printedTrace(core, i) {
  const e = core.run_kernel(i);
  return { kernel: e.kernel, simulated: e.simulated, records: e.records, regions: e.regions, ir: e.ir };
}

/**
 * The trace entry of a printed form; `text` is the core's text when the caller has it, else
 * the records' texts each with its newline (what the core's text is, printer::records_to_text).
 */
export function traceEntry(printed, text) {
  const records = JSON.parse(printed.records);
  return {
    kernel: printed.kernel,
    text: text ?? textOf(records),
    records,
    regions: JSON.parse(printed.regions),
    ir: JSON.parse(printed.ir),
    simulated: printed.simulated,
    irJson: printed.ir,
  };
}

/** The plain text form of line records: each record's text and a newline. */
export function textOf(records) {
  let text = "";
  for (const r of records) text += `${r.text}\n`;
  return text;
}

/**
 * A run's final `traces` from the entries streamed during it (by index) and the run's
 * references `[{index, simulated}]`: the same objects, their `simulated` flag brought up to
 * date (a kernel traced again later without simulating clears it). Throws when a reference
 * names an entry that did not arrive.
 */
export function assembleTraces(streamed, refs) {
  return refs.map(({ index, simulated }) => {
    const entry = streamed[index];
    if (!entry) throw new Error(`the run's trace ${index} was not streamed`);
    entry.simulated = simulated;
    return entry;
  });
}
