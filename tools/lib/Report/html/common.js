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
  // ns as the text reports print it: ns, us, ms or s with three decimals.
  function fmtNs(ns) {
    if (ns === null || ns === undefined) return "-";
    var a = Math.abs(ns), s = ns < 0 ? "-" : "";
    if (a < 999.5) return s + a.toFixed(0) + " ns";
    if (a < 999999.5) return s + (a / 1e3).toFixed(3) + " us";
    if (a < 999999999.5) return s + (a / 1e6).toFixed(3) + " ms";
    return s + (a / 1e9).toFixed(3) + " s";
  }
  return { el: el, add: add, fmtNs: fmtNs };
})();
