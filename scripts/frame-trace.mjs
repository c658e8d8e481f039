// How a page keeps up while it works: a Chromium trace (CDP Tracing, the devtools.timeline
// category) of the page's main thread, read as frames. Shared by the browser tests
// (tests/browser/page-flood.test.js) and the page benchmarks (scripts/bench-flood.mjs).
//
// Two figures per interval between two frames (animation frames fired on the main thread):
//   - wall: the time between them, what a person sees;
//   - cpu:  the main thread's own CPU time in tasks within it (trace events' `tdur`), what the
//           page made it cost. On a machine shared with other work the wall gap also holds time
//           the thread waited for a core; the CPU time does not, so a test can bound the page's
//           share robustly where a wall bound would measure the neighbours.

/**
 * Starts tracing `page` (a playwright Page on Chromium); `stop()` resolves with
 * {frames, maxWallGapMs, maxCpuGapMs, p99WallGapMs, busyCpuMs, spanMs}.
 */
export async function traceFrames(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Tracing.start", {
    categories: "devtools.timeline,disabled-by-default-devtools.timeline",
    transferMode: "ReturnAsStream",
    options: "record-until-full",
    bufferUsageReportingInterval: 1000,
  });
  return {
    async stop() {
      const complete = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
      await cdp.send("Tracing.end");
      const { stream } = await complete;
      let text = "";
      for (;;) {
        const chunk = await cdp.send("IO.read", { handle: stream });
        text += chunk.base64Encoded ? Buffer.from(chunk.data, "base64").toString() : chunk.data;
        if (chunk.eof) break;
      }
      await cdp.send("IO.close", { handle: stream });
      await cdp.detach();
      const parsed = JSON.parse(text);
      return frameFigures(Array.isArray(parsed) ? parsed : parsed.traceEvents);
    },
  };
}

/** The figures above from trace events (pure; exported for a check on a saved trace). */
export function frameFigures(events) {
  const names = new Map();
  for (const e of events) if (e.ph === "M" && e.name === "thread_name") names.set(`${e.pid}:${e.tid}`, e.args?.name);
  // The renderer's main thread that fired the most animation frames is the page's.
  const fired = new Map();
  for (const e of events) {
    if (e.name !== "FireAnimationFrame" || names.get(`${e.pid}:${e.tid}`) !== "CrRendererMain") continue;
    const key = `${e.pid}:${e.tid}`;
    fired.set(key, (fired.get(key) ?? 0) + 1);
  }
  const main = [...fired].sort((a, b) => b[1] - a[1])[0]?.[0];
  const onMain = (e) => `${e.pid}:${e.tid}` === main;
  const frames = events.filter((e) => e.name === "FireAnimationFrame" && onMain(e)).map((e) => e.ts).sort((a, b) => a - b);
  // Top-level tasks only (a task's children are inside its tdur).
  const tasks = events
    .filter((e) => e.ph === "X" && e.name === "RunTask" && onMain(e) && typeof e.tdur === "number")
    .sort((a, b) => a.ts - b.ts);
  const gaps = [];
  let t = 0;
  let busy = 0;
  for (let i = 1; i < frames.length; i++) {
    const [a, b] = [frames[i - 1], frames[i]];
    let cpu = 0;
    while (t < tasks.length && tasks[t].ts < b) {
      if (tasks[t].ts >= a) cpu += tasks[t].tdur;
      t++;
    }
    busy += cpu;
    gaps.push({ wall: (b - a) / 1000, cpu: cpu / 1000 });
  }
  const walls = gaps.map((g) => g.wall).sort((x, y) => x - y);
  return {
    frames: frames.length,
    maxWallGapMs: walls.at(-1) ?? Infinity,
    p99WallGapMs: walls[Math.floor(walls.length * 0.99)] ?? Infinity,
    maxCpuGapMs: Math.max(0, ...gaps.map((g) => g.cpu)),
    busyCpuMs: busy / 1000,
    spanMs: frames.length > 1 ? (frames.at(-1) - frames[0]) / 1000 : 0,
  };
}
