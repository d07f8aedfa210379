#!/usr/bin/env bash
# Benchmark: what the Run button costs a reader's page load.
#
# Builds a copy of example-book/ (checked first, so its examples carry
# recorded runs), takes its chapter with the most frames, and loads it in
# headless Chromium (network blocked) as built and with the companion
# script removed, alternately, ROUNDS times each, in one run. In each load
# a probe at the top of <head> logs every request the page's scripts make
# (fetch, XMLHttpRequest); probes bracket the script's own execution, and
# the last one reads the time from navigation start to the end of <body>.
#
# Prints the medians and their ratio; exits non-zero when the page with
# the script makes any request or shows no Run button.
#
#   benches/page-load.sh             # debug build of mdbook-companion
#   PROFILE=release ROUNDS=31 benches/page-load.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
profile=${PROFILE:-debug}
rounds=${ROUNDS:-15}
chromium=${CHROMIUM:-chromium}
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

python3 - "$work/book/book" "$rounds" "$chromium" <<'EOF'
import glob, json, os, re, statistics, subprocess, sys, tempfile

out, rounds, chromium = sys.argv[1], int(sys.argv[2]), sys.argv[3]
pages = sorted(glob.glob(os.path.join(out, "*.html")))
pages = [p for p in pages if not p.endswith(("print.html", "index.html", "toc.html", "404.html"))]
page = max(pages, key=lambda p: open(p).read().count("data-companion-run="))
html = open(page).read()
frames = html.count("data-companion-run=")
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
(function () {
  var p = document.createElement("pre");
  p.id = "bench-result";
  p.textContent = JSON.stringify({
    script_ms: window.__t1 - window.__t0,
    body_ms: performance.now(),
    requests: window.__requests,
    buttons: document.querySelectorAll(".companion-run-button").length,
  });
  document.body.appendChild(p);
})();
</script>"""

def variant(name, keep):
    text = html.replace('<meta charset="UTF-8">', '<meta charset="UTF-8">' + HEAD, 1)
    script = tag.group(0) if keep else ""
    text = text.replace(tag.group(0), T0 + script + T1, 1)
    text = text.replace("</body>", END + "</body>", 1)
    path = page[:-5] + "-" + name + ".html"
    open(path, "w").write(text)
    return path

with_js, without_js = variant("with", True), variant("without", False)

def load(path):
    with tempfile.TemporaryDirectory() as profile:
        dom = subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-background-networking", "--disable-component-update",
             "--host-resolver-rules=MAP * ~NOTFOUND", "--user-data-dir=" + profile,
             "--dump-dom", "file://" + path],
            capture_output=True, text=True, timeout=120).stdout
    m = re.search(r'<pre id="bench-result">(.*?)</pre>', dom, re.S)
    assert m, "no measurement in " + path
    return json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&"))

runs = {"with": [], "without": []}
for i in range(rounds):
    order = [("with", with_js), ("without", without_js)]
    if i % 2:
        order.reverse()
    for name, path in order:
        runs[name].append(load(path))

def med(name, key):
    return statistics.median(r[key] for r in runs[name])

print(f"page: {os.path.basename(page)} ({frames} frames with a Run button), {rounds} loads of each, alternating")
print("| page | median ms to end of <body> | ratio | median ms in companion.js | requests by scripts | Run buttons |")
print("|---|---:|---:|---:|---:|---:|")
base = med("without", "body_ms")
for name in ["without", "with"]:
    reqs = max(len(r["requests"]) for r in runs[name])
    buttons = runs[name][0]["buttons"]
    print(f"| {name} companion.js | {med(name, 'body_ms'):.1f} | {med(name, 'body_ms') / base:.2f}x | "
          f"{med(name, 'script_ms'):.2f} | {reqs} | {buttons} |")
bad = [r for r in runs["with"] if r["requests"]]
if bad:
    print("FAIL: the page with the script made requests:", bad[0]["requests"])
    sys.exit(1)
if runs["with"][0]["buttons"] == 0:
    print("FAIL: no Run button on the page")
    sys.exit(1)
EOF
