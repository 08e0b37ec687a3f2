#!/usr/bin/env python3
"""Open `activetime diff --html` in headless Chromium and check it renders.

The profiles are those of test/tool/diff-noise.test (three runs of an old
build, two of a new one: compute(int) and helper() slower, work() within
the noise, oldname() renamed newname()). Fails unless the page logs no
console error and throws no exception, the differential flame graph has
NEW's frames colored by their delta (red slower, grey noise, purple added),
hovering a frame shows its figures before and after, the color switch works
and the functions table lists every function. Saves a screenshot (PNG).
Reuses report_browser.py's DevTools client.

With --depth D, the diff of two profiles D levels deep instead
(tool/Inputs/html_scale.py, NEW's chain 1.5 times slower): every section is
there, the graph draws 10,000 levels with a [deeper] frame above and says
so, a click on the deepest frame zooms it, and no console error or
exception.

usage: diff_browser.py --activetime BIN --mkraw mkraw.py --inputs DIR --out DIR
                       [--depth D]
"""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_browser import check_deep_graph, make_deep, run_page  # noqa: E402

# Per run: (pid, main incl, compute (incl, excl), work) in ns; helper and
# oldname/newname keep their figures of the JSON descriptions.
BASE_RUNS = [(100, 1100000, (500000, 300000), 100000),
             (101, 1120000, (510000, 310000), 110000),
             (102, 1080000, (490000, 290000), 90000)]
NEW_RUNS = [(200, 1405000, (800000, 500000), 105000),
            (201, 1420000, (820000, 520000), 100000)]


def make_runs(args, name, runs):
    files = []
    for pid, main, comp, work in runs:
        spec = json.load(open(os.path.join(args.inputs, name)))
        p = spec["processes"][0]
        p["pid"] = pid
        nodes = p["threads"][0]["nodes"]
        nodes[0] = [-1, "main", 1, main, 100000]
        nodes[1] = [0, "_Z7computei", 2, comp[0], comp[1]]
        nodes[4] = [0, "_Z4workv", 5, work, work]
        spec_path = os.path.join(args.out, "%d.json" % pid)
        with open(spec_path, "w") as f:
            json.dump(spec, f)
        raw = os.path.join(args.out, "%d.raw" % pid)
        subprocess.check_call([sys.executable, args.mkraw, spec_path, "-o", raw])
        files.append(raw)
    return files


def make_diff(args):
    os.makedirs(args.out, exist_ok=True)
    base = make_runs(args, "diff-base.json", BASE_RUNS)
    new = make_runs(args, "diff-new.json", NEW_RUNS)
    html = os.path.join(args.out, "diff.html")
    subprocess.check_call([args.activetime, "diff", "--html", html, "--base"] +
                          base + ["--new"] + new)
    return html


FRAME_FILL = """(function (name) {
    var g = Array.from(document.querySelectorAll('#flame-diff svg g'))
      .find(function (g) { return g.textContent.indexOf(name) === 0; });
    return g ? g.querySelector('rect').getAttribute('fill') : null;
})"""


def check_page(b, check, args):
    """The checks of this page; b: the browser on it."""
    for sel in ("#header", "#side-base", "#side-new", "#diff-flame",
                "#flame-diff", "#diff-functions", "#metric-active",
                "#metric-self_active"):
        check(b.eval("!!document.querySelector('%s')" % sel),
              "element %s present" % sel)
    frames = b.eval("document.querySelectorAll('#flame-diff svg g').length")
    check(frames == 6, "NEW's flame graph has its 6 frames, root included (%s)" % frames)
    fill = lambda n: b.eval(FRAME_FILL + "(%s)" % json.dumps(n))
    # compute(int): +310 us of 500 us inclusive -> rel 0.62.
    check(fill("compute(...)") == "rgb(255,89,89)",
          "compute(int) is red by its relative delta (%s)" % fill("compute(...)"))
    check(fill("work()") == "#c8c8c8",
          "work() is grey: within the noise (%s)" % fill("work()"))
    check(fill("newname()") == "#c9a0ff",
          "newname() is purple: not in BASE (%s)" % fill("newname()"))
    check(fill("oldname()") is None, "oldname() (removed) has no frame")

    geom = b.eval("""(function () {
        var g = Array.from(document.querySelectorAll('#flame-diff svg g'))
          .find(function (g) { return g.textContent.indexOf('compute(...)') === 0; });
        g.scrollIntoView();
        var r = g.querySelector('rect').getBoundingClientRect();
        return {x: r.x + r.width / 2, y: r.y + r.height / 2};
    })()""")
    b.call("Input.dispatchMouseEvent", type="mouseMoved",
           x=geom["x"], y=geom["y"])
    det = b.wait_until("document.getElementById('flame-diff-details').textContent")
    check(det.startswith("compute(...) [both]: active 500.000 us -> 810.000 us "
                         "(+310.000 us, 1.62x, \u00b195% 59.907 us, significant); "
                         "self-active 300.000 us -> 510.000 us") and "calls 2 -> 2" in det,
          "hovering shows before/after/delta (%s)" % det)

    b.eval("document.getElementById('metric-self_active').click()")
    check(b.wait_until("document.getElementById('flame-diff').getAttribute('data-metric') "
                       "=== 'self_active'"), "the color switch selects self-active time")
    # main's self time did not change: 0 within its noise bound.
    check(fill("main") == "#c8c8c8",
          "by self-active time main is grey (%s)" % fill("main"))
    rows = b.eval("document.querySelectorAll('#diff-functions tbody tr').length")
    check(rows == 6, "the functions table lists all 6 functions (%s)" % rows)


def make_deep_diff(args):
    base = make_deep(args, "deep-base")
    new = make_deep(args, "deep-new", ["--slower", "1.5", "--pid", "2"])
    html = os.path.join(args.out, "diff-deep.html")
    subprocess.check_call([args.activetime, "diff", "--html", html, base, new])
    return html


def check_deep_diff(b, check, args):
    for sel in ("#header", "#side-base", "#side-new", "#diff-flame", "#flame-diff",
                "#functions", "#diff-functions", "#metric-active", "#metric-self_active"):
        check(b.eval("!!document.querySelector('%s')" % sel), "element %s present" % sel)
    rows = b.eval("document.querySelectorAll('#diff-functions tbody tr').length")
    more = b.eval("(document.getElementById('diff-functions-more') || {}).textContent") or ""
    check(rows == 50 and more.startswith("Showing the first 50 of 304 rows"),
          "the functions table shows 50 of its 304 rows (%s; %s)" % (rows, more))
    check_deep_graph(b, check, "flame-diff", "diff-pruned")


def main():
    if "--depth" in sys.argv:
        return run_page(make_deep_diff, "diff", "diff-deep.png", check_deep_diff,
                        whole_page=False)
    return run_page(make_diff, "diff", "diff.png", check_page)


if __name__ == "__main__":
    sys.exit(main())
