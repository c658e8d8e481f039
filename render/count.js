// How a region's recursive instruction count reads, the one wording of the pre-rendered
// outline (prerender.js) and the page's region tree (web/src/regions/region-view.js).
export function countLabel(n) {
  return n === 1 ? "1 instruction" : `${n} instructions`;
}
