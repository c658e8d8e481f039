// The panes an embed shows once live — the playground's own components and linking, imported
// from where they live, never copied: the embed is the same views in a compact layout.
export { createIrView } from "../ir/ir-view.js";
export { createRegionView } from "../regions/region-view.js";
export { createSimView } from "../sim/sim-view.js";
export { createLinkIndex } from "../link/link-index.js";
export { createLinking } from "../link/linking.js";
