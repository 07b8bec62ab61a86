// The profile dialog: your icon (upload with a preview, or reset), language and theme.
// The image is scaled to 64x64 and sent as PNG; the server checks it and keeps a 32x32 copy.

import { avatar } from "./avatar.js";
import { h, replace } from "./dom.js";
import { getLang, t } from "./i18n.js";

const MAX_BASE64 = Math.floor((64 * 1024 * 4) / 3) - 16;
const SIZE = 64;

function loadImage(file) {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const img = new Image();
    img.onload = () => resolve({ img, url });
    img.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error("unreadable"));
    };
    img.src = url;
  });
}

/** A square PNG data URL of the image, cropped to its center. */
export function squarePng(img, size = SIZE) {
  const canvas = document.createElement("canvas");
  canvas.width = size;
  canvas.height = size;
  const ctx = canvas.getContext("2d");
  const side = Math.min(img.naturalWidth || img.width, img.naturalHeight || img.height);
  const sx = ((img.naturalWidth || img.width) - side) / 2;
  const sy = ((img.naturalHeight || img.height) - side) / 2;
  ctx.imageSmoothingQuality = "high";
  ctx.drawImage(img, sx, sy, side, side, 0, 0, size, size);
  return canvas.toDataURL("image/png");
}

export class ProfileDialog {
  constructor(app) {
    this.app = app;
    this.pendingImage = null;
    this.el = document.getElementById("profile-dialog");
    this.el.addEventListener("close", () => {
      this.pendingImage = null;
    });
    this.el.addEventListener("click", (event) => {
      if (event.target === this.el) this.el.close();
    });
  }

  open() {
    this.pendingImage = null;
    this.render();
    if (!this.el.open) this.el.showModal();
  }

  relabel() {
    if (this.el.open) this.render();
  }

  iconChanged(has) {
    this.app.toast(has ? t("profile.saved") : t("profile.removed"));
    this.pendingImage = null;
    if (this.el.open) this.render();
  }

  render() {
    const player = this.app.player;
    if (!player) return;
    const file = h("input", { type: "file", id: "icon-file", accept: "image/png,image/gif,image/bmp,image/jpeg,image/webp",
      class: "visually-hidden", onchange: (event) => this.choose(event.target.files?.[0]) });
    const preview = this.pendingImage
      ? h("div", { class: "icon-preview" },
        h("img", { id: "icon-preview", src: this.pendingImage, width: 64, height: 64, alt: t("profile.preview") }),
        h("img", { src: this.pendingImage, width: 32, height: 32, alt: "" }),
        h("span", { class: "muted" }, t("profile.preview")))
      : null;
    replace(this.el, h("form", { method: "dialog", class: "profile" },
      h("div", { class: "panel-head" },
        h("h2", {}, t("profile.title")),
        h("button", { value: "close", class: "small", "aria-label": t("profile.close") }, "×")),
      h("div", { class: "profile-who" }, h("span", { class: "current-icon" }, avatar(player, 64)), h("b", {}, player.name)),
      h("fieldset", {},
        h("legend", {}, t("profile.icon")),
        h("label", { for: "icon-file", class: "button" }, t("profile.choose")), file,
        preview,
        this.problem ? h("p", { class: "problem", role: "alert" }, this.problem) : null,
        h("div", { class: "row" },
          h("button", { type: "button", class: "primary save-icon", disabled: !this.pendingImage, onclick: () => this.save() }, t("profile.save")),
          h("button", { type: "button", class: "reset-icon", disabled: !player.icon, onclick: () => this.app.send({ type: "reset_icon" }) }, t("profile.reset")))),
      h("fieldset", {},
        h("legend", {}, t("profile.lang")),
        h("select", { id: "profile-lang", onchange: (event) => this.app.changeLang(event.target.value) },
          h("option", { value: "en", selected: getLang() === "en" }, "English"),
          h("option", { value: "ru", selected: getLang() === "ru" }, "Русский"))),
      h("fieldset", {},
        h("legend", {}, t("profile.theme")),
        h("select", { id: "profile-theme", onchange: (event) => { this.app.setTheme(event.target.value); this.render(); } },
          ["auto", "light", "dark"].map((value) => h("option", { value, selected: this.app.theme === value }, t(`profile.theme.${value}`)))))));
  }

  async choose(file) {
    this.problem = null;
    if (!file) return;
    try {
      const { img, url } = await loadImage(file);
      this.pendingImage = squarePng(img);
      URL.revokeObjectURL(url);
      if (this.pendingImage.length - this.pendingImage.indexOf(",") - 1 > MAX_BASE64) {
        this.pendingImage = null;
        this.problem = t("profile.toobig");
      }
    } catch {
      this.pendingImage = null;
      this.problem = t("profile.badimage");
    }
    this.render();
  }

  save() {
    if (!this.pendingImage) return;
    const image = this.pendingImage.slice(this.pendingImage.indexOf(",") + 1);
    this.app.send({ type: "set_icon", image });
  }
}
