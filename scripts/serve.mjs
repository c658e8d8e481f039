// Static server for the built site (build/site), no dependencies.
// MIME types matter: Pyodide refuses a .wasm not served as application/wasm and then
// `loadPyodide` never settles, so the page would hang silently.
//
//   node scripts/serve.mjs [--root DIR]      PORT=8080 by default; PORT=0 picks a free port.
import { createReadStream, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

export const MIME_TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".zip": "application/zip",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".py": "text/plain; charset=utf-8",
  ".pyc": "application/octet-stream",
  ".bin": "application/octet-stream",
  ".map": "application/json; charset=utf-8",
};

// Compressed on first request and kept: what a production static host (or CDN) would send, so
// byte counts measured against this server are the ones users pay.
const COMPRESSIBLE = new Set([".html", ".js", ".mjs", ".css", ".json", ".wasm", ".svg", ".txt", ".py", ".pyc", ".bin", ".map"]);
const gzipCache = new Map(); // file -> {mtimeMs, body}

function gzipped(file, mtimeMs) {
  const hit = gzipCache.get(file);
  if (hit && hit.mtimeMs === mtimeMs) return hit.body;
  const body = gzipSync(readFileSync(file), { level: 6 });
  gzipCache.set(file, { mtimeMs, body });
  return body;
}

const DEFAULT_ROOT = fileURLToPath(new URL("../build/site/", import.meta.url));

/** Maps a URL path to a file under root, or null if it escapes root or does not exist. */
function resolveFile(root, urlPath) {
  let path;
  try {
    path = decodeURIComponent(urlPath.split("?")[0]);
  } catch {
    return null;
  }
  const file = normalize(join(root, path));
  if (file !== root && !file.startsWith(root.endsWith(sep) ? root : root + sep)) return null;
  try {
    const st = statSync(file);
    if (st.isDirectory()) return resolveFile(root, join(path, "index.html"));
    return st.isFile() ? { file, size: st.size, mtimeMs: st.mtimeMs } : null;
  } catch {
    return null;
  }
}

/**
 * Starts the server on 127.0.0.1. With a busy port it falls back to a free one. `headers`:
 * added to every response (e.g. a Content-Security-Policy a docs host sends).
 * @returns {Promise<{server: import("node:http").Server, port: number, url: string}>}
 */
export function serve({ root = DEFAULT_ROOT, port = 8080, headers: extraHeaders = {} } = {}) {
  root = resolve(root);
  const server = createServer((req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { Allow: "GET, HEAD" }).end();
      return;
    }
    const found = resolveFile(root, new URL(req.url, "http://localhost").pathname);
    if (!found) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("not found\n");
      return;
    }
    const ext = extname(found.file).toLowerCase();
    // A validator, so a reload revalidates (304) instead of downloading Pyodide again.
    const etag = `"${found.size.toString(36)}-${Math.floor(found.mtimeMs).toString(36)}"`;
    const headers = {
      "Content-Type": MIME_TYPES[ext] ?? "application/octet-stream",
      "Cache-Control": "no-cache",
      ETag: etag,
      Vary: "Accept-Encoding",
      "X-Content-Type-Options": "nosniff",
      ...extraHeaders,
    };
    if (req.headers["if-none-match"] === etag) {
      res.writeHead(304, headers).end();
      return;
    }
    const gzip = COMPRESSIBLE.has(ext) && /\bgzip\b/.test(req.headers["accept-encoding"] ?? "");
    if (gzip) {
      const body = gzipped(found.file, found.mtimeMs);
      res.writeHead(200, { ...headers, "Content-Encoding": "gzip", "Content-Length": body.length });
      res.end(req.method === "HEAD" ? undefined : body);
      return;
    }
    res.writeHead(200, { ...headers, "Content-Length": found.size });
    if (req.method === "HEAD") res.end();
    else createReadStream(found.file).pipe(res);
  });
  return new Promise((resolvePromise, reject) => {
    const listen = (p) => server.listen(p, "127.0.0.1");
    server.on("error", (err) => {
      if (err.code === "EADDRINUSE" && port !== 0) {
        process.stderr.write(`port ${port} is busy; using a free port instead\n`);
        port = 0;
        listen(0);
      } else reject(err);
    });
    server.on("listening", () => {
      const actual = server.address().port;
      resolvePromise({ server, port: actual, url: `http://127.0.0.1:${actual}/` });
    });
    listen(port);
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const rootArg = args.indexOf("--root");
  const root = rootArg >= 0 ? args[rootArg + 1] : DEFAULT_ROOT;
  const port = process.env.PORT !== undefined && process.env.PORT !== "" ? Number(process.env.PORT) : 8080;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`serve: invalid PORT '${process.env.PORT}'\n`);
    process.exit(2);
  }
  if (!resolveFile(resolve(root), "/index.html")) {
    process.stderr.write(`serve: ${root} has no index.html; build the site first (npm run build)\n`);
    process.exit(1);
  }
  const { url } = await serve({ root, port });
  console.log(`nki-playground is running at ${url}`);
}
