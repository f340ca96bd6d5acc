// The tablet's outbox: nothing entered is lost on venue Wi-Fi.
//
// Every move form (data-move="<type>") and the undo form (data-undo) of a table's screen is
// first written to an outbox in the browser's storage exactly as the form would post it (its
// action and its fields, the tapped button's name and value among them; not its CSRF token),
// with the sequence number it follows ("after") and a client id, then sent to the server's
// queued-forms endpoint, which reads each form with the game's own form reading (the same
// bounds and refusals as the form posted without JavaScript). No move is assembled here. A
// move counts as saved only when the server's JSON answer names it as recorded (a captive
// portal's 200 is not a save). While the server cannot be reached the moves wait, a banner says
// how many, the page warns before it is closed (only then, and only while moves wait), sending
// is retried, and the host can go on entering the table's moves (marked "not checked"); they
// are sent in order when the connection returns. A move the server refuses is a refusal, not a
// lost connection: the tablet is online, the move is shown with the server's reason, the rest
// wait, and the screen is drawn again at the table's real state; the host deletes or sends it
// again. Several tabs share one outbox and one sender at a time; the server never records a
// queued move twice (client ids).
//
// The screen follows the queue. A game's turn screen may name, in <div id="positions" data-src>,
// where the server draws the screens its next moves lead to from the engine's answers; they are
// fetched once the screen is idle after its load (apart from the screen, so a tap never waits
// for them; kept in memory, fetched again by a later load, answered 304 when unchanged):
// <div id="positions" data-seq data-start data-live> holding one <template data-position="key">
// per position the game can reach (data-turn: whose
// turn it is there, data-banner: the round's line, data-include: another position shown under
// it), and every move form says, in data-then (on the form, or on the button tapped, or set
// from the chosen option's data-allow map of button value -> key), the key of the position the
// engine says the move leads to, or, where that depends on numbers the host types, in
// data-then-by a lookup of the form's fields: [{"on": field, "is": {value: key | node}}], node
// 0 asked first, a value not listed no answer (a node may ask instead whether a field holds
// anything, "filled", or a whole number at least so large, "at_least") (the live screen's own forms: data-live, by their
// data-move, a key or such a lookup; the page's CSRF token is put into the positions' forms; a
// part the positions share, such as a set of skill steppers or a player's form, is drawn once
// as <template data-part> and put where a shown position names it in data-fill, with the
// position's own elements for the part's data-part-slot ones, its forms leading where the
// data-fill element's data-then / data-then-by says). While the tablet is offline or moves
// wait, the screen shows the
// position the last waiting move leads to (the start one when none waits): its forms are the
// game's own forms, sent through the outbox like the others. Where the answers run out (a form
// without data-then, an undo, moves from another screen) the screen shows the game's "?"
// position, which says so; a game without answers keeps its own screen, with the player of its
// forms a choice; a game that draws no template of its start position keeps its live screen
// there. A state the answers follow beside the positions (data-tokens: a game's cards that a
// move spends) is looked up the same way: each form says in data-token-by what its move spends,
// and a shown position offers only the inputs (data-token) of what is left. Answers that did not arrive (the network dropped first, the table moved on) are answers
// run out: the live screen stays, its player a choice, and says so. Nothing of a rule is
// computed here: keys are only looked up.
//
// Without JavaScript the forms post as usual.
(function () {
  "use strict";
  var body = document.body;
  var tableId = body.dataset.table;
  var wordsEl = document.getElementById("outbox-words");
  var W = wordsEl ? JSON.parse(wordsEl.textContent) : {};
  if (!tableId) {
    // a screen that sends no moves (a table's setup or results, the start and PIN pages): the
    // connection indicator only, so the host sees on every screen whether the tablet is online
    var indicator = document.getElementById("connection");
    var show = function () {
      if (!indicator) return;
      indicator.className = "conn " + (navigator.onLine ? "on" : "off");
      indicator.textContent = navigator.onLine ? (W.online || "online") : (W.offline || "offline");
    };
    window.addEventListener("online", show);
    window.addEventListener("offline", show);
    show();
    return;
  }
  var KEY = "facilitator.outbox." + tableId, LOCK = KEY + ".lock", SAVED = KEY + ".saved";
  var queuedUrl = "/api/v1/tables/" + tableId + "/queued";
  // moves an earlier version of this script queued as record moves (a tablet updated while
  // moves waited) still go to the batch of record moves, in their order
  var legacyUrl = "/api/v1/tables/" + tableId + "/moves/batch";
  var players = body.dataset.players ? JSON.parse(body.dataset.players) : [];
  var retryDelay = 2000, retryTimer = null, sending = false, leaving = false;
  var source = document.getElementById("positions"), positions = null, asking = false;
  var live = document.querySelector("[data-position-live]");
  var banner = document.querySelector("[data-position-banner]"), bannerText = banner ? banner.textContent : "";

  function say(key, n) {
    // a count in the page's language: CLDR's plural category picks the form (ход, хода, ходов)
    var forms = W[key] || {}, cat = "other";
    try { cat = new Intl.PluralRules(document.documentElement.lang || "en").select(n); } catch (e) {}
    var text = forms[cat] || (cat === "one" ? forms.one : (cat === "few" ? forms.few : forms.many)) || forms.many || key;
    return text.replace("{n}", n);
  }
  function load() { try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch (e) { return []; } }
  function store(q) { if (q.length) localStorage.setItem(KEY, JSON.stringify(q)); else localStorage.removeItem(KEY); }
  function newId() {
    var a = new Uint8Array(12); (window.crypto || window.msCrypto).getRandomValues(a);
    return Array.prototype.map.call(a, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  function baseSeq() { return parseInt(body.dataset.seq, 10) || 0; }
  function turnUrl() { return body.dataset.turnUrl || location.href; }
  // the turn screen that says what the move ``seq`` changed (the server's ``done``), else ``url``
  function confirmed(url, seq) {
    if (typeof seq !== "number") return url;
    var u = new URL(url, location.href);
    u.searchParams.set("done", String(seq));
    return u.toString();
  }
  // the page is left by this script (a screen drawn again): no question about leaving it
  function leave(url) { leaving = true; window.removeEventListener("beforeunload", warn); location.replace(url); }

  // ----- a form as it would be posted ----------------------------------------------------------
  function fieldsOf(form, submitter, after) {
    var data;
    try { data = new FormData(form, submitter || undefined); } catch (e) { data = new FormData(form); }
    if (submitter && submitter.name && !data.has(submitter.name)) data.append(submitter.name, submitter.value);
    var fields = [];
    data.forEach(function (value, name) {
      if (name === "csrf_token" || name === "after" || typeof value !== "string") return;
      fields.push([name, value]);
    });
    fields.push(["after", String(after)]);
    return fields;
  }
  function field(fields, name) {
    for (var i = 0; i < fields.length; i++) if (fields[i][0] === name) return fields[i][1];
    return "";
  }

  // what a waiting move is called: the move's name in the screen's language (base.html's map,
  // by the form's data-move), for whom, and what the form says it plays (its data-label: a
  // card's or an active's name), else the card's code when the form names one
  function label(e) {
    if (e.undo) return W.undo || "undo";
    var names = W.moves || {}, f = e.fields || [], old = e.move || {}, type = e.type || old.type || "";
    var decision = field(f, "decision") || old.decision || "";
    var who = field(f, "player") || field(f, "active") || field(f, "from") || old.player || "";
    var card = e.label || field(f, "card") || (typeof old.card === "string" ? old.card : "");
    var name = names[type + ":" + decision] || names[type] || type;
    return (who ? who + ": " : "") + name + (card && !field(f, "manual") ? " " + card : "");
  }
  function sent(e) { return {action: e.action, fields: e.fields, after: e.after, client_id: e.client_id}; }
  function legacy(e) { return !e.fields; }
  function sentLegacy(e) {
    return e.undo ? {after: e.after, undo: true, client_id: e.client_id} : {after: e.after, move: e.move, client_id: e.client_id};
  }

  // ----- queueing and sending ------------------------------------------------------------------
  function enqueue(entry) {
    var q = load();
    var queued = q.filter(function (e) { return e.state !== "refused"; });
    if (queued.length) {  // on top of the moves waiting: it follows the last of them
      entry.after = queued[queued.length - 1].after + 1;
      entry.fields.forEach(function (f) { if (f[0] === "after") f[1] = String(entry.after); });
    }
    entry.client_id = newId();
    entry.at = new Date().toISOString();
    entry.state = "queued";
    q.push(entry);
    store(q);
    render();
    flush();
  }

  function locked() {
    var held = parseInt(localStorage.getItem(LOCK) || "0", 10);
    return held && Date.now() - held < 15000;
  }

  function flush() {
    var q = load().filter(function (e) { return e.state === "queued"; });
    if (!q.length || sending || locked()) { render(); return; }
    if (load().some(function (e) { return e.state === "refused"; })) { render(); return; }
    // one run of the same kind at a time: forms (or record moves queued by an earlier version)
    var old = legacy(q[0]), run = [];
    for (var i = 0; i < q.length && legacy(q[i]) === old; i++) run.push(q[i]);
    q = run;
    sending = true;
    localStorage.setItem(LOCK, String(Date.now()));
    var payload = {flash: true, moves: q.map(old ? sentLegacy : sent)};
    fetch(old ? legacyUrl : queuedUrl, {method: "POST", credentials: "same-origin", cache: "no-store",
                      headers: {"Content-Type": "application/json", "Accept": "application/json"},
                      body: JSON.stringify(payload)})
      .then(function (r) {
        // only the server's own JSON is an answer: a captive portal's page, or a server busy or
        // failing (5xx), is no answer: the moves stay queued and are sent again
        var type = r.headers.get("Content-Type") || "";
        if (r.status >= 500 || type.indexOf("application/json") < 0) throw new Error("not the server");
        return r.json().then(function (data) { return {status: r.status, data: data}; });
      })
      .then(function (answer) {
        var data = answer.data, refused = null;
        if (data && Array.isArray(data.recorded)) {
          refused = data.refused || null;
        } else if (answer.status >= 400 && data && data.error && typeof data.error.message === "string") {
          refused = {client_id: q[0].client_id, message: data.error.message};  // refused as a whole (no access)
          data = {recorded: []};
        } else {
          throw new Error("no confirmation");
        }
        retryDelay = 2000;
        online(true);  // the server answered: whatever it said, the tablet is online
        var done = {};
        data.recorded.forEach(function (r) { if (typeof r.seq === "number") done[r.client_id] = r.seq; });
        var left = load().filter(function (e) { return !(e.client_id in done); });
        if (refused) {
          // the move named refused (by its client id; else the first one sent and not recorded)
          var named = left.filter(function (e) { return e.client_id === refused.client_id; })[0] ||
                      left.filter(function (e) { return e.state === "queued"; })[0];
          if (named) { named.state = "refused"; named.error = refused.message; }
        }
        store(left);
        if (data.recorded.length) {
          localStorage.setItem(SAVED, new Date().toISOString());
          if (typeof data.seq === "number") body.dataset.seq = String(data.seq);
        }
        // the screen is drawn again at the table's real state: every move sent, or a refusal to
        // show on the screen as the table is now (the refused move stays listed, with why)
        if (!left.length || refused) leave(confirmed(turnUrl(), data.done));
        else if (left.some(function (e) { return e.state === "queued"; })) setTimeout(flush, 0);  // the next run
      })
      .catch(function () {
        online(false);
        clearTimeout(retryTimer);
        retryTimer = setTimeout(flush, retryDelay);
        retryDelay = Math.min(retryDelay * 2, 30000);
      })
      .then(function () { sending = false; localStorage.removeItem(LOCK); render(); });
  }

  // ----- what the host sees --------------------------------------------------------------------
  var connection = document.getElementById("connection");
  var isOnline = navigator.onLine;
  function online(yes) { isOnline = yes; render(); }

  function render() {
    var q = load(), waiting = q.length;
    if (connection) {
      var saved = localStorage.getItem(SAVED);
      var when = saved ? new Date(saved).toLocaleTimeString() : "";
      connection.className = "conn " + (isOnline ? "on" : "off");
      connection.textContent = isOnline ? (W.online || "online") + (when && !waiting ? " · " + (W.saved || "saved") + " " + when : "")
                                        : (W.offline || "offline");
    }
    // the question before leaving the page only while moves wait (never for a form this script
    // sends, nor for a page it draws again itself)
    if (waiting && !leaving) window.addEventListener("beforeunload", warn);
    else window.removeEventListener("beforeunload", warn);
    var followed = follow(q);
    var panel = document.getElementById("outbox");
    if (!panel) return;
    panel.hidden = !waiting;
    body.classList.toggle("offline-entry", waiting > 0);
    if (!waiting) return;
    panel.querySelector(".outbox-count").textContent = say(isOnline ? "waiting" : "no_connection", waiting);
    var list = panel.querySelector("ol");
    list.innerHTML = "";
    q.forEach(function (e) {
      var li = document.createElement("li");
      li.className = e.state;
      li.textContent = label(e) + " · " + (e.state === "refused" ? (W.refused || "refused") + ": " + e.error
                                                                 : (W.unchecked || "not checked"));
      list.appendChild(li);
    });
    if (!followed) offlinePlayers();
  }

  // ----- the screen follows the queue (the game's positions, looked up by key) ----------------
  function positionOf(key) {
    if (!positions || key === null) return null;
    var all = positions.querySelectorAll("template[data-position]");
    for (var i = 0; i < all.length; i++) if (all[i].dataset.position === key) return all[i];
    return null;
  }
  // the key of the position the waiting moves lead to: the last one's, when every one of them was
  // entered on a position of this screen's answers; null when the answers ran out
  function reached(q) {
    var key = positions.dataset.start;
    for (var i = 0; i < q.length; i++) {
      if (q[i].answers !== positions.dataset.seq || !q[i].then) return null;
      key = q[i].then;
    }
    return key;
  }
  // the answers, fetched once the screen is idle (they are no part of drawing it); the table
  // having moved on (409), no answer or another one than the server's leaves them missing
  function askAnswers() {
    if (!source || !source.dataset.src || positions || asking || !window.fetch) return;
    asking = true;
    fetch(source.dataset.src, {credentials: "same-origin", headers: {"Accept": "text/html"}})
      .then(function (r) {
        if (r.status !== 200 || (r.headers.get("Content-Type") || "").indexOf("text/html") < 0) throw new Error("no answers");
        return r.text();
      })
      .then(function (text) {
        var box = document.createElement("div");
        box.innerHTML = text;
        var got = box.querySelector("#positions[data-start]");
        if (!got || got.dataset.seq !== source.dataset.seq) throw new Error("not this screen's answers");
        // the live screen's own forms lead where the answers say
        var then = JSON.parse(got.dataset.live || "{}"), spends = JSON.parse(got.dataset.liveTokens || "{}");
        if (live) live.querySelectorAll("form[data-move]").forEach(function (f) {
          var said = then[f.dataset.move];
          if (typeof said === "string") f.dataset.then = said;
          else if (said) f.dataset.thenBy = JSON.stringify(said);
          if (spends[f.dataset.move]) f.dataset.tokenBy = JSON.stringify(spends[f.dataset.move]);
        });
        tokens = got.dataset.tokens ? JSON.parse(got.dataset.tokens) : null;
        // the positions' forms are this page's forms: its session's CSRF token
        var token = document.querySelector("input[name=csrf_token]");
        got.querySelectorAll("template").forEach(function (t) {
          t.content.querySelectorAll("input[name=csrf_token]").forEach(function (i) { i.value = token ? token.value : ""; });
        });
        source.replaceWith(got);
        positions = got;
      })
      .catch(function () {})
      .then(function () { asking = false; render(); });
  }
  // a screen the host stays on: one left within ANSWERS_AFTER_MS (moves entered in a row) never
  // asks its answers, which cost the server tens to hundreds of ms a position (Alter Ego's most)
  var ANSWERS_AFTER_MS = 1000;
  function whenIdle(fn) {
    setTimeout(function () {
      if (window.requestIdleCallback) window.requestIdleCallback(fn, {timeout: 1000});
      else fn();
    }, ANSWERS_AFTER_MS);
  }
  // the live screen says its answers are missing (the tablet offline or moves waiting)
  function missing(yes) {
    var note = live && live.querySelector("[data-answers-missing]");
    if (yes && live && !note && W.no_answers) {
      note = document.createElement("p");
      note.className = "flash info";
      note.dataset.answersEnd = ""; note.dataset.answersMissing = "";
      note.textContent = W.no_answers;
      live.insertBefore(note, live.firstChild);
    } else if (!yes && note) {
      note.remove();
    }
  }

  var shown = null, lastLength = -1;
  // true when the screen shows a position of the answers (or the live screen, nothing waiting)
  function follow(q) {
    var entered = q.length !== lastLength;  // a move entered or sent since the screen was last drawn
    lastLength = q.length;
    if (!live) return false;
    if (!positions) {
      missing(!!source && (q.length > 0 || !isOnline) && !q.some(function (e) { return e.state === "refused"; }));
      return false;
    }
    missing(false);
    if (q.some(function (e) { return e.state === "refused"; })) { showLive(); return false; }  // the real state
    if (!q.length && isOnline) { showLive(); return true; }
    // answers arriving while the host is using the live screen (a confirmation open, a field
    // being typed in) do not replace it under the finger, whether moves wait or not: the next
    // move entered moves it on
    if ((!q.length || !entered) && !shown && (live.querySelector("details[open]") ||
        (document.activeElement !== body && live.contains(document.activeElement)))) return false;
    var key = reached(q), at = tokenAt(q);
    if (at === null) key = "?";  // the state beside the positions has no answer: nor has the screen
    var template = positionOf(key);
    // a game that draws no template for its start position: its live screen is that position
    if (!template && key === positions.dataset.start) { showLive(); return true; }
    if (!template) { key = "?"; template = positionOf(key); }
    if (!template) { showLive(); return false; }
    var state = at || "";
    if (shown && shown.dataset.positionShown === key && (shown.dataset.tokensShown || "") === state) return true;  // as it is: what the host types stays
    var box = document.createElement("div");
    box.dataset.positionShown = key;
    if (state) box.dataset.tokensShown = state;
    for (var t = template, seen = 0; t && seen < 5; t = positionOf(t.dataset.include || null), seen++) {
      box.appendChild(t.content.cloneNode(true));
    }
    fill(box);
    offerTokens(box, at);
    // the position takes the live screen's place (kept aside, whole, for when it is shown again)
    (shown || live).replaceWith(box);
    shown = box;
    mark(template.dataset.turn || "", template.dataset.banner || bannerText);
    return true;
  }
  // a part the positions share, drawn once (<template data-part>), put where a position names it
  // (data-fill), its inputs named <data-prefix>-<data-name>, with min="0" where data-min says;
  // the position's own elements (data-part-slot) take the place of the part's of that name, the
  // part's forms lead where the position says (data-then, data-then-by, or by their data-move:
  // data-thens), the inputs data-values names are given their values, and the forms are given
  // the position's answers (data-answers)
  function fill(box) {
    box.querySelectorAll("[data-fill]").forEach(function (el) {
      var part = positions.querySelector("template[data-part='" + el.dataset.fill + "']");
      if (!part || el.dataset.filled) return;
      el.dataset.filled = "1";
      var own = {};
      Array.prototype.forEach.call(el.querySelectorAll("[data-part-slot]"), function (s) {
        own[s.dataset.partSlot] = s;
        s.remove();
      });
      el.appendChild(part.content.cloneNode(true));
      el.querySelectorAll("[data-part-slot]").forEach(function (s) {
        if (own[s.dataset.partSlot]) s.replaceWith(own[s.dataset.partSlot]);
      });
      el.querySelectorAll("form").forEach(function (f) {
        if (el.dataset.then) f.dataset.then = el.dataset.then;
        if (el.dataset.thenBy) f.dataset.thenBy = el.dataset.thenBy;
      });
      el.querySelectorAll("[data-name]").forEach(function (input) {
        input.name = (el.dataset.prefix ? el.dataset.prefix + "-" : "") + input.dataset.name;
        if (el.dataset.min !== undefined) input.min = el.dataset.min;
      });
      var values = el.dataset.values ? JSON.parse(el.dataset.values) : {};
      Object.keys(values).forEach(function (name) {
        el.querySelectorAll("input[name='" + name + "']").forEach(function (input) { input.value = values[name]; });
      });
      var thens = el.dataset.thens ? JSON.parse(el.dataset.thens) : {};
      el.querySelectorAll("form[data-move]").forEach(function (form) {
        if (thens[form.dataset.move]) form.dataset.then = thens[form.dataset.move];
      });
      if (el.dataset.answers) answer(el);
    });
  }
  // the key a form's data-then-by gives for what is typed in it (null: no answer)
  function thenBy(form) { return lookUp(form, form.dataset.thenBy); }
  // a lookup of a form's fields ([{"on": field, "is": {value: leaf | node}}], node 0 asked
  // first): each field's value as the form posts it (a box not ticked, or not offered: ""), or
  // with "filled" whether it holds anything ("1") or not (""), or with "at_least": n whether
  // the whole number it holds is at least n ("1") or less (""; an empty field holds the node's
  // "empty" number, else no answer; anything but digits is no answer); null: no answer
  function lookUp(form, text) {
    var tree;
    try { tree = JSON.parse(text || "null"); } catch (e) { return null; }
    var node = tree && tree[0];
    for (var hops = 0; node && node.is && hops < tree.length; hops++) {
      var input = form.elements[node.on], value = "";
      if (input && input.type === "checkbox") value = input.checked && !input.disabled ? input.value : "";
      else if (input && typeof input.value === "string") value = input.value;
      if (node.filled) value = value.trim() !== "" ? "1" : "";
      if (typeof node.at_least === "number") {
        var typed = value.trim();
        if (typed === "" && typeof node.empty === "number") typed = String(node.empty);
        value = /^[0-9]+$/.test(typed) ? (parseInt(typed, 10) >= node.at_least ? "1" : "") : null;
      }
      var next = value !== null && Object.prototype.hasOwnProperty.call(node.is, value) ? node.is[value] : null;
      if (typeof next === "string") return next;
      node = typeof next === "number" ? tree[next] : null;
    }
    return null;
  }
  // a second state the answers follow beside the positions (data-tokens: {"start", "states":
  // {key: {"on": [the data-token values offered there], "after": {value: key}}}}; a game's cards
  // a move spends): a form's data-token-by looks up the value its move spends ("" none); the
  // state the waiting moves reach (null: no answer) offers only its own data-token inputs
  var tokens = null;
  function tokenAt(q) {
    if (!tokens) return undefined;
    var at = tokens.start;
    for (var i = 0; i < q.length; i++) {
      var t = q[i].token;
      if (t === undefined || t === "") continue;
      var state = t === null ? null : tokens.states[at];
      at = state && Object.prototype.hasOwnProperty.call(state.after, t) ? state.after[t] : null;
      if (at === null) return null;
    }
    return at;
  }
  function offerTokens(box, at) {
    var state = tokens && at ? tokens.states[at] : null;
    if (!state) return;
    box.querySelectorAll("input[data-token]").forEach(function (input) {
      var ok = state.on.indexOf(input.dataset.token) >= 0;
      input.disabled = !ok;
      if (!ok) input.checked = false;
      (input.closest("label") || input).hidden = !ok;
    });
  }
  // a position's answers for the forms of a part (data-answers): {leads: {form: answers}, why:
  // {form: the engine's refusal}}, a form's answers a tree keyed by each chosen option in turn
  // whose leaves are the keys the moves lead to (a leaf [key, {field: members}, {members: key}]
  // names the members a list field may hold, and where some sets of them lead); or the same relative to another position's (of: its key;
  // forms: the forms answered here, each as there less the options in drop, every leaf leading
  // to then, and add's answers over them). Only looked up and merged: the engine said each.
  function leaf(x) { return typeof x === "string" || Array.isArray(x); }
  function retarget(node, then, drop, path) {
    if (leaf(node)) {
      var at = JSON.stringify(path);
      if (drop.some(function (d) { return JSON.stringify(d) === at; })) return undefined;
      return Array.isArray(node) ? [then, node[1]] : then;
    }
    var out = {}, any = false;
    Object.keys(node).forEach(function (v) {
      var sub = retarget(node[v], then, drop, path.concat([v]));
      if (sub !== undefined) { out[v] = sub; any = true; }
    });
    return any ? out : undefined;
  }
  function merge(a, b) {
    if (a === undefined || leaf(a) || leaf(b)) return b;
    var out = {};
    Object.keys(a).forEach(function (k) { out[k] = a[k]; });
    Object.keys(b).forEach(function (k) { out[k] = merge(a[k], b[k]); });
    return out;
  }
  // A position's answers may also say where the forms they do not answer there lead when
  // entered unchecked (unchecked: a key): the engine named no verdict for them; offered with
  // every option, the server checks them when the connection returns.
  function answersOf(el) {
    var a = JSON.parse(el.dataset.answers || "{}");
    var own = answersOnly(el, a);
    own.unchecked = a.unchecked || null;
    return own;
  }
  function answersOnly(el, a) {
    if (!a.of) return {leads: a.leads || {}, why: a.why || {}, only: null};
    var of = positionOf(a.of);
    var holder = of && of.content.querySelector("[data-fill='" + el.dataset.fill + "'][data-answers]");
    var base = holder ? answersOnly(holder, JSON.parse(holder.dataset.answers || "{}")) : {leads: {}, why: {}};
    var leads = {}, why = {};
    Object.keys(base.why).forEach(function (f) { why[f] = base.why[f]; });
    (a.forms || []).forEach(function (f) {
      var drop = (a.drop || {})[f], mine;
      if (drop !== "*" && base.leads[f] !== undefined) mine = retarget(base.leads[f], a.then, drop || [], []);
      if ((a.add || {})[f] !== undefined) mine = merge(mine, a.add[f]);
      if (mine !== undefined) leads[f] = mine;
    });
    Object.keys(a.why || {}).forEach(function (f) { if (a.why[f] === null) delete why[f]; else why[f] = a.why[f]; });
    return {leads: leads, why: why, only: a.forms || []};
  }
  // each form of the part (its box data-form) with its answers; one without any is refused (the
  // engine's reason in data-why), or left out where it is not answered (or data-only-answered)
  function answer(el) {
    var a = answersOf(el);
    el.querySelectorAll("[data-form]").forEach(function (box) {
      var f = box.dataset.form, leads = a.leads[f], form = box.querySelector("form[data-choose]");
      var unchecked = a.unchecked && leads === undefined && (a.only === null || a.only.indexOf(f) < 0) ? a.unchecked : null;
      box.hidden = !unchecked && ((a.only !== null && a.only.indexOf(f) < 0) ||
                                  (leads === undefined && el.dataset.onlyAnswered !== undefined));
      box.classList.toggle("refused", leads === undefined && !unchecked);
      box.classList.toggle("unchecked", !!unchecked);
      var why = box.querySelector("[data-why]");
      if (why) why.textContent = unchecked ? (W.unchecked || "not checked") : leads !== undefined ? "" : (a.why[f] || "");
      if (form) { form.offlineAnswers = {tree: leads, unchecked: unchecked}; choose(form); }
    });
  }
  // a form whose answers follow its chosen options (data-choose: the fields, in turn): an option
  // is offered when the answers name it after the options chosen before it, a member
  // (data-member) when the answer allows it, and the button once the options chosen reach an
  // answer, leading where it says
  function choose(form) {
    var node = form.offlineAnswers.tree, names = (form.dataset.choose || "").split(" ").filter(Boolean);
    if (form.offlineAnswers.unchecked) { unchecked(form, names); return; }
    names.forEach(function (name) {
      var picked = null, here = node !== undefined && !leaf(node) ? node : null;
      form.querySelectorAll("input[name='" + name + "']").forEach(function (input) {
        var ok = here !== null && Object.prototype.hasOwnProperty.call(here, input.value);
        input.disabled = !ok;
        if (!ok) input.checked = false;
        (input.closest("label") || input).hidden = !ok;
        if (input.checked) picked = input.value;
      });
      node = picked !== null ? here[picked] : undefined;
    });
    var then = leaf(node) ? (Array.isArray(node) ? node[0] : node) : undefined;
    var allowed = Array.isArray(node) ? node[1] : {}, members = [];
    form.querySelectorAll("input[data-member]").forEach(function (input) {
      var ok = (allowed[input.dataset.member] || []).indexOf(input.value) >= 0;
      input.disabled = !ok;
      if (!ok) input.checked = false;
      (input.closest("label") || input).hidden = !ok;
      if (input.checked) members.push(input.value);
    });
    // a leaf's third part: where each set of members leads (the members checked, in the form's
    // order, joined by spaces); a set not named there leads to the leaf's own key
    var by = Array.isArray(node) && node[2] ? node[2] : {};
    if (then && Object.prototype.hasOwnProperty.call(by, members.join(" "))) then = by[members.join(" ")];
    form.querySelectorAll("button[type=submit]").forEach(function (b) { b.disabled = !then; });
    if (then) form.dataset.then = then; else delete form.dataset.then;
  }
  // a form entered unchecked: every option offered (nothing is judged here), the button once
  // each of its questions has an answer, leading where the position says
  function unchecked(form, names) {
    form.querySelectorAll("input[type=radio], input[data-member]").forEach(function (input) {
      input.disabled = false;
      (input.closest("label") || input).hidden = false;
    });
    var then = names.every(function (name) { return form.querySelector("input[name='" + name + "']:checked"); })
      ? form.offlineAnswers.unchecked : undefined;
    form.querySelectorAll("button[type=submit]").forEach(function (b) { b.disabled = !then; });
    if (then) form.dataset.then = then; else delete form.dataset.then;
  }
  document.addEventListener("change", function (ev) {
    var form = ev.target.form;
    if (form && form.offlineAnswers) choose(form);
  });
  function showLive() {
    if (shown) { shown.replaceWith(live); shown = null; }
    mark(null, bannerText);
  }
  function mark(player, text) {
    // whose turn it is: a game's list of players (class "players", or data-turns) marks it "turn"
    document.querySelectorAll(".players [data-name], [data-turns] [data-name]").forEach(function (el) {
      if (player === null) el.classList.toggle("turn", el.dataset.turnNow === "1");
      else {
        if (el.dataset.turnNow === undefined) el.dataset.turnNow = el.classList.contains("turn") ? "1" : "0";
        el.classList.toggle("turn", el.dataset.name === player);
      }
    });
    if (banner) banner.textContent = text;
  }
  // an option of a position's form (a card) enables the buttons the engine allows for it, each
  // leading where the engine said, and shows the inputs that go with it (a redistribution)
  document.addEventListener("change", function (ev) {
    var option = ev.target;
    if (!option.dataset || option.dataset.allow === undefined || !option.form) return;
    var allow = JSON.parse(option.dataset.allow);
    option.form.querySelectorAll("button[type=submit][value]").forEach(function (b) {
      b.disabled = !(b.value in allow);
      if (b.value in allow) b.dataset.then = allow[b.value]; else delete b.dataset.then;
    });
    option.form.querySelectorAll("fieldset[data-choice]").forEach(function (f) {
      var on = f.dataset.choice === option.value;
      f.hidden = !on; f.disabled = !on;
    });
  });
  // a search box of a position's form shows the options whose text holds what is typed
  document.addEventListener("input", function (ev) {
    var box = ev.target;
    if (!box.dataset || box.dataset.filter === undefined || !box.form) return;
    var text = box.value.trim().toLowerCase();
    box.form.querySelectorAll("[data-search]").forEach(function (li) {
      li.hidden = text !== "" && li.dataset.search.indexOf(text) < 0;
    });
  });

  function warn(ev) {
    if (leaving || !load().length) return undefined;
    ev.preventDefault();
    ev.returnValue = W.leave || "";
    return ev.returnValue;
  }

  // while moves wait, any player's move can be entered: the hidden "player" becomes a choice
  function offlinePlayers() {
    if (!players.length) return;
    document.querySelectorAll("form[data-move] input[type=hidden][name=player]").forEach(function (input) {
      var select = document.createElement("select");
      select.name = "player";
      select.setAttribute("aria-label", W.player || "player");
      players.forEach(function (name) {
        var o = document.createElement("option"); o.value = name; o.textContent = name;
        if (name === input.value) o.selected = true;
        select.appendChild(o);
      });
      input.parentNode.replaceChild(select, input);
    });
  }

  // ----- the host's controls -------------------------------------------------------------------
  // a double tap is one tap: the first one's move shows the outbox, which moves the screen down,
  // so the second one lands on whatever control is now under the finger (a draw link: "leave
  // site?"; or, the screen following the queue, the next player's button). The next tap, at the
  // same place within a moment of a move taken here, on another control than the one tapped, is
  // that second tap: it does nothing. Any other tap first is the host's own (the shield goes).
  var lastClick = null, shield = null;
  document.addEventListener("click", function (ev) {
    var now = Date.now();
    if (shield && ev.isTrusted && now - shield.t < 600 && Math.abs(ev.clientX - shield.x) < 40 &&
        Math.abs(ev.clientY - shield.y) < 40 && !(shield.target && shield.target.contains(ev.target))) {
      ev.preventDefault();
      ev.stopImmediatePropagation();
      shield = null;
      return;
    }
    if (ev.isTrusted) shield = null;
    lastClick = {x: ev.clientX, y: ev.clientY, t: now, target: ev.target};
  }, true);
  function guardTap(submitter) {
    if (!lastClick || Date.now() - lastClick.t > 300) { shield = null; return; }  // not a tap (the Enter key)
    shield = {x: lastClick.x, y: lastClick.y, t: Date.now(), target: submitter || lastClick.target};
  }

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.dataset.move && form.dataset.undo === undefined) return;
    var action = new URL(form.getAttribute("action") || "", location.href).pathname;
    var other = ev.submitter && ev.submitter.getAttribute("formaction");
    if (other && new URL(other, location.href).pathname !== action) return;  // a button of another address (a count)
    if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) { ev.preventDefault(); return; }
    ev.preventDefault();
    guardTap(ev.submitter);
    if (form.dataset.sent) return;
    form.dataset.sent = "1";
    // the screen may be behind the moves this tablet has sent since it was drawn (some of the
    // waiting moves were recorded, the rest deleted): the next move follows the last one recorded
    var after = parseInt((form.elements.after || {}).value, 10);
    after = isNaN(after) ? baseSeq() : Math.max(after, baseSeq());
    var entry = {action: action, after: after,
                 fields: fieldsOf(form, ev.submitter, after)};
    if (form.dataset.label) entry.label = form.dataset.label;
    // where the engine said this move leads (the screen follows it while moves wait)
    var then = (ev.submitter && ev.submitter.dataset.then) || form.dataset.then || thenBy(form);
    if (positions && then && form.dataset.undo === undefined) { entry.then = then; entry.answers = positions.dataset.seq; }
    if (positions && tokens && form.dataset.tokenBy !== undefined) entry.token = lookUp(form, form.dataset.tokenBy);
    if (form.dataset.undo !== undefined) entry.undo = true;
    else entry.type = form.dataset.move;
    enqueue(entry);
    setTimeout(function () { delete form.dataset.sent; }, 1500);
  }, true);
  // a form changed since it was sent (the next player chosen while moves wait) is a new move,
  // not a second tap of the same one
  document.addEventListener("change", function (ev) {
    var form = ev.target.form;
    if (form && form.dataset.sent) delete form.dataset.sent;
  }, true);

  document.addEventListener("click", function (ev) {
    var btn = ev.target.closest("[data-outbox]");
    if (!btn) return;
    var q = load();
    if (btn.dataset.outbox === "drop-last" && q.length) {
      var dropped = q.pop();
      store(q); render();
      // a refused move deleted with the tablet online: the screen is drawn again at the table's
      // real state (the moves still waiting are sent first, and draw it when recorded)
      if (!q.length && dropped.state === "refused" && isOnline && navigator.onLine) { leave(turnUrl()); return; }
      flush();
    }
    if (btn.dataset.outbox === "retry") {
      q.forEach(function (e) { if (e.state === "refused") { e.state = "queued"; delete e.error; } });
      store(q); retryDelay = 2000; flush();
    }
    if (btn.dataset.outbox === "download" && q.length) {
      var file = {format: "facilitator-outbox/2", table: parseInt(tableId, 10), table_name: body.dataset.tableName || "",
                  saved_at: new Date().toISOString(),
                  moves: q.map(function (e) { return legacy(e) ? sentLegacy(e) : sent(e); })};
      var blob = new Blob([JSON.stringify(file, null, 1)], {type: "application/json"});
      var a = document.createElement("a");
      a.href = URL.createObjectURL(blob);
      a.download = "unsent-moves-table-" + tableId + ".json";
      document.body.appendChild(a); a.click(); a.remove();
    }
  });

  // a screen of the table shown again by the Back button from the browser's cache (or its
  // back/forward cache) shows the table as it was: the server draws it again, and a page bound
  // to a move that was made meanwhile says so instead of offering it (not while offline or
  // while moves wait: the host is then entering moves on a screen known to be behind)
  window.addEventListener("pageshow", function (ev) {
    var nav = window.performance && performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
    var cached = ev.persisted || (nav && nav.type === "back_forward" && nav.transferSize === 0);
    if (cached && navigator.onLine && !load().length) { leaving = true; location.reload(); }
  });
  window.addEventListener("online", function () { online(true); retryDelay = 2000; flush(); askAnswers(); });
  window.addEventListener("offline", function () { online(false); });
  window.addEventListener("storage", function (ev) {
    if (ev.key !== KEY) return;
    // another tab sent the last waiting moves this screen showed: it is behind them, the server
    // draws it again (a page that never showed them, say one the Back button brings, stays)
    if (ev.oldValue && !ev.newValue && !sending && body.classList.contains("offline-entry")) {
      leave(turnUrl());
      return;
    }
    render();
  });
  render();
  flush();
  if (document.readyState === "complete") whenIdle(askAnswers);
  else window.addEventListener("load", function () { whenIdle(askAnswers); });
  setInterval(function () { if (load().some(function (e) { return e.state === "queued"; })) flush(); }, 10000);
})();
