// Share links: the page state in the URL hash as `#v<N>/<payload>`.
//
// Links live forever in chats and bug reports, so every version ever written keeps a decoder
// here; encode() writes only the newest. A new version is a new row in DECODERS that returns
// the same state shape (state.js sanitizes it), never an edit of an old row.

import { LANGUAGES, languageTags, mergeLanguageTags } from "../../../render/language.js";

const CURRENT = "v1";

/** Raw bytes <-> base64url (RFC 4648 §5, no padding). */
export function toBase64Url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function fromBase64Url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error("not base64url");
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  const binary = atob(b64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function through(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

const deflate = (bytes) => through(bytes, new CompressionStream("deflate-raw"));
const inflate = (bytes) => through(bytes, new DecompressionStream("deflate-raw"));

/** version -> payload -> plain state object (before sanitizing). */
const DECODERS = {
  // v1: JSON {code, example, layout, file?} as UTF-8, deflate-raw, base64url (`file`, the user's
  // file name, since issue 14; older links have none and open as "kernel.py").
  // `language` (since the current NKI language came): the languages the code imports, as
  // "id@version" ("nki@0.6.0", "beta1@beta1"); absent when it imports none.
  v1: async (payload) => {
    const json = new TextDecoder("utf-8", { fatal: true }).decode(await inflate(fromBase64Url(payload)));
    return JSON.parse(json);
  },
};

/**
 * `v1/…` for a state (without the leading '#'). `state.language`, when given (a docs embed's
 * recorded languages), keeps the versions it names for the languages the code imports.
 */
export async function encodeState(state) {
  const record = { code: state.code, example: state.example, layout: state.layout, file: state.file };
  const code = typeof state.code === "string" ? state.code : "";
  const langs = Array.isArray(state.language) ? mergeLanguageTags(code, state.language) : languageTags(code);
  if (langs.length) record.language = langs;
  const json = JSON.stringify(record);
  return `${CURRENT}/${toBase64Url(await deflate(new TextEncoder().encode(json)))}`;
}

/**
 * The state held by a hash (with or without '#'); null for an empty hash. Throws an Error
 * whose message says what is wrong for anything else.
 */
export async function decodeState(hash) {
  const text = String(hash ?? "").replace(/^#/, "");
  if (!text) return null;
  const slash = text.indexOf("/");
  const version = slash < 0 ? text : text.slice(0, slash);
  const decoder = Object.hasOwn(DECODERS, version) ? DECODERS[version] : null;
  if (!decoder || slash < 0) throw new Error(`unknown link format "${version.slice(0, 12)}"`);
  let state;
  try {
    state = await decoder(text.slice(slash + 1));
  } catch (err) {
    throw new Error(`the link is damaged (${err.message})`);
  }
  if (!state || typeof state !== "object" || typeof state.code !== "string") throw new Error("the link holds no code");
  return state;
}

export const VERSIONS = Object.keys(DECODERS);

/**
 * What to tell the reader of a link recorded for a language version this playground does not
 * run ("" when it runs them all, or the link records none).
 */
export function languageNotice(shared) {
  const recorded = Array.isArray(shared?.language) ? shared.language.filter((x) => typeof x === "string") : [];
  const runs = Object.values(LANGUAGES).map((l) => `${l.id}@${l.version}`);
  const other = recorded.filter((x) => !runs.includes(x));
  if (!other.length) return "";
  const here = Object.values(LANGUAGES).map((l) => l.label).join(" and ");
  return `This link was written for ${other.join(", ")}; this playground runs ${here}.`;
}
