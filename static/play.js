// The player's seat page (/play/<token>/, docs/tournament.md "Playing online"): the
// server renders the seat's view once; this script keeps it live and sends the moves.
//
// - Live: a WebSocket to /ws/play/<token>/ (the server sends {"type": "view", "view"}
//   after every change; a ping every 25 s says the player is still here). When the
//   socket cannot open or drops, the page asks GET /api/play/<token>/ with
//   `huckleyPoll` (static/poll.js: ETag, 304, back-off) while it tries the socket again
//   with a growing delay; once the socket is back the polling stops.
// - Moves: only the choices in the view's `legal` are offered, each button carrying the
//   move ready to send (`data-move`). While the socket is open a move goes over it,
//   {"type": "move", "move": view.move, ...that move}; the answer is the new view, or
//   {"type": "refused", "code", "message", "view"?}. Otherwise (no socket, a server that
//   does not take moves on the socket, no answer within a few seconds) the same body is
//   POSTed to /api/play/<token>/moves/: 200 the new view, 409 the current view, 400 the
//   rule in the server's words. A move sent twice is taken once, so the POST after a
//   socket that said nothing is safe.
// - A move that arrives late (`stale_move`) says so in one sentence and shows where the
//   table stands; a card the player may not play is still a button (`data-illegal`): the
//   tap sends it and the page shows the game's refusal ("You must follow suit ...").
// - The trick taken last (`last_trick`) stays on the table a moment with who took it;
//   a new place (another sitting, table or seat, or the table switched to paper or
//   online) is shown large a moment, as "follow my table" does; an optional beep on the
//   player's turn (static/turn_sound.js).
// - A view older than the one shown (same game and round, lower move) is ignored: the
//   socket and a move's answer may arrive in either order.
// Cards are drawn by static/cards.js (`huckleyCard`). No framework, no inline script
// (the CSP forbids it), nothing from the internet.
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
  var root = document.getElementById("play");
  var data = document.getElementById("play-view");
  if (!root || !data) { return; }
  var view = JSON.parse(data.textContent);
  var csrf = root.dataset.csrf || "";
  var discards = [];      // indexes in the hand of the cards chosen to discard
  var discardsAt = null;  // the move number they were chosen at
  var sending = false;

  // ---------------------------------------------------------------- words

  var cards = window.huckleyCard;
  // Looked up as they are used: the catalogue may load after this script.
  function phases() {
    return {
      announce: _("In or out"), draw: _("The draw"), play: _("Playing the tricks"), order: _("Ordering up"),
      name: _("Naming trump"), discard: _("The dealer's discard"), drop: _("In or out"), bid: _("Bidding"),
      end: _("Round over"), done: _("Game over")
    };
  }
  function prompts() {
    return {
      announce: _("are you in or out?"), draw: _("choose the cards to discard, or stand pat."),
      play: _("play a card."), order: _("order up or pass?"), name: _("name trump or pass?"),
      discard: _("discard a card."), drop: _("are you in or out?"), bid: _("make your bid.")
    };
  }
  // What a player said, as the seat page shows it; anything else as it came.
  function sayWord(word) {
    var words = {"in": _("in"), out: _("out"), pass: _("pass"), order: _("order"), drop: _("drop")};
    return Object.prototype.hasOwnProperty.call(words, word) ? words[word] : word;
  }

  // A card code of the game record as [face, words, red?] (static/cards.js).
  function card(code) { var c = cards.info(code); return [c.text, c.words, c.red]; }
  function cardText(code) { return cards.info(code).text; }
  function suitWords(letter) { return cards.suit(letter); }

  // What a choice of `legal` (not a card to play) says on its button.
  function moveLabel(move) {
    switch (move.action) {
      case "in": return _("I'm in");
      case "out": return _("I'm out");
      case "pass": return _("Pass");
      case "trump": return view.phase === "order" ? interpolate(_("Order up %(suit)s"), {suit: suitWords(move.suit)}) :
        interpolate(_("Name %(suit)s trump"), {suit: suitWords(move.suit)});
      case "discard": return interpolate(_("Discard %(card)s"), {card: cardText(move.card)});
      case "bid": return interpolate(_("Bid %(bid)s"), {bid: move.bid});
      default: return move.action;
    }
  }
  function moveWords(move) {
    if (move.action === "discard") { return interpolate(_("Discard the %(card)s"), {card: card(move.card)[1]}); }
    return moveLabel(move);
  }

  // What each player said in the phases before play, as a short text.
  function said(name) {
    var parts = [];
    (view.announcements || []).forEach(function (a) { if (a.player === name) { parts.push(sayWord(a.call)); } });
    (view.calls || []).forEach(function (c) {
      if (c.player === name) { parts.push(c.action === "trump" ? suitWords(c.suit).split(" ")[0] : sayWord(c.action)); }
    });
    if (view.bids && Object.prototype.hasOwnProperty.call(view.bids, name)) { parts.push(interpolate(_("bid %(bid)s"), {bid: view.bids[name]})); }
    (view.draws || []).forEach(function (d) {
      if (d.player === name) { parts.push(d.drew ? interpolate(_("drew %(count)s"), {count: d.drew}) : _("stood pat")); }
    });
    if (view.declarer === name) { parts.push(_("declarer")); }
    return parts.join(", ");
  }

  function players() {
    if (view.players && view.players.length) { return view.players; }
    return Object.keys(view.counts || {}).map(function (name) { return {name: name}; });
  }
  function playerNamed(name) {
    var found = null;
    players().forEach(function (p) { if (p.name === name) { found = p; } });
    return found;
  }

  // What the page says when no round is being played at the player's table.
  function stateText() {
    var table = view.table_number || view.table;
    switch (view.status) {
      case "waiting": return _("No cards at your table just now: the round is being dealt, or " +
        "the sitting is over and the director is about to confirm the movement. This page " +
        "shows your next table and your cards by itself: keep it open.");
      case "paper": return view.seat ?
        interpolate(_("Your table plays on paper tonight: go to table %(table)s, seat %(seat)s, and play with real cards."),
          {table: table, seat: view.seat}) :
        interpolate(_("Your table plays on paper tonight: go to table %(table)s, and play with real cards."), {table: table});
      case "not_seated": return _("You are not seated in this sitting. Ask the director if you should be.");
      case "finished": return _("The session is over: thank you for playing. The standings are on the session's page.");
      default: return "";
    }
  }

  function turnText() {
    if (view.status !== "playing") { return ""; }
    if (view.phase === "end") { return _("Round over: the next round is dealt in a moment."); }
    if (view.phase === "done" || !view.to_act) { return _("Game over."); }
    if (view.to_act === view.player) { return interpolate(_("Your turn: %(prompt)s"), {prompt: prompts()[view.phase] || _("your move.")}); }
    var who = playerNamed(view.to_act);
    if (who && who.robot) { return interpolate(_("Waiting for %(player)s (a robot plays)."), {player: view.to_act}); }
    if (who && who.away) { return interpolate(_("Waiting for %(player)s (away: a robot plays soon)."), {player: view.to_act}); }
    return interpolate(_("Waiting for %(player)s."), {player: view.to_act});
  }

  // ---------------------------------------------------------------- drawing

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      if (attrs[key] === false || attrs[key] === null || attrs[key] === undefined) { return; }
      if (key === "className") { node.className = attrs[key]; } else { node.setAttribute(key, attrs[key] === true ? "" : attrs[key]); }
    });
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }
  function fill(id, nodes) {
    var box = document.getElementById(id);
    if (!box) { return null; }
    while (box.firstChild) { box.removeChild(box.firstChild); }
    nodes.forEach(function (n) { box.appendChild(n); });
    return box;
  }
  function text(id, value) {
    var node = document.getElementById(id);
    if (node && node.textContent !== value) { node.textContent = value; }
    return node;
  }
  function show(id, on) { var node = document.getElementById(id); if (node) { node.hidden = !on; } }

  function cardNode(tag, code, attrs) { return cards(code, tag, attrs); }

  function drawTemplates() {
    return (view.legal || []).filter(function (m) { return m && m.action === "draw"; });
  }

  function handNodes() {
    var hand = view.hand || [];
    var legal = view.legal || [];
    var mine = view.to_act === view.player && !sending;
    var drawing = drawTemplates().length > 0;
    return hand.map(function (code, i) {
      if (drawing) {
        var on = discards.indexOf(i) >= 0;
        return cardNode("button", code, {
          type: "button", className: on ? "chosen" : "", "aria-pressed": on ? "true" : "false",
          "data-discard": String(i), disabled: !mine,
          "aria-label": on ? interpolate(_("%(card)s: to discard"), {card: cards.label(code)}) : cards.label(code)
        });
      }
      var playing = view.phase === "play" && mine;
      var playable = playing && legal.indexOf(code) >= 0;
      // A card the rules forbid now is still a button: its tap asks the server, whose
      // refusal says why in the game's words.
      var move = playing ? JSON.stringify({action: "play", card: code}) : null;
      return cardNode("button", code, {
        type: "button", disabled: !playing,
        className: playing && !playable ? "not-legal" : "",
        "data-move": playable ? move : null,
        "data-illegal": playing && !playable ? move : null,
        "aria-disabled": playing && !playable ? "true" : null,
        "aria-label": playable ? interpolate(_("%(card)s: play it"), {card: cards.label(code)}) :
          playing ? interpolate(_("%(card)s: not playable now"), {card: cards.label(code)}) : cards.label(code)
      });
    });
  }

  function choiceNodes() {
    var legal = view.legal || [];
    var mine = view.to_act === view.player;
    if (!mine || view.phase === "play" || !legal.length) { return []; }
    var nodes = [];
    var templates = drawTemplates();
    if (templates.length) {
      var chosen = discards.map(function (i) { return view.hand[i]; });
      templates.forEach(function (t, k) {
        var n = chosen.length, max = t.max_discard === undefined ? 99 : t.max_discard, min = t.min_discard || 0;
        var label;
        if (t.take_upcard) {
          var upcard = cardText(view.upcard);
          label = !n ? interpolate(_("Take the upcard %(card)s (choose a card to discard)"), {card: upcard}) :
            n > 1 ? interpolate(_("Take the upcard %(card)s, discard %(discard)s, draw %(draw)s"), {card: upcard, discard: n, draw: n - 1}) :
            interpolate(_("Take the upcard %(card)s, discard %(discard)s"), {card: upcard, discard: n});
        } else {
          label = n ? interpolate(_("Discard %(discard)s, draw %(draw)s"), {discard: n, draw: n}) : _("Stand pat");
        }
        nodes.push(el("button", {type: "button", "data-draw": String(k), disabled: sending || n < min || n > max}, label));
      });
      var limit = templates[0].max_discard;
      nodes.push(el("p", {className: "muted play-hint"}, limit !== undefined ?
        interpolate(_("Tap the cards to discard (at most %(limit)s)."), {limit: limit}) : _("Tap the cards to discard.")));
      return nodes;
    }
    var bids = legal.filter(function (m) { return m.action === "bid"; });
    if (bids.length > 12) {
      var select = el("select", {id: "play-bid"});
      bids.forEach(function (m) { select.appendChild(el("option", {value: String(m.bid)}, String(m.bid))); });
      var label = el("label", {"for": "play-bid"}, _("Your bid") + " ");
      nodes.push(el("p", {className: "play-bid"}));
      nodes[0].appendChild(label);
      nodes[0].appendChild(select);
      nodes.push(el("button", {type: "button", "data-bid-select": "1", disabled: sending}, _("Bid")));
      legal = legal.filter(function (m) { return m.action !== "bid"; });
    }
    legal.forEach(function (m) {
      nodes.push(el("button", {type: "button", "data-move": JSON.stringify(m), disabled: sending, "aria-label": moveWords(m)}, moveLabel(m)));
    });
    return nodes;
  }

  function trickNodes(trick) {
    return (trick || []).map(function (t) {
      var li = el("li", {}, t.player + ": ");
      li.appendChild(cardNode("span", t.card));
      return li;
    });
  }

  function playerRows() {
    var won = view.tricks_won || {}, counts = view.counts || {}, scores = view.scores || {}, out = view.out || [], points = view.points || {};
    return players().map(function (p) {
      var marks = [];
      if (p.name === view.player) { marks.push(_("you")); }
      if (p.name === view.dealer) { marks.push(_("dealer")); }
      if (p.name === view.to_act) { marks.push(_("to play")); }
      if (p.robot) { marks.push(_("robot")); }
      if (p.away) { marks.push(_("away")); }
      if (out.indexOf(p.name) >= 0) { marks.push(_("out")); }
      var tr = el("tr", {className: p.name === view.to_act ? "to-act" : ""});
      var th = el("th", {scope: "row"}, p.name);
      if (marks.length) { th.appendChild(el("span", {className: "play-marks"}, " " + marks.join(" · "))); }
      tr.appendChild(th);
      tr.appendChild(el("td", {className: "num"}, counts[p.name] === undefined ? "" : counts[p.name]));
      var tricks = won[p.name] === undefined ? "" : String(won[p.name]);
      if (points[p.name] !== undefined) { tricks += " " + interpolate(_("(%(points)s pts)"), {points: points[p.name]}); }
      tr.appendChild(el("td", {className: "num"}, tricks));
      tr.appendChild(el("td", {}, said(p.name)));
      tr.appendChild(el("td", {className: "num"}, scores[p.name] === undefined ? "" : scores[p.name]));
      return tr;
    });
  }

  // The round's facts: the upcard as a face, then trump, the dealer, the pack in words.
  function infoNodes() {
    var nodes = [];
    if (view.upcard) {
      nodes.push(document.createTextNode(_("Upcard") + " "));
      nodes.push(cardNode("span", view.upcard));
    }
    var rest = infoText();
    if (rest) { nodes.push(document.createTextNode((nodes.length ? " \u00b7 " : "") + rest)); }
    return nodes;
  }
  function infoText() {
    var parts = [];
    if (view.trump_words) { parts.push(view.trump_words.charAt(0).toUpperCase() + view.trump_words.slice(1)); } else if (view.trump) { parts.push(interpolate(_("Trump %(suit)s"), {suit: suitWords(view.trump)})); }
    if (view.dealer) { parts.push(interpolate(_("Dealer %(player)s"), {player: view.dealer})); }
    if (typeof view.pack === "number") {
      parts.push(interpolate(ngettext("%(count)s cards left to draw", "%(count)s cards left to draw", view.pack), {count: view.pack}));
    }
    return parts.join(" · ");
  }

  function whereText() {
    var parts = [];
    if (view.table) { parts.push(interpolate(_("Table %(table)s"), {table: view.table})); }
    if (view.seat) { parts.push(interpolate(_("seat %(seat)s"), {seat: view.seat})); }
    if (view.game_number) { parts.push(interpolate(_("game %(game)s"), {game: view.game_number})); }
    if (view.round) { parts.push(interpolate(_("round %(round)s"), {round: view.round})); }
    return parts.join(" · ");
  }

  function render() {
    var playing = view.status === "playing";
    if (discardsAt !== view.move) { discards = []; discardsAt = view.move; }
    root.dataset.status = view.status || "";
    root.dataset.phase = view.phase || "";
    root.dataset.move = view.move === undefined || view.move === null ? "" : String(view.move);
    text("play-where", whereText());
    var state = stateText();
    text("play-state", state);
    show("play-state", !!state);
    show("play-board", playing);
    var turn = turnText();
    text("play-turn", turn);
    var box = document.getElementById("play-turn");
    if (box) { box.classList.toggle("mine", playing && view.to_act === view.player && !!view.to_act); }
    text("play-phase", phases()[view.phase] || view.phase || "");
    fill("play-info", infoNodes());
    // The trick just taken stays on the table a moment, with who took it.
    var trick = holding ? holding.cards : view.trick;
    fill("play-trick", trickNodes(trick));
    show("play-trick-empty", !(trick || []).length);
    text("play-trick-taken", holding ? interpolate(_("%(player)s took the trick."), {player: holding.winner}) : "");
    show("play-trick-taken", !!holding);
    fill("play-choices", choiceNodes());
    fill("play-hand", handNodes());
    show("play-hand-empty", !(view.hand || []).length);
    fill("play-players", playerRows());
    renderLast();
  }

  // The round just finished at the table: who took how many tricks (or points), who was
  // out, the bids and the scores after it.
  function renderLast() {
    var last = view.last_round;
    show("play-last", !!last);
    if (!last) { return; }
    var number = last.number || last.round, lines = [];
    last = last.record || last;
    function pairs(map) { return Object.keys(map).map(function (k) { return k + " " + map[k]; }).join(", "); }
    if ((last.out || []).length) { lines.push(interpolate(_("Out: %(players)s."), {players: last.out.join(", ")})); }
    if (last.bids && Object.keys(last.bids).length) { lines.push(interpolate(_("Bids: %(bids)s."), {bids: pairs(last.bids)})); }
    var points = last.points || {}, tricks = last.tricks && !Array.isArray(last.tricks) ? last.tricks : {};
    if (Object.keys(points).length) {
      Object.keys(points).forEach(function (k) {
        lines.push(interpolate(ngettext("%(player)s took %(count)s points.", "%(player)s took %(count)s points.", points[k]), {player: k, count: points[k]}));
      });
    } else {
      Object.keys(tricks).forEach(function (k) {
        lines.push(interpolate(ngettext("%(player)s took %(count)s trick.", "%(player)s took %(count)s tricks.", tricks[k]), {player: k, count: tricks[k]}));
      });
    }
    if (last.scores && Object.keys(last.scores).length) { lines.push(interpolate(_("Scores: %(scores)s."), {scores: pairs(last.scores)})); }
    text("play-last-title", number ? interpolate(_("The last round (round %(round)s)"), {round: number}) : _("The last round"));
    fill("play-last-lines", lines.map(function (line) { return el("li", {}, line); }));
  }

  function newer(next) {
    if (!next || typeof next !== "object") { return false; }
    if (next.game === view.game && next.round === view.round && next.status === view.status &&
        typeof next.move === "number" && typeof view.move === "number" && next.move < view.move) {
      return false;
    }
    return true;
  }

  function take(next) {
    if (!newer(next)) { return; }
    var wasMine = view.to_act === view.player && view.status === "playing";
    var before = place(view);
    var ended = next.game !== view.game || next.round !== view.round ? finalTrick(view, next) : null;
    view = next;
    noteLastTrick();
    if (ended && !holding) { hold(ended); }
    render();
    var after = place(view);
    if (after && after !== before) { moved(before); }
    if (socket && socketTable !== tableKey(view)) { rejoin(); }
    if (!wasMine && view.to_act === view.player && view.status === "playing" && view.to_act) {
      if (navigator.vibrate) { try { navigator.vibrate(150); } catch (e) { /* not allowed */ } }
      if (window.huckleyTurnSound) { window.huckleyTurnSound(); }
    }
  }

  // ---------------------------------------------------------------- the trick just taken

  // How long the trick just taken stays on the table before it clears.
  var HOLD_MS = 1500;
  var holding = null, holdTimer = null;
  function trickKey(v) {
    var t = v.last_trick;
    return t ? [v.game, v.round, t.number, JSON.stringify(t.cards)].join("|") : "";
  }
  var lastTrickSeen = trickKey(view);  // the page as loaded shows no trick again
  function noteLastTrick() {
    var key = trickKey(view);
    if (key && key !== lastTrickSeen) { hold(view.last_trick); }
    lastTrickSeen = key;
  }
  function hold(trick) {
    holding = trick;
    if (holdTimer) { clearTimeout(holdTimer); }
    holdTimer = setTimeout(function () { holding = null; holdTimer = null; render(); }, HOLD_MS);
  }

  // A round's last trick: the next round is dealt at once, so no view shows it taken.
  // It is read from the round's record in the new view (its cards, leader first) and the
  // view before it (who played so far, who had taken how many tricks or points); null
  // when the phone missed a view of that round (nothing is guessed).
  function finalTrick(before, next) {
    var last = next.last_round, rec = last && (last.record || last);
    if (!before || before.phase !== "play" || !rec || !rec.play || !rec.play.tricks) { return null; }
    if (last.game !== before.game || last.number !== before.round) { return null; }
    var tricks = rec.play.tricks, shown = before.trick || [];
    if (tricks.length !== (before.tricks || []).length + 1) { return null; }
    var cardsOf = tricks[tricks.length - 1];
    var order = (before.players || []).map(function (p) { return p.name; })
      .filter(function (name) { return (before.out || []).indexOf(name) < 0; });
    var leader = shown.length ? shown[0].player : before.to_act, at = order.indexOf(leader);
    if (at < 0 || cardsOf.length !== order.length) { return null; }
    var played = cardsOf.map(function (code, i) { return {player: order[(at + i) % order.length], card: code}; });
    for (var i = 0; i < shown.length; i += 1) {
      if (shown[i].card !== played[i].card || shown[i].player !== played[i].player) { return null; }
    }
    var winner = null;
    if (rec.trick_winners && rec.trick_winners.length === tricks.length) {
      winner = rec.trick_winners[tricks.length - 1];
    } else {
      // Who took one trick more than before (or, in Ten-Point Buck, more card points).
      var counts = rec.tricks && !Array.isArray(rec.tricks) ? rec.tricks : null;
      var after = counts || rec.points || {}, was = counts ? before.tricks_won || {} : before.points || {};
      order.forEach(function (name) { if ((after[name] || 0) > (was[name] || 0)) { winner = winner === null ? name : false; } });
    }
    return winner ? {number: tricks.length, cards: played, winner: winner} : null;
  }

  // ---------------------------------------------------------------- a new place, large

  // Where the view seats the player ("" when nowhere): the sitting, the table, the seat,
  // and whether the table plays on paper.
  function place(v) {
    if (!v || v.table === null || v.table === undefined) { return ""; }
    return [v.sitting, v.table_number || v.table, v.seat, v.status === "paper"].join("/");
  }
  var MOVED_MS = 8000;
  var movedTimer = null;
  function moved(before) {
    var box = document.getElementById("play-moved");
    if (!box) { return; }
    var was = before ? before.split("/") : [];
    var what;
    if (!before || was[0] !== String(view.sitting)) {
      what = interpolate(_("Sitting %(number)s: your new place."), {number: view.sitting});
    } else if (was[1] !== String(view.table_number || view.table)) {
      what = _("You have moved to another table.");
    } else if (was[2] !== String(view.seat)) {
      what = _("Your seat has changed.");
    } else if (view.status === "paper") {
      what = _("Your table now plays on paper, with real cards.");
    } else {
      what = _("Your table now plays online, on this page.");
    }
    text("play-moved-what", what);
    text("play-moved-table", String(view.table_number || view.table));
    text("play-moved-seat", view.seat === null || view.seat === undefined ? "" : String(view.seat));
    box.hidden = false;
    box.classList.remove("moved");
    void box.offsetWidth;  // restart the highlight
    box.classList.add("moved");
    if (box.scrollIntoView) { box.scrollIntoView({block: "start"}); }
    if (navigator.vibrate) { try { navigator.vibrate([200, 100, 200]); } catch (e) { /* not allowed */ } }
    if (movedTimer) { clearTimeout(movedTimer); }
    movedTimer = setTimeout(function () { box.hidden = true; movedTimer = null; }, MOVED_MS);
  }


  function error(message) {
    var node = text("play-error", message || "");
    if (node) { node.hidden = !message; }
  }

  // ---------------------------------------------------------------- moves

  // A move that arrived after the table had moved on: one sentence, whatever the server's.
  function tooLate() { return _("Too late: the table had moved on; here is where it stands now."); }

  function send(move) {
    if (sending) { return; }
    var body = {move: view.move};
    Object.keys(move).forEach(function (key) {
      if (key !== "max_discard" && key !== "min_discard") { body[key] = move[key]; }
    });
    sending = true;
    holding = null;
    error("");
    render();
    if (socket && socket.readyState === 1 && socketMoves) { sendOnSocket(socket, body); } else { post(body); }
  }

  // The move on the open socket; its answer (a view, or a refusal) comes back on it.
  // Without one within SOCKET_ANSWER_MS, or when the socket closes or does not take
  // moves, the same body goes by POST (a move sent twice is taken once).
  var SOCKET_ANSWER_MS = 6000;
  var socketMoves = true;  // false once the server said it takes no moves on the socket
  var pending = null;
  function sendOnSocket(ws, body) {
    var message = {type: "move"};
    Object.keys(body).forEach(function (key) { message[key] = body[key]; });
    pending = {ws: ws, body: body, timer: setTimeout(function () { byPost(); }, SOCKET_ANSWER_MS)};
    try { ws.send(JSON.stringify(message)); } catch (e) { byPost(); }
  }
  function settled() {
    if (pending) { clearTimeout(pending.timer); pending = null; }
    if (sending) { sending = false; return true; }
    return false;
  }
  function byPost() {
    if (!pending) { return; }
    var body = pending.body;
    clearTimeout(pending.timer);
    pending = null;
    post(body);
  }
  function refused(code, message) {
    if (code === "stale_move") { error(tooLate()); return; }
    error(message || _("Your move was not taken: try again."));
  }

  function post(body) {
    fetch(root.dataset.movesUrl, {
      method: "POST",
      credentials: "same-origin",
      headers: {"Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": csrf},
      body: JSON.stringify(body)
    }).then(function (response) {
      return response.json().then(function (answer) { return [response.status, answer]; },
        function () { return [response.status, null]; });
    }).then(function (result) {
      var status = result[0], answer = result[1] || {};
      sending = false;
      if (status === 200) {
        take(answer.view || answer);
      } else if (status === 409) {
        if (answer.view) { take(answer.view); }
        refused(answer.code, answer.message);
      } else if (answer.message) {
        error(answer.message);
      } else {
        error(interpolate(_("Your move was not taken (the server answered %(status)s): try again."), {status: status}));
      }
    }).catch(function () {
      sending = false;
      error(_("Your move could not be sent: the network is down. Try again when it is back."));
    }).then(function () { render(); });
  }

  root.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button") : null;
    if (!button || button.disabled || !root.contains(button)) { return; }
    if (button.dataset.move || button.dataset.illegal) {
      var move;
      try { move = JSON.parse(button.dataset.move || button.dataset.illegal); } catch (e) { return; }
      send(move);
    } else if (button.dataset.discard !== undefined) {
      var i = Number(button.dataset.discard), at = discards.indexOf(i);
      if (at >= 0) { discards.splice(at, 1); } else { discards.push(i); }
      render();
      var again = document.querySelector('#play-hand [data-discard="' + i + '"]');
      if (again) { again.focus(); }
    } else if (button.dataset.draw !== undefined) {
      var template = drawTemplates()[Number(button.dataset.draw)];
      if (!template) { return; }
      var move2 = {action: "draw", discard: discards.map(function (k) { return view.hand[k]; })};
      if (template.take_upcard) { move2.take_upcard = true; }
      send(move2);
    } else if (button.dataset.bidSelect) {
      var select = document.getElementById("play-bid");
      if (select) { send({action: "bid", bid: Number(select.value)}); }
    }
  });

  // ---------------------------------------------------------------- live

  var conn = document.getElementById("play-conn");
  function connText(value) { if (conn && conn.textContent !== value) { conn.textContent = value; } }

  var poller = null;
  function startPolling() {
    if (poller) { return; }
    connText(_("Updating every few seconds."));
    poller = window.huckleyPoll({
      url: root.dataset.apiUrl,
      etag: "",
      fast: 2000,
      slow: 15000,
      json: true,
      focus: true,
      changed: function (next) { take(next); },
      ok: function () { if (!socket) { connText(_("Updating every few seconds.")); } },
      lost: function () { connText(_("Reconnecting\u2026")); }
    });
  }
  function stopPolling() {
    if (poller) { poller.stop(); poller = null; }
  }

  var socket = null, delay = 1000, retry = null, pinger = null;
  // The table the socket was opened for, in its address (`?table=`): a proxy that sends
  // each table's sockets to one server routes by it (docs/operations.md, "Each
  // table's sockets on one server"). The same key as the watch page's socket: session, sitting, table rank.
  var socketTable = "", rejoining = null;
  function tableKey(v) {
    return v && v.table !== null && v.table !== undefined ?
      v.session + "." + v.sitting + "." + v.table : "";
  }
  // A phone moved to another table opens its socket again, for the new table, within a
  // few seconds: not every phone of the room at the same moment.
  var REJOIN_MS = 5000;
  function rejoin() {
    if (rejoining) { return; }
    rejoining = setTimeout(function () {
      rejoining = null;
      var ws = socket;
      if (!ws || socketTable === tableKey(view)) { return; }
      socket = null;
      if (pinger) { clearInterval(pinger); pinger = null; }
      if (pending && pending.ws === ws) { byPost(); }
      try { ws.close(1000); } catch (e) { /* closed already */ }
      connect();
    }, Math.random() * REJOIN_MS);
  }
  // A socket that neither opens nor fails within this time (a network that swallows the
  // upgrade) is given up, so the page polls and tries again.
  var OPEN_WITHIN_MS = 10000;
  function connect() {
    if (retry) { clearTimeout(retry); retry = null; }
    if (socket || !root.dataset.wsPath) { return; }
    if (!("WebSocket" in window)) { startPolling(); return; }
    socketTable = tableKey(view);
    var url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + root.dataset.wsPath +
      (socketTable ? "?table=" + encodeURIComponent(socketTable) : "");
    var ws;
    try { ws = new WebSocket(url); } catch (e) { lost(); return; }
    socket = ws;
    var watchdog = setTimeout(function () { gone(ws, 0); }, OPEN_WITHIN_MS);
    ws.onopen = function () {
      clearTimeout(watchdog);
      if (socket !== ws) { return; }
      delay = 1000;
      stopPolling();
      connText(_("Live."));
      pinger = setInterval(function () {
        if (ws.readyState === 1) { ws.send(JSON.stringify({type: "ping"})); }
      }, 25000);
    };
    ws.onmessage = function (event) {
      var message;
      try { message = JSON.parse(event.data); } catch (e) { return; }
      if (!message) { return; }
      if (message.type === "view") {
        // The answer to this phone's move, or a change made by someone else: either way
        // the move in flight is settled once the table's state has a new number.
        if (pending && pending.ws === ws && message.view && message.view.move !== pending.body.move) { settled(); }
        take(message.view);
      } else if (message.type === "refused") {
        settled();
        if (message.view) { take(message.view); }
        refused(message.code, message.message);
        render();
      } else if (message.type === "error" && pending && pending.ws === ws) {
        // A server that takes no moves on the socket (`unknown_type`): POST from now on.
        if (message.code === "unknown_type") { socketMoves = false; }
        byPost();
      }
    };
    ws.onclose = function (event) { clearTimeout(watchdog); gone(ws, event.code); };
    ws.onerror = function () { if (ws.readyState !== 1) { clearTimeout(watchdog); gone(ws, 0); } };
  }
  // The socket `ws` closed or failed (with the close code, 0 when there is none).
  function gone(ws, code) {
    if (socket !== ws) { return; }
    socket = null;
    if (pinger) { clearInterval(pinger); pinger = null; }
    if (pending && pending.ws === ws) { byPost(); }
    try { ws.close(); } catch (e) { /* closed already */ }
    if (code === 4404) {  // the server knows no such seat link: asking again is no use
      stopPolling();
      error(_("This seat link does not exist any more: ask the director for yours."));
      connText("");
      return;
    }
    lost();
  }
  function lost() {
    startPolling();
    retry = setTimeout(connect, delay);
    delay = Math.min(delay * 2, 30000);
  }
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && !socket) { delay = 1000; connect(); }
  });
  window.addEventListener("online", function () { if (!socket) { delay = 1000; connect(); } });

  render();
  if (view.status !== "not_seated") { connect(); }
})();
