// The leg viewer: steps through a recorded Othello leg move by move.
// DATA holds each leg's boards (computed by the server: the page holds no
// rules), its moves, the legal squares of each position and the engines'
// score and depth for each of their moves. TEXTS are its words in the
// page's language.
(function () {
  "use strict";
  var TX = typeof TEXTS === "object" && TEXTS ? TEXTS : {};
  // T is TEXTS[key] with its %d, %s and %[n]s filled with the arguments.
  function T(key) {
    var args = Array.prototype.slice.call(arguments, 1), i = 0;
    return (key in TX ? TX[key] : key).replace(/%(?:\[(\d+)\])?[sdv%]/g, function (m, n) {
      return m === "%%" ? "%" : String(args[n ? Number(n) - 1 : i++]);
    });
  }
  var legs = Array.isArray(DATA) ? DATA : [];
  var el = function (id) { return document.getElementById(id); };
  var st = { l: 0, i: 0 };
  var SVG = "http://www.w3.org/2000/svg";
  if (!legs.length) { el("viewer").hidden = true; return; }

  function leg() { return legs[st.l]; }
  function sqName(sq, n) { return String.fromCharCode(97 + sq % n) + (Math.floor(sq / n) + 1); }
  function moveName(m) { return m === "pass" ? T("pass") : m; }
  function disc(c) { return c === 1 ? T("black") : T("white"); }
  function svg(tag, attrs) {
    var e = document.createElementNS(SVG, tag);
    for (var k in attrs) { e.setAttribute(k, attrs[k]); }
    return e;
  }

  function build() {
    var g = leg(), b = el("board");
    b.textContent = "";
    b.style.gridTemplateColumns = "repeat(" + g.size + ", 1fr)";
    // Row 1 at the top, as FlipSight and the transcripts name squares.
    for (var sq = 0; sq < g.size * g.size; sq++) {
      var c = document.createElement("div");
      c.className = "sq";
      c.id = "sq-" + sqName(sq, g.size);
      b.appendChild(c);
    }
    var ol = el("moves");
    ol.textContent = "";
    g.moves.forEach(function (m, i) {
      var li = document.createElement("li");
      li.textContent = (i + 1) + ". " + moveName(m) + (g.evals[i] ? " (" + fmt(g.evals[i]) + ")" : "");
      li.className = g.movers[i] === 1 ? "black" : "white";
      li.title = T("moveTitle", disc(g.movers[i]), g.ms[i]);
      li.addEventListener("click", function () { st.i = i + 1; render(); });
      ol.appendChild(li);
    });
    el("transcript").value = g.transcript;
    el("result").textContent = g.result ? T("result", g.result) : T("unfinished");
    curve();
  }

  function fmt(e) {
    var s = (e.black > 0 ? "+" : "") + e.black.toFixed(Number.isInteger(e.black) ? 0 : 1);
    return e.exact ? T("exact", s) : T("depth", s, e.depth);
  }

  function render() {
    var g = leg(), n = g.moves.length;
    st.i = Math.max(0, Math.min(st.i, n));
    var board = g.boards[st.i], cells = el("board").children, legal = {};
    (g.legal[st.i] || "").split(" ").forEach(function (s) { if (s) { legal[s] = true; } });
    var last = st.i > 0 ? g.moves[st.i - 1] : "";
    var x = 0, o = 0;
    for (var sq = 0; sq < cells.length; sq++) {
      var ch = board[sq], name = sqName(sq, g.size), cls = "sq";
      if (ch === "x") { cls += " x"; x++; } else if (ch === "o") { cls += " o"; o++; } else if (ch === "#") { cls += " blocked"; }
      if (name === last) { cls += " last"; }
      if (legal[name] && st.i < n) { cls += " legal"; }
      cells[sq].className = cls;
      cells[sq].setAttribute("aria-label", T("square", name, ch === "x" ? T("black") : ch === "o" ? T("white") : ch === "#" ? T("blocked") : T("empty")));
    }
    el("counts").textContent = T("counts", x, o);
    el("step-label").textContent = st.i === 0 ? T("start") : T("step", st.i, n, disc(g.movers[st.i - 1]), moveName(last));
    var pass = el("pass-banner");
    pass.hidden = last !== "pass";
    if (last === "pass") { pass.textContent = g.movers[st.i - 1] === 1 ? T("passBlack") : T("passWhite"); }
    var items = el("moves").children;
    for (var k = 0; k < items.length; k++) { items[k].classList.toggle("now", k === st.i - 1); }
    var cur = el("curve").querySelector(".cursor");
    if (cur) { var cx = px(st.i - 1); cur.setAttribute("x1", cx); cur.setAttribute("x2", cx); }
  }

  var W = 640, H = 240, P = 30;
  function px(i) { var n = Math.max(leg().moves.length - 1, 1); return P + (W - 2 * P) * Math.max(i, 0) / n; }

  function curve() {
    var g = leg(), s = el("curve");
    s.textContent = "";
    var lim = g.size * g.size, maxD = 1;
    g.evals.forEach(function (e) { if (e) { lim = Math.max(Math.min(lim, 64), 8); maxD = Math.max(maxD, e.depth); } });
    // The score runs from top (+lim) to mid + (mid − top) (−lim), its
    // labels 4 px below their lines: both inside the 240 px box.
    var top = 16, mid = 118, bot = 230;
    var py = function (v) { return mid - (mid - top) * Math.max(-1, Math.min(1, v / lim)); };
    s.appendChild(svg("line", { class: "zero", x1: P, x2: W - P, y1: mid, y2: mid }));
    [lim, -lim].forEach(function (v) {
      var t = svg("text", { class: "axis", x: P - 4, y: py(v) + 4 });
      t.textContent = (v > 0 ? "+" : "") + v;
      s.appendChild(t);
    });
    var pts = [];
    g.evals.forEach(function (e, i) {
      if (!e) { return; }
      var h = Math.max(2, 60 * Math.min(e.depth, 64) / Math.max(maxD, 1));
      s.appendChild(svg("rect", { class: "depth" + (e.exact ? " exact" : ""), x: px(i) - 2, y: bot - h, width: 4, height: h }));
      pts.push(px(i).toFixed(1) + "," + py(e.black).toFixed(1));
    });
    s.appendChild(svg("polyline", { class: "score", points: pts.join(" ") }));
    g.evals.forEach(function (e, i) {
      if (e) { s.appendChild(svg("circle", { class: "dot " + (g.movers[i] === 1 ? "b" : "w"), cx: px(i), cy: py(e.black), r: 3 })); }
    });
    s.appendChild(svg("line", { class: "cursor", x1: P, x2: P, y1: top - 10, y2: bot }));
  }

  var sel = el("leg-select");
  legs.forEach(function (g, i) {
    var op = document.createElement("option");
    op.value = String(i);
    op.textContent = (i + 1) + ". " + g.title;
    sel.appendChild(op);
  });
  sel.addEventListener("change", function () { st.l = Number(sel.value); st.i = 0; build(); render(); });
  el("first").addEventListener("click", function () { st.i = 0; render(); });
  el("prev").addEventListener("click", function () { st.i--; render(); });
  el("next").addEventListener("click", function () { st.i++; render(); });
  el("last").addEventListener("click", function () { st.i = leg().moves.length; render(); });
  el("copy").addEventListener("click", function () {
    var t = el("transcript");
    t.select();
    if (navigator.clipboard) { navigator.clipboard.writeText(t.value).catch(function () {}); }
  });
  document.addEventListener("keydown", function (e) {
    if (e.target && (e.target.tagName === "SELECT" || e.target.tagName === "TEXTAREA" || e.target.tagName === "INPUT")) { return; }
    var k = { ArrowLeft: -1, ArrowRight: 1 }[e.key];
    if (k) { st.i += k; } else if (e.key === "Home") { st.i = 0; } else if (e.key === "End") { st.i = leg().moves.length; } else { return; }
    e.preventDefault();
    render();
  });
  build();
  st.i = leg().moves.length;
  render();
})();
