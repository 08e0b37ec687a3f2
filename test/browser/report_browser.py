#!/usr/bin/env python3
"""Open `activetime report --html` in headless Chromium and check it renders.

Drives Debian's chromium over the DevTools protocol (a minimal WebSocket
client on the standard library, so no extra Python package is needed) and
fails unless: the page logs no console error and throws no exception, the
report's sections and tables are present, the flame graph has frames, a
click on a flame-graph frame zooms it to the full width, the active/elapsed
switch and a table sort work. Saves a screenshot (PNG) next to the report.

With --mpi, the page of a two-rank MPI job (tool/Inputs/mpi.json): the
MPI section's per-rank table and its ranks x functions heat map, a cell
per function and rank, each titled with its rank and time.

With --depth D, the page of a profile D levels deep instead
(tool/Inputs/html_scale.py: a chain of D levels, 300 leaves too narrow to
draw, on-CPU samples at the bottom): every section is there, the flame graphs draw
10,000 levels with a [deeper] frame above and say so, a click on the
deepest frame zooms it (no recursion per level: a deep graph overflowed
the stack), and no console error or exception.

usage: report_browser.py --activetime BIN --mkraw mkraw.py --inputs DIR --out DIR
                         [--depth D | --mpi]
"""

import argparse
import base64
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request


class WebSocket:
    """Just enough of RFC 6455 for the DevTools protocol (text frames)."""

    def __init__(self, url):
        assert url.startswith("ws://")
        hostport, path = url[5:].split("/", 1)
        host, port = hostport.split(":")
        # A page of a deep graph takes long to lay out on a busy machine.
        self.sock = socket.create_connection((host, int(port)), timeout=120)
        key = base64.b64encode(os.urandom(16)).decode()
        req = ("GET /%s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\n"
               "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
               "Sec-WebSocket-Version: 13\r\n\r\n" % (path, hostport, key))
        self.sock.sendall(req.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise RuntimeError("websocket handshake failed")
            head += chunk
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise RuntimeError("websocket handshake refused: %r" % head)

    def _recv_exact(self, n):
        buf = b""
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise RuntimeError("websocket closed")
            buf += chunk
        return buf

    def send(self, text):
        data = text.encode()
        mask = os.urandom(4)
        n = len(data)
        if n < 126:
            hdr = struct.pack("!BB", 0x81, 0x80 | n)
        elif n < 65536:
            hdr = struct.pack("!BBH", 0x81, 0x80 | 126, n)
        else:
            hdr = struct.pack("!BBQ", 0x81, 0x80 | 127, n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        self.sock.sendall(hdr + mask + masked)

    def recv(self):
        parts = []
        while True:
            b0, b1 = self._recv_exact(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack("!H", self._recv_exact(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", self._recv_exact(8))[0]
            payload = self._recv_exact(n)
            opcode = b0 & 0x0F
            if opcode == 8:
                raise RuntimeError("websocket closed by the browser")
            if opcode in (0, 1, 2):
                parts.append(payload)
                if b0 & 0x80:
                    return b"".join(parts).decode()


class Browser:
    def __init__(self, chromium, profile_dir):
        self.proc = subprocess.Popen(
            [chromium, "--headless=new", "--no-sandbox", "--disable-gpu",
             "--no-first-run", "--no-default-browser-check",
             "--disable-extensions", "--disable-background-networking",
             "--remote-debugging-port=0", "--user-data-dir=" + profile_dir,
             "--window-size=1280,1000", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)
        try:
            self._connect(profile_dir)
        except Exception:
            self.close()  # a browser that did not answer in time
            raise
        self.next_id = 0
        self.events = []

    def _connect(self, profile_dir):
        port_file = os.path.join(profile_dir, "DevToolsActivePort")
        deadline = time.time() + 60
        while not os.path.exists(port_file) or not open(port_file).read().strip():
            if time.time() > deadline or self.proc.poll() is not None:
                raise RuntimeError("chromium did not start its DevTools server")
            time.sleep(0.1)
        port = int(open(port_file).read().split()[0])
        pages = json.load(urllib.request.urlopen(
            "http://127.0.0.1:%d/json/list" % port, timeout=60))
        page = next(p for p in pages if p["type"] == "page")
        self.ws = WebSocket(page["webSocketDebuggerUrl"])

    def call(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method,
                                 "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self.next_id:
                if "error" in msg:
                    raise RuntimeError("%s: %s" % (method, msg["error"]))
                return msg.get("result", {})
            self.events.append(msg)

    def wait_event(self, method, timeout=20):
        deadline = time.time() + timeout
        while time.time() < deadline:
            for e in self.events:
                if e.get("method") == method:
                    return e
            self.events.append(json.loads(self.ws.recv()))
        raise RuntimeError("no %s event" % method)

    def eval(self, expr):
        r = self.call("Runtime.evaluate", expression=expr, returnByValue=True)
        if "exceptionDetails" in r:
            raise RuntimeError("evaluating %s: %s" % (expr, r["exceptionDetails"]))
        return r["result"].get("value")

    def wait_until(self, expr, timeout=20):
        """Evaluates expr until it is truthy (a page's transitions and event
        handlers take their time, longer on a slow machine); returns its last
        value, which the caller checks."""
        deadline = time.time() + timeout
        while True:
            v = self.eval(expr)
            if v or time.time() > deadline:
                return v
            time.sleep(0.05)

    def wait_stable(self, expr, timeout=20):
        """Evaluates expr until it is truthy and the same three times in a
        row (a transition has ended); returns its last value."""
        deadline = time.time() + timeout
        last, same = None, 0
        while True:
            v = self.eval(expr)
            same = same + 1 if v and v == last else 0
            if same >= 2 or time.time() > deadline:
                return v
            last = v
            time.sleep(0.05)

    def click(self, x, y):
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y,
                      button="left", clickCount=1)

    def close(self):
        # Chromium's helper processes (crashpad, zygote) can outlive the
        # browser and keep writing into the profile directory, which then
        # cannot be removed: end the whole process group and wait until it
        # is gone.
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            pass
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                break
            self.proc.poll()  # reap the browser: a zombie keeps the group
            time.sleep(0.05)
        self.proc.wait()


def console_errors(events):
    errors = []
    for e in events:
        m, p = e.get("method"), e.get("params", {})
        if m == "Runtime.exceptionThrown":
            d = p["exceptionDetails"]
            errors.append("%s (line %s)" % (d.get("exception", {}).get("description", d.get("text")),
                                            d.get("lineNumber")))
        elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            errors.append(json.dumps(p.get("args"))[:300])
        elif m == "Log.entryAdded" and p["entry"].get("level") == "error":
            errors.append(p["entry"].get("text", "")[:300])
    return errors


def make_report(args):
    """basic.json with off-CPU samples, probes that measure themselves, and
    helper() switched to counting after its 10 timed calls (1000 calls in
    all): compute(int)'s code samples (30 in its own code, 10 in helper's)
    move a quarter of its self-active time to helper(), and a quarter of
    its 2 ms of sampled on-CPU time to a helper() [counted] frame."""
    os.makedirs(args.out, exist_ok=True)
    raw = os.path.join(args.out, "browser.raw")
    spec = json.load(open(os.path.join(args.inputs, "basic.json")))
    p = spec["processes"][0]
    p["samples"] = {"interval": 1000000, "start_tick": 0, "end_tick": 10000000,
                    "sweeps": 5, "flags": 3,
                    "samples": [[1000, 2000000, 0, 1, 0, 2], [2000, 1000000, 0, 2, 0, 3],
                                [3000, 4000000, 0, 3, 1, 2], [4000, 500000, 0, 1, 9, 0],
                                [5000, 500000, 0, -1, 3, 0]]}
    p["overhead"] = {"enter": 1, "exit": 1, "batches": 5, "spread_permille": 12,
                     "fenced": 0, "measured": 1, "pair": 30,
                     "measured_enter": 14, "measured_exit": 13}
    p["timing_threshold"] = 1000
    p["code_sample_period_ns"] = 100000
    p["code_sample_cost"] = 2000
    for i, f in enumerate(p["modules"][0]["functions"]):
        f["addr"] = 0x1000 * (i + 1)
    t = p["threads"][0]
    t["counts"] = [["main", 1], ["_Z7computei", 2], ["_ZL6helperv", 1000, True],
                   ["_Z3fibi", 7]]
    t["code_samples"] = [{"node": 1, "addr": "_Z7computei+8", "count": 30},
                         {"node": 1, "addr": "_ZL6helperv+8", "count": 10}]
    t["latency"] = "auto"  # each node's calls at its min, max, mean
    spec_path = os.path.join(args.out, "browser.json")
    with open(spec_path, "w") as f:
        json.dump(spec, f)
    subprocess.check_call([sys.executable, args.mkraw, spec_path, "-o", raw])
    html = os.path.join(args.out, "report.html")
    # The synthetic module path cannot be read: a warning on stderr.
    subprocess.check_call([args.activetime, "report", "--html", html, raw],
                          stderr=subprocess.DEVNULL)
    return html


def make_deep(args, name, extra=()):
    """The raw profile of tool/Inputs/html_scale.py --depth args.depth (the
    chain's bottom 10 ms, so that every level is wide enough to draw)."""
    os.makedirs(args.out, exist_ok=True)
    spec = os.path.join(args.out, name + ".json")
    raw = os.path.join(args.out, name + ".raw")
    subprocess.check_call([sys.executable, os.path.join(args.inputs, "html_scale.py"),
                           "--depth", str(args.depth), "--wide", "300",
                           "--bottom-ns", "10000000", "-o", spec] + list(extra))
    subprocess.check_call([sys.executable, args.mkraw, spec, "-o", raw])
    return raw


def check_deep_graph(b, check, graph, note):
    """A deep flame graph (#graph): drawn to its depth limit with a [deeper]
    frame on top, said so in #note; hovering the [deeper] frame explains
    it, and a click on it zooms it to the full width."""
    frames = b.eval("document.querySelectorAll('#%s svg g').length" % graph)
    check(frames and frames >= 10000, "#%s draws 10,000 levels (%s frames)" % (graph, frames))
    text = b.eval("(document.getElementById('%s') || {}).textContent" % note) or ""
    check("the graph stops at 10,000 levels" in text and "[deeper]" in text,
          "#%s says what the graph left out (%s)" % (note, text))
    geom = b.eval("""(function () {
        var g = document.querySelector('#%s svg g[name^="[deeper"]');
        if (!g) return null;
        g.scrollIntoView({block: 'center'});
        var r = g.querySelector('rect').getBoundingClientRect();
        var svg = document.querySelector('#%s svg').getBoundingClientRect();
        return {x: r.x + Math.min(r.width / 2, 50), y: r.y + r.height / 2, w: r.width, svgw: svg.width};
    })()""" % (graph, graph))
    check(geom is not None, "#%s has a [deeper] frame" % graph)
    if not geom:
        return
    b.call("Input.dispatchMouseEvent", type="mouseMoved", x=geom["x"], y=geom["y"])
    det = b.wait_until("document.getElementById('%s-details').textContent" % graph) or ""
    check(det.startswith("[deeper: 1 level]: the graph stops at 10,000 levels"),
          "hovering the [deeper] frame explains it (%s)" % det)
    b.click(geom["x"], geom["y"])
    width = ("document.querySelector('#%s svg g[name^=\"[deeper\"] rect')"
             ".getBoundingClientRect().width" % graph)
    b.wait_until("(%s) > 0.9 * %f" % (width, geom["svgw"]))
    w2 = b.eval(width)
    check(w2 > 0.9 * geom["svgw"], "a click on the deepest frame zooms it (width %.0f -> %.0f of %.0f)"
          % (geom["w"], w2, geom["svgw"]))


def make_deep_report(args):
    raw = make_deep(args, "deep")
    html = os.path.join(args.out, "report-deep.html")
    subprocess.check_call([args.activetime, "report", "--html", html, raw],
                          stderr=subprocess.DEVNULL)
    return html


def check_deep_report(b, check, args):
    for sel in ("#contents", "#header", "#overhead-table", "#threads-table", "#losses",
                "#call-tree", "#flame-tree", "#functions", "#functions-table", "#on-cpu",
                "#flame-oncpu", "#off-cpu", "#flame-offcpu", "#strides", "#parallel",
                "#latency", "#latency-table", "#callers", "#callers-table", "#bottom-up",
                "#flame-bottom-up"):
        check(b.eval("!!document.querySelector('%s')" % sel), "element %s present" % sel)
    # 304 functions: the first 50 rows, the rest behind a button.
    rows = b.eval("document.querySelectorAll('#functions-table tbody tr').length")
    more = b.eval("(document.getElementById('functions-table-more') || {}).textContent") or ""
    check(rows == 50 and more.startswith("Showing the first 50 of 304 rows"),
          "the functions table shows 50 of its 304 rows (%s; %s)" % (rows, more))
    b.eval("document.getElementById('functions-table-all').click()")
    rows = b.eval("document.querySelectorAll('#functions-table tbody tr').length")
    check(rows == 304, "'Show all' shows the 304 (%s)" % rows)
    text = b.eval("document.getElementById('call-tree-pruned').textContent") or ""
    check("300 frames narrower than 0.01% of the graph's width" in text and
          "merged into one [other] frame per caller" in text,
          "the call tree's note counts the 300 leaves merged (%s)" % text)
    check_deep_graph(b, check, "flame-tree", "call-tree-pruned")
    check_deep_graph(b, check, "flame-oncpu", "on-cpu-pruned")
    # Back to the whole graph: a click on its bottom frame.
    geom = b.eval("""(function () {
        var g = document.querySelector('#flame-tree svg g');
        g.scrollIntoView({block: 'center'});
        var r = g.querySelector('rect').getBoundingClientRect();
        return {x: r.x + 20, y: r.y + r.height / 2};
    })()""")
    b.click(geom["x"], geom["y"])


def run_page(make_page, kind, shot_name, check_page, whole_page=True):
    """Makes the page (make_page(args) returns its path), opens it in
    headless Chromium, checks that its script ran to the end, runs
    check_page(browser, check, args), saves a screenshot (of the whole page,
    or of the window: a deep graph's page is too high for one) and fails on
    any console error. Returns the exit status."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--activetime", required=True)
    ap.add_argument("--mkraw", required=True)
    ap.add_argument("--inputs", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    ap.add_argument("--depth", type=int, default=0)
    ap.add_argument("--mpi", action="store_true")
    args = ap.parse_args()
    html = make_page(args)
    failures = []

    def check(cond, what):
        print(("ok    " if cond else "FAIL  ") + what)
        if not cond:
            failures.append(what)

    with tempfile.TemporaryDirectory(prefix="activetime-chromium-") as prof:
        b = Browser(args.chromium, prof)
        try:
            b.call("Runtime.enable")
            b.call("Log.enable")
            b.call("Page.enable")
            b.call("Page.navigate", url="file://" + os.path.abspath(html))
            b.wait_event("Page.loadEventFired", timeout=120)
            check(b.wait_until("document.body.getAttribute('data-rendered') === '1'"),
                  kind + " script ran to the end")
            # The flame graphs grow in with a transition: checks of their
            # geometry wait until every frame has its final width.
            b.wait_stable("Array.from(document.querySelectorAll('svg rect'))"
                          ".map(function (r) { return r.getBoundingClientRect()"
                          ".width.toFixed(1); }).join(',') || 'none'")
            check_page(b, check, args)
            b.eval("window.scrollTo(0, 0)")
            shot = b.call("Page.captureScreenshot", format="png",
                          captureBeyondViewport=whole_page)
            png = os.path.join(args.out, shot_name)
            with open(png, "wb") as f:
                f.write(base64.b64decode(shot["data"]))
            print("screenshot: " + png)
            errors = console_errors(b.events)
            for e in errors:
                print("console: " + e)
            check(not errors, "no console errors or exceptions")
        except Exception:
            for e in console_errors(b.events):
                print("console: " + e)
            raise
        finally:
            b.close()
    print("%d passed, %d failed" % (0 if failures else 1, 1 if failures else 0))
    return 1 if failures else 0


def check_page(b, check, args):
    """The checks of this page; b: the browser on it."""
    for sel in ("#header", "#overhead-table", "#threads-table", "#losses",
                "#call-tree", "#functions-table", "#on-cpu", "#off-cpu",
                "#strides", "#parallel", "#mode-active", "#mode-elapsed"):
        check(b.eval("!!document.querySelector('%s')" % sel),
              "element %s present" % sel)
    frames = b.eval("document.querySelectorAll('#flame-tree svg g').length")
    check(frames and frames >= 8, "call-tree flame graph has frames (%s)" % frames)
    off = b.eval("document.querySelectorAll('#flame-offcpu svg g').length")
    check(off and off >= 3, "off-CPU flame graph has frames (%s)" % off)
    # The samples' on-CPU graph: compute(int)'s 2 ms split 3:1 by its code
    # samples, so helper() has its timed frame (1 ms sampled) and a
    # [counted] one (500 us, +- 1.96 * sqrt(2e6^2 * (11/42) * (31/42) / 42)
    # = 265.943 us); short names as in the tables.
    oncpu = b.eval("""Array.from(document.querySelectorAll('#flame-oncpu svg g'))
        .map(function (g) { return g.querySelector('title') ? g.querySelector('title').textContent
                                                              : g.textContent; })""") or []
    check(any(t.startswith("helper() [counted]") for t in oncpu) and
          any(t.startswith("compute(...)") for t in oncpu),
          "on-CPU flame graph has compute(...) and a helper() [counted] frame (%s)" % oncpu)
    onnote = b.eval("(document.getElementById('on-cpu-note') || {}).textContent") or ""
    check("500.000 us \u00b1 265.943 us (95%)" in onnote,
          "the on-CPU note gives the counted functions' estimate (%s)" % onnote)
    rows = b.eval("document.querySelectorAll('#functions-table tbody tr').length")
    check(rows == 4, "functions table has 4 rows (%s)" % rows)

    cells = b.eval("""(function () {
        var t = document.querySelector('#functions-table'), out = {};
        var keys = Array.from(t.querySelectorAll('th')).map(function (h) { return h.getAttribute('data-key'); });
        Array.from(t.querySelectorAll('tbody tr')).forEach(function (tr) {
          var td = tr.querySelectorAll('td'), name = td[keys.indexOf('name')].textContent;
          out[name] = ['how', 'calls', 'self_active_ns', 'active_ns', 'elapsed_ns'].map(
            function (k) { return keys.indexOf(k) < 0 ? null : td[keys.indexOf(k)].textContent; });
        });
        return out;
    })()""") or {}
    # compute(int): self-active 400 us, of which its samples put a
    # quarter in helper(): keeps 300 us, +- 1.96 * sqrt(400000^2 *
    # Q(1 - Q) / 42), Q = (10 + 1) / (40 + 2) (the rule-of-succession
    # share), = 53.189 us from the sampling plus its 3/4 share of: the 40
    # samples' cost (2 us each, 80 us), 12 timed calls * 5 ns probe
    # residual (1 + 1 + |27 - 30|) and their 24 readings' rounding
    # (1.96 * sqrt(24 / 6) * 1 ns): 113.237 us.
    # helper(): 200 us timed + 100 us sampled, +- 53.189 us + the
    # other quarter (20.015 us) + its 10 timed calls' residual and
    # rounding = 73.257 us; per-call figures "-". Active times have
    # their +-95% too (compute: every sample charged, 80.064 us).
    # Short names (template arguments and parameters elided), as
    # in the text report.
    comp = cells.get("compute(...)", [None] * 5)
    helper = cells.get("helper()", [None] * 5)
    check(comp[0] == "timed" and helper[0] == "counted" and
          cells.get("main", [None])[0] == "timed",
          "functions table has a how column: timed / counted (%s)" % cells)
    check(comp[2] == "300.000 us \u00b1 113.237 us" and
          helper[2] == "300.000 us \u00b1 73.257 us",
          "self-active times show their +- uncertainty (%s, %s)" % (comp[2], helper[2]))
    check(helper[1] == "1000" and helper[3] == "-" and helper[4] == "-" and
          comp[3] == "600.000 us \u00b1 80.064 us",
          "a counted function has exact calls and no per-call figures (%s)" % helper)
    check(not any("~" in c for row in cells.values() for c in row if c),
          "no '~' marks any more")
    check(b.eval("!document.getElementById('approximate-note')"),
          "no #approximate-note")
    note = b.eval("(document.getElementById('how-note') || {}).textContent")
    check(bool(note) and note.startswith("how: timed = every call timed by the probes"),
          "a #how-note explains how (%s)" % note)
    enote = b.eval("(document.getElementById('error-note') || {}).textContent")
    check(bool(enote) and enote.startswith("+-95% = "),
          "an #error-note explains +-95%% (%s)" % enote)
    # The page formats a time as the text reports do (report::formatTime):
    # never "-0 ns"; a clamped figure is marked.
    fmt = b.eval("""[ActiveTimeHtml.fmtNs(-0.3), ActiveTimeHtml.fmtNs(-0.6),
        ActiveTimeHtml.fmtNs(-11631), ActiveTimeHtml.fmtNs(null),
        ActiveTimeHtml.fmtFigure({active_ns: 0, clamped: {active_ns: -5}}, 'active_ns')].join('|')""")
    check(fmt == "0 ns|-1 ns|-11.631 us|-|0 ns!",
          "times format as in the text report (%s)" % fmt)
    prov = b.eval("(document.getElementById('provenance') || {}).textContent")
    check(bool(prov) and prov.startswith("Self-active time: ") and
          "in 990 counted calls, split off their timed callers by 40 code samples" in prov
          and b.eval("!!document.querySelector('#header #provenance')"),
          "the header has a #provenance paragraph (%s)" % prov)
    hdr = b.eval("document.querySelector('#overhead-table').textContent")
    check("tick step" in hdr and "measured in place" in hdr and
          "code samples" in hdr and "shorter ones counted" in hdr,
          "the measurement table shows the tick step, timing, probe cost and code samples (%s)" % hdr)
    counted = b.eval("""Array.from(document.querySelectorAll('#flame-tree svg g'))
        .filter(function (g) { return g.textContent.indexOf('helper()') === 0; }).length""")
    check(counted == 2, "helper() has a timed and a [counted] frame under compute(int) (%s)" % counted)

    # Click the frame of compute(int) and expect it to fill the width.
    geom = b.eval("""(function () {
        var g = Array.from(document.querySelectorAll('#flame-tree svg g'))
          .find(function (g) { return g.textContent.indexOf('compute(...)') === 0; });
        var svg = document.querySelector('#flame-tree svg').getBoundingClientRect();
        var r = g.querySelector('rect').getBoundingClientRect();
        g.scrollIntoView();
        r = g.querySelector('rect').getBoundingClientRect();
        return {x: r.x + r.width / 2, y: r.y + r.height / 2, w: r.width, svgw: svg.width};
    })()""")
    b.click(geom["x"], geom["y"])
    width = """Array.from(document.querySelectorAll('#flame-tree svg g'))
        .find(function (g) { return g.textContent.indexOf('compute(...)') === 0; })
        .querySelector('rect').getBoundingClientRect().width"""
    # The zoom is a transition: wait for it to reach the full width.
    b.wait_until("(%s) > 0.9 * %f" % (width, geom["svgw"]))
    w2 = b.eval(width)
    check(w2 > geom["w"] * 1.3 and w2 > 0.9 * geom["svgw"],
          "click on a frame zooms it (width %.0f -> %.0f of %.0f)"
          % (geom["w"], w2, geom["svgw"]))

    # Active/elapsed switch.
    r = b.eval("document.getElementById('mode-elapsed').getBoundingClientRect().toJSON()")
    b.eval("document.getElementById('mode-elapsed').scrollIntoView()")
    r = b.eval("document.getElementById('mode-elapsed').getBoundingClientRect().toJSON()")
    b.click(r["x"] + r["width"] / 2, r["y"] + r["height"] / 2)
    check(b.wait_until("document.getElementById('flame-tree').getAttribute('data-mode') === 'elapsed'"),
          "the active/elapsed switch changes the flame graph")

    # Callers and callees: the first function's tables; choosing
    # fib(int) shows main and its recursive calls as callers.
    check(b.eval("!!document.querySelector('#callers #callers-table')"),
          "callers table present")
    b.eval("""(function () { var s = document.getElementById('callers-function');
        s.value = Array.from(s.options).find(function (o) { return o.text === 'fib(int)'; }).value;
        s.dispatchEvent(new Event('change')); })()""")
    callers = b.eval("Array.from(document.querySelectorAll('#callers-table tbody tr td:first-child'))"
                     ".map(function (t) { return t.textContent; }).sort().join(',')")
    check(callers == "fib(int),main", "fib(int)'s callers are main and fib(int) (%s)" % callers)
    bu = b.eval("document.querySelectorAll('#flame-bottom-up svg g').length")
    check(bu and bu >= 6, "bottom-up icicle has frames (%s)" % bu)

    # Sort the functions table by calls.
    b.eval("document.querySelector('#functions-table th[data-key=calls]').click()")
    first = b.eval("document.querySelector('#functions-table tbody tr td').textContent")
    check(first == "helper()", "sorting by calls puts helper() first (%s)" % first)

    # Latency: the section's table, and a click on a
    # function draws its histogram.
    lrows = b.eval("document.querySelectorAll('#latency-table tbody tr').length")
    check(lrows == 4, "latency table has 4 rows (%s)" % lrows)
    # helper(): 10 timed calls of its 1000 (the rest counted) make
    # its distribution.
    hcalls = b.eval("""Array.from(document.querySelectorAll('#latency-table tbody tr'))
        .filter(function (tr) { return tr.children[6].textContent === 'helper()'; })
        .map(function (tr) { return tr.children[0].textContent; })[0]""")
    check(hcalls == "10", "a function's latency row counts its timed calls only (%s)" % hcalls)
    b.eval("""Array.from(document.querySelectorAll('#latency-table tbody tr'))
        .filter(function (tr) { return tr.children[6].textContent === 'compute(int)'; })[0].click()""")
    bars = b.eval("document.querySelectorAll('#latency-histogram .bar').length")
    title = b.eval("(document.querySelector('#latency-histogram h3') || {}).textContent")
    check(bars and bars >= 1 and title == "compute(int): 2 timed calls",
          "a click on a latency row draws its histogram (%s bars, %s)" % (bars, title))


def make_mpi_report(args):
    os.makedirs(args.out, exist_ok=True)
    raw = os.path.join(args.out, "mpi.raw")
    html = os.path.join(args.out, "report-mpi.html")
    subprocess.check_call([sys.executable, args.mkraw,
                           os.path.join(args.inputs, "mpi.json"), "-o", raw])
    subprocess.check_call([args.activetime, "report", "--html", html, raw],
                          stderr=subprocess.DEVNULL)
    return html


def check_mpi_report(b, check, args):
    """mpi.json: rank 0 waited 302 us in MPI and computed 698 us, rank 1
    waited 104 us and computed 896 us; four functions have a spread."""
    check(b.eval("!!document.querySelector('#contents a[href=\"#mpi\"]')"),
          "the contents link to the MPI section")
    rows = b.eval("""Array.from(document.querySelectorAll('#mpi-rank-table tbody tr'))
        .map(function (tr) { return Array.from(tr.children).map(function (td) {
          return td.textContent; }).join('|'); })""") or []
    check(rows == ["0|2.000 ms|698.000 us|302.000 us|302.000 us|15.1%",
                   "1|2.000 ms|896.000 us|104.000 us|104.000 us|5.2%"],
          "the per-rank table gives computing and waiting (%s)" % rows)
    cells = b.eval("document.querySelectorAll('#mpi-heatmap rect.hm-cell').length")
    check(cells == 8, "the heat map has a cell per function and rank (%s)" % cells)
    titles = b.eval("""Array.from(document.querySelectorAll('#mpi-heatmap rect.hm-cell title'))
        .map(function (t) { return t.textContent; })""") or []
    check("main, rank 1: 896.000 us" in titles and "MPI_Barrier, rank 0: 300.000 us" in titles,
          "each cell is titled with its function, rank and time (%s)" % titles)
    # Each row is shaded against its own longest rank: main's rank 1 cell
    # has the darkest color, its rank 0 cell a lighter one.
    fills = b.eval("""Array.from(document.querySelectorAll('#mpi-heatmap rect.hm-cell'))
        .map(function (r) { return r.getAttribute('fill'); })""") or []
    check(len(fills) == 8 and fills[0] == fills[3] and fills[0] != fills[2],
          "the rows' longest cells share the darkest color (%s)" % fills)


def main():
    if "--mpi" in sys.argv:
        return run_page(make_mpi_report, "report", "report-mpi.png", check_mpi_report)
    if "--depth" in sys.argv:
        return run_page(make_deep_report, "report", "report-deep.png", check_deep_report,
                        whole_page=False)
    return run_page(make_report, "report", "report.png", check_page)


if __name__ == "__main__":
    sys.exit(main())
