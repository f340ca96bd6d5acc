// The tablet's outbox: nothing entered is lost on venue Wi-Fi.
//
// Every move form (data-move="<type>") and the undo form (data-undo) of a table's screen is
// first written to an outbox in the browser's storage, with the sequence number it follows
// ("after") and a client id, then sent to the server's batch endpoint. A move counts as saved
// only when the server's JSON answer names it as recorded (a captive portal's 200 is not a
// save). While the server cannot be reached the moves wait, a banner says how many, the page
// warns before it is closed, sending is retried, and the host can go on entering the table's
// moves (marked "not checked"); they are sent in order when the connection returns. A move the
// server refuses stops the sending and is shown with the reason; the rest stay queued for the
// host to fix, delete or download. Several tabs share one outbox and one sender at a time; the
// server never records a queued move twice (client ids).
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
  var batchUrl = "/api/v1/tables/" + tableId + "/moves/batch";
  var players = body.dataset.players ? JSON.parse(body.dataset.players) : [];
  var retryDelay = 2000, retryTimer = null, sending = false;

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

  // ----- a form as a move of the record format ------------------------------------------------
  function moveOf(form, submitter) {
    var move = {type: form.dataset.move}, data;
    try { data = new FormData(form, submitter || undefined); } catch (e) { data = new FormData(form); }
    if (submitter && submitter.name && !data.has(submitter.name)) data.append(submitter.name, submitter.value);
    data.forEach(function (value, name) {
      if (name === "csrf_token" || name === "after" || name === "type" || value === "") return;
      var field = form.elements[name], el = field && field.length && !field.tagName ? field[0] : field;
      var isList = /\[\]$/.test(name);
      var key = name.replace(/\[\]$/, "");
      if (el && el.dataset && el.dataset.json !== undefined) { move[key] = JSON.parse(value); return; }
      var v = (el && el.type === "number") ? parseInt(value, 10) : value;
      if (el && el.type === "number" && isNaN(v)) return;
      var dash = key.indexOf("-");
      if (dash > 0 && !isList) {
        var outer = key.slice(0, dash), inner = key.slice(dash + 1);
        if (v === 0) return;
        move[outer] = move[outer] || {};
        move[outer][inner] = v;
      } else if (isList) {
        (move[key] = move[key] || []).push(v);
      } else {
        move[key] = v;
      }
    });
    if (move.source === "deck") { move.source = "app-deck"; } else { delete move.source; }
    if (typeof move.manual === "string") { move.card = JSON.parse(move.manual); }
    delete move.manual;
    return move;
  }

  function label(move) {
    if (move.undo) return W.undo || "undo";
    var names = W.moves || {};  // the moves' names in the screen's language (base.html)
    var name = names[move.type + ":" + move.decision] || names[move.type] || move.type;
    return (move.player ? move.player + ": " : "") + name + (move.card && typeof move.card === "string" ? " " + move.card : "");
  }

  // ----- queueing and sending ------------------------------------------------------------------
  function enqueue(entry) {
    var q = load();
    var queued = q.filter(function (e) { return e.state !== "refused"; });
    entry.after = queued.length ? queued[queued.length - 1].after + 1 : entry.after;
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
    sending = true;
    localStorage.setItem(LOCK, String(Date.now()));
    var payload = {flash: true, moves: q.map(function (e) {
      return e.undo ? {after: e.after, undo: true, client_id: e.client_id}
                    : {after: e.after, move: e.move, client_id: e.client_id};
    })};
    fetch(batchUrl, {method: "POST", credentials: "same-origin", cache: "no-store",
                     headers: {"Content-Type": "application/json", "Accept": "application/json"},
                     body: JSON.stringify(payload)})
      .then(function (r) {
        var type = r.headers.get("Content-Type") || "";
        if (type.indexOf("application/json") < 0) throw new Error("not the server");
        return r.json().then(function (data) { return {status: r.status, data: data}; });
      })
      .then(function (answer) {
        var data = answer.data;
        if (!data || !Array.isArray(data.recorded)) {
          // refused as a whole (no access, malformed); a 5xx (the server busy or failing) is no
          // refusal: the moves stay queued and are sent again
          if (answer.status >= 400 && answer.status < 500 && data && data.error) {
            markRefused(q[0].client_id, data.error.message);
            return;
          }
          throw new Error("no confirmation");
        }
        var done = {};
        data.recorded.forEach(function (r) { if (typeof r.seq === "number") done[r.client_id] = r.seq; });
        var left = load().filter(function (e) { return !(e.client_id in done); });
        if (data.refused) {
          left.forEach(function (e) {
            if (e.client_id === data.refused.client_id) { e.state = "refused"; e.error = data.refused.message; }
          });
        }
        store(left);
        if (data.recorded.length) {
          localStorage.setItem(SAVED, new Date().toISOString());
          if (typeof data.seq === "number") body.dataset.seq = String(data.seq);
        }
        retryDelay = 2000;
        online(true);
        if (!left.length) { window.removeEventListener("beforeunload", warn); location.replace(body.dataset.turnUrl || location.href); }
      })
      .catch(function () {
        online(false);
        clearTimeout(retryTimer);
        retryTimer = setTimeout(flush, retryDelay);
        retryDelay = Math.min(retryDelay * 2, 30000);
      })
      .then(function () { sending = false; localStorage.removeItem(LOCK); render(); });
  }

  function markRefused(clientId, message) {
    var q = load();
    q.forEach(function (e) { if (e.client_id === clientId) { e.state = "refused"; e.error = message; } });
    store(q);
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
      connection.className = "conn " + (isOnline && !waiting ? "on" : "off");
      connection.textContent = isOnline && !waiting ? (W.online || "online") + (when ? " · " + (W.saved || "saved") + " " + when : "")
                                                  : (W.offline || "offline");
    }
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
      li.textContent = label(e.undo ? e : e.move) + " · " + (e.state === "refused" ? (W.refused || "refused") + ": " + e.error
                                                                            : (W.unchecked || "not checked"));
      list.appendChild(li);
    });
    window.addEventListener("beforeunload", warn);
    offlinePlayers();
  }

  function warn(ev) {
    if (!load().length) return undefined;
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
  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.dataset.move && form.dataset.undo === undefined) return;
    if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) { ev.preventDefault(); return; }
    ev.preventDefault();
    if (form.dataset.sent) return;
    form.dataset.sent = "1";
    // the screen may be behind the moves this tablet has sent since it was drawn (some of the
    // waiting moves were recorded, the rest deleted): the next move follows the last one recorded
    var after = parseInt((form.elements.after || {}).value, 10);
    after = isNaN(after) ? baseSeq() : Math.max(after, baseSeq());
    if (form.dataset.undo !== undefined) enqueue({undo: true, after: after});
    else enqueue({move: moveOf(form, ev.submitter), after: after});
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
    if (btn.dataset.outbox === "drop-last" && q.length) { q.pop(); store(q); render(); flush(); }
    if (btn.dataset.outbox === "retry") {
      q.forEach(function (e) { if (e.state === "refused") { e.state = "queued"; delete e.error; } });
      store(q); retryDelay = 2000; flush();
    }
    if (btn.dataset.outbox === "download" && q.length) {
      var file = {format: "facilitator-outbox/1", table: parseInt(tableId, 10), table_name: body.dataset.tableName || "",
                  saved_at: new Date().toISOString(),
                  moves: q.map(function (e) { return e.undo ? {after: e.after, undo: true, client_id: e.client_id}
                                                              : {after: e.after, move: e.move, client_id: e.client_id}; })};
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
    if (cached && navigator.onLine && !load().length) location.reload();
  });
  window.addEventListener("online", function () { online(true); retryDelay = 2000; flush(); });
  window.addEventListener("offline", function () { online(false); });
  window.addEventListener("storage", function (ev) {
    if (ev.key !== KEY) return;
    // another tab sent the last waiting moves this screen showed: it is behind them, the server
    // draws it again (a page that never showed them, say one the Back button brings, stays)
    if (ev.oldValue && !ev.newValue && !sending && body.classList.contains("offline-entry")) {
      location.replace(body.dataset.turnUrl || location.href);
      return;
    }
    render();
  });
  render();
  flush();
  setInterval(function () { if (load().some(function (e) { return e.state === "queued"; })) flush(); }, 10000);
})();
