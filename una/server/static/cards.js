// Cards drawn as SVG by the client: no image is downloaded. Each color has its own shape
// (triangle, circle, square, diamond) and background pattern (stripes, dots, checks, waves)
// beside its hue, so a color-blind player can tell every card apart.

import { s } from "./dom.js";
import { cardFace, faceWord } from "./rules.js";

export const COLOR_CODES = ["R", "Y", "G", "B"];

export const COLORS = {
  R: { fill: "#d8372a", ink: "#a3190f", shape: "triangle", pattern: "stripes" },
  Y: { fill: "#f1b400", ink: "#7a5800", shape: "circle", pattern: "dots" },
  G: { fill: "#2c9a45", ink: "#176429", shape: "square", pattern: "checks" },
  B: { fill: "#1f6bd0", ink: "#11458c", shape: "diamond", pattern: "waves" },
};
const BLACK = "#1c1c22";

/** {code, color ("R".."B" or null), symbol, wild, parent} of a card code: the engine's facts
 * from GET /api/rules. Until they come, a guess from the code alone: a color letter and a
 * number or a short sign is a colored card, a code that starts with W a wild one. */
export function parseCard(code) {
  const upper = String(code || "").toUpperCase();
  const face = cardFace(upper);
  if (face) return { code: upper, color: face.color, symbol: face.symbol, wild: face.wild, parent: face.parent };
  const colored = /^[RYGB]([0-9]|[A-Z]{1,2}[0-9]?)$/.test(upper);
  return { code: upper, color: colored ? upper[0] : null, symbol: colored ? upper.slice(1) : upper,
    wild: !colored && upper.startsWith("W"), parent: null };
}

// --------------------------------------------------------------------------- shapes, icons

function shapeEl(shape, cx, cy, r, attrs) {
  switch (shape) {
    case "triangle":
      return s("path", { d: `M${cx} ${cy - r} L${cx + r} ${cy + r * 0.8} L${cx - r} ${cy + r * 0.8} Z`, ...attrs });
    case "circle":
      return s("circle", { cx, cy, r: r * 0.9, ...attrs });
    case "square":
      return s("rect", { x: cx - r * 0.8, y: cy - r * 0.8, width: r * 1.6, height: r * 1.6, ...attrs });
    default:
      return s("path", { d: `M${cx} ${cy - r} L${cx + r} ${cy} L${cx} ${cy + r} L${cx - r} ${cy} Z`, ...attrs });
  }
}

/** A small shape badge for a color, e.g. beside the color's name. */
export function colorBadge(color, size = 18) {
  const info = COLORS[color];
  const svg = s("svg", { viewBox: "0 0 20 20", width: size, height: size, class: "color-badge",
    "aria-hidden": "true" });
  if (!info) {
    svg.append(s("circle", { cx: 10, cy: 10, r: 8, fill: "none", stroke: "currentColor", "stroke-dasharray": "3 2" }));
    return svg;
  }
  svg.append(s("rect", { x: 0, y: 0, width: 20, height: 20, rx: 5, fill: info.fill }));
  svg.append(s("rect", { x: 0, y: 0, width: 20, height: 20, rx: 5, fill: `url(#una-pat-${color})` }));
  svg.append(shapeEl(info.shape, 10, 10, 6, { fill: "#fff", stroke: "#0006", "stroke-width": 0.8 }));
  return svg;
}

function skipIcon(ink) {
  return s("g", {}, s("circle", { cx: 30, cy: 45, r: 11, fill: "none", stroke: ink, "stroke-width": 4.5 }),
    s("line", { x1: 22.5, y1: 52.5, x2: 37.5, y2: 37.5, stroke: ink, "stroke-width": 4.5 }));
}

function reverseIcon(ink) {
  return s("g", { transform: "rotate(-35 30 45)", fill: ink },
    s("path", { d: "M19 41 h16 v-5 l8 8 -8 8 v-5 h-16 z" }),
    s("path", { d: "M41 49 h-16 v-5 l-8 8 8 8 v-5 h16 z", transform: "translate(0 -1)" }));
}

function targetIcon(ink) {
  return s("g", { fill: "none", stroke: ink, "stroke-width": 3 },
    s("circle", { cx: 30, cy: 45, r: 12 }), s("circle", { cx: 30, cy: 45, r: 6 }),
    s("circle", { cx: 30, cy: 45, r: 1.5, fill: ink }));
}

function crossIcon(ink) {
  return s("path", { d: "M26 31 h8 v10 h10 v8 h-10 v14 h-8 v-14 h-10 v-8 h10 z", fill: ink });
}

function text(label, ink, { size = 30, y = 45, stroke = null, x = 30, width = 0 } = {}) {
  const attrs = {
    x, y, "text-anchor": "middle", "dominant-baseline": "central", fill: ink,
    "font-size": size, "font-weight": "800", "font-family": "DejaVu Sans, Verdana, Arial, sans-serif",
  };
  if (stroke) Object.assign(attrs, { stroke, "stroke-width": size / 12, "paint-order": "stroke" });
  if (width) Object.assign(attrs, { textLength: width, lengthAdjust: "spacingAndGlyphs" });
  return s("text", attrs, label);
}

function scaled(node, k, dy = 0) {
  return s("g", { transform: `translate(${30 - 30 * k} ${45 - 45 * k + dy}) scale(${k})` }, node);
}

/** The big central glyph of a card (drawn around 30,45) in the ink color. */
function glyph(card, ink, stroke = null) {
  const sym = card.symbol;
  if (/^[0-9]$/.test(sym)) {
    const g = s("g", {}, text(sym, ink, { size: 34, stroke }));
    if (sym === "6" || sym === "9") g.append(s("rect", { x: 23, y: 58, width: 14, height: 3, fill: ink }));
    return g;
  }
  switch (sym) {
    case "S": return skipIcon(ink);
    case "R": return reverseIcon(ink);
    case "D2": return text("+2", ink, { size: 26, stroke });
    case "D4": return text("+4", ink, { size: 26, stroke });
    case "SP": {
      const word = faceWord(card.code) || "";
      return s("g", {}, text("+2", ink, { size: 22, y: 40, stroke }),
        text(word, ink, { size: 10, y: 57, stroke, width: word.length > 3 ? 26 : 0 }));
    }
    case "RD2": return s("g", {}, scaled(reverseIcon(ink), 0.6, -9), text("+2", ink, { size: 17, y: 56, stroke }));
    case "DB2": return text("»+2", ink, { size: 19, stroke });
    case "RR": return s("g", {}, scaled(reverseIcon(ink), 0.55, -9), scaled(reverseIcon(ink), 0.55, 9));
    case "RS": return s("g", {}, scaled(reverseIcon(ink), 0.55, -9), scaled(skipIcon(ink), 0.55, 9));
    case "SS": return s("g", {}, scaled(skipIcon(ink), 0.55, -9), scaled(skipIcon(ink), 0.55, 9));
    case "W": return s("g");
    case "W4": return text("+4", "#fff", { size: 24, stroke: "#000" });
    case "WDD": return text("×2", "#fff", { size: 24, stroke: "#000" });
    case "WR4": return s("g", {}, scaled(reverseIcon("#fff"), 0.6, -9), text("+4", "#fff", { size: 17, y: 56, stroke: "#000" }));
    case "WB4": return text("»+4", "#fff", { size: 19, stroke: "#000" });
    case "WMY": return text("?", "#fff", { size: 32, stroke: "#000" });
    case "WTP": return targetIcon("#fff");
    case "HOLY": return s("g", {}, crossIcon(ink));
    default: {
      const word = faceWord(card.code) || sym;
      return text(word, ink, { size: 12, stroke, width: word.length > 4 ? Math.min(40, 7 * word.length) : 0 });
    }
  }
}

function cornerLabel(card) {
  const sym = card.symbol;
  if (/^[0-9]$/.test(sym)) return sym;
  if (card.parent) return card.parent;
  return { S: "⊘", R: "⇄", D2: "+2", D4: "+4", SP: "+2", RD2: "+2", DB2: "»2", RR: "⇄⇄", RS: "⇄⊘",
    SS: "⊘⊘", W: "W", W4: "+4", WDD: "×2", WR4: "+4", WB4: "»4", WMY: "?", WTP: "◎" }[sym]
    || (faceWord(card.code) || sym).slice(0, 2);
}

// --------------------------------------------------------------------------------- cards

/** The <svg> of a card face; opts.label is its accessible name. */
export function cardSvg(code, opts = {}) {
  const card = parseCard(code);
  const info = COLORS[card.color];
  const fill = info ? info.fill : BLACK;
  const ink = info ? info.ink : "#fff";
  const svg = s("svg", { viewBox: "0 0 60 90", class: ["card-svg", opts.className], role: "img",
    "aria-label": opts.label || card.code, "data-code": card.code });
  svg.append(s("title", {}, opts.label || card.code));
  svg.append(s("rect", { x: 0.5, y: 0.5, width: 59, height: 89, rx: 7, fill: "#fdfdfb", stroke: "#0004" }));
  svg.append(s("rect", { x: 3.5, y: 3.5, width: 53, height: 83, rx: 5, fill }));
  if (info) svg.append(s("rect", { x: 3.5, y: 3.5, width: 53, height: 83, rx: 5, fill: `url(#una-pat-${card.color})` }));
  if (card.wild || !info) {
    // four colored quarters inside the oval: every color at once
    const g = s("g", { "clip-path": "url(#una-oval)" });
    if (card.wild) {
      g.append(s("rect", { x: 0, y: 0, width: 30, height: 45, fill: COLORS.R.fill }));
      g.append(s("rect", { x: 30, y: 0, width: 30, height: 45, fill: COLORS.B.fill }));
      g.append(s("rect", { x: 0, y: 45, width: 30, height: 45, fill: COLORS.Y.fill }));
      g.append(s("rect", { x: 30, y: 45, width: 30, height: 45, fill: COLORS.G.fill }));
    } else {
      g.append(s("rect", { x: 0, y: 0, width: 60, height: 90, fill: "#4a4a55" }));
    }
    svg.append(g);
    svg.append(s("ellipse", { cx: 30, cy: 45, rx: 20, ry: 31, transform: "rotate(25 30 45)", fill: "none",
      stroke: "#fff", "stroke-width": 2 }));
    svg.append(glyph(card, "#fff", "#000"));
  } else {
    svg.append(s("ellipse", { cx: 30, cy: 45, rx: 20, ry: 31, transform: "rotate(25 30 45)", fill: "#fff" }));
    svg.append(glyph(card, ink));
  }
  const corner = cornerLabel(card);
  const cornerText = (x, y, rotate) => {
    const t = text(corner, "#fff", { size: corner.length > 2 ? 8 : 11, x, y, stroke: "#0009" });
    if (rotate) t.setAttribute("transform", `rotate(180 ${x} ${y})`);
    return t;
  };
  svg.append(cornerText(12, 12, false), cornerText(48, 78, true));
  if (info) {
    svg.append(shapeEl(info.shape, 48, 12, 4.5, { fill: "#fff", stroke: "#0008", "stroke-width": 0.8 }));
    svg.append(shapeEl(info.shape, 12, 78, 4.5, { fill: "#fff", stroke: "#0008", "stroke-width": 0.8 }));
  }
  return svg;
}

/** The back of a card (the draw pile, other players' hands). */
export function cardBack(opts = {}) {
  const svg = s("svg", { viewBox: "0 0 60 90", class: ["card-svg", "card-back", opts.className],
    role: "img", "aria-label": opts.label || "card" });
  svg.append(s("rect", { x: 0.5, y: 0.5, width: 59, height: 89, rx: 7, fill: "#fdfdfb", stroke: "#0004" }));
  svg.append(s("rect", { x: 3.5, y: 3.5, width: 53, height: 83, rx: 5, fill: BLACK }));
  svg.append(s("rect", { x: 3.5, y: 3.5, width: 53, height: 83, rx: 5, fill: "url(#una-pat-back)" }));
  svg.append(s("ellipse", { cx: 30, cy: 45, rx: 20, ry: 31, transform: "rotate(25 30 45)", fill: COLORS.R.fill }));
  svg.append(text("UNA", COLORS.Y.fill, { size: 15, stroke: "#000", width: 34 }));
  return svg;
}

/** The shared <defs>: color patterns and the oval clip, once per page. */
export function installDefs() {
  if (document.getElementById("una-defs")) return;
  const w = "#ffffff";
  const defs = s("defs", {},
    s("pattern", { id: "una-pat-R", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      s("rect", { x: 0, y: 0, width: 3, height: 8, fill: w, "fill-opacity": 0.22 })),
    s("pattern", { id: "una-pat-Y", width: 7, height: 7, patternUnits: "userSpaceOnUse" },
      s("circle", { cx: 3.5, cy: 3.5, r: 1.6, fill: w, "fill-opacity": 0.45 })),
    s("pattern", { id: "una-pat-G", width: 10, height: 10, patternUnits: "userSpaceOnUse" },
      s("rect", { x: 0, y: 0, width: 5, height: 5, fill: w, "fill-opacity": 0.18 }),
      s("rect", { x: 5, y: 5, width: 5, height: 5, fill: w, "fill-opacity": 0.18 })),
    s("pattern", { id: "una-pat-B", width: 12, height: 8, patternUnits: "userSpaceOnUse" },
      s("path", { d: "M0 4 Q3 0 6 4 T12 4", fill: "none", stroke: w, "stroke-opacity": 0.3, "stroke-width": 1.4 })),
    s("pattern", { id: "una-pat-back", width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      s("rect", { x: 0, y: 0, width: 1, height: 6, fill: w, "fill-opacity": 0.12 })),
    s("clipPath", { id: "una-oval", clipPathUnits: "userSpaceOnUse" },
      s("ellipse", { cx: 30, cy: 45, rx: 20, ry: 31, transform: "rotate(25 30 45)" })),
  );
  const holder = s("svg", { id: "una-defs", width: 0, height: 0, "aria-hidden": "true",
    style: { position: "absolute", width: "0", height: "0", overflow: "hidden" } }, defs);
  document.body.prepend(holder);
}
