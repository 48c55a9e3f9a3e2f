// The night as pictures, after the verdict (wolfbox/tablemap.py): the
// table seen from above, each seat a box with its player's name (and its
// card), seat 1 at the bottom and the others clockwise, the center cards
// in the middle, each move of the night a numbered arrow, the votes arrows
// to the one who died. The box draws the same pictures (device/tablemap.py);
// every word comes from the box. The list of what happened is one tap away.
//
// SVG built node by node (the page's CSP allows no inline script or style:
// colours are the SVG's own attributes, the rest is in night.css).
"use strict";
(function () {
  var NS = "http://www.w3.org/2000/svg";
  var COLORS = {
    look: "#58c4dc", copy: "#be96f5", swap: "#f5963c", take: "#fad250", shield: "#6ecd78",
    token: "#d7af78", reveal: "#eceef2", shift: "#a0c8aa", vote: "#f05a50", died: "#f05a50",
    kill: "#f05a50", protect: "#6ecd78", block: "#f5963c", jail: "#d7af78"
  };
  var DASHED = { look: true, copy: true, reveal: true };
  var SIGNS = { look: "⇢", copy: "⇢", reveal: "⇢", swap: "↔", died: "■" };
  var WIDTH = 360, BOX = 86, LINE = 16, PAD = 5, CENTER = 100;
  var listShown = false;        // kept while one game's verdict views come and go

  function node(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (parent) { parent.appendChild(e); }
    return e;
  }

  function html(name, className, words, parent) {
    var e = document.createElement(name);
    if (className) { e.className = className; }
    if (words !== undefined) { e.textContent = words; }
    if (parent) { parent.appendChild(e); }
    return e;
  }

  // A text at most `room` wide: smaller for a long word, never cut.
  function label(svg, words, x, y, size, bold, color, room) {
    var ems = 0;                        // a Chinese character is an em wide, a letter some 0.6
    for (var i = 0; i < words.length; i++) { ems += words.charCodeAt(i) >= 0x2e80 ? 1 : 0.6; }
    var fit = Math.min(size, room / Math.max(1, ems));
    var t = node("text", { x: x, y: y, "font-size": fit.toFixed(1), fill: color,
                           "text-anchor": "middle", "dominant-baseline": "middle",
                           "font-weight": bold ? "bold" : "normal" }, svg);
    t.textContent = words;
    return t;
  }

  // Where the line from the middle of `r` toward `p` leaves it.
  function leave(r, p) {
    var cx = r.x + r.w / 2, cy = r.y + r.h / 2, dx = p[0] - cx, dy = p[1] - cy, ts = [];
    if (dx) { ts.push((r.x - 2 - cx) / dx, (r.x + r.w + 2 - cx) / dx); }
    if (dy) { ts.push((r.y - 2 - cy) / dy, (r.y + r.h + 2 - cy) / dy); }
    var t = Math.min.apply(null, ts.filter(function (v) { return v > 0; }).concat([1]));
    return [cx + dx * t, cy + dy * t];
  }

  // The table's shape for n seats, as the box draws it (device/tablemap.py
  // SHAPES): seats on the left, the head, the foot and the right.
  var SHAPES = { 3: [0, 2, 1, 0], 4: [1, 1, 1, 1], 5: [1, 2, 1, 1], 6: [1, 2, 2, 1],
                 7: [1, 3, 2, 1], 8: [1, 3, 3, 1], 9: [2, 3, 2, 2], 10: [2, 3, 3, 2] };

  // Each seat's box: seat 1 in the middle of the foot, then clockwise
  // (leftwards along the foot, up the left side, along the head, down the right).
  function slots(n, height, h) {
    var side = Math.max(0, Math.floor((n - 4) / 4)), top = Math.floor((n - 2 * side) / 2);
    var shape = SHAPES[n] || [side, top, n - 2 * side - top, side];
    var row = Math.max(shape[1], shape[2], 1), w = Math.min(BOX, WIDTH / row - 6), gap = 6;
    function along(count, start, length) {
      var out = [];
      for (var k = 0; k < count; k++) { out.push(start + length / count * (k + 0.5)); }
      return out;
    }
    var foot = along(shape[2], 0, WIDTH), head = along(shape[1], 0, WIDTH);
    var lefts = along(shape[0], h + gap, height - 2 * h - 2 * gap);
    var rights = along(shape[3], h + gap, height - 2 * h - 2 * gap);
    var middle = Math.floor(shape[2] / 2), out = [];
    function box(x, y) { out.push({ x: x - w / 2, y: y - h / 2, w: w, h: h }); }
    foot.slice(0, middle + 1).reverse().forEach(function (x) { box(x, height - h / 2 - 2); });
    lefts.slice().reverse().forEach(function (y) { box(w / 2 + 2, y); });
    head.forEach(function (x) { box(x, h / 2 + 2); });
    rights.forEach(function (y) { box(WIDTH - w / 2 - 2, y); });
    foot.slice(middle + 1).reverse().forEach(function (x) { box(x, height - h / 2 - 2); });
    return out;
  }

  function picture(page, index) {
    var section = html("section", "night-page");
    html("h2", "", page.title, section);
    var n = page.seats.length, big = n > 6;
    var seatH = page.seats.some(function (s) { return s.card; }) ? 2 * LINE + 2 * PAD : LINE + 2 * PAD;
    var height = big ? 400 : 300;
    var svg = node("svg", { viewBox: "0 0 " + WIDTH + " " + height, role: "img",
                            "aria-label": page.title }, section);
    var defs = node("defs", {}, svg);
    Object.keys(COLORS).forEach(function (kind) {
      var m = node("marker", { id: "h" + index + kind, viewBox: "0 0 10 10", refX: "9", refY: "5",
                               markerWidth: "5", markerHeight: "5", orient: "auto-start-reverse" }, defs);
      node("path", { d: "M0,0 L10,5 L0,10 z", fill: COLORS[kind] }, m);
    });
    var boxes = {}, spots = slots(n, height, seatH);
    page.seats.forEach(function (s, k) { boxes[s.place] = spots[k]; });
    var cw = 92, ch = LINE + 2 * PAD, gap = 6, count = page.centers.length;
    page.centers.forEach(function (c, k) {    // a column in the middle of the table
      boxes[c.place] = { x: WIDTH / 2 - cw / 2, y: height / 2 - (count * ch + (count - 1) * gap) / 2 + k * (ch + gap),
                         w: cw, h: ch };
    });
    var arrows = node("g", {}, svg), pairs = {}, badges = [];
    page.arrows.forEach(function (arrow) {
      var from = boxes[arrow.source], to = boxes[arrow.target];
      if (!from || !to) { return; }
      var key = Math.min(arrow.source, arrow.target) + "-" + Math.max(arrow.source, arrow.target);
      var k = pairs[key] || 0;
      pairs[key] = k + 1;
      var x0 = from.x + from.w / 2, y0 = from.y + from.h / 2, x1 = to.x + to.w / 2, y1 = to.y + to.h / 2;
      var d = Math.hypot(x1 - x0, y1 - y0) || 1, bend = (k % 2 ? -1 : 1) * (0.12 + 0.12 * Math.floor((k + 1) / 2));
      var c = [(x0 + x1) / 2 - (y1 - y0) / d * bend * d, (y0 + y1) / 2 + (x1 - x0) / d * bend * d];
      var p0 = leave(from, c), p1 = leave(to, c), color = COLORS[arrow.kind] || "#eee";
      var path = { d: "M" + p0.join(",") + " Q" + c.join(",") + " " + p1.join(","), fill: "none",
                   stroke: color, "stroke-width": "2.5", "marker-end": "url(#h" + index + arrow.kind + ")" };
      if (arrow.kind === "swap") { path["marker-start"] = path["marker-end"]; }
      if (DASHED[arrow.kind]) { path["stroke-dasharray"] = "6 4"; }
      node("path", path, arrows);
      if (arrow.number && (!badges.length || badges[badges.length - 1].number !== arrow.number)) {
        badges.push({ number: arrow.number, color: color,
                      x: 0.25 * p0[0] + 0.5 * c[0] + 0.25 * p1[0], y: 0.25 * p0[1] + 0.5 * c[1] + 0.25 * p1[1] });
      }
    });
    page.seats.concat(page.centers).forEach(function (s) {
      var r = boxes[s.place], center = s.place > CENTER;
      node("rect", { x: r.x, y: r.y, width: r.w, height: r.h, rx: 6,
                     fill: s.dead ? "#5c1c20" : center ? "#283042" : "#0e1422",
                     stroke: s.dead ? COLORS.died : "#96a0b0", "stroke-width": s.dead ? 2 : 1 }, svg);
      if (center) {
        label(svg, s.label || s.name, r.x + r.w / 2, r.y + r.h / 2, 12, false, "#eceef2", r.w - 6);
        return;
      }
      var top = s.card ? r.y + PAD + LINE / 2 : r.y + r.h / 2;
      label(svg, s.name, r.x + r.w / 2, top, 13, true, "#eceef2", r.w - 6);
      if (s.card) { label(svg, s.card, r.x + r.w / 2, top + LINE, 12, false, "#c4cad8", r.w - 6); }
    });
    badges.forEach(function (badge) {
      node("circle", { cx: badge.x, cy: badge.y, r: 9, fill: badge.color, stroke: "#0e1422", "stroke-width": 2 }, svg);
      label(svg, String(badge.number), badge.x, badge.y + 0.5, 11, true, "#0e1422", 16);
    });
    if (page.legend.length) {
      var key = html("p", "night-key", undefined, section);
      page.legend.forEach(function (item) {
        var span = html("span", "k-" + item[0], (SIGNS[item[0]] || "→") + " ", key);
        html("span", "", item[1], span);
      });
    }
    page.notes.forEach(function (line) { html("p", "night-note", line, section); });
    return section;
  }

  // A place and an arrow come as arrays (wolfbox/tablemap.py Spot, Arrow).
  function spot(a) { return { place: a[0], name: a[1], card: a[2], dead: a[3], label: a[4] }; }
  function arrow(a) { return { kind: a[0], source: a[1], target: a[2], number: a[3] }; }

  // The hook app.js calls with each view: the pictures (or nothing).
  window.wolfboxNight = function (box, map) {
    box.textContent = "";
    box.hidden = !map;
    if (!map) { listShown = false; return; }         // the next game opens on its pictures
    var toggle = html("button", "night-toggle", "", box);
    var pictures = html("div", "night-pictures", undefined, box);
    map.pages.forEach(function (page, i) {
      pictures.appendChild(picture({ title: page.title, seats: page.seats.map(spot),
                                     centers: page.centers.map(spot), arrows: page.arrows.map(arrow),
                                     legend: page.legend, notes: page.notes }, i));
    });
    var list = html("div", "night-list", undefined, box);
    html("p", "night-list-title", map.list_title, list);
    map.list.forEach(function (line) { html("p", "", line, list); });
    function show() {
      toggle.textContent = listShown ? map.show_picture : map.show_list;
      pictures.hidden = listShown;
      list.hidden = !listShown;
    }
    toggle.onclick = function () { listShown = !listShown; show(); };
    toggle.hidden = !map.list.length;          // a game whose list is on the page already
    show();
  };
})();
