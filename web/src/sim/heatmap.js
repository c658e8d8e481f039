// Heatmaps of tensor summaries: the values laid out as rows × cols (leading dimensions
// flattened into rows, a 1-D tensor one row), averaged down to at most MAX_SIDE px per side,
// drawn on a canvas with a colour legend. The grid maths is pure and exported for tests.

export const MAX_SIDE = 512;
// Small tensors are drawn with square-ish cells of up to MAX_CELL px so a 4×4 tile is visible.
const MIN_SIDE = 128;
const MAX_CELL = 32;

/** rows × cols of a shape: leading dims flattened into rows; a scalar is 1 × 1. */
export function gridOf(shape) {
  if (!shape || shape.length === 0) return { rows: 1, cols: 1 };
  if (shape.length === 1) return { rows: 1, cols: shape[0] };
  const cols = shape[shape.length - 1];
  const rows = shape.slice(0, -1).reduce((a, b) => a * b, 1);
  return { rows, cols };
}

/**
 * Averages `data` (row-major rows × cols) into bh × bw bins, skipping NaNs; a bin of only NaNs
 * is NaN. Returns {bins: Float64Array, bw, bh}.
 */
export function downsample(data, rows, cols, maxSide = MAX_SIDE) {
  const bw = Math.max(1, Math.min(cols, maxSide));
  const bh = Math.max(1, Math.min(rows, maxSide));
  const sum = new Float64Array(bw * bh);
  const count = new Uint32Array(bw * bh);
  const colBin = new Uint32Array(cols);
  for (let c = 0; c < cols; c++) colBin[c] = Math.floor((c * bw) / cols);
  for (let r = 0; r < rows; r++) {
    const rowBase = Math.floor((r * bh) / rows) * bw;
    const off = r * cols;
    for (let c = 0; c < cols; c++) {
      const v = data[off + c];
      if (v === v) {
        sum[rowBase + colBin[c]] += v;
        count[rowBase + colBin[c]] += 1;
      }
    }
  }
  for (let k = 0; k < sum.length; k++) sum[k] = count[k] ? sum[k] / count[k] : NaN;
  return { bins: sum, bw, bh };
}

// Perceptual blue → green → yellow ramp (stops picked by eye for light and dark backgrounds).
const STOPS = [
  [48, 18, 84],
  [52, 91, 141],
  [32, 146, 140],
  [92, 200, 99],
  [250, 230, 40],
];
const NAN_RGB = [255, 0, 200];

/** [r, g, b] for t ∈ [0, 1] (NaN → magenta). */
export function colour(t) {
  if (!(t === t)) return NAN_RGB;
  const x = Math.min(1, Math.max(0, t)) * (STOPS.length - 1);
  const k = Math.min(STOPS.length - 2, Math.floor(x));
  const f = x - k;
  const a = STOPS[k];
  const b = STOPS[k + 1];
  return [0, 1, 2].map((j) => Math.round(a[j] + (b[j] - a[j]) * f));
}

// `7`, `-0.125`, `1.5e-7`: short, exact enough for a tooltip.
export function fmt(v) {
  if (v === undefined || v === null) return "–";
  if (Number.isNaN(v)) return "nan";
  if (!Number.isFinite(v)) return v > 0 ? "inf" : "-inf";
  if (Number.isInteger(v) && Math.abs(v) < 1e7) return String(v);
  return Number(v.toPrecision(5)).toString();
}

/**
 * The part of `data` (row-major over `shape`) a slice picks: `fixed[d]` an index for leading
 * dimension d (all but the last two), or null for all of it. Returns {data, shape, label}:
 * the kept dimensions' values in order, their shape, and `name[1, :, :, :]`-style label.
 */
export function sliceOf(data, shape, fixed, name) {
  const lead = shape.slice(0, -2);
  if (!fixed.some((v) => v !== null && v !== undefined)) return { data, shape, label: name, indexOf: null };
  const plane = shape.slice(-2);
  const block = plane[0] * plane[1];
  const kept = []; // the leading index tuples of the blocks kept, in order
  const keptShape = [...lead.filter((_, d) => fixed[d] == null), ...shape.slice(-2)];
  const out = new Float32Array(keptShape.reduce((a, b) => a * b, 1));
  let o = 0;
  const count = lead.reduce((a, b) => a * b, 1);
  for (let k = 0; k < count; k++) {
    // k → its index tuple over the leading dims; skip blocks outside the slice.
    let rest = k;
    let inside = true;
    for (let d = lead.length - 1; d >= 0; d--) {
      const i = rest % lead[d];
      rest = Math.floor(rest / lead[d]);
      if (fixed[d] != null && fixed[d] !== i) inside = false;
    }
    if (!inside) continue;
    kept.push(tupleOf(k, lead));
    out.set(data.subarray(k * block, (k + 1) * block), o);
    o += block;
  }
  const label = `${name}[${lead.map((_, d) => (fixed[d] == null ? ":" : fixed[d])).join(", ")}, :, :]`;
  const indexOf = (f) => {
    const within = f % block;
    return [...kept[Math.floor(f / block)], Math.floor(within / plane[1]), within % plane[1]];
  };
  return { data: out, shape: keptShape, label, indexOf };
}

function tupleOf(k, dims) {
  const idx = new Array(dims.length);
  for (let d = dims.length - 1; d >= 0; d--) {
    idx[d] = k % dims[d];
    k = Math.floor(k / dims[d]);
  }
  return idx;
}

// Index of flattened row r in the leading dims of `shape`: [b, i] for shape [B, I, C].
function unflattenRow(r, shape) {
  const lead = shape.length > 1 ? shape.slice(0, -1) : [];
  const idx = [];
  for (let d = lead.length - 1; d >= 0; d--) {
    idx.unshift(r % lead[d]);
    r = Math.floor(r / lead[d]);
  }
  return idx;
}

/**
 * A heatmap canvas of `data` (Float32Array, row-major over `shape`) coloured over [lo, hi].
 * Hovering writes the element under the pointer, "name[i, j] = value", into the canvas title
 * and calls onHover(text|null).
 */
export function createHeatmap(doc, { data, shape, lo, hi, label, name = label, indexOf = null, onHover = () => {} }) {
  const { rows, cols } = gridOf(shape);
  const { bins, bw, bh } = downsample(data, rows, cols);
  const sx = bw < MIN_SIDE ? Math.max(1, Math.min(MAX_CELL, Math.floor(MIN_SIDE / bw))) : 1;
  const sy = bh < MIN_SIDE ? Math.max(1, Math.min(MAX_CELL, Math.floor(MIN_SIDE / bh))) : 1;
  const canvas = doc.createElement("canvas");
  canvas.className = "nkp-heatmap";
  canvas.width = bw * sx;
  canvas.height = bh * sy;
  canvas.setAttribute("role", "img");
  canvas.setAttribute("aria-label", `${label}: heatmap of ${rows} × ${cols} values`);
  const ctx = canvas.getContext("2d");
  if (ctx) {
    const img = ctx.createImageData(canvas.width, canvas.height);
    const span = hi > lo ? hi - lo : 1;
    for (let y = 0; y < canvas.height; y++) {
      const brow = Math.floor(y / sy) * bw;
      for (let x = 0; x < canvas.width; x++) {
        const v = bins[brow + Math.floor(x / sx)];
        const [r, g, b] = colour(hi > lo ? (v - lo) / span : v === v ? 0.5 : NaN);
        const p = (y * canvas.width + x) * 4;
        img.data[p] = r;
        img.data[p + 1] = g;
        img.data[p + 2] = b;
        img.data[p + 3] = 255;
      }
    }
    ctx.putImageData(img, 0, 0);
  }

  // Pixel → the one tensor element under the pointer and its own value (when the image is
  // averaged down, the pixel's colour is a block's mean; the text is still the element's).
  function describe(e) {
    // Relative to the content box (the CSS border is not part of the image).
    const rect = canvas.getBoundingClientRect();
    const w = canvas.clientWidth;
    const h = canvas.clientHeight;
    if (!w || !h) return null;
    const clamp = (v, n) => Math.max(0, Math.min(n - 1, v));
    const r = clamp(Math.floor(((e.clientY - rect.top - canvas.clientTop) / h) * rows), rows);
    const c = clamp(Math.floor(((e.clientX - rect.left - canvas.clientLeft) / w) * cols), cols);
    // `indexOf` maps an element of a slice back to its index in the whole tensor.
    const idx = indexOf ? indexOf(r * cols + c) : shape.length === 0 ? [] : [...unflattenRow(r, shape), c];
    const text = `${name}[${idx.join(", ")}] = ${fmt(data[r * cols + c])}`;
    const block = Math.ceil(rows / bh) * Math.ceil(cols / bw);
    return block > 1 ? `${text}  (a pixel shows the mean of ${Math.ceil(rows / bh)} × ${Math.ceil(cols / bw)} values)` : text;
  }
  canvas.addEventListener("mousemove", (e) => {
    const text = describe(e);
    canvas.title = text || "";
    onHover(text);
  });
  canvas.addEventListener("mouseleave", () => onHover(null));
  return canvas;
}

/** A horizontal colour ramp with its low and high values. */
export function createLegend(doc, lo, hi) {
  const wrap = doc.createElement("div");
  wrap.className = "nkp-legend";
  const ramp = doc.createElement("canvas");
  ramp.className = "nkp-legend-ramp";
  ramp.width = 128;
  ramp.height = 8;
  const ctx = ramp.getContext("2d");
  if (ctx) {
    for (let x = 0; x < ramp.width; x++) {
      const [r, g, b] = colour(x / (ramp.width - 1));
      ctx.fillStyle = `rgb(${r},${g},${b})`;
      ctx.fillRect(x, 0, 1, ramp.height);
    }
  }
  const low = doc.createElement("span");
  low.textContent = fmt(lo);
  const high = doc.createElement("span");
  high.textContent = fmt(hi);
  wrap.append(low, ramp, high);
  return wrap;
}
