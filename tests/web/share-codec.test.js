// Share-link codec (web/src/share/codec.js) in Node (CompressionStream is a web standard that
// Node has too): round trips, and links written by every released version keep decoding.
import { describe, expect, test } from "vitest";

import { decodeState, encodeState, fromBase64Url, languageNotice, toBase64Url, VERSIONS } from "../../web/src/share/codec.js";
import { languageTags, mergeLanguageTags } from "../../render/language.js";

// Written by the v1 encoder; never regenerate: old links in the wild look exactly like this.
const FROZEN = {
  v1: [
    "v1/LYxBCsIwFAWvEt6mCkEsiIugnkOhm0SjBn7yQ_OFlNIDeQ4vJhGXMwwz48o3D4M8hiSr7vl5E7E6uFO3HlJVR9UPCRq-2piphYXvEm2FBtmJXwIzQzjDYPSPwKlAw7EIx9-VHfnYXMkU5Ayz3ez-cGmwX5Yv",
    {
      code: "print('héllo <b>')\nx = 1\n",
      example: "softmax",
      layout: { top: "regions", bottom: "problems", splitX: 0.4, splitY: 0.6 },
    },
  ],
};

describe("share codec", () => {
  test("every decodable version has a frozen link that still decodes to its state", async () => {
    expect(Object.keys(FROZEN).sort()).toEqual([...VERSIONS].sort());
    for (const [link, state] of Object.values(FROZEN)) {
      expect(await decodeState(`#${link}`)).toEqual(state);
    }
  });

  test("encode then decode gives the state back, in URL-safe characters", async () => {
    const code = "def k():\n    return '∑ ✓ 😀'\n".repeat(200);
    const state = { code, example: null, layout: { top: "ir", bottom: "output", splitX: 0.5, splitY: 0.68 } };
    const hash = await encodeState(state);
    expect(hash).toMatch(/^v1\/[A-Za-z0-9_-]+$/);
    expect(hash.length).toBeLessThan(code.length / 10); // the repeated text compresses
    expect(await decodeState(hash)).toEqual(state);
  });

  test("base64url round-trips every byte value", () => {
    const bytes = Uint8Array.from({ length: 256 * 3 + 1 }, (_, i) => (i * 37) & 255);
    expect(fromBase64Url(toBase64Url(bytes))).toEqual(bytes);
  });

  test("empty hashes hold no state; damaged and unknown ones throw a readable error", async () => {
    expect(await decodeState("")).toBeNull();
    expect(await decodeState("#")).toBeNull();
    await expect(decodeState("#v1/not-deflate")).rejects.toThrow(/the link is damaged/);
    await expect(decodeState("#v1/a+b")).rejects.toThrow(/the link is damaged/);
    await expect(decodeState("#v7/abc")).rejects.toThrow(/unknown link format "v7"/);
    await expect(decodeState("#hello")).rejects.toThrow(/unknown link format/);
    await expect(decodeState("#constructor/x")).rejects.toThrow(/unknown link format/);
    const noCode = await encodeState({ code: 1, example: null, layout: {} });
    await expect(decodeState(noCode)).rejects.toThrow(/no code/);
  });

  test("a link records the languages its code imports; one this playground does not run is noticed", async () => {
    const layout = { top: "ir", bottom: "output", splitX: 0.5, splitY: 0.68 };
    const both = { code: "import nki\nimport neuronxcc.nki as bnki\n", example: null, layout };
    const decoded = await decodeState(await encodeState(both));
    expect(decoded).toEqual({ ...both, language: ["nki@0.6.0", "beta1@beta1"] });
    expect(languageNotice(decoded)).toBe("");
    const none = { code: "print(1)\n", example: null, layout };
    expect(await decodeState(await encodeState(none))).toEqual(none);
    expect(languageNotice({ language: ["nki@0.7.0", "nki@0.6.0"] })).toBe(
      "This link was written for nki@0.7.0; this playground runs NKI 0.6.0 and NKI Beta 1.",
    );
    expect(languageNotice({ language: "nki@0.7.0" })).toBe("");
    expect(languageNotice(null)).toBe("");
  });

  test("a docs embed's recorded versions carry into its link for the languages the code imports", async () => {
    const layout = { top: "ir", bottom: "output", splitX: 0.5, splitY: 0.68 };
    const code = "import nki\n";
    const link = (language) => encodeState({ code, example: null, layout, language }).then(decodeState);
    expect((await link(["nki@0.7.0"])).language).toEqual(["nki@0.7.0"]);
    // A language the code no longer imports goes; one the code imports and the record lacks comes.
    expect((await link(["beta1@beta1"])).language).toEqual(["nki@0.6.0"]);
    // A language this playground does not know stays (the reader's playground may).
    expect((await link(["nkipy@1.0", "nki@0.6.0"])).language).toEqual(["nki@0.6.0", "nkipy@1.0"]);
    expect(mergeLanguageTags("print(1)\n", ["nki@0.7.0"])).toEqual([]);
    expect(languageTags("from neuronxcc import nki\nimport nki.isa\n")).toEqual(["beta1@beta1", "nki@0.6.0"]);
  });
});
