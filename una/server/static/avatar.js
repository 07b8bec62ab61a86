// Player icons: the uploaded one (/icons/{key}.png, the key the server gives in `icon`; a
// new key with every new icon) when the player has one, else an avatar generated from the
// name (a colored disc with initials; a robot face for computers).

import { h, s } from "./dom.js";

function hash(text) {
  let value = 2166136261;
  for (const ch of String(text)) {
    value ^= ch.codePointAt(0);
    value = Math.imul(value, 16777619) >>> 0;
  }
  return value;
}

function initials(name) {
  const words = String(name || "?").trim().split(/[\s_\-.]+/).filter(Boolean);
  const letters = words.length > 1 ? [...words[0]][0] + [...words[1]][0] : [...(words[0] || "?")].slice(0, 2).join("");
  return letters.toUpperCase();
}

/** A generated avatar as SVG. */
export function generatedAvatar(name, { bot = false, size = 40 } = {}) {
  const hue = hash(name) % 360;
  const svg = s("svg", { viewBox: "0 0 40 40", width: size, height: size, class: "avatar avatar-gen", role: "img",
    "aria-label": String(name || "") });
  svg.append(s("circle", { cx: 20, cy: 20, r: 20, fill: `hsl(${hue} 55% 45%)` }));
  if (bot) {
    svg.append(s("rect", { x: 10, y: 13, width: 20, height: 16, rx: 4, fill: "#fff" }));
    svg.append(s("circle", { cx: 16, cy: 20, r: 2.4, fill: `hsl(${hue} 55% 35%)` }));
    svg.append(s("circle", { cx: 24, cy: 20, r: 2.4, fill: `hsl(${hue} 55% 35%)` }));
    svg.append(s("rect", { x: 15, y: 25, width: 10, height: 1.8, fill: `hsl(${hue} 55% 35%)` }));
    svg.append(s("line", { x1: 20, y1: 13, x2: 20, y2: 8, stroke: "#fff", "stroke-width": 2 }));
    svg.append(s("circle", { cx: 20, cy: 7, r: 2, fill: "#fff" }));
  } else {
    svg.append(s("text", { x: 20, y: 21, "text-anchor": "middle", "dominant-baseline": "central", fill: "#fff",
      "font-size": 15, "font-weight": 700, "font-family": "DejaVu Sans, Verdana, sans-serif" }, initials(name)));
  }
  return svg;
}

// The icons that come with the game (the server's BUILTIN_ICONS names them; /reset-icon
// picks one at random for the login): a shape on a colored disc, as 40x40 paths.
export const BUILTIN = {
  star: ["#e0a100", "M20 7l3.8 8 8.7 1-6.4 6 1.7 8.6L20 26.4l-7.8 4.2 1.7-8.6-6.4-6 8.7-1z"],
  moon: ["#4257b2", "M24 8a12 12 0 1 0 8 20A10 10 0 0 1 24 8z"],
  sun: ["#e8622c", "M20 13a7 7 0 1 1 0 14a7 7 0 1 1 0-14zM20 5v5M20 30v5M5 20h5M30 20h5M9.4 9.4l3.5 3.5M27.1 27.1l3.5 3.5M9.4 30.6l3.5-3.5M27.1 12.9l3.5-3.5"],
  heart: ["#c8283c", "M20 31S8 23.5 8 15.5A5.8 5.8 0 0 1 20 13a5.8 5.8 0 0 1 12 2.5C32 23.5 20 31 20 31z"],
  clover: ["#2e8b57", "M20 19a5 5 0 1 1 0-9a5 5 0 1 1 0 9zM19 20a5 5 0 1 1-9 0a5 5 0 1 1 9 0zM21 20a5 5 0 1 1 9 0a5 5 0 1 1-9 0zM20 21a5 5 0 1 1 0 9a5 5 0 1 1 0-9zM20 28v6"],
  crown: ["#8a4fb8", "M9 27l-2-13 7 6 6-9 6 9 7-6-2 13zM9 30h22"],
  anchor: ["#1f7a8c", "M20 9a3 3 0 1 1 0 6a3 3 0 1 1 0-6zM20 15v17M14 19h12M9 24a11 9 0 0 0 22 0"],
  bolt: ["#d4a017", "M23 6l-11 16h7l-3 12 11-16h-7z"],
};

export function builtinAvatar(name, label, size = 40) {
  const [color, path] = BUILTIN[name] || BUILTIN.star;
  const svg = s("svg", { viewBox: "0 0 40 40", width: size, height: size, class: ["avatar", "avatar-builtin"], role: "img",
    "aria-label": String(label || ""), dataset: { builtin: name } });
  svg.append(s("circle", { cx: 20, cy: 20, r: 20, fill: color }));
  svg.append(s("path", { d: path, fill: "#fff", stroke: "#fff", "stroke-width": 1.6, "stroke-linejoin": "round", "stroke-linecap": "round" }));
  return svg;
}

/** The icon of a seat ({name, player_id, icon, bot, builtin_icon}) or a player ({id, name, icon, builtin_icon}). */
export function avatar(who, size = 40) {
  if (who.builtin_icon && !who.icon) return builtinAvatar(who.builtin_icon, who.name, size);
  if (typeof who.icon === "string" && who.icon) {
    const img = h("img", { class: "avatar avatar-img", width: size, height: size, alt: String(who.name || ""),
      src: `/icons/${encodeURIComponent(who.icon)}.png` });
    img.addEventListener("error", () => img.replaceWith(generatedAvatar(who.name, { size })), { once: true });
    return img;
  }
  return generatedAvatar(who.name, { bot: !!who.bot, size });
}
