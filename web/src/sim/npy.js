// NumPy's .npy format (version 1.0) for a tensor summary's values, so a kernel author can take
// a run's inputs and outputs into NumPy (`np.load`). Pure: returns the file's bytes.
//
// The page holds a tensor's values as float32 (web/src/sim/README.md); they are written in the
// tensor's own dtype where NumPy has it (an int32 tensor loads as int32), as float32 for the
// NKI-only dtypes (bfloat16, fp8, tfloat32), which NumPy cannot name.

const DESCR = {
  float32: ["<f4", Float32Array],
  int32: ["<i4", Int32Array],
  int16: ["<i2", Int16Array],
  int8: ["|i1", Int8Array],
  uint32: ["<u4", Uint32Array],
  uint16: ["<u2", Uint16Array],
  uint8: ["|u1", Uint8Array],
  bool_: ["|b1", Uint8Array],
};

/** The dtype a tensor of `dtype` is saved as ("float32" for the ones NumPy lacks). */
export function npyDtype(dtype) {
  return DESCR[dtype]?.[1] ? dtype : "float32";
}

/** The .npy file (Uint8Array) of `data` (Float32Array, row-major) with `shape`, as `dtype`. */
export function toNpy(data, shape, dtype = "float32") {
  const kind = npyDtype(dtype);
  const [descr, Type] = DESCR[kind];
  const values = Type === Float32Array ? data : Type.from(data, (v) => (v === v ? v : 0));
  const dims = shape.length === 1 ? `${shape[0]},` : shape.join(", ");
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${dims}), }`;
  // Magic (6) + version (2) + header length (2) + header, padded with spaces to a multiple of
  // 64 and ended by a newline.
  const total = Math.ceil((10 + header.length + 1) / 64) * 64;
  header = header.padEnd(total - 10 - 1, " ") + "\n";
  const bytes = new Uint8Array(total + values.byteLength);
  bytes.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, header.length & 0xff, header.length >> 8]);
  for (let i = 0; i < header.length; i++) bytes[10 + i] = header.charCodeAt(i);
  bytes.set(new Uint8Array(values.buffer, values.byteOffset, values.byteLength), total);
  return bytes;
}

/** Saves `bytes` as a file called `name` (a download the browser asks about or keeps). */
export function download(doc, name, bytes, type = "application/octet-stream") {
  const url = URL.createObjectURL(new Blob([bytes], { type }));
  const a = doc.createElement("a");
  a.href = url;
  a.download = name;
  doc.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
