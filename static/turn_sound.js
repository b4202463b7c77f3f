// A beep on the player's turn, for the seat page (templates/play/seat.html): off until the
// player switches it on with the page's button (#play-sound), the choice kept on the phone
// (localStorage). A short tone made with the Web Audio API: no sound file, nothing from the
// internet. A browser lets a page sound only after a tap on it, so the sound is made
// ready on the first tap or key. static/play.js calls `huckleyTurnSound()` when the turn
// comes to the player.
(function () {
  "use strict";
  // Words through Django's JavaScript catalogue (/jsi18n/); English when a page has none.
  function _(text) { return window.gettext ? window.gettext(text) : text; }
  var SOUND_KEY = "huckley.play.sound";
  var audio = null;
  function soundOn() {
    try { return window.localStorage.getItem(SOUND_KEY) === "on"; } catch (e) { return false; }
  }
  function unlock() {
    if (!soundOn()) { return; }
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) { return; }
    if (!audio) { try { audio = new Context(); } catch (e) { audio = null; return; } }
    if (audio.state === "suspended" && audio.resume) { audio.resume(); }
  }
  function beep() {
    if (!soundOn() || !audio) { return; }
    var now = audio.currentTime;
    var osc = audio.createOscillator(), gain = audio.createGain();
    osc.type = "sine";
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.3, now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.3);
    osc.connect(gain).connect(audio.destination);
    osc.start(now);
    osc.stop(now + 0.32);
  }
  var button = document.getElementById("play-sound");
  function showSound() {
    var on = soundOn();
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.textContent = on ? _("Sound on your turn: on") : _("Sound on your turn: off");
  }
  if (button) {
    button.hidden = false;
    showSound();
    button.addEventListener("click", function () {
      try { window.localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on"); } catch (e) { /* private mode */ }
      showSound();
      unlock();
      beep();  // switched on: a beep says what it sounds like
    });
  }
  document.addEventListener("click", unlock);
  document.addEventListener("keydown", unlock);
  window.huckleyTurnSound = beep;
})();
