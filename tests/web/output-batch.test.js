// web/src/output-batch.js on a clock the test moves: a run's writes reach the page whole and in
// order, few writes go out at once, a burst becomes one message per window, and the cap cuts
// the text with a note and counts the rest.
import { describe, expect, it } from "vitest";

import { BURST, WINDOW_MS, createOutputBatcher } from "../../web/src/output-batch.js";

function harness(cap) {
  let t = 0;
  const messages = [];
  const batcher = createOutputBatcher({ post: (m) => messages.push(m), now: () => t, cap });
  return { batcher, messages, advance: (ms) => (t += ms), text: () => messages.flatMap((m) => m.chunks) };
}

describe("the worker's output batcher", () => {
  it("sends a few writes at once, each as it comes", () => {
    const { batcher, messages } = harness();
    batcher.start(7);
    batcher.write("stdout", "a\n");
    batcher.write("stderr", "b\n");
    expect(messages).toEqual([
      { type: "output", id: 7, chunks: [["stdout", "a\n"]] },
      { type: "output", id: 7, chunks: [["stderr", "b\n"]] },
    ]);
  });

  it("holds a burst past BURST writes until the window ends, then sends it as one message", () => {
    const { batcher, messages, advance, text } = harness();
    batcher.start(1);
    for (let i = 0; i < 1000; i++) batcher.write("stdout", `${i}\n`);
    expect(messages).toHaveLength(BURST);
    advance(WINDOW_MS);
    batcher.write("stdout", "next\n");
    expect(messages).toHaveLength(BURST + 1);
    // Neighbouring writes of one stream share a chunk.
    expect(messages[BURST].chunks).toHaveLength(1);
    batcher.end();
    const joined = text().map(([, t]) => t).join("");
    expect(joined).toBe(Array.from({ length: 1000 }, (_, i) => `${i}\n`).join("") + "next\n");
  });

  it("cuts a run's output at the cap with a note and counts what it kept back", () => {
    const { batcher, text } = harness(10);
    batcher.start(1);
    batcher.write("stdout", "12345678\n");
    batcher.write("stdout", "abc\ndef\n");
    batcher.write("stdout", "more\n");
    batcher.end();
    expect(text()).toEqual([
      ["stdout", "12345678\n"],
      ["stdout", "a"],
      ["note", "\n[output truncated after 10 characters]\n"],
      ["note", "[12 more characters (3 lines) were not shown]\n"],
    ]);
  });

  it("starts counting again for the next run", () => {
    const { batcher, messages } = harness(4);
    batcher.start(1);
    batcher.write("stdout", "123456");
    batcher.end();
    batcher.start(2);
    batcher.write("stdout", "ok\n");
    expect(messages.at(-1)).toEqual({ type: "output", id: 2, chunks: [["stdout", "ok\n"]] });
  });
});
