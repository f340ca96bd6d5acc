// Small progressive enhancement for the host's tablet: steppers, live sums, no double submits,
// the turn timer. Every form works without it; the server checks everything again.
(function () {
  "use strict";

  // a recorded move's screen (?done=<seq>) says what the move changed once: the address kept in
  // the history is the table's own, so a reload or Back shows the screen as it stands then
  if (/[?&]done=\d+$/.test(location.search) && window.history && history.replaceState) {
    history.replaceState(history.state, "", location.pathname + location.search.replace(/[?&]done=\d+$/, "") + location.hash);
  }

  function numberOf(input) {
    var v = parseInt(input.value, 10);
    return isNaN(v) ? 0 : v;
  }

  // − / + buttons beside number inputs
  document.addEventListener("click", function (ev) {
    var btn = ev.target.closest(".stepper button");
    if (!btn) return;
    var input = btn.parentElement.querySelector("input");
    var signed = btn.closest(".skill-inputs").dataset.signed === "1";
    var v = numberOf(input) + (btn.classList.contains("inc") ? 1 : -1);
    if (!signed && v < 0) v = 0;
    input.value = v === 0 ? "" : v;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });

  // live check of a redistribution (sum 0, moved <= limit) or an allocation (sum = total)
  function checkSkills(box) {
    var inputs = box.querySelectorAll("input"), sum = 0, moved = 0;
    inputs.forEach(function (i) { var v = numberOf(i); sum += v; if (v > 0) moved += v; });
    var out = box.querySelector(".live-check"), ok = true, text = "";
    if (box.dataset.total !== undefined) {
      ok = sum === parseInt(box.dataset.total, 10);
      text = sum + " / " + box.dataset.total;
    } else if (box.dataset.limit !== undefined) {
      ok = sum === 0 && moved <= parseInt(box.dataset.limit, 10);
      text = "Σ " + sum + " · " + moved + " / " + box.dataset.limit;
    } else {
      text = "";
    }
    if (out) { out.textContent = text; out.className = "live-check " + (text ? (ok ? "good" : "bad") : ""); }
  }
  document.querySelectorAll(".skill-inputs").forEach(checkSkills);
  document.addEventListener("input", function (ev) {
    var box = ev.target.closest(".skill-inputs");
    if (box) checkSkills(box);
    var row = ev.target.closest("tr[data-sum]");
    if (row) checkSum(row);
    var seat = ev.target.closest("fieldset");
    if (seat && ev.target.name && /-name$/.test(ev.target.name)) seat.querySelectorAll("tr[data-sum]").forEach(checkSum);
  });

  // setup: live sums of a row against the sums the engine allows (data-sum), nothing typed
  // allowed too where the row is optional (data-optional): the extra SP, the future image
  function checkSum(row) {
    var sum = 0;
    row.querySelectorAll("input").forEach(function (i) { sum += numberOf(i); });
    var cell = row.querySelector(".sum"), allowed = row.dataset.sum.split(",").map(Number);
    var ok = allowed.indexOf(sum) >= 0 || (row.dataset.optional === "1" && sum === 0);
    var seat = row.closest("fieldset"), name = seat && seat.querySelector("input[name$='-name']");
    var empty = name && !name.value.trim() && sum === 0;  // an optional seat left empty is not an error
    cell.textContent = allowed.length === 1 ? sum + "/" + allowed[0] : String(sum);
    cell.className = "sum " + (empty ? "" : (ok ? "good" : "bad"));
  }
  document.querySelectorAll("tr[data-sum]").forEach(checkSum);

  // one tap, one move: a form is sent once; the server answers with the new screen
  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (ev.defaultPrevented) return;  // taken by the outbox (outbox.js), which sends it itself
    if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) { ev.preventDefault(); return; }
    if (form.dataset.sent) { ev.preventDefault(); return; }
    form.dataset.sent = "1";
    form.querySelectorAll("button[type=submit]").forEach(function (b) {
      setTimeout(function () { b.disabled = true; }, 0);
    });
  });

  // the turn timer: counts down from the table's setting; at zero it proposes a pass
  var timer = document.getElementById("timer");
  if (timer) {
    var left = parseInt(timer.dataset.seconds, 10);
    var tick = setInterval(function () {
      left -= 1;
      timer.textContent = Math.max(left, 0);
      if (left <= 10) timer.classList.add("low");
      if (left <= 0) {
        clearInterval(tick);
        var pass = document.getElementById("pass-button");
        if (pass) { pass.classList.add("primary"); pass.focus(); if (pass.parentElement.tagName === "DETAILS") pass.parentElement.open = true; }
      }
    }, 1000);
  }
})();
