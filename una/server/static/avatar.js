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

/** The icon of a seat ({name, player_id, icon, bot}) or a player ({id, name, icon}). */
export function avatar(who, size = 40) {
  if (typeof who.icon === "string" && who.icon) {
    const img = h("img", { class: "avatar avatar-img", width: size, height: size, alt: String(who.name || ""),
      src: `/icons/${encodeURIComponent(who.icon)}.png` });
    img.addEventListener("error", () => img.replaceWith(generatedAvatar(who.name, { size })), { once: true });
    return img;
  }
  return generatedAvatar(who.name, { bot: !!who.bot, size });
}
