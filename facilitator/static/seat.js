// A player's page follows the game by itself: it asks for itself again with its ETag every few
// seconds; the server answers 304 while nothing of this player's changed (the ETag it answers
// with is kept: it names the table's position now), else the new page, whose main part is
// swapped in place. A revoked link (410) or a vanished seat (404) shows its own page.
(function () {
  var box = document.getElementById("seat"), offline = document.getElementById("offline");
  if (!box) return;
  var every = (parseInt(box.dataset.poll, 10) || 5) * 1000, etag = box.dataset.etag || null;
  // the page asks for itself in the language it is drawn in (a link without ?lang= too): the
  // server then answers "nothing new" from the change check alone, before its pages' machinery
  var lang = document.documentElement.lang, address = location.pathname + location.search;
  if (lang && !/[?&]lang=/.test(location.search)) {
    address += (location.search ? "&" : "?") + "lang=" + encodeURIComponent(lang);
  }
  function poll() {
    fetch(address, {headers: etag ? {"If-None-Match": etag} : {}, cache: "no-cache", credentials: "same-origin"})
      .then(function (r) {
        if (offline) offline.hidden = true;
        // 304: nothing of this player's changed; its ETag may name the table's newer position
        if (r.status === 304) { etag = r.headers.get("ETag") || etag; return null; }
        if (r.status === 404 || r.status === 410) { location.reload(); return null; }
        if (!r.ok) throw new Error(r.status);
        etag = r.headers.get("ETag");
        return r.text();
      })
      .then(function (html) {
        if (!html) return;
        var doc = new DOMParser().parseFromString(html, "text/html"), fresh = doc.getElementById("seat");
        if (fresh) box.innerHTML = fresh.innerHTML;
      })
      .catch(function () { if (offline) offline.hidden = false; })
      .then(function () { setTimeout(poll, every); });
  }
  setTimeout(poll, every);
})();
