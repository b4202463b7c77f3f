// Registers the service worker (static/sw.js, served at /sw.js) on the pages a table
// needs offline: a table's score sheet and a session's page with "find my table"
// (docs/tournament.md, "Scoring without a network"). No inline script: the CSP forbids it.
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) { return; }
  navigator.serviceWorker.register("/sw.js", {scope: "/"}).catch(function () {
    // Not over HTTPS (nor on this machine): the pages still work online.
  });
})();
