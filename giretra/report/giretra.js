// The deal viewer: steps through one recorded deal, from the dealt hands
// through each bid to each card played. DATA is the records' deals, TEXTS
// the viewer's words in the page's language.
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
  var SEATS = [TX.seat0 || "Bottom", TX.seat1 || "Left", TX.seat2 || "Top", TX.seat3 || "Right"];
  var SUITS = "CDHS", RANKS = "789TJQKA", SYMBOLS = ["♣", "♦", "♥", "♠"];
  // Strength order within a suit: trump order (Colour trump suit, every
  // suit in AllTrumps) or plain order, strongest last.
  var TRUMP = "78QKTA9J", PLAIN = "789JQKTA";
  var matches = Array.isArray(DATA) ? DATA : [];
  var el = function (id) { return document.getElementById(id); };
  var state = { m: 0, d: 0, step: 0 };

  function suitOf(c) { return SUITS.indexOf(c.charAt(1)); }
  function isTrumpSuit(mode, s) { return mode === 5 || (mode >= 0 && mode < 4 && mode === s); }
  function strength(c, mode) {
    var order = isTrumpSuit(mode, suitOf(c)) ? TRUMP : PLAIN;
    return order.indexOf(c.charAt(0));
  }
  function sortHand(cards, mode) {
    return cards.slice().sort(function (a, b) {
      var sa = suitOf(a), sb = suitOf(b);
      if (sa !== sb) { return sa - sb; }
      return strength(b, mode) - strength(a, mode);
    });
  }
  function cardEl(c, cls) {
    var s = document.createElement("span");
    var r = c.charAt(0) === "T" ? "10" : c.charAt(0);
    s.className = "card" + (suitOf(c) === 1 || suitOf(c) === 2 ? " red" : "") + (cls ? " " + cls : "");
    s.textContent = r + SYMBOLS[suitOf(c)];
    s.setAttribute("data-card", c);
    return s;
  }
  function clear(node) { while (node.firstChild) { node.removeChild(node.firstChild); } }

  function deal() { return matches[state.m].deals[state.d]; }
  // Steps: 0 dealt (five cards), 1..B after each bid, B+1 all eight
  // cards, then one step per card played.
  function stepCount(d) { return d.bids.length + 2 + 4 * d.tricks.length; }

  function render() {
    var m = matches[state.m], d = deal();
    var nb = d.bids.length, last = stepCount(d) - 1;
    var step = Math.max(0, Math.min(state.step, last));
    state.step = step;
    var cardsPlayed = Math.max(0, step - nb - 1);
    var fullHands = step > nb;
    var mode = fullHands ? d.mode : -1;
    var played = [{}, {}, {}, {}];
    var trickNo = Math.floor((cardsPlayed - 1) / 4); // the trick the last card belongs to
    for (var k = 0; k < cardsPlayed; k++) {
      var t = d.tricks[Math.floor(k / 4)], i = k % 4;
      played[(t.leader + i) % 4][t.cards[i]] = true;
    }
    for (var p = 0; p < 4; p++) {
      var seat = el("seat-" + p);
      var who = seat.querySelector(".who");
      who.textContent = SEATS[p] + " · " + m.players[p];
      if (p === d.dealer) {
        var dl = document.createElement("span");
        dl.className = "dealer";
        dl.textContent = T("dealer");
        who.appendChild(dl);
      }
      var hand = el("hand-" + p);
      clear(hand);
      var cards = d.hands[p].filter(function (c) { return !played[p][c]; });
      var first5 = d.hands[p].slice(0, 5);
      sortHand(cards, mode).forEach(function (c) {
        var late = first5.indexOf(c) < 0;
        if (late && !fullHands) { return; }
        hand.appendChild(cardEl(c, ""));
      });
      hand.setAttribute("data-count", String(hand.children.length));
    }
    // The trick in the centre.
    var trick = el("trick"), info = el("trick-info");
    clear(trick);
    info.textContent = "";
    if (cardsPlayed > 0) {
      var t = d.tricks[trickNo], n = cardsPlayed - 4 * trickNo;
      for (var j = 0; j < n; j++) {
        var who2 = (t.leader + j) % 4;
        var box = document.createElement("span");
        box.className = "played";
        box.appendChild(cardEl(t.cards[j], n === 4 && who2 === t.winner ? "win" : ""));
        var lab = document.createElement("small");
        lab.textContent = SEATS[who2];
        box.appendChild(lab);
        trick.appendChild(box);
      }
      info.textContent = n === 4
        ? T("trickTakes", trickNo + 1, SEATS[t.winner], t.points)
        : T("trickToPlay", trickNo + 1, SEATS[(t.leader + n) % 4]);
    } else if (fullHands) {
      info.textContent = d.tricks.length ? T("leads", SEATS[d.tricks[0].leader]) : "";
    }
    // Bidding so far.
    var bids = el("bids");
    clear(bids);
    d.bids.slice(0, Math.min(step, nb)).forEach(function (b, i) {
      var li = document.createElement("li");
      li.textContent = SEATS[b[0]] + ": " + b[1];
      if (i === step - 1) { li.className = "now"; }
      bids.appendChild(li);
    });
    el("contract").textContent = fullHands && d.contract ? T("contract", d.contract) : "";
    el("deal-info").textContent = T("dealInfo", d.n, d.score[0], d.score[1], d.cut);
    el("result").textContent = step === last && d.result ? T("result", d.result) : "";
    var what = step === 0 ? T("stepFirst")
      : step <= nb ? T("stepBid", step, nb)
      : step === nb + 1 ? T("stepLast")
      : T("stepCard", cardsPlayed, 4 * d.tricks.length);
    el("step-label").textContent = T("step", step, last, what);
  }

  function fillDeals() {
    var sel = el("deal-select");
    clear(sel);
    matches[state.m].deals.forEach(function (d, i) {
      var o = document.createElement("option");
      o.value = String(i);
      o.textContent = T("dealOption", d.n) + (d.contract ? " · " + d.contract : "");
      sel.appendChild(o);
    });
    sel.value = String(state.d);
  }

  function init() {
    var viewer = el("viewer");
    if (!matches.length) {
      var p = document.createElement("p");
      p.className = "muted";
      p.textContent = T("none");
      viewer.appendChild(p);
      el("next").disabled = el("prev").disabled = el("first").disabled = el("last").disabled = true;
      return;
    }
    var ms = el("match-select");
    matches.forEach(function (m, i) {
      var o = document.createElement("option");
      o.value = String(i);
      o.textContent = m.title;
      ms.appendChild(o);
    });
    ms.addEventListener("change", function () { state.m = +ms.value; state.d = 0; state.step = 0; fillDeals(); render(); });
    el("deal-select").addEventListener("change", function () { state.d = +el("deal-select").value; state.step = 0; render(); });
    el("first").addEventListener("click", function () { state.step = 0; render(); });
    el("prev").addEventListener("click", function () { state.step = Math.max(0, state.step - 1); render(); });
    el("next").addEventListener("click", function () { state.step += 1; render(); });
    el("last").addEventListener("click", function () { state.step = stepCount(deal()) - 1; render(); });
    document.addEventListener("keydown", function (e) {
      if (e.target && e.target.tagName === "SELECT") { return; }
      if (e.key === "ArrowRight") { state.step += 1; render(); }
      if (e.key === "ArrowLeft") { state.step = Math.max(0, state.step - 1); render(); }
    });
    fillDeals();
    render();
  }
  init();
})();
