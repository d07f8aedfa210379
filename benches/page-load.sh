#!/usr/bin/env bash
# Benchmark: what the Run button costs a reader's page load.
#
# Builds a copy of example-book/ (checked first, so its examples carry
# recorded runs), takes its chapter with the most Run buttons, and loads
# it in headless Chromium in three forms, in turn, ROUNDS times each, in
# one run: without the companion script (the baseline), with the script
# minus run.js (the script as it was for the comparison tabs alone), and
# as built. The book is served from 127.0.0.1 by a server that logs every
# request; every other host fails to resolve (network blocked). In each
# load a probe at the top of <head> logs every request the page's scripts
# make (fetch, XMLHttpRequest); probes bracket the script's own execution,
# one reads the time from navigation start to the end of <body>, and one
# the time to the load event.
#
# Prints medians, quartiles and ratios to the baseline; exits non-zero
# when the page as built makes a request the baseline does not (beyond
# the script file itself) or the script without the Run button does not,
# or shows no Run button.
#
# With PART=quiz the same for quizzes: the chapter with the most quiz
# questions, and the script without quiz.js as the middle form.
#
#   benches/page-load.sh             # debug build of mdbook-companion
#   PROFILE=release ROUNDS=31 benches/page-load.sh
#   PART=quiz PROFILE=release benches/page-load.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
profile=${PROFILE:-debug}
rounds=${ROUNDS:-15}
chromium=${CHROMIUM:-chromium}
part=${PART:-run}
if [ "$profile" = release ]; then
  cargo build --quiet --release --bin mdbook-companion
else
  cargo build --quiet --bin mdbook-companion
fi
bin=$root/target/$profile/mdbook-companion
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cp -r example-book "$work/book"
rm -rf "$work/book/book"
"$bin" check "$work/book" >/dev/null
"$bin" build "$work/book" >/dev/null 2>&1

python3 - "$work/book/book" "$rounds" "$chromium" "$root" "$part" <<'EOF'
import glob, http.server, json, os, re, statistics, subprocess, sys, tempfile, threading

out, rounds, chromium, root, part = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
# What is measured: the Run button (run.js, frames with a recorded run)
# or quizzes (quiz.js, their questions).
MARK, PART_JS, WIDGET, WORD = {
    "run": ("data-companion-run=", "crates/directives/src/run.js", ".companion-run-button", "Run button"),
    "quiz": ("companion-quiz-question", "crates/directives/src/quiz/quiz.js", ".companion-quiz-check:not([hidden])", "quiz"),
}[part]
served = []

class Logged(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *a, **k):
        super().__init__(*a, directory=out, **k)
    def log_message(self, *a):
        pass
    def send_head(self):
        served.append(self.path)
        return super().send_head()

class Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, address):
        pass  # a browser that closes early (after its dump) is no failure

server = Server(("127.0.0.1", 0), Logged)
threading.Thread(target=server.serve_forever, daemon=True).start()
origin = "http://127.0.0.1:%d/" % server.server_address[1]
pages = sorted(glob.glob(os.path.join(out, "*.html")))
pages = [p for p in pages if not p.endswith(("print.html", "index.html", "toc.html", "404.html"))]
page = max(pages, key=lambda p: open(p).read().count(MARK))
html = open(page).read()
frames = html.count(MARK)
tag = re.search(r'<script src="[^"]*companion[-0-9a-f]*\.js"></script>', html)
assert tag, "no companion.js on the page"

HEAD = """<script>
window.__requests = [];
(function () {
  var f = window.fetch;
  window.fetch = function (u) { window.__requests.push(String(u && u.url || u)); return f.apply(this, arguments); };
  var o = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (m, u) { window.__requests.push(String(u)); return o.apply(this, arguments); };
})();
</script>"""
T0 = "<script>window.__t0 = performance.now();</script>"
T1 = "<script>window.__t1 = performance.now();</script>"
END = """<script>
var WIDGET = WIDGET_SELECTOR;
window.__body = performance.now();
window.addEventListener("load", function () {
  var p = document.createElement("pre");
  p.id = "bench-result";
  p.textContent = JSON.stringify({
    script_ms: window.__t1 - window.__t0,
    body_ms: window.__body,
    load_ms: performance.now(),
    requests: window.__requests,
    buttons: document.querySelectorAll(WIDGET).length,
  });
  document.body.appendChild(p);
});
</script>"""

END = END.replace("WIDGET_SELECTOR", json.dumps(WIDGET))
script = re.search(r'src="([^"]*)"', tag.group(0)).group(1)
# The same script without the Run button (run.js taken out): the
# companion script as it was before, for the comparison tabs.
full = open(os.path.join(out, script)).read()
run_js = open(os.path.join(root, PART_JS)).read()
assert run_js in full, PART_JS + " is not in " + script
norun = script[:-3] + "-norun.js"
open(os.path.join(out, norun), "w").write(full.replace(run_js, ""))

def variant(name, src):
    text = html.replace('<meta charset="UTF-8">', '<meta charset="UTF-8">' + HEAD, 1)
    here = tag.group(0).replace(script, src) if src else ""
    text = text.replace(tag.group(0), T0 + here + T1, 1)
    text = text.replace("</body>", END + "</body>", 1)
    path = page[:-5] + "-" + name + ".html"
    open(path, "w").write(text)
    return path

NAMES = {
    "without": "no companion script (baseline)",
    "norun": "companion script without the " + WORD,
    "with": "companion script with the " + WORD,
}
paths = {"without": variant("without", None), "norun": variant("norun", norun), "with": variant("with", script)}

def load(path):
    served.clear()
    with tempfile.TemporaryDirectory() as profile:
        dom = subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-background-networking", "--disable-component-update",
             "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
             "--user-data-dir=" + profile, "--dump-dom",
             origin + os.path.relpath(path, out)],
            capture_output=True, text=True, timeout=120).stdout
    m = re.search(r'<pre id="bench-result">(.*?)</pre>', dom, re.S)
    assert m, "no measurement in " + path
    r = json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    # The page itself (named apart for each variant) is not counted, nor
    # the favicon (asked for or not depending on when the dump comes); the
    # script counts under one name.
    page_path = "/" + os.path.relpath(path, out)
    r["served"] = sorted(
        q.replace("-norun.js", ".js") for q in served if q != page_path and "favicon" not in q
    )
    return r

runs = {name: [] for name in NAMES}
order = list(NAMES)
for i in range(rounds):
    for name in order[i % 3:] + order[:i % 3]:
        runs[name].append(load(paths[name]))

def med(name, key):
    return statistics.median(r[key] for r in runs[name])

def spread(name, key):
    q = statistics.quantiles([r[key] for r in runs[name]], n=4)
    return f"{med(name, key):.1f} ({q[0]:.0f}–{q[2]:.0f})"

def requests(name):
    return set(q for r in runs[name] for q in r["served"] + r["requests"])

buttons = runs["with"][0]["buttons"]
print(f"page: {os.path.basename(page)} ({frames} × {MARK}, {buttons} × {WIDGET}), "
      f"{rounds} loads of each, in turn; served from 127.0.0.1, every other host blocked")
print("| page | requests served | requests by scripts | ms to end of <body>, median (quartiles) | ratio | ms to load event | ratio | ms running the script |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for name, label in NAMES.items():
    n_served = max(len(r["served"]) for r in runs[name])
    reqs = max(len(r["requests"]) for r in runs[name])
    body, load_ = med(name, "body_ms"), med(name, "load_ms")
    print(f"| {label} | {n_served} | {reqs} | {spread(name, 'body_ms')} | {body / med('without', 'body_ms'):.3f} | "
          f"{spread(name, 'load_ms')} | {load_ / med('without', 'load_ms'):.3f} | {med(name, 'script_ms'):.2f} |")
fail = False
extra = requests("with") - requests("without") - {"/" + script}
if extra:
    print("FAIL: the page with the script made requests the baseline does not:", sorted(extra))
    fail = True
if requests("with") != requests("norun"):
    print("FAIL: the " + WORD + " changes the requests:", sorted(requests("with") ^ requests("norun")))
    fail = True
if buttons == 0 or runs["norun"][0]["buttons"] != 0:
    print("FAIL: no " + WORD + " on the page, or one without " + PART_JS)
    fail = True
print(f"{WORD} alone (with / without it): {med('with', 'body_ms') / med('norun', 'body_ms'):.3f} "
      f"to end of <body>, {med('with', 'script_ms') - med('norun', 'script_ms'):+.2f} ms running the script")
sys.exit(1 if fail else 0)
EOF
