// The Othello table: draws the view the server sends (boards, clocks,
// the squares the person may play, the controls the view offers) and
// sends the person's moves. The server's rules decide; the page only
// marks what the view offers. Its words are the page's language's
// (Kit.t); the server writes the log, the titles and the results.
"use strict";
(() => {
  const { el, $ } = Kit;
  const T = (k, ...a) => Kit.t("othello.js." + k, ...a);
  let built = "", focus = 0, got = 0, lastView = null;

  const setup = $("#setup-form");
  const syncSetup = () => {
    const watch = $("#watch").checked;
    $("#play-opts").hidden = watch;
    $("#watch-opts").hidden = !watch;
    const xot = $("#start").querySelector('option[value="xot"]');
    xot.disabled = $("#mode").value !== "std";
    if (xot.disabled && $("#start").value === "xot") $("#start").value = "initial";
  };
  setup.addEventListener("change", syncSetup);
  syncSetup();
  setup.addEventListener("submit", (e) => {
    e.preventDefault();
    const o = Kit.form(setup);
    // Only the fields of the table chosen: the engines A and B belong to
    // a watched match, the colour and the opponent to a game one plays.
    for (const k of o.table === "watch" ? ["colour", "opponent"] : ["a", "b"]) delete o[k];
    Kit.create(o);
  });

  const sqName = (sq, n) => String.fromCharCode(97 + (sq % n)) + (Math.floor(sq / n) + 1);
  const colourName = (c) => (c === 1 ? "black" : c === 2 ? "white" : "");
  const clockText = (ms) => {
    if (ms === null || ms === undefined) return "";
    const s = Math.max(0, Math.ceil(ms / 1000));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  };

  function build(v) {
    const box = $("#boards");
    box.textContent = "";
    v.legs.forEach((leg, li) => {
      const board = el("div", { class: "board", id: "board-" + li, role: "grid", "aria-label": leg.title });
      // Column letters above and row numbers beside, as moves are typed.
      board.style.gridTemplateColumns = `0.6fr repeat(${v.size}, 1fr)`;
      board.style.gridTemplateRows = `0.6fr repeat(${v.size}, 1fr)`;
      board.append(el("span", { class: "lab", "aria-hidden": "true" }));
      for (let c = 0; c < v.size; c++) board.append(el("span", { class: "lab", "aria-hidden": "true" }, String.fromCharCode(97 + c)));
      for (let sq = 0; sq < v.size * v.size; sq++) {
        const name = sqName(sq, v.size);
        if (sq % v.size === 0) board.append(el("span", { class: "lab", "aria-hidden": "true" }, String(sq / v.size + 1)));
        board.append(el("button", {
          class: "sq", type: "button", id: `sq-${li}-${name}`, tabindex: "-1", dataset: { sq: name, leg: li, i: sq },
          onclick: () => play(li, name), onkeydown: (e) => keys(e, li, sq, v.size),
        }));
      }
      box.append(el("div", { class: "leg", id: "leg-" + li },
        el("h2", { id: "title-" + li }, leg.title),
        el("div", { class: "players" }, el("span", { id: `p-${li}-1` }), el("span", { id: `p-${li}-2` })),
        el("p", { class: "pass", id: `pass-${li}`, hidden: true }),
        board));
    });
    built = v.legs.length + "x" + v.size;
  }

  // play sends the move on a square the view offers; a square it does not
  // offer is said so (the typed form sends anything: the server judges).
  function play(li, name) {
    const leg = lastView && lastView.legs[li];
    if (!leg || !(leg.legal || []).includes(name)) {
      Kit.say(T("notYours", name), true);
      return;
    }
    Kit.act({ move: name });
  }

  // Arrow keys move the focus over the board, Enter or Space plays there.
  function keys(e, li, sq, n) {
    const d = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -n, ArrowDown: n }[e.key];
    if (d === undefined) return;
    e.preventDefault();
    const to = sq + d;
    if (to < 0 || to >= n * n || (Math.abs(d) === 1 && Math.floor(to / n) !== Math.floor(sq / n))) return;
    focus = to;
    const b = $(`#sq-${li}-${sqName(to, n)}`);
    if (b) { roving(li); b.focus(); }
  }
  function roving(li) {
    document.querySelectorAll(".board button.sq").forEach((b) => {
      b.tabIndex = Number(b.dataset.leg) === li && b.id === `sq-${li}-${sqName(focus, lastView.size)}` ? 0 : -1;
    });
  }

  function drawLeg(v, leg, li) {
    const board = $("#board-" + li);
    const legal = new Set(leg.legal || []);
    for (const b of board.querySelectorAll("button.sq")) {
      const c = leg.cells[Number(b.dataset.i)];
      let cls = "sq", what = T("empty");
      if (c === "x") { cls += " x"; what = T("black"); } else if (c === "o") { cls += " o"; what = T("white"); } else if (c === "#") { cls += " blocked"; what = T("blocked"); }
      if (legal.has(b.dataset.sq)) { cls += " legal"; what = T("yourMove", what); }
      if (b.dataset.sq === leg.last) { cls += " last"; what = T("lastMove", what); }
      b.className = cls;
      b.setAttribute("aria-label", T("square", b.dataset.sq, what));
    }
    for (const c of [1, 2]) {
      const p = leg.players[c - 1];
      const span = $(`#p-${li}-${c}`);
      span.className = leg.turn === c && !leg.over ? "turn" : "";
      span.textContent = `${c === 1 ? "●" : "○"} ${p.name} · ${p.discs}` + (p.clock_ms !== null ? " · " : "");
      if (p.clock_ms !== null) span.append(el("span", { class: "clock", id: `clock-${li}-${c}`, dataset: { ms: p.clock_ms, running: p.running ? "1" : "" } }, clockText(p.clock_ms)));
    }
    $("#title-" + li).textContent = leg.title;
    const pass = $("#pass-" + li);
    pass.textContent = leg.pass || "";
    pass.hidden = !leg.pass;
    board.dataset.turn = colourName(leg.turn);
    board.dataset.over = leg.over ? "1" : "";
    return legal.size > 0;
  }

  function render(v) {
    const was = lastView;
    lastView = v;
    got = performance.now();
    document.body.dataset.mode = v.mode;
    if (built !== v.legs.length + "x" + v.size) build(v);
    let mine = -1;
    v.legs.forEach((leg, li) => { if (drawLeg(v, leg, li)) mine = li; });
    // The sound switch's sounds (off unless the person turns them on):
    // a disc placed, and the person's turn.
    const discs = (w) => (w ? w.legs.reduce((n, l) => n + l.cells.replace(/[^xo]/g, "").length, 0) : 0);
    if (was && discs(v) > discs(was)) Kit.sound(mine >= 0 ? "turn" : "move");
    document.body.dataset.turn = mine >= 0 ? "you" : v.over ? "over" : "wait";
    if (mine >= 0 && $(`#sq-${mine}-${sqName(focus, v.size)}`)) roving(mine);
    $("#game").textContent = v.game || "";
    $("#headline").textContent = v.headline || "";
    // Each control only where it acts: the move form for the person who
    // plays, pause, step and speed for whoever set the watched match up.
    $("#move-form").hidden = !v.play;
    $("#watch-controls").hidden = !v.controls;
    if (v.controls) {
      $("#pause").textContent = v.paused ? T("resume") : T("pause");
      $("#step").disabled = !v.paused;
      if (document.activeElement !== $("#speed")) $("#speed").value = String(v.speed);
    }
    $("#over").hidden = !v.over;
    $("#result").textContent = v.over ? v.result : "";
    $("#again-btn").hidden = !v.again;
    document.body.dataset.over = v.over ? "1" : "";
  }

  // The clocks run down between views (the server's clock decides).
  setInterval(() => {
    document.querySelectorAll(".clock[data-running='1']").forEach((c) => {
      c.textContent = clockText(Number(c.dataset.ms) - (performance.now() - got));
    });
  }, 250);

  $("#move-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const t = $("#move-input").value.trim();
    if (!t) return;
    Kit.act({ move: t }).then((ok) => { if (ok) $("#move-input").value = ""; });
  });
  const pause = () => { if (lastView && lastView.controls) Kit.act({ control: lastView.paused ? "resume" : "pause" }); };
  const step = () => { if (lastView && lastView.controls && lastView.paused) Kit.act({ control: "step" }); };
  $("#pause").addEventListener("click", pause);
  $("#step").addEventListener("click", step);
  $("#speed").addEventListener("change", () => Kit.act({ control: "speed", ms: Number($("#speed").value) }));
  $("#again-btn").addEventListener("click", () => {
    if (lastView && lastView.again) { built = ""; Kit.create(lastView.again); }
  });

  const toggleHelp = () => {
    const h = $("#help");
    h.hidden = !h.hidden;
    $("#help-btn").setAttribute("aria-expanded", String(!h.hidden));
  };
  $("#help-btn").addEventListener("click", toggleHelp);
  const typing = (e) => ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName);
  document.addEventListener("keydown", (e) => {
    if (typing(e) || e.ctrlKey || e.metaKey || e.altKey) return;
    switch (e.key) {
      case "?": toggleHelp(); break;
      case "p": case "P": pause(); break;
      case ".": step(); break;
      case "b": case "B": {
        const b = document.querySelector('.board button.sq[tabindex="0"]') || document.querySelector(".board button.sq");
        if (b) b.focus();
        break;
      }
      default: return;
    }
    e.preventDefault();
  });
  // M moves to the move box on key up, so that the key's own character
  // is not typed into it.
  document.addEventListener("keyup", (e) => {
    if (!typing(e) && (e.key === "m" || e.key === "M") && lastView && lastView.play) $("#move-input").focus();
  });

  Kit.start("othello", render);
})();
