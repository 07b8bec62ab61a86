// The rules' own words, from the server (GET /api/rules: the one source): presets, switches
// with their labels and value words, computer players, and every card's name, in English and
// Russian. The client holds no copy of the engine's tables: until the answer comes, codes
// stand in for names.

let data = { presets: {}, switches: {}, bots: {}, cards: {}, faces: {}, labels: {} };
let lang = "en";
let asked = null;
const waiting = [];

/** Fetch the rules once; ``onLoaded`` is called when they are here (at once if they are). */
export function fetchRules(onLoaded) {
  if (onLoaded) waiting.push(onLoaded);
  if (!asked) {
    asked = fetch("/api/rules", { headers: { Accept: "application/json" } })
      .then((response) => (response.ok ? response.json() : null))
      .then((body) => {
        if (body && body.presets && body.switches) data = body;
        for (const done of waiting.splice(0)) done();
      })
      .catch(() => { asked = null; });
  } else if (data.labels.en && onLoaded) {
    waiting.pop();
    onLoaded();
  }
  return asked;
}

export function rules() {
  return data;
}

export function setRulesLang(value) {
  lang = value;
}

function words() {
  return data.labels[lang] || data.labels.en || {};
}

/** A card's name in the current language: "red 5", "красная 5" (its code until loaded). */
export function cardLabel(code) {
  return words().cards?.[code] ?? data.labels.en?.cards?.[code] ?? String(code);
}

/** What drawing a card needs, from the engine's cards: {color ("R".."B" or null), symbol,
 * wild, parent (the face it matches like: Kobe's "8"), or null} (null until loaded). */
export function cardFace(code) {
  return data.faces?.[code] ?? null;
}

/** The word on a card's face in the current language (Nagasaki: "NAGA", «НАГА»), or null. */
export function faceWord(code) {
  return words().face_words?.[code] ?? data.labels.en?.face_words?.[code] ?? null;
}

export function presetTitle(name) {
  return words().presets?.[name] ?? data.presets[name]?.title ?? name;
}

export function switchLabel(name) {
  return words().switches?.[name]?.label ?? name;
}

export function switchHelp(name) {
  return words().switches?.[name]?.description ?? data.switches[name]?.description ?? "";
}

/** A switch's value in words ("on", "до последнего"); numbers and tables as they are. */
export function switchValue(name, value) {
  if (typeof value === "boolean" || typeof value === "string") {
    return words().values?.[String(value)] ?? String(value);
  }
  return Array.isArray(value) ? value.join("–") : typeof value === "object" && value ? JSON.stringify(value) : String(value);
}

/** What a special card does, in the current language ("" for a classic card). */
export function cardHelp(code, symbol) {
  if (lang === "ru") {
    const help = data.labels.ru?.card_help?.[symbol];
    if (help) return help;
  }
  return data.cards?.[code]?.description || "";
}

/** A table's rules as people read them: the preset's title, then each switch changed from
 * it, "label: value" (``rules``: a preset name or {preset, switch: value}). */
export function rulesSummary(rulesValue) {
  if (typeof rulesValue === "string" || !rulesValue) return presetTitle(rulesValue || "standard");
  const preset = data.presets[rulesValue.preset]?.switches || {};
  const changed = Object.entries(rulesValue)
    .filter(([name, value]) => name !== "preset" && JSON.stringify(preset[name]) !== JSON.stringify(value))
    .map(([name, value]) => `${switchLabel(name)}: ${switchValue(name, value)}`);
  return [presetTitle(rulesValue.preset), ...changed].join(" · ");
}
