// The lobby: open tables (join or watch), join by code, open a replay, create a table.

import { h, replace } from "./dom.js";
import { getLang, t, tableName } from "./i18n.js";
import { fetchRules, presetTitle, rules, rulesSummary, switchHelp, switchLabel, switchValue } from "./rules.js";

export { fetchRules, presetTitle, rules };

/**
 * The lobby the server sent: a page ("lobby"), then that page's changes ("lobby_table": a
 * table's new summary, or a new table for the top of the first page; "lobby_gone": a table
 * closed). Kept in app.lobby (the tables shown) and app.lobbyPage.
 */
export function applyLobby(app, m) {
  const info = app.lobbyPage;
  if (m.type === "lobby") {
    app.lobby = m.tables || [];
    app.lobbyPage = { page: m.page ?? 0, pages: m.pages ?? 1, total: m.total ?? app.lobby.length,
      pageSize: m.page_size ?? 50 };
    return;
  }
  if (m.type === "lobby_gone") {
    const before = app.lobby.length;
    app.lobby = app.lobby.filter((table) => table.code !== m.code);
    if (app.lobby.length < before) info.total = Math.max(0, info.total - 1);
  } else {
    const at = app.lobby.findIndex((table) => table.code === m.table.code);
    if (at >= 0) {
      app.lobby[at] = m.table;
    } else if (m.new) {
      app.lobby.unshift(m.table);
      app.lobby.length = Math.min(app.lobby.length, info.pageSize);
      info.total += 1;
    }
  }
  info.pages = Math.max(1, Math.ceil(info.total / info.pageSize));
}

// switches with a control of their own in the form, or none at all
const SKIP_SWITCHES = new Set(["target", "players", "cards"]);

export class LobbyView {
  constructor(app) {
    this.app = app;
    this.el = h("section", { class: "lobby" });
    this.form = null;
    this.values = null; // the create form's values, kept across re-renders
    fetchRules(() => this.render());
  }

  render() {
    // A full render rebuilds the form too; keep the caret where the user was typing.
    const active = document.activeElement;
    const focusId = active && this.el.contains(active) ? active.id : null;
    const caret = focusId && typeof active.selectionStart === "number" ? [active.selectionStart, active.selectionEnd] : null;
    this.tablesSlot = h("div", { class: "lobby-slot" });
    this.gamesSlot = h("div", { class: "lobby-slot" });
    replace(this.el,
      h("div", { class: "lobby-grid" },
        h("div", { class: "lobby-col" }, this.tablesSlot, this.codePanel(), this.gamesSlot),
        this.createPanel()));
    this.renderLists();
    const again = focusId && document.getElementById(focusId);
    if (again) {
      again.focus();
      if (caret) try { again.setSelectionRange(...caret); } catch { /* number inputs have no caret */ }
    }
  }

  /** Redraw only the lists (open tables, my games): lobby news must not steal a field being typed in. */
  renderLists() {
    if (!this.tablesSlot) return this.render();
    const scroll = this.el.querySelector(".lobby-tables-list")?.scrollTop || 0;
    replace(this.tablesSlot, this.tablesPanel());
    replace(this.gamesSlot, this.gamesPanel());
    const list = this.el.querySelector(".lobby-tables-list");
    if (list) list.scrollTop = scroll;
  }

  // ------------------------------------------------------------------------- open tables

  tablesPanel() {
    const tables = this.app.lobby || [];
    const rows = tables.map((table) => {
      const facts = [
        presetTitle(table.preset),
        t("lobby.seats", { taken: table.taken, seats: table.seats }),
        table.bots ? t("lobby.bots", { n: table.bots }) : null,
        table.spectators ? t("lobby.spectators", { n: table.spectators }) : null,
        table.timer ? t("lobby.timer", { n: table.timer }) : t("lobby.notimer"),
        table.public ? null : t("lobby.private"),
      ].filter(Boolean);
      const canJoin = table.status !== "playing" && table.taken < table.seats;
      return h("li", { class: "lobby-table", dataset: { code: table.code } },
        h("div", { class: "lobby-table-head" },
          h("span", { class: "lobby-table-name" }, tableName(table)),
          h("span", { class: "code" }, table.code),
          h("span", { class: ["status", `status-${table.status}`] }, t(`lobby.status.${table.status}`))),
        h("div", { class: "lobby-table-facts" }, facts.join(" · ")),
        typeof table.rules === "object" && Object.keys(table.rules).length > 1
          ? h("div", { class: "lobby-table-rules" }, rulesSummary(table.rules)) : null,
        h("div", { class: "lobby-table-actions" },
          canJoin ? h("button", { class: "primary join", onclick: () => this.app.send({ type: "join", table: table.code }) }, t("lobby.join")) : null,
          h("button", { class: "watch", onclick: () => this.app.send({ type: "watch", table: table.code }) }, t("lobby.watch"))));
    });
    const { page, pages, total } = this.app.lobbyPage;
    const go = (to) => this.app.send({ type: "lobby", page: to });
    const pager = pages > 1
      ? h("div", { class: "lobby-pager row" },
        h("button", { class: "small lobby-prev", disabled: page <= 0 || null, onclick: () => go(page - 1) }, t("lobby.prev")),
        h("span", { class: "lobby-page muted" }, t("lobby.page", { page: page + 1, pages, total })),
        h("button", { class: "small lobby-next", disabled: page >= pages - 1 || null, onclick: () => go(page + 1) }, t("lobby.next")))
      : null;
    return h("div", { class: "panel lobby-tables" },
      h("div", { class: "panel-head" },
        h("h2", {}, t("lobby.tables")),
        h("button", { class: "small", onclick: () => go(page) }, t("lobby.refresh"))),
      rows.length ? h("ul", { class: "lobby-tables-list" }, rows) : h("p", { class: "muted" }, t("lobby.none")),
      pager);
  }

  codePanel() {
    const code = h("input", { id: "join-code", class: "code-input", maxlength: 16, placeholder: t("lobby.codeph"),
      autocomplete: "off", "aria-label": t("lobby.code") });
    const join = (watch) => {
      const value = code.value.trim().toUpperCase();
      if (value) this.app.send({ type: watch ? "watch" : "join", table: value });
    };
    const replay = h("input", { id: "replay-id", inputmode: "numeric", placeholder: t("lobby.replayph"),
      "aria-label": t("lobby.replay"), maxlength: 12 });
    return h("div", { class: "panel lobby-code" },
      h("h2", {}, t("lobby.code")),
      h("form", { class: "row", onsubmit: (event) => { event.preventDefault(); join(false); } },
        code,
        h("button", { type: "submit", class: "primary", id: "join-go" }, t("lobby.join")),
        h("button", { type: "button", id: "watch-code", onclick: () => join(true) }, t("lobby.watch"))),
      h("h2", {}, t("lobby.replay")),
      h("form", { class: "row", onsubmit: (event) => {
        event.preventDefault();
        const id = replay.value.trim();
        if (/^\d+$/.test(id)) location.href = `/?replay=${id}`;
      } }, replay, h("button", { type: "submit" }, t("lobby.open"))));
  }

  /** The finished games this player took part in (the server's "games"), with replays. */
  gamesPanel() {
    const games = this.app.myGames;
    const scoring = (game) => game.result?.scores;
    const rows = (games || []).map((game) => {
      const when = new Date(game.finished_at);
      const scores = scoring(game);
      const names = game.players.map((name, i) => (scores ? `${name} ${scores[i]}` : name)).join(", ");
      const winner = game.result?.winner;
      const outcome = winner === undefined || winner === null ? t("games.ended")
        : winner === game.seat ? t("games.won") : t("games.lost", { name: game.players[winner] ?? "?" });
      return h("li", { class: "my-game", dataset: { id: String(game.id) } },
        h("a", { class: "replay-link", href: `/?replay=${encodeURIComponent(game.id)}` }, t("games.replay", { id: game.id })),
        " ", h("span", { class: "muted" }, `${when.toLocaleDateString(getLang())} · ${outcome} · ${names}`));
    });
    return h("div", { class: "panel lobby-games" },
      h("h2", {}, t("games.title")),
      games === undefined || games === null ? h("p", { class: "muted" }, t("games.loading"))
        : rows.length ? h("ul", { class: "my-games" }, rows) : h("p", { class: "muted" }, t("games.none")));
  }

  // -------------------------------------------------------------------------- create form

  defaults(preset) {
    const info = rules().presets[preset] || rules().presets.standard;
    const sw = info.switches || {};
    return {
      name: "", preset, seats: Math.min(4, info.players?.[1] ?? 10), bots: 2, bot: "heuristic",
      timer: "", public: true, target: sw.target ?? 500, switches: { ...sw },
    };
  }

  createPanel() {
    // The form is built from GET /api/rules; until it answers there is nothing to offer.
    if (!rules().presets.standard) {
      return h("div", { class: "panel lobby-create" },
        h("h2", {}, t("create.title")), h("p", { class: "muted" }, t("games.loading")));
    }
    if (!this.values) this.values = this.defaults("standard");
    const v = this.values;
    const preset = rules().presets[v.preset] || rules().presets.standard;
    const [low, high] = preset.players || [2, 10];
    const field = (id, label, control, hint) => h("div", { class: "field" },
      h("label", { for: id }, label), control, hint ? h("div", { class: "hint" }, hint) : null);

    const presetSelect = h("select", { id: "create-preset", name: "preset", onchange: (event) => {
      const name = event.target.value;
      if (name === v.preset) return;
      const kept = { name: v.name, bots: v.bots, bot: v.bot, timer: v.timer, public: v.public };
      this.values = { ...this.defaults(name), ...kept };
      const info = rules().presets[name];
      const [lo, hi] = info.players || [2, 10];
      this.values.seats = Math.max(lo, Math.min(hi, v.seats));
      this.values.bots = Math.min(this.values.bots, this.values.seats - 1);
      this.render();
    } }, Object.keys(rules().presets).map((name) =>
      h("option", { value: name, selected: name === v.preset }, presetTitle(name))));

    const number = (id, key, min, max) => h("input", { id, name: key, type: "number", min, max, value: v[key],
      oninput: (event) => { v[key] = Number(event.target.value); } });

    const botSelect = h("select", { id: "create-bot", name: "bot", onchange: (event) => { v.bot = event.target.value; } },
      this.botChoices().map(([value, label]) => h("option", { value, selected: value === v.bot }, label)));
    const timerSelect = h("select", { id: "create-timer", name: "timer", onchange: (event) => { v.timer = event.target.value; } },
      ["", "15", "30", "60", "120", "300"].map((value) => h("option", { value, selected: String(v.timer) === value },
        value ? t("create.timer.s", { n: value }) : t("create.timer.none"))));

    const switchRows = Object.entries(rules().switches)
      .filter(([name]) => !SKIP_SWITCHES.has(name))
      .map(([name, info]) => this.switchRow(name, info, v));

    const form = h("form", { class: "panel lobby-create", onsubmit: (event) => { event.preventDefault(); this.create(); } },
      h("h2", {}, t("create.title")),
      field("create-name", t("create.name"), h("input", { id: "create-name", name: "name", maxlength: 24,
        placeholder: t("create.nameph"), value: v.name, oninput: (event) => { v.name = event.target.value; } })),
      field("create-preset", t("create.preset"), presetSelect,
        getLang() === "ru" ? null : preset.description),
      h("div", { class: "field-row" },
        field("create-seats", t("create.seats"), number("create-seats", "seats", low, high)),
        field("create-bots", t("create.bots"), number("create-bots", "bots", 0, high - 1)),
        field("create-target", t("create.target"), number("create-target", "target", 1, 100000))),
      h("div", { class: "field-row" },
        field("create-bot", t("create.bot"), botSelect),
        field("create-timer", t("create.timer"), timerSelect)),
      h("label", { class: "check" }, h("input", { type: "checkbox", id: "create-public", checked: v.public,
        onchange: (event) => { v.public = event.target.checked; } }), t("create.public")),
      h("details", { class: "switches", open: this.switchesOpen || null,
        ontoggle: (event) => { this.switchesOpen = event.target.open; } },
        h("summary", {}, t("create.switches")),
        h("p", { class: "hint" }, t("create.switches.hint")),
        h("div", { class: "switch-list" }, switchRows)),
      h("button", { type: "submit", class: "primary big", id: "create-go" }, t("create.go")));
    return form;
  }

  botChoices() {
    const out = [];
    for (const [name, info] of Object.entries(rules().bots || {})) {
      out.push([name, t(`bot.${name}`)]);
      for (const level of info.levels || []) {
        // "strong" means its normal level; named levels are translated, numbers shown.
        if (level === "normal") continue;
        const n = typeof level === "string" ? t(`bot.level.${level}`) : level;
        out.push([`${name}:${level}`, t("bot.level", { name: t(`bot.${name}`), n })]);
      }
    }
    return out;
  }

  switchRow(name, info, v) {
    const id = `sw-${name}`;
    const value = v.switches[name] ?? info.default;
    let control;
    if (typeof info.default === "boolean") {
      control = h("input", { type: "checkbox", id, name, checked: !!value,
        onchange: (event) => { v.switches[name] = event.target.checked; } });
      return h("div", { class: "switch" },
        h("label", { class: "check", for: id }, control, h("span", { class: "switch-label", title: name }, switchLabel(name))),
        h("div", { class: "hint" }, switchHelp(name)));
    }
    control = h("select", { id, name, onchange: (event) => { v.switches[name] = event.target.value; } },
      (info.choices || [value]).map((choice) => h("option", { value: choice, selected: choice === value }, switchValue(name, choice))));
    return h("div", { class: "switch" },
      h("label", { for: id }, h("span", { class: "switch-label", title: name }, switchLabel(name))), control,
      h("div", { class: "hint" }, switchHelp(name)));
  }

  create() {
    const v = this.values;
    const preset = rules().presets[v.preset];
    const defaults = preset.switches || {};
    const rulesObj = { preset: v.preset };
    for (const [name, value] of Object.entries(v.switches)) {
      if (SKIP_SWITCHES.has(name)) continue;
      if (JSON.stringify(value) !== JSON.stringify(defaults[name])) rulesObj[name] = value;
    }
    if (Number(v.target) !== defaults.target) rulesObj.target = Number(v.target);
    const message = {
      type: "create",
      rules: Object.keys(rulesObj).length > 1 ? rulesObj : v.preset,
      seats: Number(v.seats),
      bots: Number(v.bots),
      bot: v.bot,
      timer: v.timer ? Number(v.timer) : null,
      public: !!v.public,
    };
    if (v.name.trim()) message.name = v.name.trim();
    this.app.send(message);
  }
}
