// The lobby's list of tables refreshes itself: a table's state moves on
// while the person is elsewhere.
"use strict";
(() => {
  const { el, $, t } = Kit;
  const T = {
    see: t("kit.lobby.see"), resume: t("kit.lobby.resume"), review: t("kit.lobby.review"), record: t("kit.lobby.record"), watch: t("kit.lobby.watch"),
  };
  const hhmm = (iso) => { const d = new Date(iso); return String(d.getHours()).padStart(2, "0") + ":" + String(d.getMinutes()).padStart(2, "0"); };

  function row(l) {
    const links = [el("a", { href: l.url }, l.over ? T.see : T.resume)];
    if (l.review) links.push(" · ", el("a", { href: `/play/tables/${encodeURIComponent(l.token)}/review` }, T.review),
      " · ", el("a", { href: `/play/tables/${encodeURIComponent(l.token)}/record` }, T.record));
    links.push(" · ", el("a", { href: l.watch }, T.watch));
    return el("tr", {}, el("td", {}, l.game), el("td", {}, l.title), el("td", {}, l.status),
      el("td", {}, el("time", { datetime: l.created }, hhmm(l.created))), el("td", {}, links));
  }

  async function refresh() {
    try {
      const r = await fetch("/play/api/tables");
      if (!r.ok) return;
      const lines = await r.json();
      $("#tables-body").replaceChildren(...lines.map(row));
      $("#tables").hidden = $("#tables-note").hidden = !lines.length;
      $("#no-tables").hidden = lines.length > 0;
    } catch (e) { /* the next refresh tries again */ }
  }
  setInterval(refresh, 5000);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
})();
