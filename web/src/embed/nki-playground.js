// <nki-playground>: a live NKI example inside someone else's page (docs, blog posts).
//
// This module is everything a reader downloads before clicking Run, so it stays small and
// imports no runtime: no Pyodide, no wasm, no CodeMirror, no panes. It upgrades the plain
// HTML the docs build wrote (`nki-playground trace --format html`: the kernel in
// `<pre class="nkp-source">`, a coloured static IR block and a region outline) with a toolbar,
// and on Run loads ./live.js, which starts the one runtime worker shared by every element on
// the page. With scripts off, the plain HTML is what the reader sees — it stays readable.
//
// Attributes: readonly, panes="ir,regions,sim,output", autorun, height, theme, filename,
// playground (the full page's URL; default: the site root next to this script's folder),
// language (what the code was written for, "nki@0.6.0"; the pre-render writes it).
import elementCss from "./element.css?inline";
import { adoptStyle } from "../adopt-style.js";
import { playgroundHref } from "./playground-link.js";
import { LANGUAGES, languageTags } from "../../../render/language.js";
import { languageNotice } from "../share/codec.js";
import { followTheme } from "./theme.js";

/** The site root: this module lives in <root>/element/, the full page is <root>/index.html. */
const SITE_ROOT = new URL(/* @vite-ignore */ "../", import.meta.url).href;

/** A diagnostic code's section on the site's errors page (scripts/build-docs.mjs publishes it). */
export const errorsPageHref = (code) => new URL(`docs/errors.html#${encodeURIComponent(code)}`, SITE_ROOT).href;
const DEFAULT_FILENAME = "kernel.py";
const LINK_DEBOUNCE_MS = 200;

/** The kernel text: the pre-rendered `<pre class="nkp-source">`, else the first `<pre>`. */
function findSource(el) {
  return el.querySelector(":scope > pre.nkp-source") ?? el.querySelector(":scope > pre");
}

function button(doc, cls, text, title) {
  const b = doc.createElement("button");
  b.type = "button";
  b.className = cls;
  b.textContent = text;
  if (title) b.title = title;
  return b;
}

export class NkiPlaygroundElement extends HTMLElement {
  static observedAttributes = ["height", "theme", "readonly", "playground"];

  #upgraded = false;
  #sourceText = "";
  #live = null; // the mounted live part (./live.js), after the first Run
  #loading = null;
  #linkTimer = 0;
  #linkVersion = 0;
  #stopTheme = null;
  #visibility = null;

  connectedCallback() {
    if (!this.#upgraded) this.#upgrade();
    this.#stopTheme ??= followTheme(this);
    if (this.hasAttribute("autorun") && !this.#live) this.#runWhenVisible();
  }

  disconnectedCallback() {
    this.#stopTheme?.();
    this.#stopTheme = null;
    this.#visibility?.disconnect();
    this.#visibility = null;
  }

  attributeChangedCallback(name) {
    if (!this.#upgraded) return;
    if (name === "height") this.#applyHeight();
    else if (name === "theme") {
      this.#stopTheme?.();
      this.#stopTheme = this.isConnected ? followTheme(this) : null;
    } else if (name === "readonly") this.#live?.setReadOnly(this.readOnly);
    else if (name === "playground") this.#refreshLink();
  }

  /** The kernel text as it is now (edited, once live). */
  get source() {
    return this.#live ? this.#live.getSource() : this.#sourceText;
  }

  get filename() {
    return this.getAttribute("filename") || DEFAULT_FILENAME;
  }

  get readOnly() {
    return this.hasAttribute("readonly");
  }

  /** Panes to show once live, in the attribute's order (unknown names ignored). */
  get panes() {
    const known = ["ir", "regions", "sim", "output"];
    const asked = (this.getAttribute("panes") ?? known.join(","))
      .split(",")
      .map((p) => p.trim().toLowerCase())
      .filter((p) => known.includes(p));
    return asked.length ? [...new Set(asked)] : known;
  }

  /**
   * The languages the code was written for, as "id@version" tags: the `language` attribute
   * (the docs build records it), else what the code imports.
   */
  get language() {
    const attr = (this.getAttribute("language") ?? "").trim();
    return attr ? attr.split(/\s+/) : languageTags(this.#sourceText);
  }

  get playgroundUrl() {
    const attr = this.getAttribute("playground");
    return attr ? new URL(attr, document.baseURI).href : SITE_ROOT;
  }

  /** Starts the runtime (first time) and runs the current code. */
  async run() {
    const live = await this.#goLive();
    return live?.run();
  }

  #upgrade() {
    this.#upgraded = true;
    const doc = this.ownerDocument;
    adoptStyle(doc, "__nkpElementStyle", elementCss);
    this.classList.add("nkp");
    const source = findSource(this);
    this.#sourceText = source ? source.textContent.replace(/\n$/, "") : "";
    source?.classList.add("nkp-source");

    const bar = doc.createElement("div");
    bar.className = "nkp-bar";
    const runButton = button(doc, "nkp-run", "Run", "Trace and simulate this kernel in your browser");
    // Several examples share a page: say which one a screen reader's "Run" button runs.
    runButton.setAttribute("aria-label", `Run ${this.filename}`);
    runButton.addEventListener("click", () => this.run());
    const status = doc.createElement("span");
    status.className = "nkp-status";
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    const name = doc.createElement("span");
    name.className = "nkp-filename";
    name.textContent = this.filename;
    const link = doc.createElement("a");
    link.className = "nkp-open";
    link.textContent = "Open in playground";
    link.target = "_blank";
    link.rel = "noopener";
    link.href = this.playgroundUrl;
    link.setAttribute("aria-label", `Open ${this.filename} in the playground (new tab)`);
    // The href is refreshed after edits with a debounce; a click that beats it waits for the
    // fresh one instead of opening stale code.
    link.addEventListener("click", (event) => this.#openPlayground(event));
    const language = doc.createElement("span");
    language.className = "nkp-language";
    bar.append(runButton, name, language, status, link);
    this.prepend(bar);
    this.#showLanguage();
    this.#applyHeight();
    this.#refreshLink();
  }

  /** The language chip; a version this playground does not run is said in the status. */
  #showLanguage() {
    const chip = this.#part("nkp-language");
    const tags = this.language;
    const known = Object.values(LANGUAGES);
    chip.textContent = tags.map((t) => known.find((l) => `${l.id}@${l.version}` === t)?.label ?? t).join(", ");
    chip.title = tags.length ? `Written for ${tags.join(", ")}` : "";
    chip.hidden = !tags.length;
    const notice = languageNotice({ language: tags });
    if (notice) this.#setStatus("notice", notice.replace("This link was", "This example was"));
  }

  #part(cls) {
    return this.querySelector(`:scope > .nkp-bar .${cls}`);
  }

  #applyHeight() {
    const h = (this.getAttribute("height") ?? "").trim();
    const css = /^\d+(\.\d+)?$/.test(h) ? `${h}px` : h;
    if (css && CSS.supports("height", css)) this.style.setProperty("--nkp-height", css);
    else this.style.removeProperty("--nkp-height");
  }

  /** Recomputes the link's href (async: the share encoding compresses). */
  #refreshLink() {
    clearTimeout(this.#linkTimer);
    const version = ++this.#linkVersion;
    const link = this.#part("nkp-open");
    if (!link) return Promise.resolve();
    link.dataset.stale = "";
    const recorded = this.hasAttribute("language") ? this.language : undefined;
    return playgroundHref(this.playgroundUrl, { code: this.source, language: recorded }).then(
      (href) => {
        if (version !== this.#linkVersion) return;
        link.href = href;
        delete link.dataset.stale;
      },
      () => {}, // no CompressionStream: the link still opens the playground, without the code
    );
  }

  async #openPlayground(event) {
    const link = event.currentTarget;
    if (!("stale" in link.dataset)) return;
    event.preventDefault();
    await this.#refreshLink();
    window.open(link.href, link.target || "_self", "noopener");
  }

  #sourceChanged() {
    clearTimeout(this.#linkTimer);
    const link = this.#part("nkp-open");
    if (link) link.dataset.stale = "";
    this.#linkTimer = setTimeout(() => this.#refreshLink(), LINK_DEBOUNCE_MS);
  }

  /** `code`: the diagnostic's id; the status then links to its section of the errors page. */
  #setStatus(state, text, code) {
    const status = this.#part("nkp-status");
    if (!status) return;
    status.dataset.state = state;
    status.textContent = text;
    if (!code) return;
    const link = this.ownerDocument.createElement("a");
    link.className = "nkp-code";
    link.href = errorsPageHref(code);
    link.target = "_blank";
    link.rel = "noopener";
    link.textContent = code;
    link.title = "What this error means and how to fix it";
    status.append(" ", link);
  }

  #goLive() {
    if (this.#live) return Promise.resolve(this.#live);
    this.#loading ??= (async () => {
      const runButton = this.#part("nkp-run");
      this.#setStatus("loading", "loading…");
      runButton.disabled = true;
      try {
        // The worker (a small chunk) starts first: Pyodide downloads and boots while the
        // editor and panes (live.js, the bigger part) load, instead of after them.
        import("./runtime.js").then((m) => m.startRuntime(), () => {});
        const { mountLive } = await import("./live.js");
        this.#live = await mountLive(this, {
          source: this.#sourceText,
          filename: this.filename,
          panes: this.panes,
          readOnly: this.readOnly,
          setStatus: (state, text, code) => this.#setStatus(state, text, code),
          onSourceChange: () => this.#sourceChanged(),
          runButton,
          // live.js takes these from here, not by import: the two modules form no circle, and
          // with the entry's signature kept strict (vite.element.config.js) a module both import
          // would split the entry into a facade and a second chunk, one more request before Run.
          adoptStyle,
          errorsPageHref,
        });
        this.classList.add("nkp-is-live");
        return this.#live;
      } catch (err) {
        this.#setStatus("error", `could not start: ${err?.message ?? err}`);
        this.#loading = null;
        return null;
      } finally {
        runButton.disabled = false;
      }
    })();
    return this.#loading;
  }

  /** autorun: start once the element scrolls into view, not at page load. */
  #runWhenVisible() {
    if (this.#visibility) return;
    if (typeof IntersectionObserver !== "function") {
      this.run();
      return;
    }
    this.#visibility = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      this.#visibility.disconnect();
      this.#visibility = null;
      this.run();
    });
    this.#visibility.observe(this);
  }
}

if (!customElements.get("nki-playground")) {
  customElements.define("nki-playground", NkiPlaygroundElement);
}
