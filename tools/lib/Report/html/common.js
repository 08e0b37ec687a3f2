// ActiveTime HTML pages: the helpers every page's script uses (the report,
// report.js, and the differential flame graph, diff.js), inlined before
// them by HtmlReport.cpp.
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
  return { el: el, add: add, fmtNs: fmtNs, fmtFigure: fmtFigure };
})();
