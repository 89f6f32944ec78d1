// The Giretra table page: draws its seat's view and turns clicks and keys
// into the actions it offers. It holds no rules: the cards that may be
// played and the bids that may be made come with each view, and so do
// the texts the server writes (the log, the results), in the page's
// language; the page's own words come from Kit.t.
"use strict";
(() => {
  const { el, $ } = Kit;
  const T = (k, ...a) => Kit.t("giretra.js." + k, ...a);
  const SEATS = ["Bottom", "Left", "Top", "Right"];
  const SYM = ["♣", "♦", "♥", "♠"];
  const RANKS = { 7: "Seven", 8: "Eight", 9: "Nine", T: "Ten", J: "Jack", Q: "Queen", K: "King", A: "Ace" };
  const COLOUR = { ColourClubs: 0, ColourDiamonds: 1, ColourHearts: 2, ColourSpades: 3 };
  const DEFAULTS = ["you", "Eva", "bot", "Eva"];
  let view = null, asked = 0, lastOpen = false, onTable = "", detail = null;

  const suit = (c) => "CDHS".indexOf(c[1]);
  const cardName = (c) => T("card", T("rank." + RANKS[c[0]]), T("suit." + suit(c)));
  const cardShort = (c) => (c[0] === "T" ? "10" : c[0]) + SYM[suit(c)];
  const cardClass = (c, extra) => "card" + (suit(c) === 1 || suit(c) === 2 ? " red" : "") + (extra ? " " + extra : "");
  const sym = (mode) => (mode in COLOUR ? SYM[COLOUR[mode]] + " " : "");
  const seatName = (v, p) => v.seats[p].seat;
  const who = (v, p) => (p === v.you ? T("you") : T("who", seatName(v, p), v.seats[p].name));
  // rel places a seat on the screen: the reader (Bottom when watching) at the bottom, the others clockwise.
  const rel = (v, p) => "swne"[(p - Math.max(v.you, 0) + 4) % 4];
  const card = (c, extra, label) => el("span", { class: cardClass(c, extra), role: "img", "aria-label": label || cardName(c) }, cardShort(c));
  const speak = (text) => { $("#live").textContent = text; };

  // setupForm offers, for each seat, what the server says it may hold:
  // a person, our bot, the engine's agents, the bots it was given, and a
  // bot URL where it allows them.
  async function setupForm() {
    let c = { agents: [], bots: [], urls: "" };
    try { const r = await fetch("/play/api/giretra/choices"); if (r.ok) c = await r.json(); } catch (e) { /* the fixed choices remain */ }
    const choices = [["you", T("choice.you")], ["person", T("choice.person")], ["bot", T("choice.bot")],
      ...c.agents.map((a) => [a.name, a.label]), ...c.bots.map((b) => [b.name, T("choice.yours", b.label)])];
    if (c.urls) choices.push(["url", T("choice.url")]);
    SEATS.forEach((s, i) => {
      const name = T("seat." + s);
      const sel = el("select", { id: "seat-" + i, name: "seat" + i }, choices.map(([v, t]) => el("option", { value: v }, t)));
      sel.value = DEFAULTS[i];
      const at = el("input", { id: "at-" + i, name: "at" + i, type: "url", size: 30, disabled: true, hidden: !c.urls, placeholder: "http://127.0.0.1:5063",
        "aria-label": T("urlOf", name), title: c.urls ? T("urlsAllowed", c.urls) : "" });
      sel.addEventListener("change", () => { at.disabled = sel.value !== "url"; if (!at.disabled) at.focus(); });
      $("#seat-rows").append(el("div", { class: "seatrow" }, el("label", { for: "seat-" + i, class: "seatname" }, name), sel, at));
    });
    $("#setup-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const f = Kit.form(e.target), o = { seats: [] };
      for (let i = 0; i < 4; i++) o.seats.push(f["seat" + i] === "url" ? f["at" + i] || "" : f["seat" + i]);
      for (const k of ["target", "seed", "pace", "firstDealer"]) if (k in f) o[k] = f[k];
      if (f.paused) o.paused = true;
      Kit.create(o);
    });
  }

  function render(v) {
    const was = view;
    view = v;
    const active = document.activeElement, key = active && active.dataset ? active.dataset.k : null;
    const b = document.body.dataset, d = v.deal;
    b.turn = v.decision ? "you" : "";
    b.decision = v.decision ? v.decision.kind : "";
    b.over = v.over ? "1" : "";
    b.deal = d ? d.n : 0;
    b.watch = v.watch ? "1" : "";
    b.host = v.host ? "1" : "";
    b.paused = v.paused ? "1" : "";
    renderOver(v, was);
    renderScore(v);
    renderSeats(v);
    renderTrick(v);
    renderHand(v);
    renderDecide(v);
    renderLast(v);
    renderWatch(v);
    renderDeals(v);
    $("#review-link").hidden = !v.deals.length;
    if (v.decision && (!was || !was.decision || was.decision.id !== v.decision.id)) Kit.sound("turn");
    // A new decision takes the focus to its first option; else the focus stays where it was.
    if (v.decision && v.decision.id !== asked) {
      asked = v.decision.id;
      focusFirst(v.decision.kind);
    } else if (key) {
      const e = document.querySelector(`[data-k="${CSS.escape(key)}"]`);
      if (e && !e.disabled && e !== active) e.focus();
    }
  }

  function focusFirst(kind) {
    const sel = { card: "#hand button:not(:disabled)", bid: "#bids button", cut: "#cut-pos", next: "#next-btn" }[kind];
    const e = sel && $(sel);
    if (e) e.focus();
  }

  function renderScore(v) {
    const d = v.deal, c = d && d.contract;
    const team = (t) => el("span", { class: "team" + (v.you >= 0 && v.you % 2 === t ? " you-team" : "") }, `${v.teams[t]}: ${v.score[t]}`);
    $("#scorebar").replaceChildren(...[team(0), team(1), el("span", {}, T("target", v.target)), el("span", {}, d ? T("deal", d.n) : T("dealing")),
      el("span", { id: "contract" }, c ? T("contract", sym(c.mode) + c.text, who(v, c.announcer)) : d && d.cut ? T("bidding") : ""),
      c ? el("span", {}, T("points", d.points[0], d.points[1], d.tricks[0], d.tricks[1])) : null,
      v.seed !== undefined ? el("span", { class: "muted" }, T("seed", v.seed)) : null].filter(Boolean));
  }

  function renderSeats(v) {
    for (let p = 0; p < 4; p++) {
      const s = v.seats[p], box = $("#pos-" + rel(v, p));
      box.classList.toggle("turn", s.turn);
      const kids = [el("div", { class: "who" }, p === v.you ? T("youAt", s.seat) : `${s.name} (${s.seat})`,
        s.dealer ? [" ", el("span", { class: "chip", role: "img", "aria-label": T("dealer"), title: T("dealer") }, T("dealerChip"))] : ""),
        el("div", { class: "info" }, T(s.cards === 1 ? "oneCard" : "cards", s.cards), s.turn ? " · " + (p === v.you ? T("yourTurn") : T("toPlay")) : "")];
      if (s.bid) kids.push(el("span", { class: "bubble" }, s.bid));
      if (s.hand && p !== v.you) kids.push(el("div", { role: "group", "aria-label": T("handOf", who(v, p)) }, s.hand.map((c) => card(c))));
      box.replaceChildren(...kids);
    }
  }

  function renderTrick(v) {
    const t = v.deal && v.deal.trick, box = $("#trick");
    box.replaceChildren();
    box.classList.toggle("done", !!(t && t.done));
    $("#trick-info").textContent = !t ? "" : t.done ? T("trickWon", t.n, who(v, t.winning), t.points)
      : T("trickLed", t.n, who(v, t.leader), who(v, t.winning));
    const now = t ? t.n + ":" + t.cards.map((pc) => pc.card).join(",") : "";
    const before = onTable;
    onTable = now;
    if (!t) return;
    t.cards.forEach((pc, i) => {
      const win = pc.seat === t.winning, lead = i === 0;
      const fresh = !before.startsWith(t.n + ":") || !before.includes(pc.card);
      const label = `${who(v, pc.seat)}: ${cardName(pc.card)}${lead ? ", " + T("led") : ""}${win ? ", " + (t.done ? T("wonIt") : T("winning")) : ""}`;
      box.append(el("div", { class: "t" + rel(v, pc.seat) + (fresh ? " arrive" : "") },
        card(pc.card, (win ? "win" : "") + (lead ? " lead" : ""), label), lead ? el("span", { class: "lead-mark", "aria-hidden": "true" }, T("ledMark")) : null));
    });
    if (before !== now && t.cards.length) Kit.sound("move");
  }

  function renderHand(v) {
    const box = $("#hand");
    box.hidden = v.you < 0;
    if (v.you < 0) return;
    const hand = v.seats[v.you].hand || [];
    const ok = new Set(v.decision && v.decision.kind === "card" ? v.decision.cards : []);
    // Cards are dimmed only when some may be played: the others are not.
    box.replaceChildren(...hand.map((c) => el("button", { type: "button", class: cardClass(c, ok.has(c) ? "playable" : ok.size ? "dim" : ""), "data-k": "card-" + c, "data-card": c,
      "aria-label": cardName(c) + (ok.size && !ok.has(c) ? ", " + T("notPlayable") : ""), disabled: !ok.has(c), onclick: () => Kit.act({ card: c }) }, cardShort(c))));
    if (!hand.length) box.append(el("span", { class: "muted" }, T("noCards")));
  }

  function renderDecide(v) {
    const box = $("#decide"), dec = v.decision, d = v.deal;
    if (dec && dec.kind === "cut" && box.dataset.id === String(dec.id)) return; // keep what the person is typing
    box.dataset.id = dec ? dec.id : "";
    const kids = [];
    if (dec && dec.kind === "cut") {
      const cut = v.cut || { min: 6, max: 26 };
      kids.push(el("form", { id: "cut-form", class: "row", onsubmit: (e) => {
        e.preventDefault();
        const f = Kit.form(e.target);
        Kit.act({ cut: { position: f.position, fromTop: f.from === "top" } });
      } }, el("span", {}, T("cutYou")),
      el("label", {}, T("cutTake"), el("input", { id: "cut-pos", name: "position", type: "number", min: cut.min, max: cut.max, value: 16 }), T("cutRange", cut.min, cut.max)),
      el("label", {}, T("cutFrom"), el("select", { id: "cut-from", name: "from" }, el("option", { value: "top" }, T("top")), el("option", { value: "bottom" }, T("bottom")))),
      el("button", { type: "submit", class: "primary", id: "cut-btn" }, T("cut"))));
    } else if (dec && dec.kind === "bid") {
      kids.push(el("span", {}, T("yourBid")), el("div", { id: "bids", class: "row", role: "group", "aria-label": T("bidsOffered"), "data-group": "bids" },
        dec.bids.map((o) => el("button", { type: "button", class: "bid" + (o.type === "Double" || o.type === "Redouble" ? " double" : ""),
          "data-k": `bid-${o.type}-${o.mode || ""}`, "data-type": o.type, "aria-label": o.type === "Announcement" ? T("announce", o.text) : o.text,
          onclick: () => Kit.act({ bid: { type: o.type, mode: o.mode || "" } }) }, sym(o.mode || "") + o.text))));
      if (dec.why && dec.why.length) kids.push(el("div", { class: "why muted" }, el("span", {}, T("notOffered")), el("ul", {}, dec.why.map((w) => el("li", {}, w)))));
    } else if (dec && dec.kind === "card") {
      kids.push(el("span", {}, T("playCard")));
    } else if (dec && dec.kind === "next") {
      kids.push(el("span", {}, T("dealOver")),
        el("button", { type: "button", class: "primary", id: "next-btn", "data-k": "next", onclick: () => Kit.act({ next: true }) }, T("nextDeal")));
    } else if (v.waiting) {
      kids.push(el("span", { class: "muted" }, v.waiting));
    }
    if (d && d.bids.length) kids.push(el("div", { class: "muted" }, T("bids") + " " + d.bids.map((x) => `${who(v, x.seat)} ${x.text}`).join(" · ")));
    if (v.watch && d && d.values && d.values.length) kids.push(valuesTable(v, d.values.slice(-1)));
    box.replaceChildren(...kids);
  }

  function renderLast(v) {
    const t = v.deal && v.deal.last, box = $("#last"), btn = $("#last-btn");
    btn.disabled = !t;
    btn.setAttribute("aria-expanded", lastOpen && t ? "true" : "false");
    box.hidden = !(lastOpen && t);
    if (!t) return;
    box.replaceChildren(T("lastLed", t.n, who(v, t.leader)) + " ",
      ...t.cards.flatMap((pc) => [card(pc.card, pc.seat === t.winning ? "win" : "", `${who(v, pc.seat)}: ${cardName(pc.card)}`), " "]),
      " " + T("lastWon", who(v, t.winning), t.points));
  }

  function toggleLast() {
    if (!view || !view.deal || !view.deal.last) return;
    lastOpen = !lastOpen;
    renderLast(view);
    if (lastOpen) speak($("#last").textContent);
  }

  // renderWatch: pause, step and speed, for the creator of a table of four bots only.
  function renderWatch(v) {
    $("#watch").hidden = !v.host || v.over;
    if (!v.host) return;
    const b = $("#pause-btn");
    b.textContent = v.paused ? T("resume") : T("pause");
    b.setAttribute("aria-pressed", v.paused ? "true" : "false");
    const s = $("#speed");
    if (document.activeElement !== s && [...s.options].some((o) => Number(o.value) === v.pace)) s.value = String(v.pace);
  }

  function renderDeals(v) {
    $("#deals-box").hidden = !v.deals.length;
    $("#deals").replaceChildren(...v.deals.map((l) => el("li", {}, T("dealLine", l.n, l.text, l.score[0], l.score[1]) + " ",
      el("button", { type: "button", "data-k": "show-" + l.n, "aria-pressed": v.detailN === l.n ? "true" : "false",
        onclick: () => Kit.act({ show: l.n }) }, T("details", l.n)))));
    // The server sends a deal's detail when it changes; the page keeps it.
    if (v.detail) detail = v.detail;
    if (!v.detailN || !detail || detail.n !== v.detailN) detail = v.detail || null;
    const d = detail, box = $("#detail");
    if (!d) { box.replaceChildren(); return; }
    if (box.dataset.n === String(d.n) && box.dataset.lang === v.lang && !v.detail) return;
    box.dataset.n = d.n;
    box.dataset.lang = v.lang;
    const hands = el("div", { class: "hands" }, [0, 1, 2, 3].map((p) => el("div", { class: "panel", role: "group", "aria-label": T("cardsOf", who(v, p)) },
      el("div", { class: "who" }, who(v, p) + (p === d.dealer ? ", " + T("dealer") : "")), d.hands[p].map((c) => card(c)))));
    const head = el("tr", {}, el("th", { scope: "col" }, T("trick")), SEATS.map((s, p) => el("th", { scope: "col" }, who(v, p))),
      el("th", { scope: "col" }, T("wonBy")), el("th", { scope: "col" }, T("pts")));
    const rows = d.tricks.map((t) => el("tr", {}, el("td", {}, t.n), [0, 1, 2, 3].map((p) => {
      const pc = t.cards.find((x) => x.seat === p);
      return el("td", { class: p === t.leader ? "lead" : "" }, pc ? card(pc.card, p === t.winning ? "win" : "", `${cardName(pc.card)}${p === t.leader ? ", " + T("led") : ""}`) : "",
        p === t.leader ? el("span", { class: "lead-mark", "aria-hidden": "true" }, T("ledMark")) : null);
    }), el("td", {}, seatName(v, t.winning)), el("td", {}, t.points)));
    box.replaceChildren(el("h3", {}, T("everyHand", d.n)), el("p", {}, d.cut ? d.cut + ". " : "", d.result),
      el("p", {}, T("bids") + " " + d.bids.map((x) => `${who(v, x.seat)} ${x.text}`).join(" · ")), hands,
      el("table", { class: "data tricks" }, el("caption", {}, T("tricks")), head, rows), valuesTable(v, d.values));
  }

  // valuesTable shows what our bot valued each card it could play.
  function valuesTable(v, vals) {
    if (!vals.length) return el("p", { class: "muted" }, T("noValues"));
    return el("table", { class: "data values" },
      el("caption", {}, T("valuesCaption")),
      el("tr", {}, el("th", { scope: "col" }, T("decision")), el("th", { scope: "col" }, T("bestFirst"))),
      vals.map((x) => el("tr", {}, el("td", {}, T("valuesRow", x.trick, who(v, x.seat), x.method, x.samples)),
        el("td", { class: "values-cards" }, x.cards.flatMap((cv) => {
          const notes = (cv.card === x.chosen ? " " + T("played") : "") + (x.method === "rollout" && cv.card === x.heuristic ? " " + T("heuristics") : "");
          return [card(cv.card, cv.card === x.chosen ? "win" : "", `${cardName(cv.card)}: ${cv.value.toFixed(2)}${notes}`), ` ${cv.value.toFixed(2)}${notes} `];
        })))));
  }

  // renderOver: the result, first thing on the table once the match is over.
  function renderOver(v, was) {
    $("#over").hidden = !v.over;
    if (!v.over) return;
    const r = $("#result");
    r.textContent = v.failure ? T("stopped", v.failure) : v.result;
    r.classList.toggle("good", v.won === true);
    r.classList.toggle("bad", v.won === false);
    $("#again-btn").hidden = !v.again;
    const review = $("#over-review");
    review.hidden = !v.deals.length;
    review.href = $("#review-link").href;
    // The last click may have scrolled the page down: the match's end
    // brings its result into sight, once.
    if (!was || !was.over) r.scrollIntoView({ block: "nearest" });
  }

  // again sets a new table with the same cards, seats rotated, and goes to it.
  async function again() {
    if (!view || !view.again) return;
    const r = await fetch("/play/api/giretra/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(view.again) });
    const b = await r.json().catch(() => ({}));
    if (r.status !== 201) { Kit.say(b.error || Kit.t("kit.js.error", r.status), true); return; }
    location.href = b.url;
  }

  function toggleHelp() {
    const h = $("#help"), b = $("#help-btn");
    h.hidden = !h.hidden;
    b.setAttribute("aria-expanded", String(!h.hidden));
  }

  function openRules() {
    const d = $("#rules");
    if (!d.open) d.showModal();
  }

  const click = (sel) => { const e = $(sel); if (e && !e.disabled) e.click(); };
  const focusIn = (sel) => { const e = $(sel + " button:not(:disabled)"); if (e) e.focus(); };

  function onKey(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target, k = e.key;
    if (t.matches && t.matches("input, select, textarea")) return;
    if (k === "?") { toggleHelp(); e.preventDefault(); return; }
    if (k.toLowerCase() === "r" && !$("#rules").open) { openRules(); e.preventDefault(); return; }
    if (!view) return;
    if (["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(k)) {
      const g = (t.closest && t.closest("[data-group]")) || (view.decision && view.decision.kind === "bid" ? $("#bids") : $("#hand"));
      const bs = g ? [...g.querySelectorAll("button:not(:disabled)")] : [];
      if (!bs.length) return;
      let i = bs.indexOf(document.activeElement);
      if (k === "Home") i = 0;
      else if (k === "End") i = bs.length - 1;
      else if (i < 0) i = 0;
      else i = (i + (k === "ArrowLeft" || k === "ArrowUp" ? -1 : 1) + bs.length) % bs.length;
      bs[i].focus();
      e.preventDefault();
      return;
    }
    switch (k.toLowerCase()) {
      case "l": toggleLast(); break;
      case "h": focusIn("#hand"); break;
      case "b": focusIn("#bids"); break;
      case "a": click('#bids [data-type="Accept"]'); break;
      case "n": click("#next-btn"); break;
      case "t": speak($("#trick-info").textContent || T("noTrick")); break;
      case "s": speak([...$("#scorebar").children].map((c) => c.textContent).join(", ")); break;
      case "p": if (view.host) Kit.act({ control: view.paused ? "resume" : "pause" }); break;
      case ".": if (view.host) Kit.act({ control: "step" }); break;
      default: return;
    }
    e.preventDefault();
  }

  setupForm();
  $("#last-btn").addEventListener("click", toggleLast);
  $("#help-btn").addEventListener("click", toggleHelp);
  $("#rules-btn").addEventListener("click", openRules);
  $("#pause-btn").addEventListener("click", () => Kit.act({ control: view && view.paused ? "resume" : "pause" }));
  $("#step-btn").addEventListener("click", () => Kit.act({ control: "step" }));
  $("#speed").addEventListener("change", (e) => Kit.act({ control: "speed", pace: Number(e.target.value) }));
  $("#again-btn").addEventListener("click", again);
  document.addEventListener("keydown", onKey);
  Kit.start("giretra", render);
})();
