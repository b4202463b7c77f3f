// The scorer's page never loses a round (docs/tournament.md, "Scoring at the table").
//
// - Drafts: what is typed in a form marked `data-draft` is kept in localStorage (per game
//   and round) and put back after a reload or a closed tab, until the round is sent.
// - Outbox: a round form marked `data-outbox` is sent with fetch. When the network is
//   down, the round is kept on the phone with its entry key ("Saved on this phone, not
//   sent yet") and sent by itself when the network is back; the server stores a round
//   once per entry key, so a resend is never a second round.
// Without JavaScript the forms post as plain forms. No inline script (the CSP forbids it).
(function () {
  "use strict";
  var PREFIX = "huckley:";
  var OUTBOX = PREFIX + "outbox";
  var RETRY_MS = 10000;

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
    var key = PREFIX + "draft:" + form.dataset.draft;
    var draft = load(key, null);
    // A page that comes back with errors shows what was sent: the server's values win.
    if (draft && !form.querySelector(".errorlist")) { fill(form, draft); }
    function remember() { save(key, typed(form)); }
    form.addEventListener("input", remember);
    form.addEventListener("change", remember);
    return key;
  }

  function outbox() { return load(OUTBOX, []); }
  function setOutbox(items) { if (items.length) { save(OUTBOX, items); } else { drop(OUTBOX); } }

  function say(text) {
    var box = document.getElementById("outbox-status");
    if (!box) { return; }
    box.textContent = text;
    box.hidden = !text;
  }
  function showWaiting(game) {
    var mine = outbox().filter(function (item) { return item.game === game; });
    if (!mine.length) { say(""); return; }
    var rounds = mine.map(function (item) { return item.round; }).join(", ");
    say("Round " + rounds + ": saved on this phone, not sent yet. It is sent by itself " +
        "when the network is back; keep this page open or come back to it.");
  }

  // POST one round; resolves to "sent", "refused" (the server answered with a page of
  // errors) or rejects when the network is down.
  function send(item) {
    var body = new URLSearchParams();
    item.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
    return fetch(item.url, {
      method: "POST", body: body, credentials: "same-origin", redirect: "manual",
      headers: {"X-Requested-With": "scorer"}
    }).then(function (response) {
      // Stored (or stored before, or waiting for a second entry): the page redirects.
      if (response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400)) {
        return "sent";
      }
      if (response.status >= 500) { throw new Error("HTTP " + response.status); }
      return "refused";
    });
  }

  var flushing = false;
  function flush(game, form) {
    var items = outbox().filter(function (item) { return item.game === game; });
    if (flushing || !items.length || navigator.onLine === false) { return; }
    flushing = true;
    var item = items[0];
    send(item).then(function (result) {
      setOutbox(outbox().filter(function (other) { return other.key !== item.key; }));
      if (result === "sent") {
        drop(PREFIX + "draft:" + item.draft);
        window.location.assign(item.next);
        return;
      }
      // Refused: nothing was stored. Give the scorer the numbers back to check.
      save(PREFIX + "draft:" + item.draft, item.typed);
      if (form && form.dataset.round === String(item.round)) { fill(form, item.typed); }
      say("Round " + item.round + " was not stored: the server refused it. Check the " +
          "numbers and enter it again.");
    }).catch(function () {
      showWaiting(game);
    }).then(function () { flushing = false; });
  }

  function keepInOutbox(form, draftKey) {
    var fields = [];
    new FormData(form).forEach(function (value, name) { fields.push([name, String(value)]); });
    var key = form.elements.namedItem("entry_key");
    var item = {
      key: (key && key.value) || String(Date.now()),
      game: form.dataset.outbox,
      round: form.dataset.round,
      url: form.action,
      next: form.dataset.next,
      draft: form.dataset.draft,
      fields: fields,
      typed: typed(form),
      at: new Date().toISOString()
    };
    var items = outbox().filter(function (other) { return other.key !== item.key; });
    items.push(item);
    setOutbox(items);
    drop(draftKey);
    showWaiting(form.dataset.outbox);
  }

  function sendForm(form, draftKey, event) {
    event.preventDefault();
    var button = form.querySelector("button[type=submit]");
    if (button) { button.disabled = true; }
    var fields = [];
    new FormData(form).forEach(function (value, name) { fields.push([name, String(value)]); });
    var item = {url: form.action, fields: fields};
    var done = function () { if (button) { button.disabled = false; } };
    if (navigator.onLine === false) { keepInOutbox(form, draftKey); done(); return; }
    send(item).then(function (result) {
      if (result === "sent") {
        drop(draftKey);
        window.location.assign(form.dataset.next);
      } else {
        // The page of errors: let the browser post the form and show it.
        form.submit();
      }
    }).catch(function () {
      keepInOutbox(form, draftKey);
      done();
    });
  }

  Array.prototype.forEach.call(document.querySelectorAll("form.keeps[data-draft]"), function (form) {
    var draftKey = keepDrafts(form);
    if (!form.dataset.outbox) { return; }
    var game = form.dataset.outbox;
    form.addEventListener("submit", function (event) { sendForm(form, draftKey, event); });
    showWaiting(game);
    var again = function () { flush(game, form); };
    window.addEventListener("online", again);
    document.addEventListener("visibilitychange", function () { if (!document.hidden) { again(); } });
    setInterval(again, RETRY_MS);
    again();
  });
})();
