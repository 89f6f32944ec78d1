// The Giretra table page: draws the person's seat's view and turns clicks
// and keys into the actions it offers. It holds no rules: the cards that
// may be played and the bids that may be made come with each view.
"use strict";
(() => {
  const { el, $ } = Kit;
  const SEATS = ["Bottom", "Left", "Top", "Right"];
  const SUITS = ["Clubs", "Diamonds", "Hearts", "Spades"], SYM = ["♣", "♦", "♥", "♠"];
  const RANK = { 7: "Seven", 8: "Eight", 9: "Nine", T: "Ten", J: "Jack", Q: "Queen", K: "King", A: "Ace" };
  const COLOUR = { ColourClubs: 0, ColourDiamonds: 1, ColourHearts: 2, ColourSpades: 3 };
  const DEFAULTS = ["you", "Eva", "bot", "Eva"];
  let view = null, asked = 0, lastOpen = false;

  const suit = (c) => "CDHS".indexOf(c[1]);
  const cardName = (c) => RANK[c[0]] + " of " + SUITS[suit(c)];
  const cardShort = (c) => (c[0] === "T" ? "10" : c[0]) + SYM[suit(c)];
  const cardClass = (c, extra) => "card" + (suit(c) === 1 || suit(c) === 2 ? " red" : "") + (extra ? " " + extra : "");
  const sym = (mode) => (mode in COLOUR ? SYM[COLOUR[mode]] + " " : "");
  const who = (v, p) => (p === v.you ? "You" : `${SEATS[p]} (${v.seats[p].name})`);
  // rel places a seat on the screen: the person (Bottom when watching) at the bottom, the others clockwise.
  const rel = (v, p) => "swne"[(p - Math.max(v.you, 0) + 4) % 4];
  const card = (c, extra, label) => el("span", { class: cardClass(c, extra), role: "img", "aria-label": label || cardName(c) }, cardShort(c));
  const speak = (text) => { $("#live").textContent = text; };

  // setupForm offers, for each seat, what the server says it may hold:
  // a person, our bot, the engine's agents, the bots it was given, and a
  // bot URL where it allows them.
  async function setupForm() {
    let c = { agents: [], bots: [], urls: "" };
    try { const r = await fetch("/play/api/giretra/choices"); if (r.ok) c = await r.json(); } catch (e) { /* the fixed choices remain */ }
    const choices = [["you", "You"], ["person", "Another person (a link to pass on)"], ["bot", "gamebot (our bot)"],
      ...c.agents.map((a) => [a.name, a.label]), ...c.bots.map((b) => [b.name, b.label + " (your bot)"])];
    if (c.urls) choices.push(["url", "A bot server, by URL…"]);
    SEATS.forEach((s, i) => {
      const sel = el("select", { id: "seat-" + i, name: "seat" + i }, choices.map(([v, t]) => el("option", { value: v }, t)));
      sel.value = DEFAULTS[i];
      const at = el("input", { id: "at-" + i, name: "at" + i, type: "url", size: 30, disabled: true, hidden: !c.urls, placeholder: "http://127.0.0.1:5063",
        "aria-label": s + ": the bot server's URL", title: c.urls ? "Bot URLs allowed: " + c.urls : "" });
      sel.addEventListener("change", () => { at.disabled = sel.value !== "url"; if (!at.disabled) at.focus(); });
      $("#seat-rows").append(el("div", { class: "seatrow" }, el("label", { for: "seat-" + i, class: "seatname" }, s), sel, at));
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
    view = v;
    const active = document.activeElement, key = active && active.dataset ? active.dataset.k : null;
    const b = document.body.dataset, d = v.deal;
    b.turn = v.decision ? "you" : "";
    b.decision = v.decision ? v.decision.kind : "";
    b.over = v.over ? "1" : "";
    b.deal = d ? d.n : 0;
    b.watch = v.watch ? "1" : "";
    b.paused = v.paused ? "1" : "";
    renderScore(v);
    renderSeats(v);
    renderTrick(v);
    renderHand(v);
    renderDecide(v);
    renderLast(v);
    renderWatch(v);
    renderDeals(v);
    renderOver(v);
    $("#review-link").hidden = !v.deals.length;
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
    $("#scorebar").replaceChildren(team(0), team(1), el("span", {}, `target ${v.target}`), el("span", {}, d ? `deal ${d.n}` : "dealing"),
      el("span", { id: "contract" }, c ? `contract: ${sym(c.mode)}${c.text} by ${who(v, c.announcer)}` : d && d.cut ? "bidding" : ""),
      c ? el("span", {}, `card points ${d.points[0]}–${d.points[1]}, tricks ${d.tricks[0]}–${d.tricks[1]}`) : "",
      v.seed !== undefined ? el("span", { class: "muted" }, `seed ${v.seed}`) : null);
  }

  function renderSeats(v) {
    for (let p = 0; p < 4; p++) {
      const s = v.seats[p], box = $("#pos-" + rel(v, p));
      box.classList.toggle("turn", s.turn);
      const kids = [el("div", { class: "who" }, p === v.you ? `You (${s.seat})` : `${s.name} (${s.seat})`,
        s.dealer ? [" ", el("span", { class: "chip", role: "img", "aria-label": "dealer" }, "D")] : ""),
        el("div", { class: "info" }, `${s.cards} card${s.cards === 1 ? "" : "s"}`, s.turn ? (p === v.you ? " · your turn" : " · to play") : "")];
      if (s.bid) kids.push(el("span", { class: "bubble" }, s.bid));
      if (s.hand && p !== v.you) kids.push(el("div", { role: "group", "aria-label": `${who(v, p)}'s hand` }, s.hand.map((c) => card(c))));
      box.replaceChildren(...kids);
    }
  }

  function renderTrick(v) {
    const t = v.deal && v.deal.trick, box = $("#trick");
    box.replaceChildren();
    box.classList.toggle("done", !!(t && t.done));
    $("#trick-info").textContent = !t ? "" : t.done ? `Trick ${t.n}: ${who(v, t.winning)} won ${t.points} points.`
      : `Trick ${t.n}, led by ${who(v, t.leader)}: ${who(v, t.winning)} wins so far.`;
    if (!t) return;
    for (const pc of t.cards) {
      const win = pc.seat === t.winning;
      box.append(el("div", { class: "t" + rel(v, pc.seat) },
        card(pc.card, win ? "win" : "", `${who(v, pc.seat)}: ${cardName(pc.card)}${win ? (t.done ? ", won the trick" : ", winning so far") : ""}`)));
    }
  }

  function renderHand(v) {
    const box = $("#hand");
    box.hidden = v.you < 0;
    if (v.you < 0) return;
    const hand = v.seats[v.you].hand || [];
    const ok = new Set(v.decision && v.decision.kind === "card" ? v.decision.cards : []);
    box.replaceChildren(...hand.map((c) => el("button", { type: "button", class: cardClass(c, ok.has(c) ? "playable" : ""), "data-k": "card-" + c, "data-card": c,
      "aria-label": cardName(c) + (ok.size && !ok.has(c) ? ", not playable" : ""), disabled: !ok.has(c), onclick: () => Kit.act({ card: c }) }, cardShort(c))));
    if (!hand.length) box.append(el("span", { class: "muted" }, "No cards in hand."));
  }

  function renderDecide(v) {
    const box = $("#decide"), dec = v.decision, d = v.deal;
    if (dec && dec.kind === "cut" && box.dataset.id === String(dec.id)) return; // keep what the person is typing
    box.dataset.id = dec ? dec.id : "";
    const kids = [];
    if (dec && dec.kind === "cut") {
      kids.push(el("form", { id: "cut-form", class: "row", onsubmit: (e) => {
        e.preventDefault();
        const f = Kit.form(e.target);
        Kit.act({ cut: { position: f.position, fromTop: f.from === "top" } });
      } }, el("span", {}, "You cut the deck:"),
      el("label", {}, "at ", el("input", { id: "cut-pos", name: "position", type: "number", min: 6, max: 26, value: 16 }), " cards"),
      el("label", {}, "from the ", el("select", { id: "cut-from", name: "from" }, el("option", { value: "top" }, "top"), el("option", { value: "bottom" }, "bottom"))),
      el("button", { type: "submit", class: "primary", id: "cut-btn" }, "Cut")));
    } else if (dec && dec.kind === "bid") {
      kids.push(el("span", {}, "Your bid:"), el("div", { id: "bids", class: "row", role: "group", "aria-label": "The bids you may make", "data-group": "bids" },
        dec.bids.map((o) => el("button", { type: "button", class: "bid" + (o.type === "Double" || o.type === "Redouble" ? " double" : ""),
          "data-k": `bid-${o.type}-${o.mode || ""}`, "data-type": o.type, "aria-label": o.type === "Announcement" ? "Announce " + o.text : o.text,
          onclick: () => Kit.act({ bid: { type: o.type, mode: o.mode || "" } }) }, sym(o.mode || "") + o.text))));
    } else if (dec && dec.kind === "card") {
      kids.push(el("span", {}, "Your turn: play a card (← → to choose, Enter to play)."));
    } else if (dec && dec.kind === "next") {
      kids.push(el("span", {}, "The deal is over: its summary is below."),
        el("button", { type: "button", class: "primary", id: "next-btn", "data-k": "next", onclick: () => Kit.act({ next: true }) }, "Next deal (N)"));
    } else if (d && !v.over) {
      const p = v.seats.findIndex((s) => s.turn);
      if (p >= 0) kids.push(el("span", { class: "muted" }, `Waiting for ${who(v, p)}.`));
    }
    if (d && d.bids.length) kids.push(el("div", { class: "muted" }, "Bids: " + d.bids.map((x) => `${who(v, x.seat)} ${x.text}`).join(" · ")));
    if (v.watch && d && d.values && d.values.length) kids.push(valuesTable(v, d.values.slice(-1)));
    box.replaceChildren(...kids);
  }

  function renderLast(v) {
    const t = v.deal && v.deal.last, box = $("#last"), btn = $("#last-btn");
    btn.disabled = !t;
    btn.setAttribute("aria-expanded", lastOpen && t ? "true" : "false");
    box.hidden = !(lastOpen && t);
    if (!t) return;
    box.replaceChildren(`Trick ${t.n}, led by ${who(v, t.leader)}: `,
      ...t.cards.flatMap((pc) => [card(pc.card, pc.seat === t.winning ? "win" : "", `${who(v, pc.seat)}: ${cardName(pc.card)}`), " "]),
      `— ${who(v, t.winning)} won ${t.points} points.`);
  }

  function toggleLast() {
    if (!view || !view.deal || !view.deal.last) return;
    lastOpen = !lastOpen;
    renderLast(view);
    if (lastOpen) speak($("#last").textContent);
  }

  function renderWatch(v) {
    $("#watch").hidden = !v.watch || v.over;
    if (!v.watch) return;
    const b = $("#pause-btn");
    b.textContent = v.paused ? "Resume (P)" : "Pause (P)";
    b.setAttribute("aria-pressed", v.paused ? "true" : "false");
    const s = $("#speed");
    if (document.activeElement !== s && [...s.options].some((o) => Number(o.value) === v.pace)) s.value = String(v.pace);
  }

  function renderDeals(v) {
    $("#deals-box").hidden = !v.deals.length;
    $("#deals").replaceChildren(...v.deals.map((l) => el("li", {}, `Deal ${l.n}: ${l.text} Score ${l.score[0]}–${l.score[1]}. `,
      el("button", { type: "button", "data-k": "show-" + l.n, "aria-pressed": v.detail && v.detail.n === l.n ? "true" : "false",
        onclick: () => Kit.act({ show: l.n }) }, `Details of deal ${l.n}`))));
    const d = v.detail, box = $("#detail");
    if (!d) { box.replaceChildren(); return; }
    const hands = el("div", { class: "hands" }, [0, 1, 2, 3].map((p) => el("div", { class: "panel", role: "group", "aria-label": `${who(v, p)}'s cards` },
      el("div", { class: "who" }, who(v, p) + (p === d.dealer ? ", dealer" : "")), d.hands[p].map((c) => card(c)))));
    const head = el("tr", {}, el("th", { scope: "col" }, "trick"), SEATS.map((s, p) => el("th", { scope: "col" }, who(v, p))),
      el("th", { scope: "col" }, "won by"), el("th", { scope: "col" }, "points"));
    const rows = d.tricks.map((t) => el("tr", {}, el("td", {}, t.n), [0, 1, 2, 3].map((p) => {
      const pc = t.cards.find((x) => x.seat === p);
      return el("td", {}, pc ? card(pc.card, p === t.winning ? "win" : "") : "");
    }), el("td", {}, SEATS[t.winning]), el("td", {}, t.points)));
    box.replaceChildren(el("h3", {}, `Deal ${d.n}, every hand`), el("p", {}, d.cut ? d.cut + ". " : "", d.result),
      el("p", {}, "Bids: " + d.bids.map((x) => `${who(v, x.seat)} ${x.text}`).join(" · ")), hands,
      el("table", { class: "data" }, el("caption", {}, "Tricks"), head, rows), valuesTable(v, d.values));
  }

  // valuesTable shows what our bot valued each card it could play.
  function valuesTable(v, vals) {
    if (!vals.length) return el("p", { class: "muted" }, "No searched card of our bot in this deal (a lone card, or none of its seats).");
    return el("table", { class: "data values" },
      el("caption", {}, "What our bot valued each card it could play: the deal's worth to its team, averaged over the deals it sampled (higher is better)"),
      el("tr", {}, el("th", { scope: "col" }, "decision"), el("th", { scope: "col" }, "cards, best first")),
      vals.map((x) => el("tr", {}, el("td", {}, `trick ${x.trick}, ${who(v, x.seat)}: ${x.method}, ${x.samples} deals`),
        el("td", { class: "values-cards" }, x.cards.flatMap((cv) => {
          const notes = (cv.card === x.chosen ? " played" : "") + (x.method === "rollout" && cv.card === x.heuristic ? " heuristic's" : "");
          return [card(cv.card, cv.card === x.chosen ? "win" : "", `${cardName(cv.card)}: ${cv.value.toFixed(2)}${notes}`), ` ${cv.value.toFixed(2)}${notes} `];
        })))));
  }

  function renderOver(v) {
    $("#over").hidden = !v.over;
    if (!v.over) return;
    $("#result").textContent = v.failure ? "The match stopped: " + v.failure : v.result;
    $("#again-btn").hidden = !v.again;
  }

  // again sets a new table with the same cards, seats rotated, and goes to it.
  async function again() {
    if (!view || !view.again) return;
    const r = await fetch("/play/api/giretra/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(view.again) });
    const b = await r.json().catch(() => ({}));
    if (r.status !== 201) { Kit.say(b.error || "error " + r.status, true); return; }
    location.href = b.url;
  }

  function toggleHelp() {
    const h = $("#help"), b = $("#help-btn");
    h.hidden = !h.hidden;
    b.setAttribute("aria-expanded", String(!h.hidden));
  }

  const click = (sel) => { const e = $(sel); if (e && !e.disabled) e.click(); };
  const focusIn = (sel) => { const e = $(sel + " button:not(:disabled)"); if (e) e.focus(); };

  function onKey(e) {
    if (e.altKey || e.ctrlKey || e.metaKey || !view) return;
    const t = e.target, k = e.key;
    if (t.matches && t.matches("input, select, textarea")) return;
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
      case "t": speak($("#trick-info").textContent || "No card on the table."); break;
      case "s": speak([...$("#scorebar").children].map((c) => c.textContent).join(", ")); break;
      case "p": if (view.watch) Kit.act({ control: view.paused ? "resume" : "pause" }); break;
      case ".": if (view.watch) Kit.act({ control: "step" }); break;
      case "?": toggleHelp(); break;
      default: return;
    }
    e.preventDefault();
  }

  setupForm();
  $("#last-btn").addEventListener("click", toggleLast);
  $("#help-btn").addEventListener("click", toggleHelp);
  $("#pause-btn").addEventListener("click", () => Kit.act({ control: view && view.paused ? "resume" : "pause" }));
  $("#step-btn").addEventListener("click", () => Kit.act({ control: "step" }));
  $("#speed").addEventListener("change", (e) => Kit.act({ control: "speed", pace: Number(e.target.value) }));
  $("#again-btn").addEventListener("click", again);
  document.addEventListener("keydown", onKey);
  Kit.start("giretra", render);
})();
