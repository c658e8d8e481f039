// The region pane: each kernel's scope-region tree drawn as nested boxes (Kernel ▸ Loop ▸
// Allocation ▸ If …), every box with its kind, what it was opened with (loop axis and trip
// count, If predicate, While condition), its recursive instruction count and engine chips —
// the printer's region records (link index), decorated, never worded here.
// It is a WAI-ARIA tree (tree / treeitem / group, aria-expanded, aria-level, one tab stop
// moved with the arrow keys). Children of a collapsed box are built when first expanded, so a
// kernel with thousands of regions costs only what is open.
//
// Kernel-derived text only ever reaches the DOM through textContent.

import { countLabel } from "../../../render/count.js";
import { createLinkIndex } from "../link/link-index.js";
import "./region-view.css"; // a shadow-root host imports "./region-view.css?inline" itself

// Above this many regions, boxes deeper than COLLAPSE_DEPTH start collapsed.
const MANY_REGIONS = 300;
const COLLAPSE_DEPTH = 3;

// What the region was opened with: the printer's detail; a kernel's box adds its signature, as
// two traces of one kernel differ there.
function detailOf(region) {
  return region.parent === null && region.signature ? `${region.detail}${region.signature}` : region.detail;
}

/**
 * @param {HTMLElement} container
 * @param {{onRegionClick?: (id: string) => void, onRegionHover?: (id: string|null) => void}} [opts]
 */
export function createRegionView(container, opts = {}) {
  const { onRegionClick = () => {}, onRegionHover = () => {} } = opts;
  const doc = container.ownerDocument;
  const root = doc.createElement("div");
  root.className = "nkp-regions";
  const tree = doc.createElement("ul");
  tree.className = "nkp-region-tree";
  tree.setAttribute("role", "tree");
  tree.setAttribute("aria-label", "Scope regions");
  root.append(tree);
  container.append(root);

  let index = createLinkIndex([]);
  let traces = [];
  let items = new Map(); // region id → its <li>
  let highlighted = new Set();
  let hovered = null;
  let collapseDepth = Infinity;

  function chip(text, cls) {
    const el = doc.createElement("span");
    el.className = cls;
    el.textContent = text;
    return el;
  }

  function buildItem(region) {
    const li = doc.createElement("li");
    li.className = `nkp-region nkp-region-${region.kind.replace(/Scope$/, "").toLowerCase()}`;
    li.setAttribute("role", "treeitem");
    li.setAttribute("aria-level", String(region.depth + 1));
    li.tabIndex = -1;
    li.dataset.region = region.id;
    const box = doc.createElement("div");
    box.className = "nkp-region-box";
    const toggle = chip(region.children.length ? "▾" : "", "nkp-region-toggle");
    toggle.setAttribute("aria-hidden", "true");
    // The chips are apart in the item's text too ("trip 2 4 instructions", not "trip 24
    // instructions"): the spaces between them are not drawn (the box is a flex row).
    box.append(toggle, chip(region.kind.replace(/Scope$/, ""), "nkp-region-kind"));
    const detail = detailOf(region);
    if (detail) box.append(" ", chip(detail, "nkp-region-detail"));
    box.append(" ", chip(countLabel(region.instructionCount), "nkp-region-count"));
    if (region.engines.size) {
      const chips = doc.createElement("span");
      chips.className = "nkp-region-engines";
      for (const e of [...region.engines].sort()) chips.append(" ", chip(e, `nkp-chip nkp-engine-${e}`));
      box.append(" ", chips);
    }
    // No aria-label: the item is named by its visible text (a name that differs from what is
    // shown fails WCAG's label-in-name; axe: label-content-name-mismatch). The toggle is
    // aria-hidden.
    li.append(box);
    items.set(region.id, li);
    if (region.children.length) setExpanded(li, region.depth < collapseDepth);
    if (highlighted.has(region.id)) li.classList.add("nkp-region-hl");
    return li;
  }

  // Children are built on first expansion.
  function setExpanded(li, open) {
    const region = index.regions.get(li.dataset.region);
    if (!region || !region.children.length) return;
    li.setAttribute("aria-expanded", String(open));
    li.querySelector(":scope > .nkp-region-box > .nkp-region-toggle").textContent = open ? "▾" : "▸";
    let group = li.querySelector(":scope > ul");
    if (open && !group) {
      group = doc.createElement("ul");
      group.setAttribute("role", "group");
      for (const c of region.children) group.append(buildItem(index.regions.get(c)));
      li.append(group);
    }
    if (group) group.hidden = !open;
  }

  function setTraces(newTraces, prebuilt) {
    traces = newTraces || [];
    index = prebuilt || createLinkIndex(traces);
    items = new Map();
    highlighted = new Set();
    hovered = null;
    tree.replaceChildren();
    collapseDepth = index.regions.size > MANY_REGIONS ? COLLAPSE_DEPTH : Infinity;
    for (const r of index.regions.values()) if (r.parent === null) tree.append(buildItem(r));
    const first = tree.querySelector("[role=treeitem]");
    if (first) first.tabIndex = 0;
  }

  // The treeitems a user can reach with the arrow keys (not inside a collapsed group), in order.
  function visibleItems() {
    return [...tree.querySelectorAll("[role=treeitem]")].filter((li) => !li.parentElement.closest("[hidden]"));
  }

  function focusItem(li) {
    if (!li) return;
    for (const el of tree.querySelectorAll("[role=treeitem][tabindex='0']")) el.tabIndex = -1;
    li.tabIndex = 0;
    li.focus();
  }

  function itemFromEvent(e) {
    const li = e.target.closest?.("[role=treeitem]");
    return li && tree.contains(li) ? li : null;
  }

  function onClick(e) {
    const li = itemFromEvent(e);
    if (!li) return;
    if (e.target.closest(".nkp-region-toggle")) {
      setExpanded(li, li.getAttribute("aria-expanded") !== "true");
      focusItem(li);
      return;
    }
    focusItem(li);
    onRegionClick(li.dataset.region);
  }

  function onKey(e) {
    const li = itemFromEvent(e);
    if (!li) return;
    const list = visibleItems();
    const at = list.indexOf(li);
    const expanded = li.getAttribute("aria-expanded");
    switch (e.key) {
      case "ArrowDown": focusItem(list[at + 1]); break;
      case "ArrowUp": focusItem(list[at - 1]); break;
      case "Home": focusItem(list[0]); break;
      case "End": focusItem(list[list.length - 1]); break;
      case "ArrowRight":
        if (expanded === "false") setExpanded(li, true);
        else if (expanded === "true") focusItem(li.querySelector(":scope > ul > [role=treeitem]"));
        break;
      case "ArrowLeft":
        if (expanded === "true") setExpanded(li, false);
        else focusItem(li.parentElement.closest("[role=treeitem]"));
        break;
      case "Enter":
      case " ":
        onRegionClick(li.dataset.region);
        break;
      case "*": // WAI-ARIA: expand every sibling
        for (const sib of li.parentElement.children) if (sib.getAttribute("aria-expanded") === "false") setExpanded(sib, true);
        break;
      default:
        return;
    }
    e.preventDefault();
    e.stopPropagation();
  }

  function onOver(e) {
    const li = itemFromEvent(e);
    const id = li ? li.dataset.region : null;
    if (id === hovered) return;
    hovered = id;
    onRegionHover(id);
  }

  function onLeave() {
    if (hovered === null) return;
    hovered = null;
    onRegionHover(null);
  }

  tree.addEventListener("click", onClick);
  tree.addEventListener("keydown", onKey);
  tree.addEventListener("mouseover", onOver);
  tree.addEventListener("mouseleave", onLeave);

  /**
   * Collapses every box (only the kernels stay in view), or expands them again: everything, or
   * down to COLLAPSE_DEPTH when the trees are big (their boxes are built as they open).
   */
  function setAllExpanded(open) {
    const depth = index.regions.size > MANY_REGIONS ? COLLAPSE_DEPTH : Infinity;
    const visit = (li) => {
      const region = index.regions.get(li.dataset.region);
      if (!region?.children.length) return;
      if (!open) {
        setExpanded(li, false);
        return;
      }
      if (region.depth >= depth) return;
      setExpanded(li, true);
      for (const child of li.querySelectorAll(":scope > ul > [role=treeitem]")) visit(child);
    };
    for (const li of tree.querySelectorAll(":scope > [role=treeitem]")) visit(li);
  }

  return {
    element: root,
    get index() {
      return index;
    },
    setTraces,
    setAllExpanded,
    highlight(ids = new Set()) {
      highlighted = ids instanceof Set ? ids : new Set(ids);
      for (const [id, li] of items) li.classList.toggle("nkp-region-hl", highlighted.has(id));
    },
    /** Opens the ancestors of `id` and scrolls its box into view. */
    reveal(id) {
      for (const p of index.regionPathForId(id).slice(0, -1)) setExpanded(items.get(p.id), true);
      items.get(id)?.scrollIntoView({ block: "nearest" });
    },
    clear() {
      setTraces([]);
    },
    destroy() {
      root.remove();
    },
  };
}
