// A finished round card by card, on its game's page (play/replay.py writes the data):
// the hands as play began, then one card a step, forward and back, with the trick on the
// table and the tricks taken. Without JavaScript the page lists the tricks instead.
(function () {
  "use strict";
  // Words through Django's JavaScript catalogue (/jsi18n/); English when a page has none.
  function _(text) { return window.gettext ? window.gettext(text) : text; }
  function ngettext(one, many, n) {
    return window.ngettext ? window.ngettext(one, many, n) : (n === 1 ? one : many);
  }
  function interpolate(text, values) {
    return window.interpolate ? window.interpolate(text, values, true) :
      text.replace(/%\((\w+)\)s/g, function (match, key) { return String(values[key]); });
  }

  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) { node.textContent = text; }
    if (cls) { node.className = cls; }
    return node;
  }

  function button(label, handler) {
    var b = el("button", label, "secondary");
    b.type = "button";
    b.addEventListener("click", handler);
    return b;
  }

  function setUp(box) {
    var source = document.getElementById("replay-data-" + box.id.replace("replay-", ""));
    if (!source) { return; }
    var data = JSON.parse(source.textContent);
    var steps = data.steps, labels = data.labels, at = 0;
    var label = function (code) { return labels[code] || code; };

    var stepper = el("div", null, "replay-stepper");
    var status = el("p", "", "replay-status");
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    var controls = el("div", null, "actions replay-controls");
    var first = button(_("First"), function () { show(0); });
    var back = button(_("Previous card"), function () { show(at - 1); });
    var next = button(_("Next card"), function () { show(at + 1); });
    var last = button(_("Last"), function () { show(steps.length); });
    [first, back, next, last].forEach(function (b) { controls.appendChild(b); });
    var table = el("table", null, "replay-table");
    var head = el("thead"), body = el("tbody"), row = el("tr");
    [_("Player"), _("Cards held"), _("On the table"), _("Tricks")].forEach(function (h) {
      var th = el("th", h); th.scope = "col"; row.appendChild(th);
    });
    head.appendChild(row); table.appendChild(head); table.appendChild(body);
    var scroll = el("div", null, "scroll");
    scroll.appendChild(table);
    stepper.appendChild(status);
    stepper.appendChild(controls);
    stepper.appendChild(scroll);

    function show(k) {
      at = Math.max(0, Math.min(steps.length, k));
      var held = {}, won = {}, onTable = {};
      data.players.forEach(function (p) { held[p] = data.hands[p].slice(); won[p] = 0; });
      var current = 0;
      for (var i = 0; i < at; i += 1) {
        var s = steps[i];
        if (s.trick !== current) { onTable = {}; current = s.trick; }
        held[s.player].splice(held[s.player].indexOf(s.card), 1);
        onTable[s.player] = s.card;
        if (s.winner) { won[s.winner] += 1; }
      }
      body.textContent = "";
      data.players.forEach(function (p) {
        var tr = el("tr");
        var th = el("th", p); th.scope = "row"; tr.appendChild(th);
        tr.appendChild(el("td", held[p].map(label).join(" ") || "–"));
        tr.appendChild(el("td", onTable[p] ? label(onTable[p]) : ""));
        tr.appendChild(el("td", String(won[p])));
        body.appendChild(tr);
      });
      if (at === 0) {
        status.textContent = interpolate(ngettext("Round %(round)s: the hands as play began. %(count)s cards to play.",
          "Round %(round)s: the hands as play began. %(count)s cards to play.", steps.length),
          {round: data.round, count: steps.length});
      } else {
        var s2 = steps[at - 1];
        var said = interpolate(_("Card %(at)s of %(count)s, trick %(trick)s: %(player)s plays %(card)s."),
          {at: at, count: steps.length, trick: s2.trick, player: s2.player, card: label(s2.card)});
        if (s2.winner) { said += " " + interpolate(_("%(player)s takes the trick."), {player: s2.winner}); }
        status.textContent = said;
      }
      first.disabled = back.disabled = at === 0;
      next.disabled = last.disabled = at === steps.length;
    }

    var plain = box.querySelector(".replay-plain");
    box.insertBefore(stepper, plain);
    // The tricks as a list stay below, folded: the stepper says the same a card at a time.
    var list = box.querySelector(".replay-tricks");
    if (list) { list.hidden = true; }
    show(0);
  }

  document.querySelectorAll("details.replay").forEach(setUp);
})();
