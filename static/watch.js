// A director watching an online table (templates/play/watch.html): the watcher's view,
// which holds no hand, pushed over the WebSocket /ws/watch/<table>/ and, when the socket
// cannot be held, polled as JSON with its ETag (static/poll.js). Cards are faces
// (static/cards.js, `huckleyCard`), never the record's codes.
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
  var box = document.getElementById("watch");
  if (!box) { return; }
  var status = document.getElementById("live-status");
  var card = window.huckleyCard;

  // Fill the element `id` with `items`, each a list of strings and card codes
  // ({card: code}) drawn in a row; as <li>s for a list, inline otherwise.
  function fill(id, items, empty) {
    var list = document.getElementById(id);
    list.textContent = "";
    if (!items.length && empty) {
      var none = document.createElement("li");
      none.className = "muted";
      none.textContent = empty;
      list.appendChild(none);
    }
    items.forEach(function (parts) {
      var li = document.createElement("li");
      line(li, parts);
      list.appendChild(li);
    });
  }
  function line(node, parts) {
    (Array.isArray(parts) ? parts : [parts]).forEach(function (part) {
      node.appendChild(part && part.card ? card(part.card) : document.createTextNode(String(part)));
    });
    return node;
  }
  function set(id, parts) {
    var node = document.getElementById(id);
    node.textContent = "";
    line(node, parts);
    return node;
  }

  function show(view) {
    var turn = "";
    if (view.status && view.status !== "playing") {
      turn = interpolate(_("No online round at this table now (%(status)s)."), {status: view.status});
    } else if (view.to_act) {
      turn = view.phase ?
        interpolate(_("Round %(round)s, %(phase)s: %(player)s to play."), {round: view.round, phase: view.phase, player: view.to_act}) :
        interpolate(_("Round %(round)s: %(player)s to play."), {round: view.round, player: view.to_act});
    } else if (view.round) {
      turn = interpolate(_("Round %(round)s is over."), {round: view.round});
    }
    document.getElementById("watch-turn").textContent = turn;
    var facts = [];
    if (view.upcard) { facts.push(_("Upcard") + " ", {card: view.upcard}, ". "); }
    if (view.trump_words) {
      facts.push(view.trump_words.charAt(0).toUpperCase() + view.trump_words.slice(1) + ". ");
    } else if (view.trump) {
      facts.push(interpolate(_("Trump: %(suit)s."), {suit: card.suit(view.trump)}) + " ");
    }
    set("watch-facts", facts);
    fill("watch-trick", (view.trick || []).map(function (c) { return [c.player + ": ", {card: c.card}]; }),
      _("No card yet in this trick."));
    var last = view.last_trick, parts = [];
    if (last) {
      parts.push(interpolate(_("The last trick (%(number)s):"), {number: last.number}) + " ");
      last.cards.forEach(function (c, i) { parts.push((i ? ", " : "") + c.player + " ", {card: c.card}); });
      parts.push("; " + interpolate(_("%(player)s took it."), {player: last.winner}));
    }
    set("watch-last", parts).hidden = !last;
    var won = view.tricks_won || {};
    fill("watch-players", Object.keys(won).map(function (name) {
      return interpolate(ngettext("%(name)s: %(count)s trick", "%(name)s: %(count)s tricks", won[name]), {name: name, count: won[name]});
    }));
    var scores = view.scores || {};
    document.getElementById("watch-scores").textContent = Object.keys(scores).map(function (name) {
      return name + " " + scores[name];
    }).join(", ");
    if (view.robot_lines) {
      fill("watch-robots", view.robot_lines, _("No robot has played for anyone this round."));
    }
  }

  var polling = false;
  function poll() {
    if (polling) { return; }
    polling = true;
    window.huckleyPoll({
      url: box.dataset.liveUrl, etag: "", fast: 1500, slow: 10000, json: true, focus: true,
      changed: show,
      ok: function () { if (status) { status.textContent = ""; } },
      lost: function () { if (status) { status.textContent = _("Reconnecting…"); } }
    });
  }

  if (!window.WebSocket || !box.dataset.wsPath) { poll(); return; }
  var scheme = location.protocol === "https:" ? "wss://" : "ws://";
  var socket;
  try { socket = new WebSocket(scheme + location.host + box.dataset.wsPath); } catch (e) { poll(); return; }
  socket.onmessage = function (event) {
    var message = JSON.parse(event.data);
    if (message.view) { show(message.view); }
  };
  // The socket's view has no robot lines: the poll (always on, slow while the socket
  // holds) brings them, and takes over when the socket closes.
  socket.onclose = poll;
  socket.onerror = poll;
  setTimeout(poll, 3000);
})();
