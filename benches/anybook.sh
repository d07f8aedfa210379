#!/usr/bin/env bash
# Any book, unchanged: `mdbook-companion check` against `mdbook test` on a
# real book that never heard of us, verdict by verdict and in time.
#
#   benches/anybook.sh BOOK_DIR [--strip-preprocessors]
#   LIBRARY=DIR benches/anybook.sh BOOK_DIR ...   # both run with -L DIR
#
# The book is copied to a scratch directory (its own files are never
# touched). In one run: `mdbook test` (mdBook 0.5.4) once, with a
# `rustdoc` first on PATH that records rustdoc's test lines (mdBook prints
# them only for failing chapters); `check --format json` cold (no cache)
# and warm (cache kept); `check --no-merge` cold when NO_MERGE=1. The
# verdict of every block rustdoc ran is compared with check's for the same
# chapter and line (`test_line`, the line `mdbook test` names a block by).
# The one intended difference: a `compile_fail,E0382` block failing with
# another code fails `check` (codes are checked on stable) and passes
# `mdbook test` on stable; it is counted apart.
#
# `--strip-preprocessors` removes the book's other `[preprocessor.*]`
# tables from the copy for both runs (for a preprocessor that cannot run
# here, such as the Reference's `cargo run` of mdbook-spec, which needs
# the network); `check` never runs them either.
#
# ROUNDS=N times N rounds of both (the verdicts are the first round's)
# and holds the target to the median ratio.
#
# Prints the comparison and the times; exits non-zero on a verdict that
# differs, or when a target is missed (cold <= 0.15x mdbook test on a book
# of 200 blocks or more, 0.40x if most of them fail, <= 0.30x on a smaller
# one such as a 2015-edition
# book; warm <= 1 s with no compiler run).
#
# Books tried (fetch them, e.g. `git clone https://github.com/OWNER/NAME`):
#   rust-lang/nomicon, rust-lang/rust-by-example (--strip-preprocessors),
#   rust-lang/reference (--strip-preprocessors), rust-embedded/book
#   (--strip-preprocessors; no [rust] edition: 2015), rust-lang/api-guidelines
#   and rust-lang/rfcs (after its generate-book.py made src/; mostly failing
#   blocks: those a merged build cannot tell, 2015 blocks with paths that
#   never merge, crate attributes and `$crate` still compile alone once,
#   530 compiler starts for 3,718 failing blocks: see the guide's
#   performance page); COMPANION=PATH runs another build of
#   mdbook-companion (an earlier commit's) instead; round 7's sweep: rust-lang/async-book (a TCP server block
#   never ends under `mdbook test`), rust-lang/edition-guide (2015),
#   rust-unofficial/patterns (--strip-preprocessors),
#   rust-unofficial/too-many-lists, Veykril/tlborm and rustwasm/book
#   (their book.toml fixed for mdBook 0.5 first: no `[book] edition`,
#   `multilingual` or `author`), rust-cli/book, rust-lang/rust-clippy's
#   book/, google/comprehensive-rust (14 parts, --strip-preprocessors),
#   rust-lang/rustc-dev-guide (the 155 of its 241 chapters our copy had,
#   --strip-preprocessors), cognitive-engineering-lab/rust-book (chapters 4-8,
#   --strip-preprocessors, RUSTUP_TOOLCHAIN=stable: its rust-toolchain
#   names 1.85), and benches/rustdoc-corners (198 blocks of rustdoc's
#   corner cases: info strings, hidden lines, `fn main`, crate attributes,
#   `extern crate`; as it is, 2015, and with `[rust] edition = "2018"`);
#   round 9: nnethercote/perf-book, rust-fuzz/book, rust-lang/cargo's
#   doc/book (109 of its 115 tested blocks fail) and doc/contrib,
#   rust-lang/rustup's doc/user-guide and doc/dev-guide.
set -euo pipefail
book=$(cd "${1:?usage: benches/anybook.sh BOOK_DIR [--strip-preprocessors]}" && pwd)
strip=${2:-}
source "$(dirname "$0")/common.sh"

copy=$work/book
mkdir -p "$copy"
(cd "$book" && tar --exclude=./book --exclude=./.companion-cache --exclude=./companion.lock -cf - .) | tar -xf - -C "$copy"
if [ "$strip" = --strip-preprocessors ]; then
  python3 "$root/benches/strip-preprocessors.py" "$copy/book.toml"
fi

# rustdoc, recorded.
shim=$work/shim
mkdir -p "$shim"
real_rustdoc=$(command -v rustdoc)
cat > "$shim/rustdoc" <<SH
#!/bin/sh
out=\$(mktemp)
"$real_rustdoc" "\$@" > "\$out"
rc=\$?
cat "\$out" >> "$work/rustdoc.log"
cat "\$out"
rm -f "\$out"
exit \$rc
SH
chmod +x "$shim/rustdoc"
: > "$work/rustdoc.log"

# mdBook runs rustdoc in a scratch directory, where rustup does not see
# the book's rust-toolchain(.toml): it would test with the default
# toolchain, not the one the book (and its CI, which makes it the
# default) selects, and `check` uses. The book's toolchain is named here,
# as its CI would.
toolchain=""
for f in "$copy/rust-toolchain.toml" "$copy/rust-toolchain"; do
  [ -f "$f" ] || continue
  toolchain=$(sed -n 's/^ *channel *= *"\(.*\)".*/\1/p' "$f" | head -1)
  [ -n "$toolchain" ] || toolchain=$(head -1 "$f" | tr -d '[:space:]')
  break
done
if [ -n "$toolchain" ]; then
  echo "mdbook test runs rustdoc with the book's toolchain: $toolchain"
fi
t0=$(now)
# LIBRARY=DIR: a book's support crates, built by its CI (the Rust book's
# packages/trpl/target/debug/deps), given to both as `-L DIR`.
lib=()
[ -n "${LIBRARY:-}" ] && lib=(-L "$(cd "$LIBRARY" && pwd)")
(cd "$copy" && PATH=$shim:$PATH RUSTUP_TOOLCHAIN=${toolchain:-${RUSTUP_TOOLCHAIN:-}} mdbook test "${lib[@]}" > "$work/mdbook-test.out" 2>&1) || true
t1=$(now)
rm -rf "$copy/.companion-cache" "$copy/companion.lock"
t2=$(now)
# The cold check's CPU time (user and system, every process it started).
TIMEFORMAT='%U %S'
{ time "$bin" check "$copy" "${lib[@]}" --format json > "$work/cold.json" 2> "$work/cold.err" || true; } 2> "$work/cold.cpu"
t3=$(now)
# A check that wrote no report (a book.toml mdBook 0.5 refuses, a missing
# tool) stops here, with what it said.
if [ ! -s "$work/cold.json" ]; then
  echo "anybook: check wrote no report for $book:" >&2
  cat "$work/cold.err" >&2
  exit 2
fi
"$bin" check "$copy" "${lib[@]}" --format json > "$work/warm.json" || true
t4=$(now)
if [ "${NO_MERGE:-0}" = 1 ]; then
  rm -rf "$copy/.companion-cache"
  "$bin" check "$copy" "${lib[@]}" --format json --no-merge > "$work/nomerge.json" || true
else
  cp "$work/cold.json" "$work/nomerge.json"
fi

# ROUNDS=N: N-1 more rounds of `mdbook test` and a cold check, one after
# the other, for their times only (a shared machine's noise moves one
# round's ratio by a third); the target is then held to the median ratio.
echo "$(secs "$t0" "$t1") $(secs "$t2" "$t3")" > "$work/rounds"
for _ in $(seq 2 "${ROUNDS:-1}"); do
  r0=$(now)
  (cd "$copy" && PATH=$shim:$PATH RUSTUP_TOOLCHAIN=${toolchain:-${RUSTUP_TOOLCHAIN:-}} mdbook test "${lib[@]}" > /dev/null 2>&1) || true
  r1=$(now)
  rm -rf "$copy/.companion-cache" "$copy/companion.lock"
  r2=$(now)
  "$bin" check "$copy" "${lib[@]}" --format json > /dev/null 2>&1 || true
  r3=$(now)
  echo "$(secs "$r0" "$r1") $(secs "$r2" "$r3")" >> "$work/rounds"
done

python3 - "$work" "$(secs "$t0" "$t1")" "$(secs "$t2" "$t3")" "$(secs "$t3" "$t4")" "$(basename "$book")" <<'PY'
import json, re, statistics, sys
work, test_s, cold_s, warm_s, name = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
line_re = re.compile(r"^test (\S+) - .*\(line (\d+)\)(?: - (?:compile fail|compile|should panic))? \.\.\. (ok|FAILED|ignored)$")
rustdoc = {}
for line in open(f"{work}/rustdoc.log", errors="replace"):
    m = line_re.match(line.rstrip("\n"))
    if m:
        rustdoc[(m.group(1), int(m.group(2)))] = m.group(3)
cold = json.load(open(f"{work}/cold.json"))
warm = json.load(open(f"{work}/warm.json"))
nomerge = json.load(open(f"{work}/nomerge.json"))
word = {"passed": "ok", "failed": "FAILED", "ignored": "ignored", "unchecked": "FAILED"}
def key(r):
    path = r["file"].split("/", 1)[1] if "/" in r["file"] else r["file"]
    if path.endswith("README.md") and (path[:-9] + "index.md", r["test_line"]) in rustdoc:
        path = path[:-9] + "index.md"
    return (path, r["test_line"])
ours = {key(r): r for r in cold["results"] if "test_line" in r}
same = differ = codes = 0
lines = []
for k, verdict in sorted(rustdoc.items()):
    r = ours.get(k)
    if r is None:
        differ += 1
        lines.append(f"  only mdbook test: {k[0]}:{k[1]} {verdict}")
        continue
    mine = word[r["status"]]
    if mine == verdict:
        same += 1
    elif verdict == "ok" and mine == "FAILED" and "only on nightly" in r.get("message", ""):
        codes += 1
        lines.append(f"  error code (intended): {r['file']}:{r['line']}: {r['message']}")
    else:
        differ += 1
        lines.append(f"  differs: {r['file']}:{r['line']} (test line {k[1]}): mdbook test {verdict}, check {mine}: {r.get('message', '')[:160]}")
for k, r in sorted(ours.items()):
    if k not in rustdoc:
        differ += 1
        lines.append(f"  only check: {r['file']}:{r['line']} (test line {k[1]}) {r['status']}")
merge_differs = [
    (a["file"], a["line"], a["status"], b["status"])
    for a, b in zip(cold["results"], nomerge["results"])
    if a["status"] != b["status"]
]
if len(cold["results"]) != len(nomerge["results"]):
    merge_differs.append(("count", len(cold["results"]), len(nomerge["results"]), ""))
counts = {v: sum(1 for x in rustdoc.values() if x == v) for v in ("ok", "FAILED", "ignored")}
cf = sum(1 for r in cold["results"] if r.get("expect") == "compile-fail" and r["status"] != "ignored")
print(f"book: {name}")
print(f"  mdbook test: {len(rustdoc)} blocks ({counts['ok']} ok, {counts['FAILED']} failed, {counts['ignored']} ignored), compile_fail checked: {cf}")
print(f"  same verdict: {same}, differ: {differ}, error-code difference (intended): {codes}")
for l in lines:
    print(l)
print(f"  merged vs --no-merge verdicts differing: {len(merge_differs)}" + ("" if nomerge is not cold else ""))
for d in merge_differs:
    print(f"    {d}")
ratio = cold_s / test_s if test_s else 0
print(f"  time: mdbook test {test_s:.2f} s; check cold {cold_s:.2f} s ({ratio:.3f}x, {cold['compiler_runs']} compiler runs); warm {warm_s:.2f} s ({warm['compiler_runs']} compiler runs)")
rounds = [tuple(float(x) for x in l.split()) for l in open(f"{work}/rounds") if l.strip()]
if len(rounds) > 1:
    ratios = [c / t for t, c in rounds if t]
    for i, (t, c) in enumerate(rounds, 1):
        print(f"  round {i}: mdbook test {t:.2f} s; check cold {c:.2f} s ({c / t:.3f}x)")
    ratio = statistics.median(ratios)
    print(f"  median of {len(ratios)} rounds: {ratio:.3f}x")
user, system = (float(x) for x in open(f"{work}/cold.cpu").read().split()[-2:])
print(f"  cold check: CPU {user + system:.2f} s (user {user:.2f}, system {system:.2f}); {cold['program_runs']} program runs, at most {cold.get('programs_at_once', '?')} at once, {cold.get('runs_again_alone', '?')} run again alone")
# A big book whose blocks mostly fail (issue 60: a failing block may need
# a compile of its own for its exact report) is held to 0.40x.
mostly_failing = counts["FAILED"] * 2 > len(rustdoc)
limit = 0.30 if len(rustdoc) < 200 else 0.40 if mostly_failing else 0.15
ok = differ == 0 and not merge_differs and warm["compiler_runs"] == 0 and warm_s <= 1.0 and ratio <= limit
print(f"  cold target: <= {limit}x")
print("  targets: " + ("met" if ok else "MISSED"))
sys.exit(0 if ok else 1)
PY
