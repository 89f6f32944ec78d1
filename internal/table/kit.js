// The tables' shared loop: set a table up, wait for its views (a long
// poll from the last version seen), send actions with that version, and
// say what happened. It holds no rules: a game's page draws the view it
// is given and turns clicks and keys into the actions the view offers.
// It also keeps what every page shares: the texts of the page's language
// (Kit.t), the language switch, the sound switch, the links a table's
// creator passes on, and the banner of a table that is gone.
"use strict";
const Kit = (() => {
  let game = "", id = new URLSearchParams(location.search).get("t");
  let seq = -1, view = null, render = null, polling = false, heard = 0, queue = Promise.resolve(), wasOver = false;
  let texts = {};
  try { texts = JSON.parse(document.documentElement.dataset.texts || "{}"); } catch (e) { texts = {}; }

  // t is the text of key in the page's language, its %s, %d and %[n]s
  // filled with args (a language may reorder them).
  function t(key, ...args) {
    const s = key in texts ? texts[key] : key;
    let i = 0;
    return s.replace(/%(?:\[(\d+)\])?[sdv%]/g, (m, n) => (m === "%%" ? "%" : String(args[n ? Number(n) - 1 : i++])));
  }

  // el builds an element: el("button", {class: "card", onclick: f, "aria-label": "Ace of Spades"}, "A♠").
  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === false || v === null || v === undefined) continue;
      if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else if (k === "class") e.className = v;
      else if (k === "dataset") Object.assign(e.dataset, v);
      else e.setAttribute(k, v === true ? "" : v);
    }
    for (const k of kids.flat()) if (k !== null && k !== undefined && k !== false) e.append(k instanceof Node ? k : String(k));
    return e;
  }
  const $ = (s) => document.querySelector(s);
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  async function api(method, url, body) {
    const init = { method, headers: {} };
    if (body !== undefined) { init.headers["Content-Type"] = "application/json"; init.body = JSON.stringify(body); }
    const r = await fetch(url, init);
    let b = {};
    try { b = await r.json(); } catch (e) { b = { error: t("kit.js.error", r.status) }; }
    return { status: r.status, body: b };
  }

  function show(which) {
    $("#setup").hidden = which !== "setup";
    $("#table").hidden = which !== "table";
  }

  // say shows a message (an error when bad) in the status line; screen
  // readers hear it through the live region.
  function say(text, bad) {
    const s = $("#status");
    if (!s) return;
    s.textContent = text || "";
    s.classList.toggle("bad", !!bad);
  }

  // announce reads the view's new log lines aloud (the live region) and
  // adds them to the visible log.
  function announce(log) {
    if (!Array.isArray(log)) return;
    const list = $("#log"), live = $("#live");
    const fresh = log.filter((l) => l.n > heard);
    if (!fresh.length) return;
    if (heard === 0 && list) list.textContent = "";
    for (const l of fresh) {
      if (list) list.prepend(el("li", {}, l.text));
      heard = l.n;
    }
    while (list && list.children.length > 60) list.lastChild.remove();
    if (live) live.textContent = fresh.slice(-3).map((l) => l.text).join(" ");
  }

  function apply(b) {
    if (b.seq < seq) return;
    seq = b.seq;
    view = b.view;
    document.body.dataset.seq = seq;
    document.body.dataset.review = b.review ? "1" : "";
    invite(b.links);
    announce(view.log);
    const review = $("#review-link");
    if (review) review.hidden = !b.review;
    render(view, seq, b);
    if (b.over && !wasOver) {
      // The result is what the person looks for: it is at the top of the
      // table, and the page goes there once.
      window.scrollTo(0, 0);
      sound("end");
    }
    wasOver = b.over;
  }

  // gone says, at the top of the page, that the table is not here (any
  // more), with the way back.
  function gone(msg) {
    id = null;
    document.body.dataset.gone = "1";
    show("none");
    let g = $("#gone");
    if (!g) {
      g = el("div", { id: "gone", class: "banner bad", role: "alert" });
      $("main").prepend(g);
    }
    g.replaceChildren(el("p", {}, t("kit.js.gone")), msg ? el("p", { class: "muted" }, msg) : null,
      el("p", {}, el("a", { href: "/play", class: "button primary" }, t("kit.js.toLobby"))));
    window.scrollTo(0, 0);
  }

  async function poll() {
    if (polling) return;
    polling = true;
    let failures = 0;
    while (id) {
      const asked = id;
      let r;
      try { r = await api("GET", `/play/api/tables/${encodeURIComponent(id)}?after=${seq}`); } catch (e) {
        if (++failures > 2) say(t("kit.js.retrying"), true);
        await sleep(1000);
        continue;
      }
      if (asked !== id) continue; // an answer about the table before this one
      if (failures > 2) say("");
      failures = 0;
      if (r.status === 200) { apply(r.body); continue; }
      if (r.status === 404) { gone(r.body.error); break; }
      say(r.body.error || t("kit.js.error", r.status), true);
      await sleep(1000);
    }
    polling = false;
  }

  // act sends an action decided on the current view. Actions go one at a
  // time, in the order given (a key pressed while the last one is on its
  // way waits for it, then goes with the version then current). A stale
  // (409) or illegal (422) answer changes nothing; the page shows why, and
  // the next view comes from the poll.
  function act(action) {
    const run = () => send(action);
    const p = queue.then(run, run);
    queue = p.catch(() => {});
    return p;
  }

  async function send(action) {
    if (!id) return false;
    const r = await api("POST", `/play/api/tables/${encodeURIComponent(id)}/actions`, { seq, action });
    if (r.status === 200) { say(""); apply(r.body); return true; }
    if (r.status === 404) { gone(r.body.error); return false; }
    let msg = r.body.error || t("kit.js.error", r.status);
    // A short list of what may be done; a long one (every cell of a
    // board) says nothing a person reads.
    const valid = r.status === 422 && Array.isArray(r.body.valid) ? r.body.valid : [];
    if (valid.length && valid.length <= 12) msg += " — " + t("kit.js.valid", valid.map((v) => (typeof v === "object" ? JSON.stringify(v) : v)).join(", "));
    say(msg, true);
    return false;
  }

  async function create(options) {
    say(t("kit.js.settingUp"));
    const r = await api("POST", `/play/api/${game}/tables`, options);
    if (r.status !== 201) { say(r.body.error || t("kit.js.error", r.status), true); return; }
    id = r.body.token;
    history.replaceState(null, "", r.body.url);
    seq = -1; heard = 0; wasOver = false;
    say("");
    show("table");
    links();
    poll();
  }

  function links() {
    const rv = $("#review-link"), rc = $("#record-link");
    if (rv) rv.href = `/play/tables/${encodeURIComponent(id)}/review`;
    if (rc) rc.href = `/play/tables/${encodeURIComponent(id)}/record`;
  }

  // invite shows the creator the links to pass on: one a seat kept for a
  // person, and the watch link.
  function invite(l) {
    const box = $("#invite");
    if (!box) return;
    box.hidden = !l;
    if (!l || box.dataset.done) return;
    box.dataset.done = "1";
    const abs = (u) => location.origin + u;
    const line = (name, url, key) => el("li", {}, el("span", { class: "who" }, name), " ",
      el("input", { type: "text", readonly: true, value: abs(url), size: 40, "aria-label": name, "data-k": key }),
      el("button", { type: "button", onclick: async (e) => {
        try { await navigator.clipboard.writeText(abs(url)); e.target.textContent = t("kit.js.copied"); } catch (err) { e.target.previousSibling.select(); }
      } }, t("kit.js.copy")));
    box.replaceChildren(el("details", { open: (l.seats || []).length > 0 },
      el("summary", {}, t("kit.js.invite")), el("p", { class: "muted" }, t("kit.js.inviteNote")),
      el("ul", { class: "invite" }, (l.seats || []).map((s, i) => line(s.name, s.url, "seat-link-" + i)), line(t("kit.js.watchLink"), l.watch, "watch-link"))));
  }

  // Sound: off until the person turns it on; the choice is kept.
  let audio = null;
  const soundOn = () => localStorage.getItem("gamebot.sound") === "on";
  function sound(kind) {
    if (!soundOn()) return;
    try {
      audio = audio || new AudioContext();
      const notes = { move: [[660, 0.06]], turn: [[523, 0.08], [784, 0.1]], end: [[523, 0.12], [659, 0.12], [784, 0.2]], bad: [[200, 0.15]] }[kind] || [[440, 0.05]];
      let at = audio.currentTime;
      for (const [f, d] of notes) {
        const o = audio.createOscillator(), g = audio.createGain();
        o.frequency.value = f;
        g.gain.setValueAtTime(0.08, at);
        g.gain.exponentialRampToValueAtTime(0.001, at + d);
        o.connect(g).connect(audio.destination);
        o.start(at);
        o.stop(at + d);
        at += d;
      }
    } catch (e) { /* no sound here */ }
  }
  function soundButton() {
    const b = $("#sound-btn");
    if (!b) return;
    const draw = () => {
      b.textContent = soundOn() ? t("kit.js.soundOn") : t("kit.js.soundOff");
      b.setAttribute("aria-pressed", soundOn() ? "true" : "false");
    };
    b.addEventListener("click", () => {
      localStorage.setItem("gamebot.sound", soundOn() ? "off" : "on");
      draw();
      sound("move");
    });
    draw();
  }

  // The language switch: the choice is a cookie the server reads.
  function langSwitch() {
    const s = $("#lang");
    if (!s) return;
    s.addEventListener("change", () => {
      document.cookie = `gamebot_lang=${encodeURIComponent(s.value)}; path=/; max-age=${400 * 24 * 3600}; SameSite=Strict`;
      location.reload();
    });
  }

  // start: the page's game and its draw function. With ?t=TOKEN the page
  // opens that seat (a reload, or a link passed on); without, it shows the
  // setup form.
  function start(name, draw) {
    game = name; render = draw;
    if (id) { show("table"); links(); poll(); } else show("setup");
  }

  // form reads a setup form into an object: numbers stay numbers, a
  // checkbox is a boolean, an empty field is left out.
  function form(f) {
    const o = {};
    for (const e of f.elements) {
      if (!e.name || e.disabled) continue;
      if (e.type === "checkbox") o[e.name] = e.checked;
      else if (e.type === "radio") { if (e.checked) o[e.name] = e.value; }
      else if (e.value === "") continue;
      else if (e.type === "number") o[e.name] = Number(e.value);
      else o[e.name] = e.value;
    }
    return o;
  }

  // The script is deferred: the page is parsed when it runs.
  langSwitch();
  soundButton();

  return { el, $, t, act, create, start, form, say, sound, get view() { return view; }, get seq() { return seq; }, get id() { return id; } };
})();
