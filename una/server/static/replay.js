// Replays: a finished game's record (/games/{id}.json), stepped through move by move.
// The client holds no rules, so it cannot rebuild hands from the seed itself: when the
// server offers the views after each move (/games/{id}/views?seat=N) the table is drawn as
// it was; otherwise the replay shows the moves and what they tell (the last card played,
// the color named, who played and drew how often in this hand).

import { cardSvg, colorBadge } from "./cards.js";
import { h, replace } from "./dom.js";
import { icon } from "./icons.js";
import { cardName, colorName, t } from "./i18n.js";
import { eventText } from "./messages.js";
import { rulesSummary } from "./rules.js";
import { parseAction, TableView } from "./table.js";

function describe(code, players) {
  const a = parseAction(code);
  const name = (seat) => players[seat] ?? `#${seat}`;
  switch (a.kind) {
    case "play": {
      let text = a.color ? t("action.playcolor", { card: cardName(a.card), color: colorName(a.color) })
        : t("action.play", { card: cardName(a.card) });
      if (a.targets.length) text += ` ${t("action.targets", { names: a.targets.map(name).join(", ") })}`;
      if (a.uno) text += ` ${t("action.uno")}`;
      return text;
    }
    case "draw": return t("action.draw");
    case "pass": return t("action.pass");
    case "color": return t("action.color", { color: colorName(a.color) });
    case "challenge": return t("action.challenge");
    case "uno": return t("action.callsuno");
    case "catch": return t("action.catch", { name: name(a.targets[0]) });
    case "deal": return t("action.deal");
    case "endhand": return t("action.endhand");
    case "endgame": return t("action.endgame");
    default: return code;
  }
}

const STUB_APP = {
  player: null,
  act() {},
  send() { return false; },
  leave() {},
  toast() {},
  startGame() {},
};

export class ReplayView {
  constructor(app, id) {
    this.app = app;
    this.id = String(id).replace(/[^0-9]/g, "");
    this.record = null;
    this.views = null; // from the server, when it offers them
    this.events = null;
    this.seat = "";
    this.step = 0;
    this.playing = null;
    this.error = null;
    this.table = null;
    this.el = h("section", { class: "replay" });
  }

  get players() {
    const p = this.record?.players;
    if (Array.isArray(p)) return p;
    return [...Array(Number(p) || 0).keys()].map((i) => `#${i}`);
  }

  // A private table's records are for its players: they prove it with their token.
  auth() {
    return this.app.authHeaders?.() ?? {};
  }

  get total() {
    return this.record ? this.record.actions.length : 0;
  }

  async load() {
    this.render();
    try {
      const response = await fetch(`/games/${this.id}.json`, { headers: this.auth() });
      const data = await response.json().catch(() => ({}));
      if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
      if (!Array.isArray(data.actions)) throw new Error("no actions in the record");
      this.record = data;
    } catch (error) {
      this.error = error.message;
      this.render();
      return;
    }
    await this.loadViews();
    this.render();
  }

  async loadViews() {
    const query = this.seat === "" ? "" : `?seat=${encodeURIComponent(this.seat)}`;
    try {
      const response = await fetch(`/games/${this.id}/views${query}`, { headers: this.auth() });
      if (!response.ok) throw new Error(String(response.status));
      const data = await response.json();
      if (!Array.isArray(data.views) || data.views.length !== this.total + 1) throw new Error("bad views");
      this.views = data.views;
      this.events = Array.isArray(data.events) ? data.events : null;
      this.people = Array.isArray(data.seats) ? data.seats : [];
    } catch {
      this.views = null;
      this.events = null;
    }
  }

  go(step) {
    const previous = this.step;
    this.step = Math.max(0, Math.min(this.total, step));
    if (this.step >= this.total) this.pause();
    this.renderStep(previous);
  }

  play() {
    if (this.playing) return;
    if (this.step >= this.total) this.step = 0;
    this.playing = setInterval(() => this.go(this.step + 1), 700);
    this.renderControls();
  }

  pause() {
    clearInterval(this.playing);
    this.playing = null;
    this.renderControls();
  }

  onKey(event) {
    const moves = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
    if (event.key in moves) {
      event.preventDefault();
      const delta = moves[event.key];
      this.go(Number.isFinite(delta) ? this.step + delta : delta > 0 ? this.total : 0);
    } else if (event.key === " ") {
      event.preventDefault();
      if (this.playing) this.pause();
      else this.play();
    }
  }

  // ------------------------------------------------------------------------------ render

  render() {
    const back = h("a", { class: "button small", href: "/" }, t("replay.back"));
    if (this.error) {
      replace(this.el, h("div", { class: "panel replay-error" },
        h("h1", {}, t("replay.title", { id: this.id })),
        h("p", { role: "alert", class: "problem" }, t("replay.error", { error: this.error })), back));
      return;
    }
    if (!this.record) {
      replace(this.el, h("div", { class: "panel" }, h("p", {}, t("replay.loading"))));
      return;
    }
    const r = this.record;
    const rulesText = rulesSummary(r.rules);
    this.controlsEl = h("div", { class: "replay-controls" });
    this.stageEl = h("div", { class: "replay-stage" });
    this.listEl = h("ol", { class: "replay-actions", start: 0 });
    replace(this.el,
      h("div", { class: "replay-head" },
        h("div", {},
          h("h1", {}, t("replay.title", { id: this.id })),
          h("p", { class: "muted" }, `${this.players.join(", ")} · ${rulesText}`)),
        back),
      this.controlsEl,
      h("div", { class: "replay-body" }, this.stageEl,
        h("div", { class: "panel replay-list" }, h("h2", {}, t("replay.actions")), this.listEl)));
    replace(this.listEl,
      h("li", { class: "replay-action", dataset: { step: "0" }, onclick: () => this.go(0) }, t("replay.start")),
      r.actions.map(([seat, code], i) => h("li", { class: "replay-action", dataset: { step: String(i + 1) }, onclick: () => this.go(i + 1) },
        h("b", {}, this.players[seat] ?? `#${seat}`), " ", describe(code, this.players))));
    this.dropTable();
    this.renderStep(null);
  }

  dropTable() {
    this.table?.destroy();
    this.table = null;
  }

  renderControls() {
    if (!this.controlsEl) return;
    const button = (label, cls, onclick, text) => h("button", { class: ["small", cls], "aria-label": label, title: label, onclick }, text);
    const range = h("input", { type: "range", class: "replay-range", min: 0, max: this.total, value: this.step,
      "aria-label": t("replay.step", { k: this.step, n: this.total }), oninput: (event) => this.go(Number(event.target.value)) });
    const seatSelect = this.views || this.seat !== "" ? h("label", { class: "replay-seat" }, t("replay.seat"), " ",
      h("select", { onchange: async (event) => { this.seat = event.target.value; await this.loadViews(); this.dropTable(); this.renderStep(null); } },
        h("option", { value: "", selected: this.seat === "" }, t("replay.spectator")),
        this.players.map((name, i) => h("option", { value: String(i), selected: this.seat === String(i) }, name)))) : null;
    replace(this.controlsEl,
      button(t("replay.first"), "first", () => this.go(0), icon("first")),
      button(t("replay.prev"), "prev", () => this.go(this.step - 1), icon("prev")),
      this.playing ? button(t("replay.pause"), "pause", () => this.pause(), icon("pause")) : button(t("replay.play"), "play", () => this.play(), icon("play")),
      button(t("replay.next"), "next", () => this.go(this.step + 1), icon("next")),
      button(t("replay.last"), "last", () => this.go(this.total), icon("last")),
      range,
      h("span", { class: "replay-step", "aria-live": "polite" }, t("replay.step", { k: this.step, n: this.total })),
      seatSelect);
  }

  renderStep(previous) {
    this.renderControls();
    for (const item of this.listEl.querySelectorAll(".replay-action")) {
      const current = Number(item.dataset.step) === this.step;
      item.classList.toggle("current", current);
      if (current) item.setAttribute("aria-current", "step");
      else item.removeAttribute("aria-current");
    }
    this.listEl.querySelector(".current")?.scrollIntoView({ block: "nearest" });
    if (this.views) this.renderView(previous);
    else this.renderDerived();
  }

  renderView(previous) {
    const view = this.views[this.step];
    const state = (v, k) => ({
      table: {
        code: this.id, name: t("replay.title", { id: this.id }), preset: "", rules: this.record.rules, status: "over", timer: null,
        host_id: null, spectator_names: [],
        // the players' icons: who played each seat (a computer's seat has nobody)
        seats_detail: this.players.map((name, i) => {
          const who = this.people?.[i] || null;
          return { seat: i, name, game_seat: i, player_id: who ? who.player_id : null, icon: who?.icon || null,
            bot: who || !this.people?.some(Boolean) ? null : "computer", connected: true };
        }),
      },
      you: { seat: v.seat, game_seat: v.seat },
      version: k,
      view: { ...v, legal: [] },
    });
    if (!this.table) {
      this.table = new TableView(STUB_APP);
      this.table.el.classList.add("readonly");
      replace(this.stageEl, this.table.el, h("ul", { class: "replay-events" }));
    }
    const prev = previous !== null && previous !== undefined && this.views[previous] ? state(this.views[previous], previous) : null;
    this.table.update(state(view, this.step), prev && Math.abs(previous - this.step) === 1 ? prev : null);
    const lines = this.events && this.step > 0 ? this.events[this.step - 1] || [] : [];
    const names = this.players;
    replace(this.stageEl.querySelector(".replay-events"), lines.map((event) => h("li", {}, eventText(event, names))));
  }

  renderDerived() {
    this.dropTable();
    const actions = this.record.actions.slice(0, this.step);
    let hand = 1;
    let last = null;
    let counts = this.players.map(() => ({ plays: 0, draws: 0 }));
    for (const [seat, code] of actions) {
      const a = parseAction(code);
      if (a.kind === "deal") {
        hand += 1;
        last = null;
        counts = this.players.map(() => ({ plays: 0, draws: 0 }));
      } else if (a.kind === "play") {
        last = { seat, card: a.card, color: a.color };
        if (counts[seat]) counts[seat].plays += 1;
      } else if (a.kind === "color" && last) {
        last = { ...last, color: a.color };
      } else if (a.kind === "draw" && counts[seat]) {
        counts[seat].draws += 1;
      }
    }
    const current = this.step > 0 ? this.record.actions[this.step - 1] : null;
    const dealer = this.players[this.record.dealer ?? 0];
    replace(this.stageEl, h("div", { class: "panel replay-derived" },
      h("h2", {}, t("replay.hand", { n: hand }), hand === 1 && dealer ? h("span", { class: "muted" }, ` · ${t("replay.dealer", { name: dealer })}`) : null),
      h("p", { class: "replay-current" }, current
        ? [h("b", {}, this.players[current[0]] ?? `#${current[0]}`), " ", describe(current[1], this.players)]
        : t("replay.start")),
      h("div", { class: "replay-last" },
        last ? [
          h("div", { class: "replay-card" }, cardSvg(last.card, { label: cardName(last.card) })),
          h("div", {},
            h("p", {}, t("replay.lastplayed"), ": ", h("b", {}, cardName(last.card)), " (", this.players[last.seat] ?? "", ")"),
            last.color ? h("p", {}, colorBadge(last.color, 18), " ", t("replay.named"), ": ", colorName(last.color)) : null),
        ] : h("p", { class: "muted" }, t("replay.none"))),
      h("h3", {}, t("replay.counts")),
      h("table", { class: "scores" },
        h("tbody", {}, this.players.map((name, i) => h("tr", {},
          h("td", {}, name),
          h("td", { class: "num" }, `${t("replay.plays")}: ${counts[i].plays}`),
          h("td", { class: "num" }, `${t("replay.draws")}: ${counts[i].draws}`))))),
      h("p", { class: "muted small-print" }, t("replay.noviews"))));
  }
}
