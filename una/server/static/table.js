// The table: seats around it, the piles, your hand, prompts and buttons. Everything it
// offers comes from view.legal; a click sends the action, and the server judges it.

import { avatar } from "./avatar.js";
import { cardBack, cardSvg, colorBadge, COLOR_CODES, parseCard } from "./cards.js";
import { ChatPanel } from "./chat.js";
import { h, replace, s } from "./dom.js";
import { icon } from "./icons.js";
import { cardName, colorName, t, tableName } from "./i18n.js";
import { cardHelp as helpOf, fetchRules, rules, rulesSummary } from "./rules.js";

/** "play W4 G @1 uno" -> {code, kind: "play", card: "W4", color: "G", targets: [1], uno: true} */
export function parseAction(code) {
  const parts = String(code).trim().split(/\s+/);
  const out = { code, kind: parts[0], card: null, color: null, targets: [], uno: false };
  let rest = parts.slice(1);
  if (out.kind === "play") {
    out.card = rest[0];
    rest = rest.slice(1);
  }
  for (const part of rest) {
    if (part === "uno") out.uno = true;
    else if (part.startsWith("@")) out.targets.push(Number(part.slice(1)));
    else if (COLOR_CODES.includes(part.toUpperCase())) out.color = part.toUpperCase();
  }
  return out;
}

/** What view.legal offers, sorted by kind. */
export function analyse(view) {
  const out = { plays: new Map(), draw: false, pass: false, uno: false, challenge: false, deal: false,
    catches: [], colors: [], unoWithPlay: false };
  for (const code of view?.legal || []) {
    const action = parseAction(code);
    switch (action.kind) {
      case "play":
        if (!out.plays.has(action.card)) out.plays.set(action.card, []);
        out.plays.get(action.card).push(action);
        if (action.uno) out.unoWithPlay = true;
        break;
      case "draw": out.draw = true; break;
      case "pass": out.pass = true; break;
      case "uno": out.uno = true; break;
      case "challenge": out.challenge = true; break;
      case "deal": out.deal = true; break;
      case "catch": out.catches.push(action.targets[0]); break;
      case "color": out.colors.push(action.color); break;
      default: break;
    }
  }
  return out;
}

const unique = (items) => [...new Set(items)];

/** What a special card does (GET /api/rules, in the current language), or "" for a plain one. */
export function cardHelp(code) {
  return helpOf(code, parseCard(code).symbol);
}

/** The score that ends the match, from a table's rules (a preset name or switches). */
function targetOf(rulesValue) {
  if (rulesValue && typeof rulesValue === "object" && rulesValue.target !== undefined) return rulesValue.target;
  const preset = typeof rulesValue === "string" ? rulesValue : rulesValue?.preset;
  return rules().presets[preset || "standard"]?.switches?.target;
}

export function scoringOf(rulesValue, presets) {
  if (rulesValue && typeof rulesValue === "object" && rulesValue.scoring) return rulesValue.scoring;
  const preset = typeof rulesValue === "string" ? rulesValue : rulesValue?.preset;
  return presets?.[preset]?.switches?.scoring || "winner_takes_all";
}

export class TableView {
  constructor(app) {
    this.app = app;
    this.chat = new ChatPanel(app, this);
    this.state = null;
    this.picker = null;
    this.unoArmed = false;
    this.focusIndex = 0;
    this.handRects = new Map();
    this.turnKey = null;
    this.turnStarted = 0;
    this.barEl = h("div", { class: "table-bar" });
    this.seatsEl = h("div", { class: "seats" });
    this.centerEl = h("div", { class: "center" });
    this.overlayEl = h("div", { class: "overlay", hidden: true });
    this.feltEl = h("div", { class: "felt" }, this.seatsEl, this.centerEl, this.overlayEl);
    this.promptEl = h("div", { class: "prompt", "aria-live": "polite" });
    this.actionsEl = h("div", { class: "actions" });
    this.revealedEl = h("div", { class: "revealed" });
    this.handEl = h("div", { class: "hand", role: "group" });
    this.lockEl = h("p", { class: "lock-reason", role: "note", hidden: true });
    this.keysEl = h("p", { class: "keys-hint muted" });
    this.el = h("section", { class: "table-screen" },
      h("div", { class: "table-main" }, this.barEl, this.feltEl, this.promptEl, this.actionsEl,
        this.revealedEl, this.lockEl, this.handEl, this.keysEl),
      this.chat.el);
    this.ticker = setInterval(() => this.tick(), 500);
    // the special cards' descriptions come with the server's rules
    fetchRules(() => { if (this.state) this.update(this.state, this.state); });
    this.onResize = () => this.layoutHand();
    window.addEventListener("resize", this.onResize);
  }

  destroy() {
    clearInterval(this.ticker);
    window.removeEventListener("resize", this.onResize);
  }

  relabel() {
    if (this.state) this.update(this.state, this.state);
    this.chat.relabel();
  }

  get view() {
    return this.state?.view || null;
  }

  get me() {
    return this.view ? this.view.seat : null;
  }

  name(gameSeat) {
    return this.view?.players?.[gameSeat] ?? `#${gameSeat}`;
  }

  detailOf(gameSeat) {
    return (this.state?.table?.seats_detail || []).find((d) => !d.empty && d.game_seat === gameSeat) || null;
  }

  // ----------------------------------------------------------------------------- update

  update(state, prev) {
    const prevView = prev?.view || null;
    this.state = state;
    this.analysis = analyse(state.view);
    const view = state.view;
    const key = view ? `${view.hand_number}:${view.to_act}:${state.version}` : null;
    if (view && key !== this.turnKey && (!prevView || prevView.to_act !== view.to_act || prev.version !== state.version)) {
      this.turnKey = key;
      this.turnStarted = performance.now();
    }
    if (this.picker && !this.pickerStillLegal()) this.picker = null;
    if (!this.analysis.unoWithPlay) this.unoArmed = false;
    this.renderBar();
    this.renderSeats(prevView);
    this.renderCenter(prevView);
    this.renderOverlay();
    this.renderPrompt();
    this.renderActions();
    this.renderRevealed();
    this.renderHand(prevView);
    this.chat.updatePeople(state);
    replace(this.keysEl, view && view.hand ? t("keys.hint") : "");
    this.tick();
  }

  pickerStillLegal() {
    const legal = new Set(this.view?.legal || []);
    return this.picker.options.every((option) => legal.has(option.code));
  }

  refused() {
    this.picker = null;
    if (this.state) this.renderPrompt();
  }

  renderBar() {
    const table = this.state.table;
    const link = `${location.origin}/?table=${encodeURIComponent(table.code)}`;
    const copy = h("button", { class: "small", title: t("table.copy"), onclick: async () => {
      try {
        await navigator.clipboard.writeText(link);
        this.app.toast(t("table.copied"));
      } catch {
        this.app.toast(link);
      }
    } }, icon("link", 16), table.code);
    const chatToggle = h("button", { class: "small chat-toggle", "aria-expanded": this.chat.open ? "true" : "false",
      onclick: () => this.chat.toggle() }, t("table.chat"), this.chat.unread ? h("span", { class: "unread" }, String(this.chat.unread)) : null);
    replace(this.barEl,
      h("div", { class: "table-title" },
        h("h1", { class: "table-name" }, tableName(table)),
        h("span", { class: "rules-text", title: rulesSummary(table.rules) }, rulesSummary(table.rules)),
        h("span", { class: "match-facts" }, [
          this.state?.view ? t("table.handno", { n: this.state.view.hand_number }) : null,
          targetOf(table.rules) !== undefined ? t("table.target", { n: targetOf(table.rules) }) : null,
        ].filter(Boolean).join(" · "))),
      h("div", { class: "table-bar-actions" }, copy, chatToggle,
        h("button", { class: "small danger leave", onclick: () => this.app.leave() }, t("table.leave"))));
  }

  // ------------------------------------------------------------------------------ seats

  seatModels() {
    const state = this.state;
    const view = state.view;
    const details = state.table.seats_detail || [];
    if (view) {
      const n = view.players.length;
      let order = view.seating && view.seating.length === n ? [...view.seating] : [...Array(n).keys()];
      const start = view.seat !== null ? order.indexOf(view.seat) : 0;
      order = [...order.slice(start), ...order.slice(0, start)];
      return order.map((g) => {
        const detail = this.detailOf(g) || {};
        return {
          game: g, name: view.players[g], detail, count: view.hand_counts[g], score: view.scores[g],
          toAct: view.to_act === g, dealer: view.dealer === g, uno: view.uno_called.includes(g),
          catchable: view.catchable.includes(g), out: view.out.indexOf(g), setAside: view.set_aside?.[g] || 0,
          me: view.seat === g, empty: false,
        };
      });
    }
    const mine = state.you.seat;
    let order = details.map((d, i) => i);
    if (mine !== null && mine !== undefined) order = [...order.slice(mine), ...order.slice(0, mine)];
    return order.map((i) => {
      const d = details[i];
      return { table: d.seat, name: d.name, detail: d, empty: !!d.empty, me: d.seat === mine };
    });
  }

  renderSeats() {
    const models = this.seatModels();
    const n = models.length;
    const isHost = this.app.player && this.state.table.host_id === this.app.player.id;
    const seated = this.state.you.seat !== null && this.state.you.seat !== undefined;
    const between = this.state.table.status !== "playing";
    replace(this.seatsEl, models.map((m, i) => {
      const angle = (Math.PI / 2) + (i * 2 * Math.PI) / n;
      const x = 50 + 50 * Math.cos(angle);
      const y = 50 + 50 * Math.sin(angle);
      const style = { "--x": `${x.toFixed(2)}%`, "--y": `${y.toFixed(2)}%` };
      if (m.empty) {
        return h("div", { class: "seat empty", style, dataset: { seat: String(m.table) } },
          h("div", { class: "seat-avatar empty-avatar" }, "+"),
          h("div", { class: "seat-name muted" }, t("table.empty")),
          !seated && between ? h("button", { class: "small primary sit", onclick: () => this.app.send({ type: "sit", seat: m.table }) }, t("table.sit")) : null);
      }
      const d = m.detail || {};
      const badges = [];
      if (m.dealer) badges.push(h("span", { class: "badge dealer", title: t("table.dealer") }, t("table.dealerbadge")));
      if (d.bot) badges.push(h("span", { class: "badge bot" }, t("table.bot")));
      if (d.auto) badges.push(h("span", { class: "badge auto" }, t("table.auto")));
      if (d.player_id && d.connected === false) badges.push(h("span", { class: "badge away" }, t("table.away")));
      if (d.player_id && d.player_id === this.state.table.host_id) badges.push(h("span", { class: "badge host" }, t("table.host")));
      if (m.uno) badges.push(h("span", { class: "badge uno" }, t("table.uno")));
      if (m.out >= 0) badges.push(h("span", { class: "badge out" }, t("table.out", { n: m.out + 1 })));
      if (m.setAside) badges.push(h("span", { class: "badge" }, t("table.setaside", { n: m.setAside })));
      const info = [];
      if (m.count !== undefined) {
        info.push(h("span", { class: "seat-count", title: m.count === 1 ? t("table.card1") : t("table.cards", { n: m.count }) },
          this.miniFan(m.count), h("b", {}, String(m.count))));
      }
      if (m.score !== undefined) info.push(h("span", { class: "seat-score" }, t("table.points", { n: m.score })));
      const kick = isHost && !m.me && d.player_id ? h("button", { class: "tiny kick", title: t("table.kick"),
        "aria-label": `${t("table.kick")} ${m.name}`, onclick: () => this.app.kick(m.name) }, "×") : null;
      const shownName = d.stand_in ? t("seat.standin", { name: m.name }) : m.name;
      return h("div", {
        class: ["seat", m.me && "me", m.toAct && "to-act", m.catchable && "catchable", m.out >= 0 && "is-out"],
        style, dataset: { seat: String(m.game ?? m.table), name: m.name },
        "aria-current": m.toAct ? "true" : null,
      },
        h("div", { class: "seat-avatar" }, avatar({ ...d, name: m.name }, 40), h("span", { class: "timer-badge", hidden: true })),
        h("div", { class: "seat-name", title: shownName }, h("span", { class: "seat-name-text" }, shownName), m.me ? h("span", { class: "you" }, ` (${t("table.you")})`) : null),
        info.length ? h("div", { class: "seat-info" }, info) : null,
        badges.length ? h("div", { class: "seat-badges" }, badges) : null,
        kick);
    }));
  }

  miniFan(count) {
    const shown = Math.min(count, 5);
    const svg = s("svg", { viewBox: "0 0 28 16", width: 28, height: 16, class: "mini-fan", "aria-hidden": "true" });
    for (let i = 0; i < shown; i += 1) {
      svg.append(s("rect", { x: 2 + i * 4, y: 1, width: 9, height: 14, rx: 1.5, fill: "#1c1c22", stroke: "#fff", "stroke-width": 0.8 }));
    }
    return svg;
  }

  // ----------------------------------------------------------------------------- center

  renderCenter(prevView) {
    const view = this.view;
    if (!view) {
      this.renderWaiting();
      return;
    }
    const a = this.analysis;
    const pile = h("button", {
      class: ["draw-pile", a.draw && "can"], "aria-label": t("table.drawpile", { n: view.draw_pile }),
      title: t("table.drawpile", { n: view.draw_pile }),
      onclick: () => this.draw(),
    }, cardBack(), h("span", { class: "pile-count" }, String(view.draw_pile)));
    const what = cardHelp(view.top);
    const top = cardSvg(view.top, { label: what ? `${cardName(view.top)} — ${what}` : cardName(view.top) });
    const discard = h("div", { class: "discard", title: `${t("table.discard", { n: view.discard_pile })}${what ? ` — ${what}` : ""}`,
      style: { "--ring": view.color ? `var(--c-${view.color})` : "transparent" } }, top);
    const colorInfo = h("div", { class: "color-info" },
      h("span", { class: "label" }, t("table.color"), ": "),
      colorBadge(view.color, 20),
      h("b", { class: "color-word" }, view.color ? colorName(view.color) : t("table.nocolor")));
    const cw = view.direction === 1;
    const dirInfo = h("div", { class: "direction", title: cw ? t("table.cw") : t("table.ccw") },
      s("svg", { viewBox: "0 0 24 24", width: 20, height: 20, class: ["dir-icon", cw ? "cw" : "ccw"], "aria-hidden": "true" },
        s("path", { d: cw ? "M12 4a8 8 0 1 1-7.4 5" : "M12 4a8 8 0 1 0 7.4 5", fill: "none", stroke: "currentColor", "stroke-width": 2.4 }),
        s("path", { d: cw ? "M2 5l3 5 4-3z" : "M22 5l-3 5-4-3z", fill: "currentColor" })),
      h("span", {}, cw ? t("table.cw") : t("table.ccw")));
    const info = [colorInfo, dirInfo];
    if (view.pending_draw) info.push(h("div", { class: "pending" }, t("table.pending", { n: view.pending_draw })));
    const turn = h("div", { class: "turn-line", "aria-live": "polite" });
    if (view.to_act !== null && view.to_act !== undefined) {
      const mine = view.to_act === view.seat;
      turn.append(h("span", { class: mine ? "your-turn" : "" }, mine ? t("table.yourturn") : t("table.turnof", { name: this.name(view.to_act) })));
      turn.append(h("span", { class: "turn-timer" }));
    }
    replace(this.centerEl, h("div", { class: "piles" }, pile, discard), h("div", { class: "table-info" }, info), turn);
    // the played card flies in from whoever played it
    if (prevView && (prevView.top !== view.top || prevView.discard_pile !== view.discard_pile) && view.hand_number === prevView.hand_number) {
      this.flyIn(discard, view, prevView);
    }
  }

  flyIn(discard, view, prevView) {
    let from = null;
    if (prevView.seat !== null && prevView.hand && view.hand && view.hand.length < prevView.hand.length) {
      from = this.handRects.get(view.top) || null;
    }
    if (!from) {
      const seatEl = this.seatsEl.querySelector(`.seat[data-seat="${prevView.to_act}"]`);
      if (seatEl) from = seatEl.getBoundingClientRect();
    }
    if (!from) return;
    const to = discard.getBoundingClientRect();
    const dx = from.left + from.width / 2 - (to.left + to.width / 2);
    const dy = from.top + from.height / 2 - (to.top + to.height / 2);
    discard.style.setProperty("--dx", `${dx.toFixed(0)}px`);
    discard.style.setProperty("--dy", `${dy.toFixed(0)}px`);
    discard.classList.add("fly");
  }

  renderWaiting() {
    const table = this.state.table;
    const you = this.state.you;
    const seated = you.seat !== null && you.seat !== undefined;
    const free = (table.seats_detail || []).some((d) => d.empty);
    const buttons = [];
    if (seated) {
      buttons.push(h("button", { class: "primary big start", onclick: () => this.app.startGame() }, t("table.start")));
      buttons.push(h("button", { class: "stand", onclick: () => this.app.send({ type: "stand" }) }, t("table.stand")));
    } else if (free) {
      buttons.push(h("button", { class: "primary sitdown", onclick: () => this.app.send({ type: "sit" }) }, t("table.sitdown")));
    }
    replace(this.centerEl, h("div", { class: "waiting" },
      h("h2", {}, t("table.waiting")),
      h("p", {}, t("table.waiting.hint", { code: table.code })),
      seated ? null : h("p", { class: "muted" }, t("table.spectating")),
      h("div", { class: "row center-row" }, buttons)));
  }

  // ---------------------------------------------------------------------------- overlay

  renderOverlay() {
    const view = this.view;
    if (!view || (view.phase !== "hand_over" && view.phase !== "match_over")) {
      this.overlayEl.hidden = true;
      replace(this.overlayEl);
      return;
    }
    const matchOver = view.phase === "match_over";
    const n = view.players.length;
    let order = view.hand_ranking && view.hand_ranking.length ? [...view.hand_ranking] : [...Array(n).keys()];
    for (let i = 0; i < n; i += 1) if (!order.includes(i)) order.push(i);
    if (matchOver) {
      const scoring = scoringOf(view.rules, rules().presets);
      order = [...Array(n).keys()].sort((x, y) => (scoring === "penalty" ? view.scores[x] - view.scores[y] : view.scores[y] - view.scores[x]));
      order = [view.match_winner, ...order.filter((i) => i !== view.match_winner)].filter((i) => i !== null && i !== undefined);
    }
    const rows = order.map((i) => h("tr", { class: [i === view.seat && "me", i === (matchOver ? view.match_winner : view.hand_winner) && "winner"] },
      h("td", {}, h("span", { class: "who" }, avatar({ ...(this.detailOf(i) || {}), name: view.players[i] }, 22), h("span", {}, view.players[i]))),
      view.end_hands ? h("td", { class: "left" }, h("div", { class: "mini-cards" },
        view.end_hands[i].map((code) => cardSvg(code, { label: cardName(code), className: "mini" })))) : null,
      h("td", { class: "num" }, view.hand_points ? String(view.hand_points[i]) : "–"),
      h("td", { class: "num total" }, String(view.scores[i]))));
    const winner = matchOver ? view.match_winner : view.hand_winner;
    const title = matchOver ? t("over.match", { name: this.name(winner) }) : t("over.hand", { name: this.name(winner) });
    const buttons = [];
    const seated = this.state.you.seat !== null && this.state.you.seat !== undefined;
    if (!matchOver && this.analysis.deal) {
      buttons.push(h("button", { class: "primary big deal", onclick: () => this.app.startGame() }, t("act.deal")));
    } else if (!matchOver) {
      buttons.push(h("p", { class: "muted" }, t("over.waitdeal")));
    }
    if (matchOver && seated) {
      buttons.push(h("button", { class: "primary big new-match", onclick: () => this.app.startGame() }, t("act.newmatch")));
    }
    const gameId = this.state.game_id ?? this.state.table.game_id;
    if (matchOver && gameId !== undefined && gameId !== null) {
      buttons.push(h("a", { class: "button replay-link", href: `/?replay=${encodeURIComponent(gameId)}`, target: "_blank", rel: "noopener" }, t("over.replay")));
    }
    if (matchOver) buttons.push(h("button", { class: "leave-over", onclick: () => this.app.leave() }, t("table.leave")));
    this.overlayEl.hidden = false;
    replace(this.overlayEl, h("div", { class: ["summary", matchOver ? "match-summary" : "hand-summary"], role: "dialog", "aria-label": title },
      matchOver ? h("div", { class: "trophy" }, icon("trophy", 44)) : null,
      h("h2", {}, title),
      h("table", { class: "scores" },
        h("thead", {}, h("tr", {}, h("th", {}, t("over.player")), view.end_hands ? h("th", {}, t("over.left")) : null,
          h("th", {}, t("over.points")), h("th", {}, t("over.total")))),
        h("tbody", {}, rows)),
      h("div", { class: "row center-row" }, buttons)));
  }

  // ----------------------------------------------------------------------------- prompt

  renderPrompt() {
    const view = this.view;
    const a = this.analysis;
    const parts = [];
    if (view && this.picker) {
      parts.push(this.picker.type === "color" ? this.colorPicker(this.picker) : this.targetPicker(this.picker));
    } else if (view && view.phase === "color" && a.colors.length) {
      parts.push(h("div", { class: "picker color-picker" },
        h("p", {}, t("prompt.colorfirst")),
        h("div", { class: "row" }, a.colors.map((c) => this.colorButton(c, () => this.app.act(`color ${c}`))))));
    } else if (view && view.phase === "penalty" && view.to_act === view.seat && a.draw) {
      const n = view.pending_draw;
      parts.push(h("div", { class: "callout challenge-prompt" },
        h("p", {}, a.challenge ? t("prompt.challenge", { n }) : t("prompt.penalty", { n })),
        h("div", { class: "row" },
          a.challenge ? h("button", { class: "primary challenge", onclick: () => this.app.act("challenge") }, t("act.challenge")) : null,
          h("button", { class: "take", onclick: () => this.app.act("draw") }, t("act.take", { n })))));
    } else if (view && view.phase === "drawn" && view.to_act === view.seat && view.drawn) {
      parts.push(h("div", { class: "callout" }, h("p", {}, t("prompt.drawn", { card: cardName(view.drawn) }))));
    }
    if (view && a.uno && !this.picker) {
      parts.push(h("div", { class: "callout uno-callout" }, h("p", {}, t("prompt.unoowed")),
        h("button", { class: "primary uno-now", onclick: () => this.app.act("uno") }, t("act.uno"))));
    } else if (view && a.unoWithPlay && !this.unoArmed && !this.picker && view.to_act === view.seat) {
      parts.push(h("p", { class: "hint uno-hint" }, t("prompt.uno")));
    }
    replace(this.promptEl, parts);
  }

  colorButton(color, onclick) {
    return h("button", { class: ["color-choice", `c-${color}`], dataset: { color }, onclick, "aria-label": colorName(color) },
      colorBadge(color, 22), h("span", {}, colorName(color)));
  }

  colorPicker(picker) {
    const colors = unique(picker.options.map((o) => o.color).filter(Boolean));
    return h("div", { class: "picker color-picker" },
      h("p", {}, t("prompt.color"), " — ", cardName(picker.card)),
      h("div", { class: "row" },
        colors.map((c) => this.colorButton(c, () => this.choose(picker.card, picker.options.filter((o) => o.color === c)))),
        h("button", { class: "cancel", onclick: () => this.cancelPicker() }, t("act.cancel"))));
  }

  targetPicker(picker) {
    const single = picker.options.every((o) => o.targets.length <= 1);
    const seen = new Set();
    const buttons = [];
    for (const option of picker.options) {
      const key = option.targets.join(" ");
      if (seen.has(key)) continue;
      seen.add(key);
      let label;
      if (!option.targets.length) label = t("prompt.alone");
      else if (single) label = option.targets[0] === this.me ? t("prompt.yourself") : this.name(option.targets[0]);
      else {
        const counts = new Map();
        for (const target of option.targets) counts.set(target, (counts.get(target) || 0) + 1);
        label = [...counts].map(([seat, k]) => `${this.name(seat)} ×${k}`).join(", ");
      }
      buttons.push(h("button", { class: "target-choice", dataset: { targets: key },
        onclick: () => this.choose(picker.card, picker.options.filter((o) => o.targets.join(" ") === key)) }, label));
    }
    return h("div", { class: "picker target-picker" },
      h("p", {}, single ? t("prompt.target") : t("prompt.targets"), " — ", cardName(picker.card)),
      h("div", { class: "row wrap" }, buttons, h("button", { class: "cancel", onclick: () => this.cancelPicker() }, t("act.cancel"))));
  }

  cancelPicker() {
    this.picker = null;
    this.renderPrompt();
    this.focusHand();
  }

  // ---------------------------------------------------------------------------- actions

  renderActions() {
    const view = this.view;
    const a = this.analysis;
    const state = this.state;
    const buttons = [];
    const playing = view && view.seat !== null && view.phase !== "hand_over" && view.phase !== "match_over";
    if (playing) {
      const penalty = view.phase === "penalty" && view.to_act === view.seat;
      buttons.push(h("button", { class: ["act-draw", a.draw && "can"], "aria-keyshortcuts": "D", onclick: () => this.draw() },
        penalty ? t("act.take", { n: view.pending_draw }) : t("act.draw"), h("kbd", {}, "D")));
      buttons.push(h("button", { class: ["act-pass", a.pass && "can"], "aria-keyshortcuts": "P", disabled: !a.pass,
        onclick: () => this.app.act("pass") }, t("act.pass"), h("kbd", {}, "P")));
      const unoReady = a.uno || a.unoWithPlay;
      buttons.push(h("button", {
        class: ["act-uno", unoReady && "can", this.unoArmed && "armed"], "aria-keyshortcuts": "U",
        "aria-pressed": a.unoWithPlay ? (this.unoArmed ? "true" : "false") : null, disabled: !unoReady,
        title: a.unoWithPlay ? t("act.unoarmed") : t("act.uno"), onclick: () => this.uno(),
      }, t("act.uno"), h("kbd", {}, "U")));
      for (const seat of a.catches) {
        buttons.push(h("button", { class: "act-catch can", dataset: { seat: String(seat) }, onclick: () => this.app.act(`catch @${seat}`) },
          t("act.catch", { name: this.name(seat) })));
      }
      const mine = (state.table.seats_detail || []).find((d) => d.seat === state.you.seat);
      if (mine) {
        buttons.push(h("button", { class: ["act-auto", mine.auto && "on"], "aria-pressed": mine.auto ? "true" : "false",
          onclick: () => this.app.send({ type: "auto", on: !mine.auto }) }, mine.auto ? t("act.autooff") : t("act.auto")));
      }
    } else if (view && view.seat === null) {
      buttons.push(h("p", { class: "muted spectating" }, t("table.spectating")));
    }
    if (view && view.phase === "match_over") {
      const free = (state.table.seats_detail || []).some((d) => d.empty);
      const seated = state.you.seat !== null && state.you.seat !== undefined;
      if (seated) buttons.push(h("button", { class: "stand", onclick: () => this.app.send({ type: "stand" }) }, t("table.stand")));
      else if (free) buttons.push(h("button", { class: "sitdown", onclick: () => this.app.send({ type: "sit" }) }, t("table.sitdown")));
    }
    replace(this.actionsEl, buttons);
  }

  renderRevealed() {
    const view = this.view;
    const shown = (view?.revealed || []).filter((r) => r.seat !== view.seat);
    replace(this.revealedEl, shown.map((r) => h("div", { class: ["revealed-hand", r.live && "live"], dataset: { seat: String(r.seat) } },
      h("span", { class: "label" }, t(r.live ? "revealed.live" : (r.live === false ? "revealed.once" : "revealed.title"), { name: this.name(r.seat) })),
      r.cards.length
        ? h("div", { class: "mini-cards" }, r.cards.map((code) => cardSvg(code, { label: cardName(code), className: "mini" })))
        : h("span", { class: "muted" }, t("revealed.empty")))));
  }

  // ------------------------------------------------------------------------------- hand

  renderHand(prevView) {
    const view = this.view;
    const hadFocus = this.handEl.contains(document.activeElement);
    if (!view || view.hand === null || view.hand === undefined) {
      this.handEl.hidden = true;
      replace(this.handEl);
      return;
    }
    this.handEl.hidden = false;
    this.handEl.setAttribute("aria-label", t("table.hand"));
    const a = this.analysis;
    // which cards are new since the last view (they slide in)
    const before = new Map();
    if (prevView && prevView.hand && prevView.hand_number === view.hand_number) {
      for (const code of prevView.hand) before.set(code, (before.get(code) || 0) + 1);
    }
    const fresh = prevView && prevView.hand_number === view.hand_number;
    if (this.focusIndex >= view.hand.length) this.focusIndex = Math.max(0, view.hand.length - 1);
    const lockedBy = view.locked_by || null;
    const lockText = lockedBy ? t("hand.locked", { card: cardName(lockedBy) }) : "";
    const cards = view.hand.map((code, index) => {
      const playable = a.plays.has(code);
      const locked = !!lockedBy && code !== lockedBy;
      const help = cardHelp(code);
      const left = before.get(code) || 0;
      const isNew = fresh && left === 0;
      if (left) before.set(code, left - 1);
      const drawn = view.phase === "drawn" && view.drawn === code && view.to_act === view.seat;
      const title = [cardName(code), help, locked ? lockText : ""].filter(Boolean).join(" — ");
      const button = h("button", {
        class: ["card", playable ? "playable" : "dimmed", locked && "locked", isNew && "enter", drawn && "drawn"],
        dataset: { code, index: String(index) },
        tabindex: index === this.focusIndex ? "0" : "-1",
        title,
        "aria-label": title,
        "aria-disabled": playable ? null : "true",
        onclick: () => {
          if (this.longPressed) { this.longPressed = false; return; }
          this.focusIndex = index;
          this.playCard(code);
        },
        onfocus: () => { this.focusIndex = index; },
      }, cardSvg(code, { label: title }));  // (the picture's own title is what hovering shows)
      if (help || locked) this.holdToRead(button, title);
      return button;
    });
    const parts = cards.length ? cards : [h("p", { class: "muted" }, t("table.handempty"))];
    replace(this.handEl, parts);
    // the note says the rest of the rule too: the card's own help (GET /api/rules)
    replace(this.lockEl, [lockText, lockedBy ? cardHelp(lockedBy) : ""].filter(Boolean).join(" "));
    this.lockEl.hidden = !lockText;
    // nothing to play (another player's turn): the hand stays readable, only the offers stand
    // out; a hand locked by Kobe stays dimmed, so that it never looks playable
    this.handEl.classList.toggle("idle", a.plays.size === 0 && !lockedBy);
    this.layoutHand();
    if (hadFocus) this.focusHand();
  }

  /** A long press (touch) shows what a card does, as hovering does with the mouse. */
  holdToRead(button, text) {
    let timer = null;
    const cancel = () => { clearTimeout(timer); timer = null; };
    button.addEventListener("pointerdown", (event) => {
      if (event.pointerType === "mouse") return;
      cancel();
      timer = setTimeout(() => {
        this.longPressed = true;
        this.app.toast(text);
      }, 550);
    });
    for (const type of ["pointerup", "pointerleave", "pointercancel"]) button.addEventListener(type, cancel);
    button.addEventListener("contextmenu", (event) => {
      event.preventDefault();
      this.app.toast(text);
    });
  }

  layoutHand() {
    const cards = [...this.handEl.querySelectorAll(".card")];
    this.handEl.classList.remove("wrap");
    this.handEl.style.removeProperty("--overlap");
    if (!cards.length) return;
    const width = this.handEl.clientWidth - 16;
    const cardWidth = cards[0].getBoundingClientRect().width || 70;
    const total = cards.length * (cardWidth + 4);
    if (total > width && cards.length > 1) {
      const overlap = (total - width) / (cards.length - 1);
      if (overlap > cardWidth * 0.62) this.handEl.classList.add("wrap");
      else this.handEl.style.setProperty("--overlap", `${overlap.toFixed(1)}px`);
    }
    this.handRects = new Map();
    for (const card of cards) this.handRects.set(card.dataset.code, card.getBoundingClientRect());
  }

  focusHand() {
    const cards = this.handEl.querySelectorAll(".card");
    if (!cards.length) return;
    const index = Math.min(this.focusIndex, cards.length - 1);
    cards.forEach((card, i) => card.setAttribute("tabindex", i === index ? "0" : "-1"));
    cards[index].focus({ preventScroll: false });
  }

  // ---------------------------------------------------------------------------- choices

  playCard(code) {
    const options = this.analysis.plays.get(code) || [];
    if (!options.length) {
      // not offered: send it anyway, and the server says why it is refused
      this.app.act(`play ${code}`);
      return;
    }
    const withUno = options.some((o) => o.uno);
    let chosen = withUno ? options.filter((o) => o.uno === this.unoArmed) : options;
    if (!chosen.length) chosen = options;
    this.choose(code, chosen);
  }

  choose(card, options) {
    const colors = unique(options.map((o) => o.color).filter(Boolean));
    if (colors.length > 1) {
      this.picker = { type: "color", card, options };
      this.renderPrompt();
      this.promptEl.querySelector(".color-choice")?.focus();
      return;
    }
    const targets = unique(options.map((o) => o.targets.join(" ")));
    if (targets.length > 1) {
      this.picker = { type: "target", card, options };
      this.renderPrompt();
      this.promptEl.querySelector(".target-choice")?.focus();
      return;
    }
    const hadPicker = this.picker !== null;
    this.picker = null;
    this.unoArmed = false;
    this.app.act(options[0].code);
    if (hadPicker) {
      this.renderPrompt();
      this.renderActions();
      this.focusHand();
    }
  }

  draw() {
    // also when it is not offered: the server then says why
    this.app.act(this.analysis.draw || !this.analysis.pass ? "draw" : "pass");
  }

  uno() {
    const a = this.analysis;
    if (a.uno) {
      this.app.act("uno");
    } else if (a.unoWithPlay) {
      this.unoArmed = !this.unoArmed;
      this.renderActions();
      this.renderPrompt();
    }
  }

  onKey(event) {
    const view = this.view;
    if (!view) return;
    // letters by their place on the keyboard, so D, P, U work in a Russian layout too
    const letter = /^Key[A-Z]$/.test(event.code || "") ? event.code.slice(3) : event.key.toUpperCase();
    const key = event.key.length === 1 ? letter : event.key;
    if (this.picker) {
      if (key === "Escape") { this.cancelPicker(); event.preventDefault(); return; }
      if (this.picker.type === "color") {
        const color = key;
        const index = "1234".indexOf(event.key);
        const colors = unique(this.picker.options.map((o) => o.color).filter(Boolean));
        const chosen = COLOR_CODES.includes(color) ? color : colors[index];
        if (chosen && colors.includes(chosen)) {
          event.preventDefault();
          this.choose(this.picker.card, this.picker.options.filter((o) => o.color === chosen));
        }
      }
      return;
    }
    if (view.phase === "color" && this.analysis.colors.length) {
      const color = key;
      if (this.analysis.colors.includes(color)) { event.preventDefault(); this.app.act(`color ${color}`); }
      return;
    }
    const cards = [...this.handEl.querySelectorAll(".card")];
    switch (key) {
      case "ArrowLeft":
      case "ArrowRight": {
        if (!cards.length) return;
        event.preventDefault();
        const inHand = this.handEl.contains(document.activeElement);
        if (inHand) this.focusIndex = (this.focusIndex + (key === "ArrowLeft" ? -1 : 1) + cards.length) % cards.length;
        else {
          const first = cards.findIndex((c) => c.classList.contains("playable"));
          this.focusIndex = first >= 0 ? first : 0;
        }
        this.focusHand();
        break;
      }
      case "Enter":
        if (!this.handEl.contains(document.activeElement) && cards.length && document.activeElement === document.body) {
          event.preventDefault();
          const card = cards[Math.min(this.focusIndex, cards.length - 1)];
          this.playCard(card.dataset.code);
        }
        break;
      case "D":
        event.preventDefault();
        this.draw();
        break;
      case "P":
        event.preventDefault();
        this.app.act("pass");
        break;
      case "U":
        event.preventDefault();
        this.uno();
        break;
      case "C":
        if (this.analysis.challenge) { event.preventDefault(); this.app.act("challenge"); }
        break;
      default:
        break;
    }
  }

  // ------------------------------------------------------------------------------ timer

  tick() {
    const view = this.view;
    const timer = this.state?.table?.timer;
    const badges = this.seatsEl.querySelectorAll(".timer-badge");
    badges.forEach((b) => { b.hidden = true; });
    const line = this.centerEl.querySelector(".turn-timer");
    if (!view || !timer || view.to_act === null || view.to_act === undefined) {
      if (line) replace(line);
      return;
    }
    const left = Math.max(0, Math.ceil(timer - (performance.now() - this.turnStarted) / 1000));
    const seatEl = this.seatsEl.querySelector(`.seat[data-seat="${view.to_act}"] .timer-badge`);
    if (seatEl) {
      seatEl.hidden = false;
      replace(seatEl, String(left));
      seatEl.classList.toggle("low", left <= 5);
    }
    if (line) replace(line, ` · ${t("table.seconds", { n: left })}`);
  }
}

