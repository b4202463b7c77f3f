// The projector's online tables (web/views/screen.py, session_screen_tricks): the current
// trick of each, from the watcher's view (never a hand), polled with its ETag and written
// into the table's box; kept across the live part's swaps (static/live.js).
(function () {
  "use strict";
  var box = document.getElementById("live");
  if (!box || !box.dataset.tricksUrl) { return; }
  var last = [];

  function apply() {
    last.forEach(function (t) {
      var article = box.querySelector('article[data-table-id="' + t.table_id + '"]');
      if (!article) { return; }
      var line = article.querySelector(".screen-trick");
      if (!line) { return; }
      var cards = t.trick.map(function (c) { return c.player + " " + c.card; }).join(" · ");
      var text = "Online";
      if (t.round) { text += " · round " + t.round; }
      if (t.duplicate) { text += " · duplicate deal, cards hidden"; }
      if (cards) { text += " · on the table: " + cards; }
      if (t.to_act) { text += " · " + t.to_act + " to play"; }
      if (line.textContent !== text) { line.textContent = text; }
      line.hidden = false;
    });
  }

  window.huckleyPoll({
    url: box.dataset.tricksUrl, etag: "", fast: 1500, slow: 10000, json: true, focus: true,
    changed: function (data) { last = data.tables || []; apply(); }
  });
  new MutationObserver(function () { apply(); }).observe(box, {childList: true});
})();
