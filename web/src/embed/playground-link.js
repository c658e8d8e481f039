// The "Open in playground" href: the full page's URL with the current code in its hash,
// encoded by the page's own share codec, so the page opens it like any shared link (and keeps
// opening it after the format gains versions).
import { encodeState } from "../share/codec.js";

/**
 * @param {string} pageUrl  The playground page (absolute).
 * @param {{code: string, language?: string[]}} state  `language`: the versions the embed
 *   recorded (its `language` attribute), carried into the link so the page can say when it
 *   runs another version.
 * @returns {Promise<string>}
 */
export async function playgroundHref(pageUrl, { code, language }) {
  const url = new URL(pageUrl);
  url.hash = await encodeState({ code, example: null, ...(language?.length ? { language } : {}) });
  return url.href;
}
