// Style sheets that a strict Content-Security-Policy (no 'unsafe-inline' styles) still allows:
// shared by the page (its editor's shadow root) and the element (document and shadow roots).

/**
 * Adds a style sheet to the document once. A constructed sheet (adoptedStyleSheets) rather
 * than a <style>: a host page with a strict Content-Security-Policy (no 'unsafe-inline'
 * styles) still gets it. The CSS is inside `@layer nki-playground`, so any unlayered rule of
 * the host page wins over ours whatever the order.
 */
export function adoptStyle(root, key, css) {
  if (root[key]) return;
  root[key] = true;
  if ("adoptedStyleSheets" in root && typeof CSSStyleSheet === "function") {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    return;
  }
  const style = (root.ownerDocument ?? root).createElement("style");
  style.textContent = css;
  (root.head ?? root).append(style);
}
