// Battleship's table page: draws the person's view (their fleet, every
// shot and its answer, the bot's fleet once the game is over) and turns
// clicks and keys into actions. It holds no rules: the server says where
// a ship may go, whose turn it is and what a shot hit. Its words are the
// page's language's (Kit.t); the server writes the log and the result.
"use strict";
(() => {
  const { el, $ } = Kit;
  const T = (k, ...a) => Kit.t("battleship.js." + k, ...a);
  const ids = ["mine", "theirs"];
  let W = 0, H = 0, v = null;
  const cells = { mine: [], theirs: [] };
  const cur = { mine: 0, theirs: 0 }; // the keyboard cursor, a cell index
  let hover = -1; // the cell of the person's board under the mouse
  let selLen = 0, vert = false; // the ship to place and its direction
  // send queues the page's actions: one in flight at a time, each sent
  // with the version the one before left (Kit.act drops an action while
  // another is in flight). An action may be a function of the view it is
  // sent on (null: nothing to send).
  let queue = Promise.resolve(false);
  const send = (a) => {
    const go = () => {
      const x = typeof a === "function" ? a(Kit.view) : a;
      return x ? Kit.act(x) : false;
    };
    return (queue = queue.then(go, go));
  };

  // build draws both boards: a row of column numbers, then each row with
  // its number, from 0 as shots are typed. On a large board only every
  // fifth or tenth line is numbered.
  function build(w, h) {
    W = w; H = h;
    const size = Math.max(0.45, Math.min(1.9, 30 / Math.max(w, h)));
    const step = size >= 1.2 ? 1 : size >= 0.7 ? 5 : 10;
    const label = (role, n) => el("div", { class: "lab", role }, n % step === 0 ? String(n) : "");
    for (const id of ids) {
      const b = $("#" + id);
      b.textContent = "";
      b.style.setProperty("--cell", size + "rem");
      b.style.gridTemplateColumns = `var(--lab) repeat(${w}, var(--cell))`;
      const head = el("div", { role: "row", class: "r" }, el("div", { class: "lab", role: "columnheader", "aria-label": "x" }, ""));
      for (let x = 0; x < w; x++) head.append(label("columnheader", x));
      b.append(head);
      cells[id] = [];
      for (let y = 0; y < h; y++) {
        const row = el("div", { role: "row", class: "r" }, label("rowheader", y));
        for (let x = 0; x < w; x++) {
          const c = el("div", { class: "c", role: "gridcell", id: `${id}-${x}-${y}`, "data-x": x, "data-y": y });
          cells[id].push(c);
          row.append(c);
        }
        b.append(row);
      }
      cur[id] = 0;
    }
  }

  // shipCells are the cell indexes of a ship {x, y, len, vertical}.
  function shipCells(s) {
    const out = [];
    for (let i = 0; i < s.len; i++) {
      const x = s.vertical ? s.x : s.x + i, y = s.vertical ? s.y + i : s.y;
      if (x < W && y < H) out.push(y * W + x);
    }
    return out;
  }

  // heat blends the water's colour into dark red as q (0..255) grows.
  function heat(q) {
    const mix = (a, b) => Math.round(a + ((b - a) * q) / 255);
    return `rgb(${mix(223, 155)}, ${mix(234, 28)}, ${mix(245, 28)})`;
  }

  // paint sets a cell's class, label and background only when they change.
  function paint(c, cls, label, bg) {
    if (c.className !== cls) c.className = cls;
    if (c.getAttribute("aria-label") !== label) { c.setAttribute("aria-label", label); c.title = label; }
    if (c.style.background !== bg) c.style.background = bg;
  }

  const word = (r) => T("shot." + r);

  function drawMine() {
    const n = W * H, ship = new Array(n).fill(false), shot = new Array(n).fill(null);
    for (const s of v.mine) for (const i of shipCells(s)) ship[i] = true;
    const ex = v.explain, exMode = v.phase === "over" && ex;
    // In the review, the bot's shots before the one explained.
    const shots = exMode ? v.at_me.slice(0, ex.shot) : v.at_me;
    for (const s of shots) if (s.x < W && s.y < H) { const i = s.y * W + s.x; if (shot[i] !== "hit" && shot[i] !== "sunk") shot[i] = s.r; }
    const ghost = new Set();
    if (v.phase === "place" && selLen) {
      const at = hover >= 0 ? hover : cur.mine;
      for (const i of shipCells({ x: at % W, y: Math.floor(at / W), len: selLen, vertical: vert })) ghost.add(i);
    }
    const last = shots.length && !exMode ? shots[shots.length - 1] : null;
    const map = exMode && ex.map ? atob(ex.map) : null;
    for (let i = 0; i < n; i++) {
      const x = i % W, y = Math.floor(i / W);
      let cls = "c", label = `${x},${y}`, bg = "";
      if (ship[i]) { cls += " ship"; label += ", " + T("yourShip"); }
      if (shot[i]) { cls += " " + shot[i]; label += ", " + word(shot[i]); }
      if (ghost.has(i) && !ship[i]) cls += " ghost";
      if (last && last.x === x && last.y === y) cls += " last";
      if (exMode && ex.x === x && ex.y === y) { cls += " aim"; label += ", " + T("botsShot"); }
      if (map && !shot[i]) {
        const q = map.charCodeAt(i);
        cls += " heat";
        bg = heat(q);
        label += `, ${(100 * q / 255 * ex.top).toFixed(1)}%`;
      }
      if (i === cur.mine) cls += " cur";
      paint(cells.mine[i], cls, label, bg);
    }
    $("#mine").setAttribute("aria-activedescendant", `mine-${cur.mine % W}-${Math.floor(cur.mine / W)}`);
  }

  function drawTheirs() {
    const n = W * H, shot = new Array(n).fill(null), bship = new Array(n).fill(false);
    for (const s of v.at_bot) if (s.x < W && s.y < H) shot[s.y * W + s.x] = s.r;
    for (const s of v.bot_ships || []) for (const i of shipCells(s)) bship[i] = true;
    const last = v.at_bot.length ? v.at_bot[v.at_bot.length - 1] : null;
    for (let i = 0; i < n; i++) {
      const x = i % W, y = Math.floor(i / W);
      let cls = "c", label = `${x},${y}`;
      if (bship[i]) { cls += " bship"; label += ", " + T("botShip"); }
      if (shot[i]) { cls += " " + shot[i]; label += ", " + word(shot[i]); } else if (!bship[i]) label += ", " + T("notFired");
      if (last && last.x === x && last.y === y) cls += " last";
      if (i === cur.theirs) cls += " cur";
      paint(cells.theirs[i], cls, label, "");
    }
    $("#theirs").setAttribute("aria-activedescendant", `theirs-${cur.theirs % W}-${Math.floor(cur.theirs / W)}`);
  }

  function drawRoster() {
    const r = $("#roster");
    r.textContent = "";
    if (!v.left.includes(selLen)) selLen = v.left.length ? v.left[0] : 0;
    const counts = new Map();
    for (const l of v.left) counts.set(l, (counts.get(l) || 0) + 1);
    for (const [l, k] of counts) {
      r.append(el("button", { type: "button", "aria-pressed": String(l === selLen), "aria-label": T("rosterLabel", l, k), onclick: () => { selLen = l; draw(); } }, `${l} ×${k}`));
    }
    if (!counts.size) r.append(el("span", {}, T("allPlaced")));
    $("#dir").textContent = vert ? T("down") : T("across");
  }

  function headline() {
    const name = v.bot;
    switch (v.phase) {
      case "place": return T(v.seat === 0 ? "placeYouFirst" : "placeBotFirst", v.left.length, v.ships, name);
      case "wait": return T("waiting", name);
      case "play": return v.turn === "you" ? T("yourTurn", name) : T("aiming", name);
    }
    return "";
  }

  function drawExplain() {
    const ex = v.explain, box = $("#explain");
    box.hidden = !ex;
    if (!ex) return;
    $("#map-label").textContent = T(ex.r ? "mapLabelR" : "mapLabel", ex.shot + 1, ex.of, ex.x, ex.y, ex.r ? word(ex.r) : "");
    $("#map-prev").disabled = ex.shot === 0;
    $("#map-next").disabled = ex.shot + 1 >= ex.of;
    const pct = (p) => (100 * p).toFixed(1) + "%";
    let why;
    if (ex.fallback) why = T("fallback");
    else if (ex.hunting) why = T("hunting", pct(ex.spread), pct(ex.best), pct(ex.p));
    else why = T("likeliest", pct(ex.p), ex.explanations);
    if (!ex.map) why += " " + T("notKept");
    $("#map-why").textContent = why;
  }

  function draw() {
    if (!v) return;
    drawMine();
    drawTheirs();
    drawRoster();
    drawExplain();
  }

  function render(view) {
    // A shot fired since the last view is heard (when the person turned
    // the sound on); the first view of a page is not news.
    const fired = view.at_me.length + view.at_bot.length;
    if (v && fired > v.at_me.length + v.at_bot.length) Kit.sound("move");
    v = view;
    if (v.w !== W || v.h !== H) build(v.w, v.h);
    const b = document.body.dataset;
    b.phase = v.phase;
    b.turn = v.turn || "";
    b.yours = v.at_bot.length;
    b.theirs = v.at_me.length;
    b.explained = v.explain ? v.explain.shot : "";
    $("#placing").hidden = v.phase !== "place";
    // The shot box stays in its place, out of sight while the bot aims.
    $("#fire-form").hidden = v.phase !== "play";
    $("#fire-form").classList.toggle("idle", v.turn !== "you");
    $("#fire").disabled = v.turn !== "you";
    $("#after").hidden = v.phase !== "over";
    $("#theirs").classList.toggle("off", v.phase !== "play");
    $("#headline").textContent = headline();
    $("#headline").hidden = v.phase === "over";
    $("#theirs-h").textContent = T("waters", v.bot);
    $("#mine-tally").textContent = T("tallyBot", v.bot, v.at_me.length, v.sunk_by_bot, v.ships);
    $("#theirs-tally").textContent = T("tallyYou", v.at_bot.length, v.sunk_by_you, v.ships);
    renderOver();
    draw();
  }

  // renderOver: the result, first thing on the table once the game is
  // over, with what to do next.
  function renderOver() {
    const r = v.result;
    $("#over").hidden = !r;
    if (!r) return;
    $("#result").textContent = r.why;
    $("#result").classList.toggle("good", r.won);
    $("#result").classList.toggle("bad", !r.won);
    $("#again-btn").hidden = !v.again;
    $("#over-review").href = $("#review-link").href;
    $("#over-review").hidden = $("#review-link").hidden;
  }

  // again sets a table with the same board, fleet and opponent, and goes
  // to it.
  async function again() {
    if (!v || !v.again) return;
    const r = await fetch("/play/api/battleship/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(v.again) });
    const b = await r.json().catch(() => ({}));
    if (r.status !== 201) { Kit.say(b.error || Kit.t("kit.js.error", r.status), true); return; }
    location.href = b.url;
  }

  // act is a click or Enter on cell i of board id.
  function act(id, i) {
    if (!v) return;
    const x = i % W, y = Math.floor(i / W);
    if (id === "mine" && v.phase === "place") {
      if (v.mine.some((s) => shipCells(s).includes(i))) send({ type: "remove", x, y });
      else if (selLen) send({ type: "place", x, y, len: selLen, vertical: vert });
    } else if (id === "theirs" && v.phase === "play") {
      send({ type: "shoot", x, y });
    }
  }

  function cellOf(e) {
    const c = e.target.closest(".c");
    return c ? +c.dataset.y * W + +c.dataset.x : -1;
  }

  function step(d) {
    send((w) => {
      const e = w && w.explain;
      return e && e.shot + d >= 0 && e.shot + d < e.of ? { type: "explain", shot: e.shot + d } : null;
    });
  }

  for (const id of ids) {
    const b = $("#" + id);
    b.addEventListener("click", (e) => {
      const i = cellOf(e);
      if (i < 0) return;
      cur[id] = i;
      act(id, i);
      draw();
    });
    b.addEventListener("keydown", (e) => {
      const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
      if (moves[e.key]) {
        const [dx, dy] = moves[e.key], i = cur[id];
        const x = Math.min(W - 1, Math.max(0, (i % W) + dx)), y = Math.min(H - 1, Math.max(0, Math.floor(i / W) + dy));
        cur[id] = y * W + x;
        hover = -1;
        draw();
        e.preventDefault();
      } else if (e.key === "Enter" || e.key === " ") {
        act(id, cur[id]);
        e.preventDefault();
      }
    });
  }
  $("#mine").addEventListener("mouseover", (e) => {
    const i = cellOf(e);
    if (i >= 0 && i !== hover && v && v.phase === "place") { hover = i; drawMine(); }
  });
  $("#mine").addEventListener("mouseleave", () => { hover = -1; if (v) drawMine(); });

  document.addEventListener("keydown", (e) => {
    const t = e.target.tagName;
    if (t === "INPUT" || t === "SELECT" || t === "TEXTAREA" || e.ctrlKey || e.metaKey || e.altKey || !v) return;
    if ((e.key === "r" || e.key === "R") && v.phase === "place") { vert = !vert; draw(); }
    else if (/^[1-6]$/.test(e.key) && v.phase === "place" && v.left.includes(+e.key)) { selLen = +e.key; draw(); }
    else if (e.key === "[") step(-1);
    else if (e.key === "]") step(1);
  });

  // F moves to the shot box on key up, so that the key's own character is
  // not typed into it.
  document.addEventListener("keyup", (e) => {
    const t = e.target.tagName;
    if ((e.key === "f" || e.key === "F") && v && v.phase === "play" && t !== "INPUT" && t !== "SELECT" && t !== "TEXTAREA") $("#fire-at").focus();
  });
  $("#rotate").addEventListener("click", () => { vert = !vert; draw(); });
  $("#random").addEventListener("click", () => send({ type: "random" }));
  $("#botplace").addEventListener("click", () => send({ type: "bot" }));
  $("#clear").addEventListener("click", () => send({ type: "clear" }));
  $("#start").addEventListener("click", () => send({ type: "start" }));
  $("#map-prev").addEventListener("click", () => step(-1));
  $("#map-next").addEventListener("click", () => step(1));
  $("#fire-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = $("#fire-at");
    if (await send({ type: "shoot", at: f.value })) f.value = "";
  });
  $("#again-btn").addEventListener("click", again);
  $("#setup-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const o = Kit.form(e.target);
    if (o.opponent === "agent") o.opponent = o.agent; // a name of the registry
    delete o.agent;
    Kit.create(o);
  });
  $("#help-btn").addEventListener("click", (e) => {
    const h = $("#help");
    h.hidden = !h.hidden;
    e.currentTarget.setAttribute("aria-expanded", String(!h.hidden));
  });
  Kit.start("battleship", render);
})();
