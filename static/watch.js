// A director watching an online table (templates/play/watch.html): the watcher's view,
// which holds no hand, pushed over the WebSocket /ws/watch/<table>/ and, when the socket
// cannot be held, polled as JSON with its ETag (static/poll.js). Cards are faces
// (static/cards.js, `huckleyCard`), never the record's codes.
(function () {
  "use strict";
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
      turn = "No online round at this table now (" + view.status + ").";
    } else if (view.to_act) {
      turn = "Round " + view.round + (view.phase ? ", " + view.phase : "") + ": " + view.to_act + " to play.";
    } else if (view.round) {
      turn = "Round " + view.round + " is over.";
    }
    document.getElementById("watch-turn").textContent = turn;
    var facts = [];
    if (view.upcard) { facts.push("Upcard ", {card: view.upcard}, ". "); }
    if (view.trump_words) {
      facts.push(view.trump_words.charAt(0).toUpperCase() + view.trump_words.slice(1) + ". ");
    } else if (view.trump) {
      facts.push("Trump: " + card.suit(view.trump) + ". ");
    }
    set("watch-facts", facts);
    fill("watch-trick", (view.trick || []).map(function (c) { return [c.player + ": ", {card: c.card}]; }),
      "No card yet in this trick.");
    var last = view.last_trick, parts = [];
    if (last) {
      parts.push("The last trick (" + last.number + "): ");
      last.cards.forEach(function (c, i) { parts.push((i ? ", " : "") + c.player + " ", {card: c.card}); });
      parts.push("; " + last.winner + " took it.");
    }
    set("watch-last", parts).hidden = !last;
    var won = view.tricks_won || {};
    fill("watch-players", Object.keys(won).map(function (name) {
      return name + ": " + won[name] + " trick" + (won[name] === 1 ? "" : "s");
    }));
    var scores = view.scores || {};
    document.getElementById("watch-scores").textContent = Object.keys(scores).map(function (name) {
      return name + " " + scores[name];
    }).join(", ");
    if (view.robot_lines) {
      fill("watch-robots", view.robot_lines, "No robot has played for anyone this round.");
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
      lost: function () { if (status) { status.textContent = "Reconnecting…"; } }
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
