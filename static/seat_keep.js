// The seat link a player's own phone keeps (docs/tournament.md, "Your seat link on your
// phone"). The door's answer and the sign-up's own page hand this phone the player's seat
// link (`data-keep-seat="<session>:<player>"` with `data-seat-url`): it is kept in this
// browser's localStorage, and nowhere else. "Find my table" and "Follow my table" are the
// same pages for everyone and carry no link: they mark each seat at an online table
// with an empty slot (`data-seat-for="<session>:<player>"`), and on the phone that keeps
// that player's link the slot shows "Play at your seat". A phone that keeps no link (or
// another player's) shows nothing. Nothing here needs the network.
(function () {
  "use strict";
  // Words through Django's JavaScript catalogue (/jsi18n/); English when a page has none.
  function _(text) { return window.gettext ? window.gettext(text) : text; }
  var PREFIX = "huckley-seat:";

  function store() {
    try { return window.localStorage; } catch (e) { return null; }  // storage switched off
  }

  function keep() {
    var kept = store();
    if (!kept) { return; }
    document.querySelectorAll("[data-keep-seat]").forEach(function (node) {
      var url = node.dataset.seatUrl || "";
      if (url.indexOf("/play/") === 0) {
        try { kept.setItem(PREFIX + node.dataset.keepSeat, url); } catch (e) { /* full */ }
      }
    });
  }

  // Fill every slot under `root` whose player's link this phone keeps; a slot is shown
  // while its table plays online (`data-online="1"`), which follow my table's poll updates.
  function show(root) {
    var kept = store();
    if (!kept || !root) { return; }
    root.querySelectorAll("[data-seat-for]").forEach(function (slot) {
      var url = kept.getItem(PREFIX + slot.dataset.seatFor) || "";
      if (url.indexOf("/play/") !== 0) { return; }
      if (!slot.querySelector("a")) {
        var link = document.createElement("a");
        link.className = "button";
        link.href = url;
        link.textContent = _("Play at your seat");
        slot.appendChild(link);
      }
      slot.dataset.kept = "1";
      slot.hidden = slot.dataset.online !== "1";
      var note = slot.dataset.note && document.getElementById(slot.dataset.note);
      if (note) { note.hidden = true; }  // the general words about seat links
    });
  }

  keep();
  show(document);
  // Find my table swaps in its answer after a movement (static/live.js): fill it again.
  var live = document.getElementById("live");
  if (live) {
    new MutationObserver(function () { show(live); }).observe(live, {childList: true});
  }
  window.huckleySeatShow = show;
})();
