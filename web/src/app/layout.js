// Pane layout: two tab groups on the right (IR / Regions / Simulation above, Output / Problems
// below) and two splitters. The layout is part of the page state (saved, shared), so every
// change goes through onChange with the whole layout object.

/**
 * @param {object} opts
 * @param {{top, bottom, splitX, splitY}} opts.layout  Initial layout (already sanitized).
 * @param {(layout: object) => void} opts.onChange
 * @param {(tab: string) => void} [opts.onShow]  A tab became visible (views measure themselves).
 */
export function createLayout({ layout, onChange, onShow = () => {} }) {
  const current = { ...layout };
  const workspace = document.getElementById("workspace");
  const results = document.querySelector(".results");
  const groups = {
    top: document.getElementById("top-group"),
    bottom: document.getElementById("bottom-group"),
  };

  function showTab(group, tab, { focus = false, notify = true } = {}) {
    for (const button of groups[group].querySelectorAll('[role="tab"]')) {
      const selected = button.dataset.tab === tab;
      button.setAttribute("aria-selected", String(selected));
      button.tabIndex = selected ? 0 : -1; // roving tab stop: arrows move inside the list
      document.getElementById(button.getAttribute("aria-controls")).hidden = !selected;
      if (selected && focus) button.focus();
    }
    current[group] = tab;
    onShow(tab);
    if (notify) onChange({ ...current });
  }

  for (const [group, el] of Object.entries(groups)) {
    const tabs = [...el.querySelectorAll('[role="tab"]')];
    for (const button of tabs) {
      button.addEventListener("click", () => showTab(group, button.dataset.tab));
      button.addEventListener("keydown", (event) => {
        const i = tabs.indexOf(button);
        const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[event.key];
        if (next === undefined) return;
        event.preventDefault();
        showTab(group, tabs[(next + tabs.length) % tabs.length].dataset.tab, { focus: true });
      });
    }
  }

  function applySplits() {
    workspace.style.setProperty("--split-x", `${(current.splitX * 100).toFixed(1)}%`);
    results.style.setProperty("--split-y", `${(current.splitY * 100).toFixed(1)}%`);
    document.getElementById("split-x").setAttribute("aria-valuenow", String(Math.round(current.splitX * 100)));
    document.getElementById("split-y").setAttribute("aria-valuenow", String(Math.round(current.splitY * 100)));
  }

  function splitter(id, key, axis, box) {
    const el = document.getElementById(id);
    el.setAttribute("aria-valuemin", "15");
    el.setAttribute("aria-valuemax", "85");
    const set = (value) => {
      current[key] = Math.min(0.85, Math.max(0.15, value));
      applySplits();
      onChange({ ...current });
    };
    el.addEventListener("pointerdown", (event) => {
      event.preventDefault();
      el.setPointerCapture(event.pointerId);
      const rect = box().getBoundingClientRect();
      const move = (e) =>
        set(axis === "x" ? (e.clientX - rect.left) / rect.width : (e.clientY - rect.top) / rect.height);
      const up = () => {
        el.removeEventListener("pointermove", move);
        el.removeEventListener("pointerup", up);
      };
      el.addEventListener("pointermove", move);
      el.addEventListener("pointerup", up);
    });
    // Keyboard users resize with the arrows (the WAI-ARIA window splitter pattern).
    el.addEventListener("keydown", (event) => {
      const step = { ArrowLeft: -0.05, ArrowUp: -0.05, ArrowRight: 0.05, ArrowDown: 0.05 }[event.key];
      if (step === undefined) return;
      event.preventDefault();
      set(current[key] + step);
    });
  }
  splitter("split-x", "splitX", "x", () => workspace);
  splitter("split-y", "splitY", "y", () => results);

  function apply(next) {
    Object.assign(current, next);
    applySplits();
    showTab("top", current.top, { notify: false });
    showTab("bottom", current.bottom, { notify: false });
  }
  apply(layout);

  return {
    apply,
    show: (tab) => showTab(groups.top.querySelector(`[data-tab="${tab}"]`) ? "top" : "bottom", tab),
    get: () => ({ ...current }),
  };
}
