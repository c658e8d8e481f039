// A compact WAI-ARIA tab strip (tablist / tab / tabpanel, roving tabindex, arrow keys,
// Home/End) over the embed's panes. Ids are generated per element so several embeds on one
// page never share an id.
let counter = 0;

/**
 * @param {Document} doc
 * @param {{id: string, title: string}[]} panes
 */
export function createTabs(doc, panes) {
  const uid = `nkp${++counter}`;
  const element = doc.createElement("div");
  element.className = "nkp-tabs";
  const list = doc.createElement("div");
  list.className = "nkp-tablist";
  list.setAttribute("role", "tablist");
  const panels = new Map();
  const buttons = new Map();
  for (const { id, title } of panes) {
    const tab = doc.createElement("button");
    tab.type = "button";
    tab.className = "nkp-tab";
    tab.id = `${uid}-tab-${id}`;
    tab.dataset.pane = id;
    tab.setAttribute("role", "tab");
    tab.setAttribute("aria-controls", `${uid}-panel-${id}`);
    tab.textContent = title;
    tab.addEventListener("click", () => select(id));
    const panel = doc.createElement("div");
    panel.className = `nkp-panel nkp-panel-${id}`;
    panel.id = `${uid}-panel-${id}`;
    panel.dataset.pane = id;
    panel.setAttribute("role", "tabpanel");
    panel.setAttribute("aria-labelledby", tab.id);
    list.append(tab);
    buttons.set(id, tab);
    panels.set(id, panel);
  }
  element.append(list, ...panels.values());

  list.addEventListener("keydown", (event) => {
    const ids = [...buttons.keys()];
    const at = ids.indexOf(event.target.dataset?.pane);
    if (at < 0) return;
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: ids.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    select(ids[(to + ids.length) % ids.length], { focus: true });
  });

  function select(id, { focus = false } = {}) {
    if (!buttons.has(id)) return;
    for (const [key, tab] of buttons) {
      const on = key === id;
      tab.setAttribute("aria-selected", String(on));
      tab.tabIndex = on ? 0 : -1;
      panels.get(key).hidden = !on;
      if (on && focus) tab.focus();
    }
    element.dataset.selected = id;
  }
  if (panes.length) select(panes[0].id);

  return {
    element,
    panel: (id) => panels.get(id) ?? null,
    has: (id) => panels.has(id),
    select,
    get selected() {
      return element.dataset.selected;
    },
  };
}
