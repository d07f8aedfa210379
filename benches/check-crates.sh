#!/usr/bin/env bash
# Benchmark of cold `check` on a book of 50 examples that all use two
# crates: `mylib`, a path crate, and `rand`, a second path crate standing
# in for a registry crate (no network) — the crates of `tests/crates-book`.
# Against the baseline mdBook offers: `mdbook test -L DIR` with the
# libraries prebuilt (the build of DIR is not timed), in the same run.
#
# What must hold: cold `check` does one dependency build (`cargo build`)
# and compiles the 50 examples (merged builds may make that fewer rustc
# starts); a warm `check` starts no tool at all; every example passes in
# both runs.
#
#   benches/check-crates.sh          # release build of mdbook-companion
#   RUNS=3 benches/check-crates.sh   # repeat the measurement
set -euo pipefail
source "$(dirname "$0")/common.sh"
runs=${RUNS:-1}
book=$work/crates50
mkdir -p "$book/src"
cp -r "$root/tests/crates-book/crates" "$book/crates"
cat > "$book/book.toml" <<'TOML'
[book]
title = "Fifty examples with crates"

[preprocessor.companion]
after = ["links"]

[preprocessor.companion.dependencies]
mylib = { path = "crates/mylib" }
rand = { path = "crates/rand", features = ["small"] }
TOML
printf '# Summary\n\n' > "$book/src/SUMMARY.md"
n=0
for c in $(seq 1 5); do
  echo "- [Chapter $c](ch$c.md)" >> "$book/src/SUMMARY.md"
  f=$book/src/ch$c.md
  echo "# Chapter $c" > "$f"
  for i in $(seq 1 10); do
    n=$((n + 1))
    printf '\n```rust example title="crates %s"\nuse rand::Rng;\nlet p = mylib::Point { x: mylib::double(%s), y: rand::thread_rng().gen_range(0, %s) as i32 };\nprintln!("{:?}", p);\n```\n\n```output\nPoint { x: %s, y: %s }\n```\n' \
      "$n" "$n" "$((2 * n))" "$((2 * n))" "$n" >> "$f"
  done
done

field() { sed -n "s/^  \"$1\": \\([0-9]*\\),\$/\\1/p" "$work/out.json"; }
check() {
  "$bin" check "$book" --format json "$@" > "$work/out.json" || { cat "$work/out.json"; exit 1; }
}

status=0
printf '%-4s %8s %7s %6s %7s %7s %14s %10s %s\n' run examples cold_s builds starts warm_s mdbook_test_s ratio verdict
for r in $(seq 1 "$runs"); do
  rm -rf "$book/.companion-cache" "$book/companion.Cargo.lock"
  t0=$(now); check; t1=$(now)
  passed=$(field passed); builds=$(field dependency_builds); starts=$(field compiler_runs)
  check; t2=$(now)
  warm_builds=$(field dependency_builds); warm_starts=$(field compiler_runs)
  lib=$book/.companion-cache/crates/lib-debug
  (cd "$book" && mdbook test -L "$lib" >/dev/null 2>"$work/mdbook-test.log") \
    || { echo "mdbook test -L failed:"; tail -30 "$work/mdbook-test.log"; exit 1; }
  t3=$(now)
  cold_s=$(secs "$t0" "$t1"); warm_s=$(secs "$t1" "$t2"); test_s=$(secs "$t2" "$t3")
  ratio=$(awk -v c="$cold_s" -v t="$test_s" 'BEGIN { printf "%.2fx", c / t }')
  verdict=ok
  if [ "$passed" != 50 ]; then
    verdict="MISSED: $passed of 50 passed"; status=1
  elif [ "$builds" != 1 ]; then
    verdict="MISSED: $builds dependency builds, expected 1"; status=1
  elif [ "$starts" -gt 50 ]; then
    verdict="MISSED: $starts rustc starts for 50 examples"; status=1
  elif [ "$warm_builds" != 0 ] || [ "$warm_starts" != 0 ]; then
    verdict="MISSED: warm check started $warm_builds builds, $warm_starts compiles"; status=1
  fi
  printf '%-4s %8s %7s %6s %7s %7s %14s %10s %s\n' "$r" "$passed" "$cold_s" "$builds" "$starts" "$warm_s" "$test_s" "$ratio" "$verdict"
done
echo "ratio = cold check / mdbook test -L (libraries prebuilt); cold includes the dependency build"
echo "cores: $(nproc); load: $(cut -d' ' -f1-3 /proc/loadavg); $(rustc --version); $(mdbook --version)"
exit $status
