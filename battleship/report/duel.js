// The duel viewer: steps through one recorded battleship game shot by
// shot, both fleets shown. DATA is the records' games: players by seat,
// the board, each seat's ships (cells [x, y]) and the shots in order as
// [seat, x, y, result, ship hit]. TEXTS are its words in the page's
// language.
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
  var games = Array.isArray(DATA) ? DATA : [];
  var el = function (id) { return document.getElementById(id); };
  var state = { g: 0, step: 0 };
  var cells = [[], []]; // cells[seat][y * w + x]: the board of seat's fleet

  function clear(node) { while (node.firstChild) { node.removeChild(node.firstChild); } }
  function game() { return games[state.g]; }

  // build lays out both boards of the current game.
  function build() {
    var g = game();
    for (var s = 0; s < 2; s++) {
      var board = el("board-" + s);
      clear(board);
      board.style.gridTemplateColumns = "repeat(" + g.w + ", 1fr)";
      cells[s] = [];
      for (var y = 0; y < g.h; y++) {
        for (var x = 0; x < g.w; x++) {
          var c = document.createElement("span");
          c.className = "cell";
          c.setAttribute("data-x", String(x));
          c.setAttribute("data-y", String(y));
          c.title = x + "," + y;
          board.appendChild(c);
          cells[s].push(c);
        }
      }
      el("who-" + s).textContent = T("who", s, g.players[s] + (s === g.subject ? " " + T("subject") : ""), g.players[1 - s]);
    }
  }

  function render() {
    var g = game(), n = g.shots.length;
    var step = Math.max(0, Math.min(state.step, n));
    state.step = step;
    var ship = [{}, {}]; // ship cells by seat, "x,y" -> ship index
    var mark = [{}, {}]; // shot cells by seat of the fleet shot at
    var sunk = [{}, {}]; // sunk ships by seat
    var fired = [0, 0], hits = [0, 0], sinks = [0, 0];
    for (var s = 0; s < 2; s++) {
      g.fleets[s].forEach(function (cs, i) {
        cs.forEach(function (c) { ship[s][c[0] + "," + c[1]] = i; });
      });
    }
    for (var k = 0; k < step; k++) {
      var sh = g.shots[k], target = 1 - sh[0];
      var key0 = sh[1] + "," + sh[2];
      if (mark[target][key0] === undefined || mark[target][key0] === "miss") { mark[target][key0] = sh[3]; }
      fired[sh[0]]++;
      if (sh[3] !== "miss") { hits[sh[0]]++; }
      if (sh[3] === "sunk") { sinks[sh[0]]++; sunk[target][sh[4]] = true; }
    }
    var cur = step > 0 ? g.shots[step - 1] : null;
    for (var t = 0; t < 2; t++) {
      for (var i = 0; i < cells[t].length; i++) {
        var x = i % g.w, y = Math.floor(i / g.w), key = x + "," + y;
        var cls = "cell";
        var si = ship[t][key];
        if (si !== undefined) { cls += " ship"; }
        var m = mark[t][key];
        if (m !== undefined) {
          // A hit on a ship sunk since shows as sunk.
          cls += " shot " + (m !== "miss" && sunk[t][si] ? "sunk" : m);
        }
        if (cur && 1 - cur[0] === t && cur[1] === x && cur[2] === y) { cls += " now"; }
        if (cells[t][i].className !== cls) { cells[t][i].className = cls; }
      }
      el("tally-" + t).textContent = T("tally", g.players[1 - t], fired[1 - t], hits[1 - t], sinks[1 - t], g.fleets[t].length);
    }
    // The shot list so far.
    var list = el("shots");
    clear(list);
    var now = null;
    for (var j = 0; j < step; j++) {
      var s2 = g.shots[j], li = document.createElement("li");
      var len = s2[3] === "sunk" ? g.fleets[1 - s2[0]][s2[4]].length : 0;
      li.textContent = T("shot", g.players[s2[0]], s2[1], s2[2], len ? T("sunkLen", len) : T(s2[3]));
      if (s2[3] === "sunk") { li.className = "sunk"; }
      if (j === step - 1) { li.className += " now"; now = li; }
      list.appendChild(li);
    }
    if (now) { list.scrollTop = now.offsetTop - list.offsetTop - list.clientHeight / 2; }
    el("game-info").textContent = T("info", g.title, g.players[0]);
    el("result").textContent = step === n ? g.end : "";
    el("step-label").textContent = step === 0 ? T("step0", n)
      : T("step", step, n, g.players[cur[0]], cur[1], cur[2], T(cur[3]));
  }

  function go(step) { state.step = step; render(); }

  function init() {
    if (!games.length) {
      var p = document.createElement("p");
      p.className = "muted";
      p.textContent = T("none");
      el("viewer").appendChild(p);
      el("next").disabled = el("prev").disabled = el("first").disabled = el("last").disabled = true;
      return;
    }
    var sel = el("game-select");
    // One game has nothing to choose between.
    if (games.length === 1 && el("game-pick")) { el("game-pick").hidden = true; }
    games.forEach(function (g, i) {
      var o = document.createElement("option");
      o.value = String(i);
      o.textContent = g.title;
      sel.appendChild(o);
    });
    sel.addEventListener("change", function () { state.g = +sel.value; state.step = 0; build(); render(); });
    el("first").addEventListener("click", function () { go(0); });
    el("prev").addEventListener("click", function () { go(Math.max(0, state.step - 1)); });
    el("next").addEventListener("click", function () { go(state.step + 1); });
    el("last").addEventListener("click", function () { go(game().shots.length); });
    document.addEventListener("keydown", function (e) {
      if (e.target && e.target.tagName === "SELECT") { return; }
      if (e.key === "ArrowRight") { go(state.step + 1); }
      if (e.key === "ArrowLeft") { go(Math.max(0, state.step - 1)); }
      if (e.key === "Home") { go(0); }
      if (e.key === "End") { go(game().shots.length); }
    });
    build();
    render();
  }
  init();
})();
