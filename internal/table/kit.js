// The tables' shared loop: set a table up, wait for its views (a long
// poll from the last version seen), send actions with that version, and
// say what happened. It holds no rules: a game's page draws the view it
// is given and turns clicks and keys into the actions the view offers.
"use strict";
const Kit = (() => {
  let game = "", id = new URLSearchParams(location.search).get("t");
  let seq = -1, view = null, render = null, polling = false, heard = 0, queue = Promise.resolve();

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
    try { b = await r.json(); } catch (e) { b = { error: r.status + " " + r.statusText }; }
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
    announce(view.log);
    render(view, seq);
  }

  async function poll() {
    if (polling) return;
    polling = true;
    while (id) {
      const asked = id;
      let r;
      try { r = await api("GET", `/play/api/tables/${encodeURIComponent(id)}?after=${seq}`); } catch (e) { await sleep(1000); continue; }
      if (asked !== id) continue; // an answer about the table before this one
      if (r.status === 200) { apply(r.body); continue; }
      say(r.body.error || "error " + r.status, true);
      if (r.status === 404) { id = null; document.body.dataset.gone = "1"; break; }
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
    let msg = r.body.error || "error " + r.status;
    if (r.status === 422 && r.body.valid) msg += " — valid: " + [].concat(r.body.valid).map((v) => (typeof v === "object" ? JSON.stringify(v) : v)).join(", ");
    say(msg, true);
    return false;
  }

  async function create(options) {
    say("Setting the table…");
    const r = await api("POST", `/play/api/${game}/tables`, options);
    if (r.status !== 201) { say(r.body.error || "error " + r.status, true); return; }
    id = r.body.token;
    history.replaceState(null, "", r.body.url);
    seq = -1; heard = 0;
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

  // start: the page's game and its draw function. With ?t=ID the page
  // resumes that table (a reload); without, it shows the setup form.
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

  return { el, $, act, create, start, form, say, get view() { return view; }, get seq() { return seq; }, get id() { return id; } };
})();
