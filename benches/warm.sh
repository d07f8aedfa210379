#!/usr/bin/env bash
# A warm `check` (every verdict in the cache, no compiler run) against a
# baseline build of mdbook-companion, in the same run, on the same cache.
#
#   BASE=PATH benches/warm.sh [BOOK_DIR[:strip]]...
#   ROUNDS=9 BASE=/work/tools/companion-5c78331 benches/warm.sh \
#     example-book /work/books/rust-lang+reference:strip /work/books/rust-lang+rfcs
#
# BASE is the baseline binary (an earlier commit's build); the other is
# this worktree's release build (COMPANION=PATH: another). Each book
# (default: example-book/) is copied to a scratch directory (its own
# files are never touched); `:strip` removes its other
# `[preprocessor.*]` tables, as `benches/anybook.sh --strip-preprocessors`
# does; a book with no `src/` but a `generate-book.py` (the RFCs) gets
# its `src/` from that script first. One cold `check` (this build) fills
# the cache and writes the lock, one warm run of each settles it, then
# ROUNDS (default 5) warm runs of each in turn, the baseline first in odd
# rounds and second in even ones. Reported per book: the median wall and
# CPU time (user and system, every process started) of each, and the
# ratio this build / baseline.
#
# Exits non-zero when a warm run of either starts a compiler or their
# verdicts differ.
set -euo pipefail
base=${BASE:?BASE=PATH of the baseline binary}
base=$(cd "$(dirname "$base")" && pwd)/$(basename "$base")
rounds=${ROUNDS:-5}
source "$(dirname "$0")/common.sh"
[ $# -gt 0 ] || set -- "$root/example-book"

status=0
for arg in "$@"; do
  strip=0
  case $arg in *:strip) strip=1 ;; esac
  book=$(cd "${arg%:strip}" && pwd)
  copy=$work/$(basename "$book")
  rm -rf "$copy"
  mkdir -p "$copy"
  (cd "$book" && tar --exclude=./book --exclude=./.companion-cache --exclude=./companion.lock --exclude=./.git -cf - .) | tar -xf - -C "$copy"
  if [ "$strip" = 1 ]; then
    python3 "$root/benches/strip-preprocessors.py" "$copy/book.toml"
  fi
  if [ ! -d "$copy/src" ] && [ -f "$copy/generate-book.py" ]; then
    # Its src/ (links into text/), without the `mdbook build` it ends with.
    (cd "$copy" && python3 -c "
import importlib.util, subprocess
subprocess.call = lambda *a, **k: 0
spec = importlib.util.spec_from_file_location('g', 'generate-book.py')
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
m.main()")
  fi
  "$bin" check "$copy" --format json > "$work/cold.json" 2> "$work/cold.err" || true
  python3 - "$copy" "$base" "$bin" "$rounds" "$(basename "$book")" <<'PY' || status=1
import json, resource, statistics, subprocess, sys, time
copy, base, new, rounds, name = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]

def run(binary):
    cpu_of = lambda r: r.ru_utime + r.ru_stime
    before = cpu_of(resource.getrusage(resource.RUSAGE_CHILDREN))
    t0 = time.perf_counter()
    out = subprocess.run([binary, "check", copy, "--format", "json"], capture_output=True)
    wall = time.perf_counter() - t0
    cpu = cpu_of(resource.getrusage(resource.RUSAGE_CHILDREN)) - before
    return wall, cpu, json.loads(out.stdout)

times = {base: [], new: []}
reports = {}
for binary in (base, new):
    reports[binary] = run(binary)[2]
for r in range(rounds):
    for binary in ((base, new) if r % 2 == 0 else (new, base)):
        wall, cpu, report = run(binary)
        times[binary].append((wall, cpu))
        reports[binary] = report
ok = True
for binary, label in ((base, "baseline"), (new, "this build")):
    if reports[binary]["compiler_runs"] != 0:
        print(f"  {label}: {reports[binary]['compiler_runs']} compiler runs warm")
        ok = False
if reports[base]["results"] != reports[new]["results"]:
    print("  the verdicts differ between the two builds")
    ok = False
med = lambda xs: statistics.median(xs)
bw, bc = med([w for w, _ in times[base]]), med([c for _, c in times[base]])
nw, nc = med([w for w, _ in times[new]]), med([c for _, c in times[new]])
print(f"book: {name}: {len(reports[new]['results'])} blocks, {reports[new]['cache_hits']} from the cache, {rounds} warm runs of each")
print(f"  baseline:   wall {bw:.3f} s, CPU {bc:.3f} s (medians)")
print(f"  this build: wall {nw:.3f} s, CPU {nc:.3f} s (medians)")
print(f"  this build / baseline: wall {nw / bw:.2f}x, CPU {nc / bc:.2f}x")
sys.exit(0 if ok else 1)
PY
done
exit $status
