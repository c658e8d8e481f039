// The worker's side of a run's stdout and stderr: writes are batched into few messages and
// capped per run, so a script that prints a million lines sends the page a bounded amount of
// text in a bounded number of messages (issue 14: one message per write froze the tab).
//
// Python's writes arrive synchronously while the script runs, and nothing else runs in the
// worker meanwhile (no timer fires), so every decision is taken inside write(): the first
// BURST writes of each WINDOW_MS go out at once (a script that prints a few lines and then
// computes shows them at once, as before); past that, writes are held until the next write
// after the window, a trace, or the end of the run (flush()). At most ~(BURST + 1) messages per
// window reach the page, whatever the script does.
//
// Pure (no worker globals): web/src/worker.js wires it to postMessage; tests/web run it in Node.

/** Characters of one run's output that reach the page; the rest is counted, not sent. */
export const OUTPUT_CAP = 2_000_000;
export const WINDOW_MS = 50;
export const BURST = 8;
/** A held batch this large goes out even inside a window (bounds one message's size). */
export const MAX_BATCH = 256 * 1024;

const count = (text, ch) => {
  let n = 0;
  for (let i = text.indexOf(ch); i >= 0; i = text.indexOf(ch, i + 1)) n++;
  return n;
};

/**
 * @param {object} opts
 * @param {(message: {type: "output", id: any, chunks: Array<[string, string]>}) => void} opts.post
 *   Receives each batch: `chunks` are `[stream, text]` in write order, stream "stdout",
 *   "stderr" or "note" (what the cap says, written by this batcher).
 * @param {() => number} [opts.now]  Milliseconds (performance.now in the worker).
 * @param {number} [opts.cap]
 */
export function createOutputBatcher({ post, now = () => performance.now(), cap = OUTPUT_CAP }) {
  let id = null;
  let chunks = [];
  let held = 0; // characters in `chunks`
  let written = 0; // characters sent or held this run
  let cut = false;
  let dropped = { chars: 0, lines: 0 };
  let windowStart = -Infinity;
  let posts = 0; // posts in the current window

  function push(stream, text) {
    const last = chunks[chunks.length - 1];
    if (last && last[0] === stream) last[1] += text;
    else chunks.push([stream, text]);
    held += text.length;
  }

  function flush() {
    if (!chunks.length) return;
    const message = { type: "output", id, chunks };
    chunks = [];
    held = 0;
    post(message);
  }

  return {
    /** A new run: its output is counted from zero. */
    start(runId) {
      flush();
      id = runId;
      written = 0;
      cut = false;
      dropped = { chars: 0, lines: 0 };
      windowStart = -Infinity;
      posts = 0;
    },

    write(stream, text) {
      if (!text) return;
      if (cut) {
        dropped.chars += text.length;
        dropped.lines += count(text, "\n");
        return;
      }
      const room = cap - written;
      if (text.length > room) {
        const rest = text.slice(room);
        if (room > 0) push(stream, text.slice(0, room));
        written = cap;
        cut = true;
        dropped = { chars: rest.length, lines: count(rest, "\n") };
        push("note", `\n[output truncated after ${cap} characters]\n`);
        flush();
        return;
      }
      written += text.length;
      push(stream, text);
      const t = now();
      if (t - windowStart >= WINDOW_MS) {
        windowStart = t;
        posts = 0;
      }
      if (posts < BURST || held >= MAX_BATCH) {
        posts++;
        flush();
      }
    },

    /** Sends what is held: before a trace, at the end of a run. */
    flush,

    /** The run is over: what is held goes out, and how much the cap kept back. */
    end() {
      if (cut && dropped.chars) {
        const lines = dropped.lines.toLocaleString("en-US");
        const chars = dropped.chars.toLocaleString("en-US");
        push("note", `[${chars} more characters (${lines} lines) were not shown]\n`);
      }
      flush();
      id = null;
    },
  };
}
