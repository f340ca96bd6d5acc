// Polls the standings with conditional requests: 304 when nothing changed, the new
// ranking swapped in place when something did (no page reload, no flash).
(function () {
  var box = document.getElementById("standings"), offline = document.getElementById("offline");
  var etag = box.dataset.etag;
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
      })
      .catch(function () { offline.hidden = false; })
      .then(function () { setTimeout(poll, 3000); });
  }
  setTimeout(poll, 3000);
})();
