// ActiveTime HTML pages: the helpers every page's script uses (the report,
// report.js, and the differential flame graph, diff.js), inlined before
// them by HtmlReport.cpp. Trees are walked with loops, never recursion per
// level: a call tree can be tens of thousands of levels deep.
var ActiveTimeHtml = (function () {
  "use strict";
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function add(parent, tag, attrs, text) {
    var e = el(tag, attrs, text);
    parent.appendChild(e);
    return e;
  }
  // ns as the text reports print it (report::formatTime, Format.cpp): ns,
  // us, ms or s with three decimals; a value that prints as zero has no
  // sign ("0 ns", never "-0 ns"); null is "-".
  function fmtNs(ns) {
    if (ns === null || ns === undefined) return "-";
    var a = Math.abs(ns), m;
    if (a < 999.5) m = a.toFixed(0) + " ns";
    else if (a < 999999.5) m = (a / 1e3).toFixed(3) + " us";
    else if (a < 999999999.5) m = (a / 1e6).toFixed(3) + " ms";
    else m = (a / 1e9).toFixed(3) + " s";
    return ns < 0 && /[1-9]/.test(m) ? "-" + m : m;
  }
  // A figure of a row as printed, "!" when the report clamped it (the
  // row's "clamped" object holds the measured value).
  function fmtFigure(row, key) {
    var v = row[key];
    return fmtNs(v) + (row.clamped && row.clamped[key] !== undefined ? "!" : "");
  }
  // A count with thousands separators ("12,345").
  function fmtInt(n) {
    return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  }
  // A share as a percentage: one decimal, more for a small one ("0.01%").
  function fmtShare(x) {
    var p = 100 * x;
    return (p >= 0.1 || p === 0 ? p.toFixed(1) : p.toPrecision(1)) + "%";
  }
  function plural(n, one, many) { return fmtInt(n) + " " + (n === 1 ? one : many); }

  // Rows a table shows until "Show all" is clicked: a long table (a
  // program's thousands of functions) must not bury the sections after it.
  var TABLE_ROWS = 50;
  // A table whose columns sort on a click on their header (numbers largest
  // first, text alphabetically; a second click reverses) when sortable;
  // the first TABLE_ROWS rows in that order, the rest behind a button.
  function table(parent, id, cols, rows, sortable) {
    var t = add(parent, "table", { id: id, "class": sortable ? "sortable" : "" });
    var head = add(add(t, "thead"), "tr");
    var body = add(t, "tbody");
    var more = add(parent, "p", { id: id + "-more", "class": "note" });
    var state = { col: -1, desc: true, all: rows.length <= TABLE_ROWS };
    function render() {
      body.textContent = "";
      var shown = state.all ? rows.length : TABLE_ROWS;
      rows.slice(0, shown).forEach(function (r) {
        var tr = add(body, "tr");
        cols.forEach(function (c) {
          var v = r[c.key];
          add(tr, "td", { "class": c.text ? "text" : "" }, c.fmt ? c.fmt(v, r) : String(v));
        });
      });
      more.textContent = "";
      more.style.display = state.all ? "none" : "";
      if (state.all) return;
      more.appendChild(document.createTextNode("Showing the first " + shown + " of " + fmtInt(rows.length) +
        " rows" + (sortable ? " (click a column header to sort them all by it)" : "") + ". "));
      var b = add(more, "button", { type: "button", id: id + "-all" }, "Show all " + fmtInt(rows.length));
      b.addEventListener("click", function () { state.all = true; render(); });
    }
    cols.forEach(function (c, i) {
      var th = add(head, "th", { "class": c.text ? "text" : "", "data-key": c.key }, c.title);
      if (!sortable) return;
      th.addEventListener("click", function () {
        state.desc = state.col === i ? !state.desc : !c.text;
        state.col = i;
        rows.sort(function (a, b) {
          var x = a[c.key], y = b[c.key], o;
          if (c.text) o = String(x).localeCompare(String(y));
          else o = (x === null ? -Infinity : x) - (y === null ? -Infinity : y);
          return state.desc ? -o : o;
        });
        Array.prototype.forEach.call(head.children, function (h, k) {
          h.className = (h === th ? (state.desc ? "sorted-desc" : "sorted-asc") + " " : "") + (cols[k].text ? "text" : "");
        });
        render();
      });
    });
    render();
    return t;
  }

  // ---- flame graphs (HtmlFlame.h) ----
  // The frame that stands for what was left out under a drawn frame:
  // "[other]" for frames too narrow, "[deeper]" for those below the
  // levels drawn; as wide as what it replaces (width_ns[mode]).
  function otherFrame(n, mode) {
    var o = n.other;
    return {
      name: o.deeper ? "[deeper: " + plural(o.levels, "level", "levels") + "]" :
        "[other: " + plural(o.tops, "frame", "frames") + "]",
      value: n.width_ns[Math.min(mode, n.width_ns.length - 1)], other: o, fig: null
    };
  }
  // The nested data d3-flame-graph draws from a document's flat "nodes"
  // (pre-order, parent links; the [other] and [deeper] frames last), with
  // make(node) giving a drawn frame's data and own width ("value"): its
  // inclusive figure, made at least as wide as its children together
  // (d3-flame-graph lays them out inside it; negative widths count as 0),
  // or with the graph's self_widths its own part, which its children are
  // added to. One pass backwards, as every child comes after its parent.
  function flameData(flame, rootName, mode, make) {
    var nodes = flame.nodes, made = new Array(nodes.length), sums = new Array(nodes.length);
    var root = { name: rootName, value: 0, children: [], fig: null };
    for (var i = 0; i < nodes.length; i++) {
      var n = nodes[i], d = n.other ? otherFrame(n, mode) : make(n);
      d.children = [];
      made[i] = d;
      sums[i] = 0;
      (n.parent === null ? root : made[n.parent]).children.push(d);
    }
    var top = 0;
    for (i = nodes.length - 1; i >= 0; i--) {
      var own = Math.max(made[i].value || 0, 0);
      var v = flame.self_widths ? own + sums[i] : Math.max(own, sums[i]);
      made[i].value = v;
      if (nodes[i].parent === null) top += v; else sums[nodes[i].parent] += v;
    }
    root.value = top;
    return root;
  }
  // The hover line of an [other] or [deeper] frame; under: what the
  // frames above it are to it ("callees", "callers").
  function otherDetails(d, flame, under) {
    var o = d.data.other;
    if (o.deeper)
      return d.data.name + ": the graph stops at " + fmtInt(flame.limits.max_depth) + " levels; " +
        plural(o.frames, "frame", "frames") + " below this level, " + fmtNs(d.value) + " wide together";
    return d.data.name + ": " + plural(o.tops, "frame", "frames") + " " + narrowWhy(flame) + ", " +
      plural(o.frames, "frame", "frames") + " counting their " + under + ", " + fmtNs(d.value) + " wide together";
  }
  function narrowWhy(flame) {
    var p = flame.pruned, lim = flame.limits;
    return p.frame_cap_hit ? "beyond the " + fmtInt(lim.max_frames) + " widest (at most " +
      fmtNs(p.frame_cap_width_ns) + " wide each)" :
      "narrower than " + fmtShare(lim.min_share) + " of the graph's width";
  }
  // What the page left out of a graph, in words (empty when nothing):
  // mode: which width (the call tree's active or elapsed time).
  function prunedText(flame, mode, under) {
    var p = flame.pruned, m = Math.min(mode, flame.total_ns.length - 1), total = flame.total_ns[m];
    var parts = [];
    if (p.narrow.tops)
      parts.push(plural(p.narrow.tops, "frame", "frames") + " " + narrowWhy(flame) + " (" +
        plural(p.narrow.frames, "frame", "frames") + " counting their " + under + ", together " +
        fmtNs(p.narrow.width_ns[m]) + " wide, " + fmtShare(total > 0 ? p.narrow.width_ns[m] / total : 0) +
        " of the graph's width) " + (p.narrow.tops === 1 ? "is" : "are") + " merged into one [other] frame per " +
        (under === "callers" ? "callee" : "caller"));
    if (p.deeper.tops)
      parts.push("the graph stops at " + fmtInt(flame.limits.max_depth) + " levels: " +
        plural(p.deeper.frames, "frame", "frames") + " below them (up to " +
        plural(p.deeper.levels, "level", "levels") + " more, together " + fmtNs(p.deeper.width_ns[m]) +
        " wide) " + (p.deeper.frames === 1 ? "is" : "are") + " drawn as [deeper] frames");
    if (!parts.length) return "";
    return "Pruned: " + fmtInt(p.frames_drawn) + " of " + fmtInt(p.frames_in_graph) + " frames drawn; " +
      parts.join("; ") + ". Hovering over such a frame tells what it holds; --prune-below sets the width share " +
      "(0: none merged, within the caps of " + fmtInt(flame.limits.max_frames) + " frames and " +
      fmtInt(flame.limits.max_depth) + " levels).";
  }
  // The pruning note above a graph (a paragraph with id, hidden when
  // nothing was left out); returns a function that rewrites it for a mode.
  function prunedNote(parent, id, flame, under) {
    var p = add(parent, "p", { id: id, "class": "warn" });
    function show(mode) {
      var t = prunedText(flame, mode, under);
      p.textContent = t;
      p.style.display = t ? "" : "none";
    }
    show(0);
    return show;
  }
  // Zooms as d3-flame-graph's own click does (the clicked frame's
  // ancestors faded, their other subtrees hidden, its own subtree shown),
  // but with loops: the library recurses once per level and would
  // overflow the stack in a deep graph.
  function zoomTo(chart, d) {
    for (var c = d; c.parent; c = c.parent)
      c.parent.children.forEach(function (s) { if (s !== c) s.data.hide = true; });
    d.each(function (x) { x.data.fade = false; x.data.hide = false; });
    for (var a = d.parent; a; a = a.parent) a.data.fade = true;
    chart.update();
  }
  // The graphs' width in pixels, read once: reading the page's width lays
  // the page out, which takes seconds once it holds a deep graph.
  var width = null;
  function graphWidth() {
    if (width === null)
      width = Math.max(600, (document.getElementById("app").clientWidth || 1000) - 20);
    return width;
  }
  // A flame graph (or, inverted, an icicle) of data in a new element
  // #id with a details line #id-details; label(d) is a frame's hover
  // line. A click zooms (zoomTo), caught before the library's handler.
  function flameChart(parent, id, data, label, opts) {
    opts = opts || {};
    var box = add(parent, "div", { id: id, "class": "flame" });
    var det = add(parent, "div", { id: id + "-details", "class": "details" });
    var chart = flamegraph.default().width(graphWidth()).cellHeight(18).minFrameSize(1)
      .transitionDuration(300).sort(false).inverted(!!opts.inverted)
      .setDetailsElement(det).label(label)
      .onHover(function (d) { det.textContent = label(d); });
    // The [other] and [deeper] frames grey: they stand for many frames.
    chart.setColorMapper(function (d, original) {
      return d.data.other ? "#d4d4d4" : opts.color ? opts.color(d, original) : original;
    });
    box.addEventListener("click", function (ev) {
      var g = ev.target.closest ? ev.target.closest("g") : null;
      if (!g || !box.contains(g)) return;
      var d = d3.select(g).datum();
      if (!d) return;
      ev.stopPropagation();
      zoomTo(chart, d);
    }, true);
    d3.select(box).datum(data).call(chart);
    return chart;
  }
  return {
    el: el, add: add, fmtNs: fmtNs, fmtFigure: fmtFigure, fmtInt: fmtInt, fmtShare: fmtShare,
    table: table, flameData: flameData, flameChart: flameChart, otherDetails: otherDetails,
    prunedNote: prunedNote
  };
})();
