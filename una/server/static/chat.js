// The chat panel: messages, system notices and game events in one log, the slash verbs,
// and the people at the table. Every line is inserted as text.

import { avatar } from "./avatar.js";
import { h, replace } from "./dom.js";
import { getLang, t, VERBS } from "./i18n.js";
import { rulesSummary } from "./rules.js";
import { errorText, eventText, noticeText, replyText } from "./messages.js";

const MAX_LINES = 400;

export class ChatPanel {
  constructor(app, tableView) {
    this.app = app;
    this.tableView = tableView;
    this.entries = [];
    this.open = false;
    this.unread = 0;
    this.tab = "log";
    this.history = [];
    this.historyIndex = -1;
    this.logEl = h("ol", { class: "chat-log", role: "log", "aria-live": "polite" });
    this.peopleEl = h("div", { class: "people", hidden: true });
    this.hintsEl = h("ul", { class: "verb-hints", hidden: true, role: "listbox" });
    this.input = h("input", { class: "chat-input", name: "chat", maxlength: 300, autocomplete: "off",
      oninput: () => this.showHints(), onkeydown: (event) => this.onInputKey(event) });
    this.sendButton = h("button", { type: "submit", class: "primary chat-send" });
    this.form = h("form", { class: "chat-form", onsubmit: (event) => { event.preventDefault(); this.submit(); } },
      this.hintsEl, this.input, this.sendButton);
    this.logTab = h("button", { class: "tab", role: "tab", onclick: () => this.showTab("log") });
    this.peopleTab = h("button", { class: "tab", role: "tab", onclick: () => this.showTab("people") });
    this.closeButton = h("button", { class: "small chat-close", onclick: () => this.toggle(false), "aria-label": t("err.close") }, "×");
    this.el = h("aside", { class: "side" },
      h("div", { class: "tabs", role: "tablist" }, this.logTab, this.peopleTab, this.closeButton),
      this.logEl, this.peopleEl, this.form);
    this.relabel();
  }

  relabel() {
    replace(this.logTab, t("chat.log"));
    this.logTab.setAttribute("aria-selected", this.tab === "log" ? "true" : "false");
    this.peopleTab.setAttribute("aria-selected", this.tab === "people" ? "true" : "false");
    this.input.placeholder = t("chat.placeholder");
    this.input.setAttribute("aria-label", t("chat.placeholder"));
    replace(this.sendButton, t("chat.send"));
    replace(this.logEl, this.entries.map((entry) => this.line(entry)));
    this.logEl.scrollTop = this.logEl.scrollHeight;
    if (this.state) this.updatePeople(this.state);
  }

  showTab(tab) {
    this.tab = tab;
    this.logEl.hidden = tab !== "log";
    this.peopleEl.hidden = tab !== "people";
    this.relabel();
  }

  toggle(force) {
    this.open = force === undefined ? !this.open : force;
    this.el.classList.toggle("open", this.open);
    if (this.open) {
      this.unread = 0;
      this.logEl.scrollTop = this.logEl.scrollHeight;
    }
    if (this.tableView.state) this.tableView.renderBar();
  }

  /** The table's recent lines (the server keeps them), after a reload or on joining. */
  load(lines) {
    this.entries = [];
    for (const line of lines) {
      if (line.type === "chat") this.entries.push({ kind: "chat", from: line.from, text: line.text, playerId: line.player_id });
      else if (line.type === "event") this.entries.push({ kind: "event", event: line.event });
      else if (line.type === "notice") this.entries.push({ kind: "notice", notice: line });
    }
    // their players' names come with the table's state (the lines may come first)
    this.unnamed = !this.names();
    this.entries = this.entries.slice(-MAX_LINES);
    replace(this.logEl, this.entries.map((entry) => this.line(entry)));
    this.logEl.scrollTop = this.logEl.scrollHeight;
  }

  add(entry) {
    entry.time = new Date();
    this.entries.push(entry);
    if (this.entries.length > MAX_LINES) {
      this.entries.shift();
      this.logEl.firstChild?.remove();
    }
    const stick = this.logEl.scrollHeight - this.logEl.scrollTop - this.logEl.clientHeight < 60;
    this.logEl.append(this.line(entry));
    if (stick) this.logEl.scrollTop = this.logEl.scrollHeight;
    if (!this.open && entry.kind === "chat" && getComputedStyle(this.el).position === "fixed") {
      this.unread += 1;
      if (this.tableView.state) this.tableView.renderBar();
    }
  }

  /** The players' names of the game on screen (events name seats). */
  names() {
    return this.tableView.state?.view?.players || null;
  }

  line(entry) {
    const time = entry.time ? entry.time.toLocaleTimeString(getLang(), { hour: "2-digit", minute: "2-digit" }) : "";
    const stamp = h("time", { class: "stamp" }, time);
    const names = entry.names || this.names();
    switch (entry.kind) {
      case "chat":
        return h("li", { class: ["msg", "chat-msg", entry.playerId === this.app.player?.id && "mine"] },
          stamp, h("b", { class: "from" }, entry.from), ": ", h("span", { class: "text" }, entry.text));
      case "event":
        return h("li", { class: "msg event" }, stamp, h("span", { class: "text" }, eventText(entry.event, names)));
      case "error":
        return h("li", { class: "msg error" }, stamp, h("span", { class: "text" }, entry.error ? errorText(entry.error, names) : entry.text));
      case "notice":
        return h("li", { class: "msg system notice", dataset: { code: entry.notice.code } }, stamp,
          h("span", { class: "text" }, noticeText(entry.notice)));
      case "reply": {
        const { text, items } = replyText(entry.reply, { verbHelp: this.verbs(), rulesText: rulesSummary });
        const choose = entry.reply.code === "challenge_whom" ? entry.reply.args.names : null;
        return h("li", { class: "msg system reply", dataset: { code: entry.reply.code } }, stamp, h("span", { class: "text" }, text),
          items ? h("ul", { class: "reply-items" }, items.map((item) => h("li", {}, item))) : null,
          choose ? h("span", { class: "choose" }, ` ${t("chat.choose")} `, choose.map((name) =>
            h("button", { type: "button", class: "tiny choose-name", dataset: { name },
              onclick: () => this.app.send({ type: "chat", text: `/challenge ${name}` }) }, name))) : null);
      }
      default:
        return h("li", { class: "msg system" }, stamp, h("span", { class: "text" }, entry.text));
    }
  }

  // ------------------------------------------------------------------------------- input

  submit() {
    // Sent as typed: a leading space makes "una ..." ordinary chat (the server's rule).
    const text = this.input.value;
    if (!text.trim()) return;
    if (this.app.send({ type: "chat", text })) {
      this.history.push(text);
      this.historyIndex = -1;
      this.input.value = "";
      this.showHints();
    }
  }

  verbs() {
    return VERBS[getLang()] || VERBS.en;
  }

  showHints() {
    const value = this.input.value;
    if (!value.startsWith("/") || value.includes(" ")) {
      this.hintsEl.hidden = true;
      return;
    }
    const prefix = value.slice(1).toLowerCase();
    const matches = Object.entries(this.verbs()).filter(([verb]) => verb.startsWith(prefix));
    this.hintsEl.hidden = matches.length === 0;
    replace(this.hintsEl, matches.map(([verb, help]) => h("li", {},
      h("button", { type: "button", class: "verb", onclick: () => {
        this.input.value = `/${verb} `;
        this.input.focus();
        this.showHints();
      } }, h("code", {}, `/${verb}`), " ", h("span", { class: "muted" }, help)))));
  }

  onInputKey(event) {
    if (event.key === "Tab" && this.input.value.startsWith("/") && !this.input.value.includes(" ")) {
      const prefix = this.input.value.slice(1).toLowerCase();
      const match = Object.keys(this.verbs()).find((verb) => verb.startsWith(prefix));
      if (match) {
        event.preventDefault();
        this.input.value = `/${match} `;
        this.showHints();
      }
    } else if (event.key === "ArrowUp" && this.history.length) {
      event.preventDefault();
      this.historyIndex = this.historyIndex < 0 ? this.history.length - 1 : Math.max(0, this.historyIndex - 1);
      this.input.value = this.history[this.historyIndex];
    } else if (event.key === "Escape") {
      this.hintsEl.hidden = true;
    }
  }

  // ------------------------------------------------------------------------------ people

  updatePeople(state) {
    this.state = state;
    if (this.unnamed && state.view) {
      this.unnamed = false;
      replace(this.logEl, this.entries.map((entry) => this.line(entry)));
      this.logEl.scrollTop = this.logEl.scrollHeight;
    }
    const table = state.table;
    const view = state.view;
    const isHost = this.app.player && table.host_id === this.app.player.id;
    const seated = (table.seats_detail || []).filter((d) => !d.empty);
    replace(this.peopleTab, `${t("chat.people")} (${seated.length + (table.spectator_names || []).length})`);
    const row = (d) => {
      const g = d.game_seat;
      const facts = [];
      if (view && g !== null && g !== undefined) {
        facts.push(t("table.cards", { n: view.hand_counts[g] }));
        facts.push(t("table.points", { n: view.scores[g] }));
      }
      if (d.bot) facts.push(t("table.bot"));
      if (d.auto) facts.push(t("table.auto"));
      if (d.player_id && !d.connected) facts.push(t("table.away"));
      if (d.player_id && d.player_id === table.host_id) facts.push(t("table.host"));
      return h("li", { class: ["person", d.player_id === this.app.player?.id && "me"] },
        avatar(d, 24), h("span", { class: "person-name" }, d.stand_in ? t("seat.standin", { name: d.name }) : d.name),
        h("span", { class: "muted" }, facts.length ? ` · ${facts.join(" · ")}` : ""),
        isHost && d.player_id && d.player_id !== this.app.player.id
          ? h("button", { class: "tiny kick", onclick: () => this.app.kick(d.name) }, t("table.kick")) : null);
    };
    const spectators = table.spectator_names || [];
    replace(this.peopleEl,
      h("h3", {}, t("chat.seated")),
      h("ul", { class: "people-list" }, seated.map(row)),
      h("h3", {}, t("chat.spectators")),
      spectators.length
        ? h("ul", { class: "people-list" }, spectators.map((name) => h("li", { class: "person" },
          avatar({ name }, 24), h("span", { class: "person-name" }, name),
          isHost && name !== this.app.player?.name
            ? h("button", { class: "tiny kick", onclick: () => this.app.kick(name) }, t("table.kick")) : null)))
        : h("p", { class: "muted" }, t("chat.nobody")),
      h("button", { class: "small", onclick: () => this.app.send({ type: "chat", text: "/who" }) }, t("chat.who")));
  }
}
