// Playing cards as faces (web/templatetags/card_faces.py draws the same in the server's
// pages, in the same words): a card code of the game record ("QS") becomes its rank and
// suit symbol (Q♠), red for hearts and diamonds, named in words for a screen reader
// ("Queen of spades"). One function for the seat page, the watch page and the projector:
//
//   huckleyCard("QS")                 a <span class="playing-card" role="img"> face
//   huckleyCard("QS", "button", {..}) a button with that face (its own attributes kept)
//   huckleyCard.info("QS")            {text: "Q♠", words: "queen of spades", red: false}
//   huckleyCard.label("QS")           "Queen of spades"
//   huckleyCard.suit("S")             "spades ♠"
(function () {
  "use strict";
  // Words through Django's JavaScript catalogue (/jsi18n/); English when a page has none.
  function _(text) { return window.gettext ? window.gettext(text) : text; }
  function interpolate(text, values) {
    return window.interpolate ? window.interpolate(text, values, true) :
      text.replace(/%\((\w+)\)s/g, function (match, key) { return String(values[key]); });
  }
  // The words are looked up as they are used: the catalogue may load after this script.
  function suits() {
    return {S: ["\u2660", _("spades")], H: ["\u2665", _("hearts")], D: ["\u2666", _("diamonds")], C: ["\u2663", _("clubs")]};
  }
  function ranks() { return {A: _("ace"), K: _("king"), Q: _("queen"), J: _("jack"), T: "10"}; }

  function info(code) {
    code = String(code);
    if (code === "BH") { return {text: "Hi Bluke", words: _("the high Bluke"), red: false}; }
    if (code === "BL") { return {text: "Lo Bluke", words: _("the low Bluke"), red: false}; }
    var white = /^(\d+)w$/.exec(code);
    if (white) {
      if (white[1] === "0") { return {text: "Doe", words: _("the Doe (white 0)"), red: false}; }
      if (white[1] === "10") { return {text: "Buck", words: _("the Buck (white 10)"), red: false}; }
      return {text: "W" + white[1], words: interpolate(_("white %(value)s"), {value: white[1]}), red: false};
    }
    if (/^\d+$/.test(code)) { return {text: code, words: code, red: false}; }
    var rank = code.slice(0, -1), letter = code.slice(-1), suit = suits()[letter];
    if (!suit) { return {text: code, words: code, red: false}; }
    return {
      text: (rank === "T" ? "10" : rank) + suit[0],
      words: interpolate(_("%(rank)s of %(suit)s"), {rank: ranks()[rank] || rank, suit: suit[1]}),
      red: letter === "H" || letter === "D"
    };
  }

  function name(code) {
    var words = info(code).words;
    return words.charAt(0).toUpperCase() + words.slice(1);
  }

  // The face as an element: a <span role="img"> by default; any other tag (a button)
  // keeps its own role, and `attrs` (className added to the card's, "aria-label" to
  // replace the name) are set on it.
  function face(code, tag, attrs) {
    var c = info(code);
    var node = document.createElement(tag || "span");
    attrs = attrs || {};
    node.className = "playing-card" + (c.red ? " red" : "") + (attrs.className ? " " + attrs.className : "");
    if (!tag || tag === "span") { node.setAttribute("role", "img"); }
    node.setAttribute("aria-label", attrs["aria-label"] || name(code));
    Object.keys(attrs).forEach(function (key) {
      var value = attrs[key];
      if (key === "className" || key === "aria-label" || value === false || value === null || value === undefined) { return; }
      node.setAttribute(key, value === true ? "" : value);
    });
    node.textContent = c.text;
    return node;
  }

  face.info = info;
  face.label = name;
  face.suit = function (letter) {
    var suit = suits()[letter];
    return suit ? suit[1] + " " + suit[0] : String(letter);
  };
  window.huckleyCard = face;
})();
