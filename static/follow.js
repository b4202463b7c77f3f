// Follow my table (docs/tournament.md): ask where the player is now with the ETag the
// page has (a 304 while nothing changed), and when the table, the seat, the state or
// whether the table plays online changed, show it large, say it (the aria-live line)
// and vibrate where the phone allows. No reload, nothing from the internet: it works on
// the venue's Wi-Fi alone. A failed ask backs off to slower polling and resumes at once
// when the phone wakes.
(function () {
  "use strict";
  // Words through Django's JavaScript catalogue (/jsi18n/); English when a page has none.
  function _(text) { return window.gettext ? window.gettext(text) : text; }
  function interpolate(text, values) {
    return window.interpolate ? window.interpolate(text, values, true) :
      text.replace(/%\((\w+)\)s/g, function (match, key) { return String(values[key]); });
  }
  var box = document.getElementById("follow");
  if (!box || !box.dataset.liveUrl) { return; }
  var status = document.getElementById("follow-status");

  function text(id, value) {
    var node = document.getElementById(id);
    if (node && node.textContent !== value) { node.textContent = value; }
  }

  function str(value) { return value === null || value === undefined ? "" : String(value); }

  function show(where) {
    var before = [box.dataset.state, box.dataset.sitting, box.dataset.table, box.dataset.seat,
      box.dataset.online].join("/");
    var after = [where.state, str(where.sitting), str(where.table), str(where.seat),
      where.online ? "1" : ""].join("/");
    var place = document.getElementById("follow-place");
    text("follow-sitting", where.sitting ? interpolate(_("Sitting %(number)s"), {number: where.sitting}) : "");
    text("follow-table", str(where.table));
    text("follow-seat", str(where.seat));
    if (place) { place.hidden = where.table === null; }
    text("follow-with", where["with"].length ? interpolate(_("With: %(players)s"), {players: where["with"].map(function (p) {
      return interpolate(_("%(name)s (seat %(seat)s)"), {name: p.name, seat: p.seat});
    }).join(", ")}) : "");
    text("follow-text", where.text);
    // Whether the table plays online; the phone that keeps the player's seat link shows
    // "Play at your seat" while it does (static/seat_keep.js).
    var online = document.getElementById("follow-online");
    if (online) { online.hidden = !where.online; }
    var slot = document.getElementById("follow-seat-link");
    if (slot) {
      slot.dataset.online = where.online ? "1" : "";
      slot.hidden = !(where.online && slot.dataset.kept);
    }
    box.dataset.state = where.state;
    box.dataset.sitting = str(where.sitting);
    box.dataset.table = str(where.table);
    box.dataset.seat = str(where.seat);
    box.dataset.online = where.online ? "1" : "";
    if (after !== before) {
      box.classList.remove("moved");
      void box.offsetWidth;  // restart the highlight
      box.classList.add("moved");
      if (navigator.vibrate) { try { navigator.vibrate([200, 100, 200]); } catch (e) { /* not allowed */ } }
    }
  }

  window.huckleyPoll({
    url: box.dataset.liveUrl,
    etag: box.dataset.etag,
    fast: 3000,
    slow: 20000,
    json: true,
    changed: function (where, tag) {
      box.dataset.etag = tag;
      show(where);
    },
    ok: function () {
      if (status && status.dataset.lost) {
        status.textContent = _("This page updates itself after every movement; keep it open.");
        delete status.dataset.lost;
      }
    },
    lost: function () {
      if (status) { status.textContent = _("Reconnecting…"); status.dataset.lost = "1"; }
    }
  });
})();
