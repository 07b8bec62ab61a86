// The Una browser client: it holds no rules. It shows what the server's views say, offers
// what view.legal allows, and sends the player's choices as protocol messages (docs/protocol.md).

import { avatar } from "./avatar.js";
import { installDefs } from "./cards.js";
import { $, h, replace } from "./dom.js";
import { getLang, setLang, t } from "./i18n.js";
import { errorText, noticeText, replyText } from "./messages.js";
import { applyLobby, LobbyView } from "./lobby.js";
import { fetchRules } from "./rules.js";
import { Connection } from "./net.js";
import { ProfileDialog } from "./profile.js";
import { ReplayView } from "./replay.js";
import { TableView } from "./table.js";

const KEY = "una.";

export const store = {
  get(name, fallback = null) {
    try {
      const value = localStorage.getItem(KEY + name);
      return value === null ? fallback : value;
    } catch {
      return fallback;
    }
  },
  set(name, value) {
    try {
      localStorage.setItem(KEY + name, value);
    } catch {
      /* private mode: nothing is remembered */
    }
  },
  remove(name) {
    try {
      localStorage.removeItem(KEY + name);
    } catch {
      /* ignore */
    }
  },
};

class App {
  constructor() {
    this.player = null;
    this.epoch = null;
    this.screen = null;
    this.lobby = [];
    this.lobbyPage = { page: 0, pages: 1, total: 0, pageSize: 50 };
    this.state = null;
    this.tableCode = null;
    this.tableView = null;
    this.lobbyView = null;
    this.replayView = null;
    this.pending = null;
    this.welcomed = false;
    this.conn = new Connection({
      open: () => this.onOpen(),
      message: (m) => this.onMessage(m),
      close: () => this.onClose(),
    });
    this.main = $("#main");
    this.status = $("#conn-status");
    this.profile = new ProfileDialog(this);
  }

  // ------------------------------------------------------------------ settings: lang, theme

  initSettings() {
    const lang = store.get("lang") || ((navigator.language || "").toLowerCase().startsWith("ru") ? "ru" : "en");
    setLang(lang);
    this.applyTheme(store.get("theme") || "auto");
  }

  get theme() {
    return store.get("theme") || "auto";
  }

  applyTheme(theme) {
    const dark = theme === "dark" || (theme === "auto" && window.matchMedia?.("(prefers-color-scheme: dark)").matches);
    document.documentElement.dataset.theme = dark ? "dark" : "light";
    const button = $("#theme-toggle");
    if (button) {
      button.setAttribute("aria-pressed", dark ? "true" : "false");
      replace(button, dark ? "☀" : "☾");
      button.title = t("header.theme");
      button.setAttribute("aria-label", t("header.theme"));
    }
  }

  setTheme(theme) {
    store.set("theme", theme);
    this.applyTheme(theme);
    this.saveSettings();
  }

  toggleTheme() {
    this.setTheme(document.documentElement.dataset.theme === "dark" ? "light" : "dark");
  }

  changeLang(lang) {
    setLang(lang);
    store.set("lang", lang);
    this.saveSettings();
    this.relabel();
  }

  saveSettings() {
    if (this.player) this.send({ type: "settings", settings: { lang: getLang(), theme: this.theme } });
  }

  relabel() {
    document.title = t("app.title");
    const langButton = $("#lang-toggle");
    replace(langButton, getLang() === "ru" ? "EN" : "RU");
    langButton.title = t("header.lang");
    langButton.setAttribute("aria-label", `${t("header.lang")}: ${getLang() === "ru" ? "English" : "Русский"}`);
    $("#brand").title = t("header.lobby");
    this.applyTheme(this.theme);
    this.renderPlayerChip();
    this.renderStatus();
    this.profile.relabel();
    if (this.screen === "lobby") this.lobbyView?.render();
    if (this.screen === "table") this.tableView?.relabel();
    if (this.screen === "replay") this.replayView?.render();
    if (this.screen === "login") this.showLogin();
  }

  renderPlayerChip() {
    const chip = $("#profile-button");
    if (!this.player) {
      chip.hidden = true;
      return;
    }
    chip.hidden = false;
    chip.title = t("header.profile");
    replace(chip, avatar(this.player, 26), h("span", { class: "chip-name" }, this.player.name));
  }

  // ------------------------------------------------------------------------- connection

  start() {
    installDefs();
    // the rules' words (card names, switch labels) are the server's: when they come, the
    // screen is said again with them
    fetchRules(() => this.relabel());
    this.initSettings();
    $("#lang-toggle").addEventListener("click", () => this.changeLang(getLang() === "ru" ? "en" : "ru"));
    $("#theme-toggle").addEventListener("click", () => this.toggleTheme());
    $("#profile-button").addEventListener("click", () => this.profile.open());
    $("#brand").addEventListener("click", (event) => {
      event.preventDefault();
      if (this.screen === "table") this.leave();
      else this.goLobby();
    });
    document.addEventListener("keydown", (event) => this.onKey(event));
    this.relabel();
    const params = new URLSearchParams(location.search);
    if (params.get("replay")) {
      this.showReplay(params.get("replay"));
      return;
    }
    this.setStatus("connecting");
    this.conn.connect();
  }

  /** The headers that prove who we are over HTTP (a private table's game records). */
  authHeaders() {
    const token = store.get("token");
    return token ? { Authorization: `Bearer ${token}` } : {};
  }

  send(message) {
    const sent = this.conn.send(message);
    if (!sent) this.toast(t("app.offline"), "error");
    return sent;
  }

  setStatus(status) {
    this.connectionStatus = status;
    this.renderStatus();
  }

  /** Connected, logged in and caught up: actions may be sent. */
  get ready() {
    return this.connectionStatus === "open" && this.conn.open;
  }

  onOpen() {
    // still "connecting" until the welcome (and, after a drop, the table's fresh state)
    this.welcomed = false;
    const token = store.get("token");
    if (token) {
      this.conn.send({ type: "hello", token });
    } else {
      this.setStatus("open");
      this.showLogin();
    }
  }

  onClose() {
    this.pending = null;
    this.setStatus(this.player ? "reconnecting" : "connecting");
  }

  renderStatus() {
    const text = { connecting: t("app.connecting"), reconnecting: t("app.reconnecting") }[this.connectionStatus] || "";
    replace(this.status, text);
    this.status.hidden = !text;
    document.body.classList.toggle("offline", this.connectionStatus === "reconnecting");
  }

  // --------------------------------------------------------------------------- messages

  onMessage(m) {
    switch (m.type) {
      case "welcome":
        this.onWelcome(m);
        break;
      case "lobby":
      case "lobby_table":
      case "lobby_gone":
        applyLobby(this, m);
        if (this.screen === "lobby") this.lobbyView.renderLists();
        break;
      case "lines":
        // the table's recent log: shown now if the table is on screen, else when it is
        if (this.tableView && this.screen === "table") this.tableView.chat.load(m.lines || []);
        else this.pendingLines = m.lines || [];
        this.linesLoaded = true; // they hold the events the next state brings as missed
        break;
      case "joined":
        this.tableCode = m.table;
        this.rememberTable(m.table, -1);
        break;
      case "state":
        this.onState(m);
        break;
      case "chat":
        this.tableView?.chat.add({ kind: "chat", from: m.from, text: m.text, playerId: m.player_id });
        break;
      case "notice":
        if (this.tableView && this.screen === "table") this.tableView.chat.add({ kind: "notice", notice: m });
        else this.toast(noticeText(m));
        break;
      case "reply":
        if (this.tableView && this.screen === "table") this.tableView.chat.add({ kind: "reply", reply: m });
        else this.toast(replyText(m).text);
        if (m.code === "set_icon") this.profile.open();
        break;
      case "icon":
        if (this.player) {
          this.player.icon = m.icon || null;
          this.player.builtin_icon = m.builtin || null;
        }
        this.renderPlayerChip();
        this.profile.iconChanged(!!m.icon);
        if (this.screen === "table" && this.state) this.tableView.update(this.state, this.state);
        break;
      case "games":
        this.myGames = m.games || [];
        if (this.screen === "lobby") this.lobbyView.renderLists();
        break;
      case "settings":
        break;
      case "left":
        this.forgetTable();
        this.goLobby();
        break;
      case "kicked":
        this.forgetTable();
        this.toast(t("table.kicked", { code: m.table || "" }), "error");
        this.goLobby();
        break;
      case "error":
        this.onError(m);
        break;
      default:
        break;
    }
  }

  onWelcome(m) {
    this.welcomed = true;
    if (m.token) store.set("token", m.token);
    this.player = m.player;
    this.epoch = m.epoch;
    const settings = m.settings || {};
    if (!store.get("lang") && settings.lang) {
      setLang(settings.lang);
      store.set("lang", settings.lang);
    }
    if (!store.get("theme") && settings.theme) {
      store.set("theme", settings.theme);
    }
    this.relabel();
    const params = new URLSearchParams(location.search);
    const wanted = (params.get("table") || params.get("join") || "").trim().toUpperCase();
    const watch = (params.get("watch") || "").trim().toUpperCase();
    const saved = this.savedTable();
    // after a drop, actions wait for the table's fresh state; otherwise the page is ready
    if (!this.tableCode) this.setStatus("open");
    if (this.tableCode) {
      // a reconnect: catch up with the table we were at
      const code = this.tableCode;
      const version = this.state?.table?.code === code ? this.state.version : -1;
      this.send({ type: "resume", table: code, version, epoch: this.state?.epoch || saved?.epoch || "" });
    } else if (wanted) {
      if (saved && saved.table === wanted) this.resume(saved);
      else this.send({ type: "join", table: wanted });
    } else if (watch) {
      this.send({ type: "watch", table: watch });
    } else if (saved && (m.tables || []).includes(saved.table)) {
      this.resume(saved);
    } else if ((m.tables || []).length) {
      this.resume({ table: m.tables[0], version: -1, epoch: "" });
    } else if (saved && saved.spectator) {
      this.resume(saved);
    } else {
      this.goLobby();
    }
  }

  resume(saved) {
    this.tableCode = saved.table;
    this.send({ type: "resume", table: saved.table, version: saved.version ?? -1, epoch: saved.epoch || "" });
  }

  onState(m) {
    const prev = this.state && this.state.table.code === m.table.code ? this.state : null;
    this.state = m;
    this.pending = null;
    if (this.connectionStatus !== "open") this.setStatus("open");
    this.tableCode = m.table.code;
    this.rememberTable(m.table.code, m.version, m.epoch, m.you.seat === null);
    document.body.dataset.version = String(m.version);
    document.body.dataset.phase = m.view ? m.view.phase : m.table.status;
    if (this.screen !== "table" || !this.tableView) this.showTable();
    if (!prev && m.events?.length === 0) this.tableView.chat.add({ kind: "system", text: t("table.code", { code: m.table.code }) });
    const names = m.view ? m.view.players : null;
    if (!this.linesLoaded) for (const event of m.events || []) this.tableView.chat.add({ kind: "event", event, names });
    this.linesLoaded = false;
    this.tableView.update(m, prev);
  }

  onError(m) {
    this.pending = null;
    const about = m.about || "";
    // two players clicked "deal" at once: the hand is dealt already, nothing was refused
    if (about === "start" && m.code === "playing" && this.state?.view && !["hand_over", "match_over"].includes(this.state.view.phase)) return;
    if (m.code === "bad_token" || (about === "hello" && m.code !== "rate_limited")) {
      store.remove("token");
      this.showLogin(errorText(m));
      return;
    }
    if (this.connectionStatus !== "open" && this.welcomed) this.setStatus("open");
    if ((about === "resume" || about === "join" || about === "watch") && m.code === "no_table") {
      this.forgetTable();
      this.toast(errorText(m), "error");
      this.goLobby();
      return;
    }
    // the server's English sentence, for whoever reads the console
    console.info(`refused (${m.code}): ${m.message}`);
    const names = this.state?.view?.players || null;
    // "stale": somebody acted first; the new state is on its way (not an alarming refusal)
    this.toast(errorText(m, names), m.code === "stale" ? "info" : "error");
    if (this.screen === "table" && this.tableView) {
      this.tableView.chat.add({ kind: "error", error: m, names });
      this.tableView.refused(m);
    }
  }

  // -------------------------------------------------------------------------- tables

  savedTable() {
    try {
      return JSON.parse(store.get("resume", "null"));
    } catch {
      return null;
    }
  }

  rememberTable(code, version, epoch = this.epoch, spectator = false) {
    store.set("resume", JSON.stringify({ table: code, version, epoch: epoch || "", spectator }));
    const url = `/?table=${encodeURIComponent(code)}`;
    if (location.pathname + location.search !== url) history.replaceState(null, "", url);
  }

  forgetTable() {
    store.remove("resume");
    this.tableCode = null;
    this.state = null;
    if (location.search) history.replaceState(null, "", "/");
  }

  act(code) {
    if (!this.state) return;
    if (!this.ready) {
      this.toast(t("app.reconnecting"), "error");
      return;
    }
    this.pending = code;
    this.send({ type: "act", action: code, version: this.state.version });
  }

  startGame() {
    this.send({ type: "start" });
  }

  leave() {
    const state = this.state;
    const playing = state && state.table.status === "playing" && state.you.seat !== null && state.you.seat !== undefined;
    if (playing && !window.confirm(t("table.leaveconfirm"))) return;
    if (this.tableCode && this.conn.open) this.send({ type: "leave" });
    this.forgetTable();
    this.goLobby();
  }

  // --------------------------------------------------------------------------- screens

  setScreen(name, node) {
    this.screen = name;
    document.body.dataset.screen = name;
    replace(this.main, node);
  }

  showLogin(problem) {
    const input = h("input", { id: "login-name", name: "name", maxlength: 24, required: true, autocomplete: "nickname",
      placeholder: t("login.name"), value: store.get("name", "") });
    const form = h("form", { class: "login panel", onsubmit: (event) => {
      event.preventDefault();
      const name = input.value.trim();
      if (!name) return;
      store.set("name", name);
      this.send({ type: "hello", name });
    } },
      h("h1", {}, t("login.title")),
      h("p", { class: "lead" }, t("login.lead")),
      h("label", { for: "login-name" }, t("login.name")),
      h("div", { class: "row" }, input, h("button", { class: "primary", type: "submit" }, t("login.go"))),
      problem ? h("p", { class: "problem", role: "alert" }, problem) : null);
    this.setScreen("login", form);
    input.focus();
  }

  goLobby() {
    this.tableView?.destroy();
    this.tableView = null;
    if (!this.lobbyView) this.lobbyView = new LobbyView(this);
    this.setScreen("lobby", this.lobbyView.el);
    this.lobbyView.render();
    if (this.player) {
      this.send({ type: "lobby" });
      this.send({ type: "games" });
    }
  }

  showTable() {
    if (!this.tableView) this.tableView = new TableView(this);
    this.setScreen("table", this.tableView.el);
    if (this.pendingLines) {
      this.tableView.chat.load(this.pendingLines);
      this.pendingLines = null;
    }
  }

  kick(name) {
    if (window.confirm(t("table.kickconfirm", { name }))) this.send({ type: "kick", player: name });
  }

  showReplay(id) {
    this.replayView = new ReplayView(this, id);
    this.setScreen("replay", this.replayView.el);
    this.replayView.load();
  }

  onKey(event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))) return;
    if (document.querySelector("dialog[open]")) return;
    if (this.screen === "table") this.tableView?.onKey(event);
    else if (this.screen === "replay") this.replayView?.onKey(event);
  }

  // ---------------------------------------------------------------------------- toasts

  toast(text, kind = "info") {
    const box = $("#toasts");
    const item = h("div", { class: ["toast", kind], role: kind === "error" ? "alert" : "status" },
      h("span", { class: "toast-text" }, String(text)),
      h("button", { class: "toast-close", "aria-label": t("err.close"), onclick: () => item.remove() }, "×"));
    box.append(item);
    while (box.children.length > 4) box.firstChild.remove();
    setTimeout(() => item.remove(), kind === "error" ? 7000 : 3500);
  }
}

export const app = new App();
window.una = app; // for the console and the tests' diagnostics
app.start();
