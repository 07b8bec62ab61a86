// One WebSocket to /ws that comes back by itself: after a drop it reconnects with a growing
// pause, and the app says hello again (with its token) and resumes its table.

export class Connection {
  constructor(handlers) {
    this.handlers = handlers; // {open(), message(msg), close(), status(text)}
    this.ws = null;
    this.attempt = 0;
    this.closedByUs = false;
    this.pinger = null;
    this.retry = null;
  }

  get url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws`;
  }

  get open() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  connect() {
    clearTimeout(this.retry);
    this.closedByUs = false;
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch (error) {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.attempt = 0;
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), 25000);
      this.handlers.open();
    });
    ws.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.handlers.message(message);
    });
    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      clearInterval(this.pinger);
      this.ws = null;
      this.handlers.close();
      if (!this.closedByUs) this.scheduleRetry();
    });
    ws.addEventListener("error", () => {
      /* a close event follows */
    });
  }

  scheduleRetry() {
    const delay = Math.min(5000, 300 * 2 ** this.attempt);
    this.attempt += 1;
    clearTimeout(this.retry);
    this.retry = setTimeout(() => this.connect(), delay);
  }

  /** Drop the connection as a network failure would (used by tests and the "offline" path). */
  drop() {
    if (this.ws) this.ws.close();
  }

  send(message) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }
}
