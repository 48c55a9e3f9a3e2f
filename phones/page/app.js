// The phone's side: a thin client. Every word it shows comes from the
// box, already in the table's language; it keeps only its seat's token.
//
// Sealed (phones/seal.py): the box sends its public key in the clear as
// the socket opens; a page opened from the QR code holds that key in its
// address's fragment (#k=..., never sent over the network) and talks only
// to a box with it. The page makes a key pair for each socket, sends its
// public half, and every frame after, both ways, is a NaCl secretbox
// (tweetnacl, nacl-fast.min.js) under the two key pairs' shared key hashed
// with the box's random for this socket, with a fresh random nonce and a
// count: a frame that does not open, or comes out of its order, closes the
// socket.
"use strict";
(function () {
  var KEY = "wolfbox-token";
  var PHONE_FRAME = 1024, COUNT = 8, NONCE = 24;    // as in phones/protocol.py, seal.py
  var OPEN_MS = 5000;          // a socket not open by then is a box not there
  var socket = null, retry = 1000, words = {}, off = false;
  var keyIn = function (hash) { return (/[#&]k=([A-Za-z0-9_-]{43})(&|$)/.exec(hash) || [])[1] || ""; };
  var pinned = keyIn(location.hash);
  var $ = function (id) { return document.getElementById(id); };

  function text(el, value) { el.textContent = value || ""; }

  function bytes(b64) {
    var padded = b64.replace(/-/g, "+").replace(/_/g, "/");
    while (padded.length % 4) { padded += "="; }
    var s = atob(padded), out = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) { out[i] = s.charCodeAt(i); }
    return out;
  }
  function b64(data) {
    var s = "";
    for (var i = 0; i < data.length; i++) { s += String.fromCharCode(data[i]); }
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  // One socket's sealing: `shared` from the two key pairs; counts start at
  // 0 for the phone's frames and at 2^63 for the box's (top bit set).
  function channel(shared) {
    var sent = 0, heard = 0;
    return {
      seal: function (message) {
        var body = new TextEncoder().encode(JSON.stringify(message));
        if (body.length > PHONE_FRAME) { return null; }
        var plain = new Uint8Array(COUNT + PHONE_FRAME).fill(32);      // padded with spaces
        new DataView(plain.buffer).setUint32(0, 0);
        new DataView(plain.buffer).setUint32(4, sent++);
        plain.set(body, COUNT);
        var nonce = nacl.randomBytes(NONCE), boxed = nacl.secretbox(plain, nonce, shared);
        var frame = new Uint8Array(NONCE + boxed.length);
        frame.set(nonce);
        frame.set(boxed, NONCE);
        return frame;
      },
      open: function (data) {
        var frame = new Uint8Array(data);
        if (frame.length < NONCE + 16 + COUNT) { return null; }
        var plain = nacl.secretbox.open(frame.subarray(NONCE), frame.subarray(0, NONCE), shared);
        if (!plain) { return null; }
        var count = new DataView(plain.buffer, plain.byteOffset);
        if (count.getUint32(0) !== 0x80000000 || count.getUint32(4) !== heard) { return null; }
        heard++;
        return JSON.parse(new TextDecoder().decode(plain.subarray(COUNT)));
      }
    };
  }

  // The box lost: after a power cut the page would keep its last view,
  // its buttons looking alive. While no socket is open every button is
  // greyed and does nothing (a tap could not reach the box anyway); once
  // the box could not be reached again, or another start of it answered,
  // the page says so, large, in the words the box last gave it.
  function away(why) {
    document.body.classList.add("away");
    Array.prototype.forEach.call(document.querySelectorAll("#seats button, #options button, " +
      "#actions button"), function (b) { b.disabled = true; });
    if (why !== undefined) {
      text($("gone"), why);
      $("gone").hidden = false;
      text($("status"), "");
    }
  }
  function back() {
    document.body.classList.remove("away");
    $("gone").hidden = true;
  }

  var sealed = null;
  function connect() {
    sealed = null;
    socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
    socket.binaryType = "arraybuffer";
    var mine = socket, opened = false;
    // A box that is off answers nothing: the attempt would hang for as
    // long as the phone's own network waits.
    var late = setTimeout(function () { if (!opened) { mine.close(); } }, OPEN_MS);
    socket.onopen = function () {
      opened = true;
      clearTimeout(late);
      retry = 1000;
      off = false;
    };
    socket.onmessage = function (e) {
      if (mine !== socket) { return; }
      if (!sealed) {
        var key = typeof e.data === "string" ? JSON.parse(e.data) : {};
        if (key.t !== "key" || !key.c) { return; }
        if (pinned && key.k !== pinned) {      // not the box whose QR code opened this page
          away(key.other || words.lost || "…");
          socket.onclose = null;
          socket.close();
          return;
        }
        var pair = nacl.box.keyPair();
        // The socket's own key: the pair's shared key hashed with the box's
        // random for this socket (seal.py), so nothing recorded on one
        // socket opens on another.
        var before = nacl.box.before(bytes(key.k), pair.secretKey), fresh = bytes(key.c);
        var mixed = new Uint8Array(before.length + fresh.length);
        mixed.set(before);
        mixed.set(fresh, before.length);
        sealed = channel(nacl.hash(mixed).subarray(0, 32));
        socket.send(JSON.stringify({ t: "seal", k: b64(pair.publicKey) }));
        send({ t: "hello", token: localStorage.getItem(KEY) || "" });
        return;
      }
      var m = typeof e.data === "string" ? null : sealed.open(e.data);
      if (!m) { socket.close(); return; }       // tampered, replayed, or not sealed
      if (m.t === "view" || m.t === "lobby") { beat(m.t === "view" && !!m.cover); }
      if (m.words) { words = m.words; }
      if (m.lang) { document.documentElement.lang = m.lang === "zh" ? "zh-Hans" : m.lang; }
      if (m.t === "lobby") { back(); lobby(m); }
      else if (m.t === "joined") { localStorage.setItem(KEY, m.token); }
      else if (m.t === "refused" || m.t === "asking") { text($("refused"), m.why); }
      else if (m.t === "view") { back(); seat(m); }
      else if (m.t === "bye") { off = true; }
      text($("status"), "");
    };
    socket.onclose = function () {
      clearTimeout(late);
      if (mine !== socket) { return; }
      beat(false);
      // Phones turned off on the box: say so, and look again now and then
      // (they may be turned on again); a socket that never opened: the box
      // is gone (off, or out of reach); else a moment's loss: reconnect.
      if (off) { away(words.off || "…"); }
      else if (!opened) { away(words.lost || "…"); }
      else {
        away();
        text($("status"), words.reconnecting || "…");
      }
      setTimeout(connect, off ? 10000 : retry);
      retry = Math.min(retry * 2, 5000);
    };
  }

  function sendNow(message) {
    if (socket && socket.readyState === 1 && sealed) {
      var frame = sealed.seal(message);
      if (frame) { socket.send(frame); }
    }
  }

  // A secret window (issue 41.3: the Wolves' phones sent more frames, and
  // a count on the air pointed at them): the box sends every seated phone
  // a frame on its clock, marked `cover`, and the page answers each at
  // once, before drawing it, with exactly one frame of the same size: the
  // oldest tap waiting, or a cover frame with nothing in it. So every
  // phone, whatever its role and taps, sends as many frames as the box
  // sent it, each just after the box's. A tap waits for the next beat
  // instead of leaving at once; one still waiting when the window ends is
  // too late for its step anyway: it goes with nothing.
  var WAITING = 8, covering = false, waiting = [];
  function beat(covered) {
    covering = covered;
    if (!covered) { waiting = []; return; }
    sendNow(waiting.shift() || { t: "cover" });
  }

  function send(message) {
    if (covering && message.t === "choose") {
      waiting.push(message);
      if (waiting.length > WAITING) { waiting.shift(); }
      return;
    }
    sendNow(message);
  }

  var seated = false;
  function lobby(m) {
    if (seated) {                 // the seat is gone: a new game, or the box freed it
      seated = false;
      $("pin").value = "";
      text($("refused"), words.again);
    }
    $("seat").hidden = true;
    $("lobby").hidden = false;
    document.body.classList.remove("dim", "covered");
    text($("lobby-title"), m.title);
    var someTaken = Object.keys(m.taken).length > 0;    // a lost phone's seat: the box frees it
    text($("lobby-note"), [m.note, someTaken ? words.taken : ""].filter(Boolean).join(" "));
    text($("pin-label"), words.pin);
    text($("name-label"), words.name);
    text($("seat-label"), words.seat);
    var seats = $("seats");
    seats.textContent = "";
    for (var n = 1; n <= m.seats; n++) {
      var b = document.createElement("button");
      var taken = m.taken[String(n)], label = (m.labels || {})[String(n)];
      b.textContent = String(n);
      if (taken !== undefined || label) {
        var who = document.createElement("small");
        who.textContent = taken !== undefined ? taken : label;
        b.appendChild(who);
        b.disabled = taken !== undefined;
      }
      b.onclick = (function (number) {
        return function () {
          text($("refused"), "");
          send({ t: "join", pin: $("pin").value.trim(), seat: number, name: $("name").value });
        };
      })(n);
      seats.appendChild(b);
    }
  }

  function seat(m) {
    seated = true;
    $("lobby").hidden = true;
    $("seat").hidden = false;
    document.body.classList.toggle("dim", !!m.dim);
    text($("seat-title"), m.seat_title);
    text($("title"), m.title);
    text($("big"), m.big);
    var lines = $("lines");
    lines.textContent = "";
    m.lines.forEach(function (line) {
      var p = document.createElement("p");
      p.textContent = line;
      lines.appendChild(p);
    });
    if (window.wolfboxNight) { window.wolfboxNight($("night"), m.picture); }   // night.js
    var secret = $("secret"), cover = $("cover");
    secret.textContent = "";
    m.secret.forEach(function (line, i) {        // the card first, large; then its notes
      var p = document.createElement(i === 0 ? "strong" : "p");
      p.textContent = line;
      secret.appendChild(p);
    });
    task(m.task, m.secret.length > 0);
    cover.hidden = m.secret.length === 0;
    document.body.classList.toggle("covered", !cover.hidden);
    secret.hidden = !holding || cover.hidden;     // a clock's tick keeps a held cover open
    text(cover, words.hold);
    if (!secret.hidden) { fitSecret(); }
  }

  // The same task on every seat's phone: its options as buttons, what this
  // seat chose marked. A task of one pick sends a tap at once; a task of
  // several (two seats to swap) gathers them here and sends them whole.
  // The box decides, and marks what it took. On a phone with a cover a tap
  // changes nothing outside it (a glance would tell what a seat tapped):
  // what it chose, or has picked so far, is a line behind the cover.
  var picking = { step: null, ids: [] };
  function task(t, covered) {
    var box = $("task"), options = $("options"), actions = $("actions");
    box.hidden = !t;
    options.textContent = "";
    actions.textContent = "";
    // The task the buttons answer: a tap sends its step, so an old task's
    // buttons (the same words) are told apart from the new one's.
    options.dataset.step = t ? t.step : "";
    if (!t) { return; }
    var hidden = covered && !t.marks_shown;
    choiceLine(t, hidden);
    if (picking.step !== t.step) { picking = { step: t.step, ids: [] }; }
    text($("prompt"), t.prompt);
    t.actions.forEach(function (action) {
      var b = document.createElement("button");
      b.textContent = action[1];
      b.onclick = function () { send({ t: "choose", step: t.step, choice: [action[0]] }); };
      actions.appendChild(b);
    });
    t.options.forEach(function (option) {
      var id = option[0], b = document.createElement("button");
      b.textContent = option[1];
      b.className = hidden ? "" : t.chosen.indexOf(id) >= 0 ? "chosen" :
        picking.ids.indexOf(id) >= 0 ? "picking" : "";
      b.onclick = function () {
        if (t.pick <= 1) { send({ t: "choose", step: t.step, choice: [id] }); return; }
        var at = picking.ids.indexOf(id);
        if (at >= 0) { picking.ids.splice(at, 1); } else { picking.ids.push(id); }
        if (picking.ids.length === t.pick) {
          send({ t: "choose", step: t.step, choice: picking.ids });
          picking.ids = [];
        }
        task(t, covered);
      };
      options.appendChild(b);
    });
    fit(options);
    fit(actions);
  }

  // A label never breaks inside a word ("Dorfbewohn|er"): a button whose
  // word is wider than its column takes two columns, or the whole row.
  function fit(grid) {
    Array.prototype.forEach.call(grid.children, function (b) {
      if (b.scrollWidth > b.clientWidth) { b.classList.add("wide"); }
      if (b.scrollWidth > b.clientWidth) { b.classList.add("full"); }
    });
  }

  // Behind the cover: "✓" and what the box took, or what is picked so far
  // and "…" while a task of several picks waits for the rest.
  function choiceLine(t, hidden) {
    var line = $("choice");
    if (!hidden) { if (line) { line.remove(); } return; }
    var ids = t.chosen.length ? t.chosen : picking.ids;
    var shown = t.options.filter(function (o) { return ids.indexOf(o[0]) >= 0; })
      .map(function (o) { return o[1]; });
    if (!line) {
      line = document.createElement("p");
      line.id = "choice";
      line.className = "choice";
      $("secret").appendChild(line);
    }
    line.textContent = !shown.length ? "" :
      t.chosen.length ? "✓ " + shown.join(" · ") : shown.join(" · ") + " …";
  }

  // The secret, held, fills the screen above the cover: its words take a
  // smaller size until they fit there, and if even the smallest does not
  // fit, the finger that holds the cover scrolls them by sliding (the
  // cover takes no gesture of the browser's, so a slide never ends the hold).
  var FITS = ["fit1", "fit2", "fit3"];
  function fitSecret() {
    var secret = $("secret");
    secret.classList.remove.apply(secret.classList, FITS);
    for (var i = 0; i < FITS.length && secret.scrollHeight > secret.clientHeight; i++) {
      if (i > 0) { secret.classList.remove(FITS[i - 1]); }
      secret.classList.add(FITS[i]);
    }
  }

  var holding = false, slidFrom = null;
  function reveal(shown) {
    return function (e) {
      e.preventDefault();
      holding = shown;
      slidFrom = shown ? e.clientY : null;
      $("secret").hidden = !shown;
      if (shown) { $("secret").scrollTop = 0; fitSecret(); }
      // The hold is the finger's until it lifts: a view that moves the page
      // under it (a line added above) must not close the cover mid-read.
      if (shown && e.pointerId !== undefined && cover.setPointerCapture) {
        try { cover.setPointerCapture(e.pointerId); } catch (err) { /* gone already */ }
      }
    };
  }
  var cover = $("cover");
  ["pointerdown"].forEach(function (k) { cover.addEventListener(k, reveal(true)); });
  ["pointerup", "pointercancel", "pointerleave"].forEach(function (k) {
    cover.addEventListener(k, reveal(false));
  });
  cover.addEventListener("pointermove", function (e) {
    if (!holding || slidFrom === null) { return; }
    $("secret").scrollTop += slidFrom - e.clientY;
    slidFrom = e.clientY;
  });
  cover.addEventListener("contextmenu", function (e) { e.preventDefault(); });
  // The box's QR code scanned again in this tab (a box started anew has a
  // new key): only the fragment changes, so the page starts over with it.
  window.addEventListener("hashchange", function () {
    if (keyIn(location.hash) !== pinned) { location.reload(); }
  });
  connect();
})();
