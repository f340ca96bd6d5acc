// New Angeles tracker on the host's tablet: steppers and the deal's live count (asked from the
// server, which folds the screen's helper inputs into the deal and asks the engine: no rule is
// worked out and no move is put together here; the count sends back the deal's fields as the
// server read them). Every screen works without this script, and a form is posted as it is.
// Offline the count cannot be asked: the screen says the deal is checked when the connection
// returns, and the deal is recorded as entered (the outbox sends it; the server checks it). The
// forms of the positions the deals entered offline lead to (data-offline, drawn by the server
// from the engine's answers) are never counted: they post their helper inputs as a tablet
// without JavaScript does, and the server folds them when they are sent.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  function stepInput(button) {
    var input = button.parentElement.querySelector("input");
    var v = parseInt(input.value, 10);
    if (isNaN(v)) v = 0;
    v += button.classList.contains("inc") ? 1 : -1;
    if (input.min !== "" && v < parseInt(input.min, 10)) v = parseInt(input.min, 10);
    input.value = v === 0 ? "" : String(v);
    input.dispatchEvent(new Event("input", {bubbles: true}));
  }

  // ----- the deal: counted by the server ---------------------------------------------------------------
  var deal = document.getElementById("na-deal");
  var version = 0, timer = null, busy = false, countFailed = false;
  // the host tapped «Record» while the count was behind what was entered: count, then record
  // what was counted (unless the count shows an error, or something changed meanwhile)
  var recordAfterCount = null;

  function recordNow() {
    var submitter = recordAfterCount;
    recordAfterCount = null;
    if (submitter && !deal.querySelector("[data-deal-error]")) deal.requestSubmit(submitter);
  }

  // the count needs the server: the deal screen says so while it cannot be asked
  function countOffline(yes) {
    var note = deal && deal.querySelector("[data-count-offline]");
    if (note) note.hidden = !yes;
  }

  function changed(delay) {
    recordAfterCount = null;  // edited after the tap: the host sees the new count first
    version += 1;
    deal.dataset.dirty = "1";
    clearTimeout(timer);
    timer = setTimeout(function () { count(); }, delay);
  }

  function count(step) {
    clearTimeout(timer);
    var data = new FormData(deal), v = version;
    if (step) data.append("step", step);
    busy = true;
    if (navigator.onLine === false) {
      // no count to wait for: the deal tapped is recorded as entered, once this tap's submit is
      // over (a form being submitted cannot be submitted again from within it)
      busy = false; countFailed = true; countOffline(true); setTimeout(recordNow, 0); return;
    }
    fetch(deal.dataset.compute, {method: "POST", body: data, credentials: "same-origin",
                                 headers: {"X-Requested-With": "fetch"}})
      .then(function (r) {
        if (r.status === 409 || r.redirected) { window.location = deal.dataset.current; throw new Error("moved on"); }
        return r.text();
      })
      .then(function (html) {
        busy = false;
        countFailed = false;
        countOffline(false);
        if (v !== version && !step) { changed(150); return; }
        var doc = new DOMParser().parseFromString(html, "text/html");
        doc.querySelectorAll("#na-deal [data-swap]").forEach(function (fresh) {
          var old = deal.querySelector('[data-swap="' + fresh.dataset.swap + '"]');
          if (!old || (!step && old.contains(document.activeElement) && old !== document.activeElement)) return;
          var copy = document.importNode(fresh, true);
          if (old.tagName === "DETAILS" && old.open) copy.open = true;
          old.replaceWith(copy);
        });
        if (v === version) { delete deal.dataset.dirty; recordNow(); } else { recordAfterCount = null; changed(150); }
      })
      .catch(function (err) {
        busy = false;
        if (!err || err.message !== "moved on") { countFailed = true; countOffline(true); recordNow(); }
      });
  }

  if (deal) {
    deal.addEventListener("input", function (ev) {
      var t = ev.target;
      if (!t.name || t.type === "hidden") return;
      changed(t.type === "number" ? 400 : 800);
    });
    deal.addEventListener("change", function (ev) {
      var t = ev.target;
      if (t.type === "checkbox" || t.type === "radio" || t.tagName === "SELECT") changed(0);
    });
    deal.addEventListener("click", function (ev) {
      var b = ev.target.closest("button[name=step]");
      if (!b || !deal.contains(b)) return;
      ev.preventDefault();
      if (/^(inc|dec):/.test(b.value)) { stepInput(b); return; }
      version += 1;
      deal.dataset.dirty = "1";
      count(b.value === "count" ? null : b.value);
    });
    deal.addEventListener("keydown", function (ev) {
      if (ev.key === "Enter" && ev.target.tagName === "INPUT") { ev.preventDefault(); version += 1; count(); }
    });
  }

  window.addEventListener("offline", function () { countOffline(true); });
  window.addEventListener("online", function () { if (!countFailed) countOffline(false); });

  // a position's deal (data-offline): nothing to count, and the Enter key does not submit it
  // through its first button (a stepper)
  document.addEventListener("keydown", function (ev) {
    var form = ev.target.form;
    if (ev.key === "Enter" && ev.target.tagName === "INPUT" && form && form.dataset.offline !== undefined) {
      ev.preventDefault();
    }
  });

  // other screens' steppers (no count behind them)
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest(".na-stepper button");
    if (!b || (deal && deal.contains(b))) return;
    ev.preventDefault();
    stepInput(b);
  });

  // ----- sending a move ------------------------------------------------------------------------------
  window.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.dataset || !form.dataset.move) return;
    if (form.dataset.offline !== undefined) return;  // posted as it is, helpers and all
    if (form === deal && !countFailed && (deal.dataset.dirty || busy)) {
      // the count on the screen is not the count of what was entered: count first, then send
      // (the deal's lines and its count are what the engine will be asked to record)
      ev.preventDefault();
      ev.stopImmediatePropagation();
      recordAfterCount = ev.submitter || deal.querySelector("[data-record]");
      version += 1;
      count();
      return;
    }
  }, true);

  // «Undo the last move» in a move form's bar: the undo form itself is sent (its confirmation and
  // the outbox see it as if its own button were tapped); without this script the link scrolls to it
  document.addEventListener("click", function (ev) {
    var link = ev.target.closest && ev.target.closest("[data-undo-now]");
    var form = link && document.getElementById("na-undo");
    if (!form) return;
    ev.preventDefault();
    if (form.requestSubmit) form.requestSubmit(form.querySelector("button[type=submit]"));
    else form.querySelector("button[type=submit]").click();
  });
})();
