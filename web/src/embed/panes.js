// The panes an embed shows once live — the playground's own components, imported from where
// they live (web/src/ir, regions, sim, link), never copied: the embed is the same views in a
// compact layout.
export { createIrView, createRegionView, createSimView, createLinkIndex } from "../app/fallback-views.js";
