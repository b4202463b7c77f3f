// The projector's online tables (web/views/screen.py, session_screen_tricks): the current
// trick of each, from the watcher's view (never a hand), polled with its ETag and written
// into the table's box as card faces (static/cards.js); kept across the live part's swaps
// (static/live.js).
(function () {
  "use strict";
  // Words through Django's JavaScript catalogue (/jsi18n/); English when a page has none.
  function _(text) { return window.gettext ? window.gettext(text) : text; }
  function interpolate(text, values) {
    return window.interpolate ? window.interpolate(text, values, true) :
      text.replace(/%\((\w+)\)s/g, function (match, key) { return String(values[key]); });
  }
  var box = document.getElementById("live");
  if (!box || !box.dataset.tricksUrl) { return; }
  var card = window.huckleyCard;
  var last = [];

  function apply() {
    last.forEach(function (t) {
      var article = box.querySelector('article[data-table-id="' + t.table_id + '"]');
      if (!article) { return; }
      var line = article.querySelector(".screen-trick");
      if (!line) { return; }
      var head = _("Online");
      if (t.round) { head += " · " + interpolate(_("round %(round)s"), {round: t.round}); }
      if (t.duplicate) { head += " · " + _("duplicate deal, cards hidden"); }
      var turn = t.to_act ? " · " + interpolate(_("%(player)s to play"), {player: t.to_act}) : "";
      var key = JSON.stringify([head, t.trick, turn]);
      if (line.dataset.shown !== key) {
        line.textContent = head;
        if (t.trick.length) { line.appendChild(document.createTextNode(" · " + _("on the table:") + " ")); }
        t.trick.forEach(function (c, i) {
          line.appendChild(document.createTextNode((i ? " · " : "") + c.player + " "));
          // A face from the code; the text alone from an answer kept before codes were sent.
          line.appendChild(c.code ? card(c.code) : document.createTextNode(c.card));
        });
        if (turn) { line.appendChild(document.createTextNode(turn)); }
        line.dataset.shown = key;
      }
      line.hidden = false;
    });
  }

  window.huckleyPoll({
    url: box.dataset.tricksUrl, etag: "", fast: 1500, slow: 10000, json: true, focus: true,
    changed: function (data) { last = data.tables || []; apply(); }
  });
  new MutationObserver(function () { apply(); }).observe(box, {childList: true});
})();
