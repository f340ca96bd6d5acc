// Polls the standings with conditional requests: 304 when nothing changed, the new
// ranking swapped in place when something did (no page reload, no flash).
// The standings and the game's chart take turns on the screen, each filling it: the standings
// STANDINGS_MS, then each chart CHART_MS, and so on; ?view=standings or ?view=chart (data-view)
// pins one of them. The turn is a class on <main> (view-standings / view-chart), kept across
// the refreshes; while no chart is drawn (places being announced) the standings stay.
(function () {
  var STANDINGS_MS = 20000, CHART_MS = 12000;
  var box = document.getElementById("standings"), offline = document.getElementById("offline");
  var etag = box.dataset.etag, pinned = box.dataset.view;  // "auto", "standings" or "chart"
  var phase = box.classList.contains("view-chart") ? "chart" : "standings", current = 0, turn = null;

  function charts() { return box.querySelectorAll(".proj-chart"); }

  // the view drawn: <main>'s class, and which one chart is on (the others .off)
  function draw() {
    box.classList.toggle("view-chart", phase === "chart");
    box.classList.toggle("view-standings", phase !== "chart");
    var list = charts();
    if (current >= list.length) current = 0;
    for (var i = 0; i < list.length; i++) list[i].classList.toggle("off", i !== current);
  }

  // the next turn: standings → chart 1 → chart 2 … → standings (pinned to the chart: its charts in turn)
  function next() {
    var n = charts().length;
    if (pinned === "standings" || !n) {
      phase = pinned === "chart" ? "chart" : "standings";  // nothing to turn to now: wait for a chart
      current = 0;
    } else if (phase === "standings") {
      phase = "chart";
      current = 0;
    } else if (current + 1 < n) {
      current += 1;
    } else {
      phase = pinned === "chart" ? "chart" : "standings";
      current = 0;
    }
    draw();
    schedule();
  }

  function schedule() {
    clearTimeout(turn);
    turn = setTimeout(next, phase === "chart" && charts().length ? CHART_MS : STANDINGS_MS);
  }

  // for a test (or a hall's operator at the console): show "standings" or "chart" (its index-th
  // chart) now; the turns go on from there. Answers what is shown.
  window.__projectorShow = function (what, index) {
    phase = what === "chart" ? "chart" : "standings";
    current = index || 0;
    draw();
    schedule();
    return {view: phase, chart: phase === "chart" && charts().length ? current : null, charts: charts().length};
  };

  function poll() {
    fetch(box.dataset.url, {headers: etag ? {"If-None-Match": etag} : {}, cache: "no-cache"})
      .then(function (r) {
        offline.hidden = true;
        if (r.status === 304) return null;
        if (!r.ok) throw new Error(r.status);
        etag = r.headers.get("ETag");
        return r.json();
      })
      .then(function (data) {
        if (!data || data.rendered === undefined) return;
        var step = data.announcement ? data.announcement.step : 0;
        var html = data.rendered;
        // reveal animation only when a new place is announced, not on every refresh
        if (String(step) === box.dataset.step) html = html.replace(/\bnewest\b/g, "");
        box.dataset.step = String(step);
        box.innerHTML = html;
        // an announcement (no chart drawn) stops the turns on the standings
        if (!charts().length && pinned !== "chart") phase = "standings";
        draw();
      })
      .catch(function () { offline.hidden = false; })
      .then(function () { setTimeout(poll, 3000); });
  }
  draw();
  if (pinned !== "standings") schedule();
  setTimeout(poll, 3000);
})();
