// Small interface icons as inline SVG (no icon font, no emoji font needed).

import { s } from "./dom.js";

const PATHS = {
  link: "M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1",
  first: "M6 5v14M19 5l-9 7 9 7z",
  prev: "M17 5l-10 7 10 7z",
  play: "M7 5l11 7-11 7z",
  pause: "M8 5v14M16 5v14",
  next: "M5 5l9 7-9 7zM14 5l9 7-9 7z",
  last: "M18 5v14M5 5l9 7-9 7z",
  trophy: "M8 4h8v5a4 4 0 0 1-8 0zM8 6H4.5a3.5 3.5 0 0 0 3.7 4M16 6h3.5a3.5 3.5 0 0 1-3.7 4M12 13v4M8 20h8M9 17h6v3H9z",
};
const FILLED = new Set(["first", "prev", "play", "next", "last"]);

export function icon(name, size = 18) {
  const filled = FILLED.has(name);
  return s("svg", { viewBox: "0 0 24 24", width: size, height: size, class: `icon icon-${name}`, "aria-hidden": "true" },
    s("path", { d: PATHS[name], fill: filled ? "currentColor" : "none", stroke: "currentColor",
      "stroke-width": filled ? 1 : 2, "stroke-linecap": "round", "stroke-linejoin": "round" }));
}
