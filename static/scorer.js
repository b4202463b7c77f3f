// The scorer's page never loses a round (docs/tournament.md, "Scoring at the table" and
// "Scoring without a network").
//
// - Drafts: what is typed in a form marked `data-draft` is kept in localStorage (per game
//   and round) and put back after a reload or a closed tab, until the round is sent.
// - The queue: a round form marked `data-outbox` is sent with fetch. While the network is
//   down (or rounds are already waiting), each round entered joins this table's queue on
//   the phone, in order, with its own entry key, and is shown as waiting; the form moves
//   on to the next round. When the network is back the rounds are sent in order,
//   stopping at the first one the server does not take, and what happened to each is
//   said in plain words: sent, already there with the same numbers (the server stores a
//   round once per entry key, so a resend is never a second round), waiting for the
//   other scorer, someone entered different numbers (with a link to compare), or not
//   stored (its numbers back in the form).
// Without JavaScript the forms post as plain forms. No inline script (the CSP forbids it).
(function () {
  "use strict";
  // Words through Django's JavaScript catalogue (/jsi18n/); English when a page has none.
  function _(text) { return window.gettext ? window.gettext(text) : text; }
  function interpolate(text, values) {
    return window.interpolate ? window.interpolate(text, values, true) :
      text.replace(/%\((\w+)\)s/g, function (match, key) { return String(values[key]); });
  }
  var PREFIX = "huckley:";
  var OLD_OUTBOX = PREFIX + "outbox"; // one round per phone, before the queue
  var RETRY_MS = 10000;
  // Results already told on an earlier page are not kept longer than this.
  var DONE = {sent: true, same: true};
  var STOPS = {different: true, refused: true};

  function load(key, fallback) {
    try {
      var raw = window.localStorage.getItem(key);
      return raw ? JSON.parse(raw) : fallback;
    } catch (e) { return fallback; }
  }
  function save(key, value) {
    try { window.localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* full or off */ }
  }
  function drop(key) {
    try { window.localStorage.removeItem(key); } catch (e) { /* off */ }
  }

  // The fields a scorer types: not the CSRF token, not the hidden round number or key.
  function typed(form) {
    var fields = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.type === "hidden" || el.type === "submit") { return; }
      fields[el.name] = el.type === "checkbox" ? el.checked : el.value;
    });
    return fields;
  }
  function fill(form, fields) {
    Object.keys(fields).forEach(function (name) {
      var el = form.elements.namedItem(name);
      if (!el || el.type === "hidden") { return; }
      if (el.type === "checkbox") { el.checked = !!fields[name]; } else { el.value = fields[name]; }
    });
  }
  function posted(form) {
    var fields = [];
    new FormData(form).forEach(function (value, name) { fields.push([name, String(value)]); });
    return fields;
  }

  function draftKey(form) { return PREFIX + "draft:" + form.dataset.draft; }

  // Drafts of this game's earlier rounds are stale once a later round is on the page.
  function pruneDrafts(form) {
    var parts = form.dataset.draft.split(":");
    if (parts[0] !== "round") { return; }
    var mine = PREFIX + "draft:round:" + parts[1] + ":";
    try {
      for (var i = window.localStorage.length - 1; i >= 0; i--) {
        var key = window.localStorage.key(i);
        if (key && key.indexOf(mine) === 0 && Number(key.slice(mine.length)) < Number(parts[2])) {
          window.localStorage.removeItem(key);
        }
      }
    } catch (e) { /* storage off */ }
  }

  function keepDrafts(form) {
    pruneDrafts(form);
    var draft = load(draftKey(form), null);
    // A page that comes back with errors shows what was sent: the server's values win.
    if (draft && !form.querySelector(".errorlist")) { fill(form, draft); }
    function remember() { save(draftKey(form), typed(form)); }
    form.addEventListener("input", remember);
    form.addEventListener("change", remember);
  }

  // ---- The queue of this table's rounds, in the order they were entered. ----

  function Queue(form) {
    this.form = form;
    this.game = form.dataset.outbox;
    this.key = PREFIX + "queue:" + form.dataset.next; // the table's page: one queue a table
    this.pageRound = Number(form.dataset.round);
    this.pageDealer = (form.elements.namedItem("dealer") || {}).value;
    // The "Enter round N" heading: the <h2> before the form (in any language).
    var heading = form.previousElementSibling;
    while (heading && heading.tagName !== "H2") { heading = heading.previousElementSibling; }
    this.heading = heading;
    this.box = document.createElement("div");
    this.box.id = "queue";
    this.box.className = "card outbox";
    this.box.setAttribute("role", "status");
    this.box.hidden = true;
    var status = document.getElementById("outbox-status");
    form.parentNode.insertBefore(this.box, status || form);
    this.sending = false;
  }
  Queue.prototype.items = function () { return load(this.key, []); };
  Queue.prototype.store = function (items) {
    if (items.length) { save(this.key, items); } else { drop(this.key); }
  };
  Queue.prototype.mine = function (items) {
    var game = this.game;
    return (items || this.items()).filter(function (item) { return item.game === game; });
  };

  // A round kept by the older page (one round per phone) joins the queue.
  Queue.prototype.adopt = function () {
    var game = this.game;
    var old = load(OLD_OUTBOX, []);
    var theirs = old.filter(function (item) { return item.game === game; });
    if (!theirs.length) { return; }
    var items = this.items();
    theirs.forEach(function (item) { item.state = "waiting"; items.push(item); });
    this.store(items);
    var rest = old.filter(function (item) { return item.game !== game; });
    if (rest.length) { save(OLD_OUTBOX, rest); } else { drop(OLD_OUTBOX); }
  };

  // Which round the form enters: the one given back after a refusal, else the round
  // after the last one waiting on this phone, else the page's own.
  Queue.prototype.placeForm = function () {
    var pageRound = this.pageRound;
    var mine = this.mine().filter(function (item) { return Number(item.round) >= pageRound; });
    var refused = mine.filter(function (item) { return item.state === "refused"; })[0];
    if (refused) { this.moveForm(Number(refused.round)); return; }
    var open = mine.filter(function (item) { return !DONE[item.state]; });
    var last = open.reduce(function (n, item) { return Math.max(n, Number(item.round)); }, 0);
    if (last >= pageRound) { this.moveForm(last + 1); }
  };

  function newKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
  }

  // The form now enters round `number`: a new entry key, empty fields (what was typed
  // for that round before comes back from its draft), the dealer moved on a seat a round.
  Queue.prototype.moveForm = function (number) {
    var form = this.form;
    if (Number(form.dataset.round) === number) { return; }
    form.reset();
    form.dataset.round = String(number);
    form.dataset.draft = "round:" + this.game + ":" + number;
    form.elements.namedItem("number").value = String(number);
    var key = form.elements.namedItem("entry_key");
    if (key) { key.value = newKey(); }
    var dealer = form.elements.namedItem("dealer");
    if (dealer && dealer.options && dealer.options.length) {
      var names = Array.prototype.map.call(dealer.options, function (o) { return o.value; });
      var start = Math.max(0, names.indexOf(this.pageDealer));
      var steps = number - this.pageRound;
      dealer.value = names[((start + steps) % names.length + names.length) % names.length];
    }
    if (this.heading) { this.heading.textContent = interpolate(_("Enter round %(round)s"), {round: number}); }
    var draft = load(draftKey(form), null);
    if (draft) { fill(form, draft); }
  };

  // The time as the page's language writes it, on the 24-hour clock the site uses.
  function clock(iso) {
    var at = new Date(iso);
    try {
      return new Intl.DateTimeFormat(document.documentElement.lang || undefined,
        {hour: "2-digit", minute: "2-digit", hourCycle: "h23"}).format(at);
    } catch (e) {
      return (at.getHours() < 10 ? "0" : "") + at.getHours() + ":" +
        (at.getMinutes() < 10 ? "0" : "") + at.getMinutes();
    }
  }

  function line(item) {
    var round = {round: item.round};
    switch (item.state) {
      case "sent": return [interpolate(_("Round %(round)s: sent."), round)];
      case "same": return [interpolate(_("Round %(round)s: already there with the same numbers."), round)];
      case "waiting-other": return [interpolate(_("Round %(round)s: sent, and waits for the other scorer to enter " +
        "the same numbers."), round)];
      case "different": return [interpolate(_("Round %(round)s: someone entered different numbers:"), round) + " ", _("compare")];
      case "refused": return [interpolate(_("Round %(round)s was not stored: %(why)s Its numbers are back in the form: " +
        "check them and enter it again."), {round: item.round, why: item.message || _("the server refused it.")})];
      default: return [interpolate(_("Round %(round)s: waiting, saved on this phone, not sent yet (entered at %(time)s)."),
        {round: item.round, time: clock(item.at)})];
    }
  }

  Queue.prototype.show = function () {
    var box = this.box;
    var self = this;
    var mine = this.mine();
    box.textContent = "";
    box.hidden = !mine.length;
    if (!mine.length) { return; }
    var title = document.createElement("h3");
    title.textContent = _("Rounds entered on this phone");
    box.appendChild(title);
    var list = document.createElement("ol");
    list.className = "queue";
    mine.forEach(function (item) {
      var li = document.createElement("li");
      li.className = "queued " + item.state;
      li.dataset.round = item.round;
      var words = line(item);
      li.appendChild(document.createTextNode(words[0]));
      if (words[1]) {
        var a = document.createElement("a");
        a.setAttribute("aria-label", interpolate(_("Compare round %(round)s on the score sheet"), {round: item.round}));
        a.href = item.compare || self.form.dataset.next;
        a.textContent = words[1];
        li.appendChild(a);
        var forget = document.createElement("button");
        forget.type = "button";
        forget.className = "secondary";
        forget.textContent = interpolate(_("Drop my round %(round)s"), {round: item.round});
        forget.addEventListener("click", function () { self.forget(item.key); });
        li.appendChild(document.createTextNode(" "));
        li.appendChild(forget);
        var own = document.createElement("span");
        own.className = "muted own";
        own.textContent = interpolate(_("Entered on this phone: %(typed)s."), {typed: self.described(item.typed)});
        li.appendChild(document.createElement("br"));
        li.appendChild(own);
      }
      list.appendChild(li);
    });
    box.appendChild(list);
    if (mine.some(function (item) { return item.state === "waiting"; })) {
      var note = document.createElement("p");
      note.className = "muted";
      note.textContent = _("They are sent by themselves, in order, when the network is back: " +
        "keep this page open or come back to it. The sheet above does not show them yet; " +
        "check the dealer of each new round.");
      box.appendChild(note);
    }
  };

  // What was typed, in the form's own words ("Dealer: Cy, Tricks taken by Hal: 3"):
  // what the scorer compares with the numbers on the score sheet.
  Queue.prototype.described = function (fields) {
    var form = this.form;
    return Object.keys(fields).map(function (name) {
      var value = fields[name];
      if (value === "" || value === false) { return null; }
      var el = form.elements.namedItem(name);
      var label = el && (el.getAttribute("aria-label") ||
        (el.labels && el.labels[0] && el.labels[0].textContent.replace(/:\s*$/, "").trim()));
      label = label || name;
      return value === true ? label : label + ": " + value;
    }).filter(Boolean).join(", ");
  };

  Queue.prototype.forget = function (key) {
    this.store(this.items().filter(function (item) { return item.key !== key; }));
    this.show();
    this.flush();
  };

  // Results told once: after they were shown on a page, they are dropped.
  Queue.prototype.dropTold = function () {
    this.store(this.items().filter(function (item) { return !DONE[item.state]; }));
  };

  Queue.prototype.add = function () {
    var form = this.form;
    var key = form.elements.namedItem("entry_key");
    var item = {
      key: (key && key.value) || newKey(),
      game: this.game,
      round: form.dataset.round,
      url: form.action,
      next: form.dataset.next,
      draft: form.dataset.draft,
      fields: posted(form),
      typed: typed(form),
      at: new Date().toISOString(),
      state: "waiting"
    };
    var items = this.items();
    // Entering again a round that was refused, or that someone entered differently,
    // takes its place in the order.
    var at = -1;
    items.forEach(function (other, i) {
      if (other.game === item.game && other.round === item.round && !DONE[other.state]) { at = i; }
    });
    if (at >= 0) { items.splice(at, 1, item); } else { items.push(item); }
    this.store(items);
    drop(draftKey(form));
    var number = Number(item.round);
    var next = this.mine(items).filter(function (other) {
      return !DONE[other.state] && Number(other.round) > number;
    }).reduce(function (n, other) { return Math.max(n, Number(other.round)); }, number);
    this.moveForm(next + 1);
    this.show();
  };

  Queue.prototype.waiting = function () {
    return this.mine().some(function (item) { return !DONE[item.state]; });
  };

  // POST one round; resolves to the server's answer ({result, compare, message, status})
  // or rejects when the network is down or the server failed.
  function send(item) {
    var body = new URLSearchParams();
    item.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
    return fetch(item.url, {
      method: "POST", body: body, credentials: "same-origin",
      headers: {"X-Requested-With": "scorer", "Accept": "application/json"}
    }).then(function (response) {
      if (response.status >= 500) { throw new Error("HTTP " + response.status); }
      if (/json/.test(response.headers.get("Content-Type") || "")) {
        return response.json().then(function (answer) {
          answer.status = response.status;
          return answer;
        });
      }
      if (response.status === 403 || response.status === 404) {
        return {result: "refused", status: response.status, message: _("this phone may no " +
          "longer enter rounds at this table (the sitting has moved on, or the link was " +
          "replaced).")};
      }
      throw new Error("HTTP " + response.status);
    });
  }

  Queue.prototype.update = function (key, change) {
    var items = this.items();
    items.forEach(function (item) {
      if (item.key === key) { Object.keys(change).forEach(function (k) { item[k] = change[k]; }); }
    });
    this.store(items);
  };

  // Send the rounds in order, one at a time, stopping at the first the server does not
  // take. When the sheet changed, the page is drawn again (it then tells each result).
  Queue.prototype.flush = function () {
    var self = this;
    if (this.sending || navigator.onLine === false) { return; }
    var item = null;
    var mine = this.mine();
    for (var i = 0; i < mine.length; i++) {
      if (STOPS[mine[i].state]) { break; }
      if (!DONE[mine[i].state]) { item = mine[i]; break; }
    }
    if (!item) { return; }
    this.sending = true;
    var before = item.state;
    send(item).then(function (answer) {
      self.sending = false;
      var state = {sent: "sent", same: "same", waiting: "waiting-other", different: "different"}[answer.result] || "refused";
      self.update(item.key, {state: state, compare: answer.compare || "", message: answer.message || ""});
      if (state === "refused") {
        // Nothing stored: the scorer gets the numbers back to check.
        save(PREFIX + "draft:" + item.draft, item.typed);
        self.moveForm(Number(item.round));
        fill(self.form, item.typed);
        self.show();
        return;
      }
      if (DONE[state]) { drop(PREFIX + "draft:" + item.draft); self.flush(); }
      if (!self.sending && !(state === "waiting-other" && before === "waiting-other")) {
        window.location.assign(self.form.dataset.next);
      }
    }).catch(function () {
      self.sending = false;
      self.show();
    });
  };

  function submitted(queue, event) {
    var form = queue.form;
    event.preventDefault();
    if (navigator.onLine === false || queue.waiting()) {
      queue.add();
      queue.flush();
      return;
    }
    var button = form.querySelector("button[type=submit]");
    if (button) { button.disabled = true; }
    var again = function () { if (button) { button.disabled = false; } };
    send({url: form.action, fields: posted(form)}).then(function (answer) {
      if (answer.status >= 400) {
        // The page of errors: let the browser post the form and show it.
        form.submit();
        return;
      }
      drop(draftKey(form));
      window.location.assign(form.dataset.next);
    }).catch(function () {
      queue.add();
      again();
    });
  }

  Array.prototype.forEach.call(document.querySelectorAll("form.keeps[data-draft]"), function (form) {
    keepDrafts(form);
    if (!form.dataset.outbox) { return; }
    var queue = new Queue(form);
    queue.adopt();
    queue.placeForm();
    queue.show();
    queue.dropTold();
    form.addEventListener("submit", function (event) { submitted(queue, event); });
    var again = function () { queue.flush(); };
    window.addEventListener("online", again);
    document.addEventListener("visibilitychange", function () { if (!document.hidden) { again(); } });
    setInterval(again, RETRY_MS);
    again();
  });
})();
