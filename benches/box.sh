#!/usr/bin/env bash
# Benchmark of the box every program runs in (issue 57): cold `check` of a
# book of 200 small examples (each a program run: merged builds, so the
# runs dominate), with boxes (the default) against `isolation = "off"`
# (programs run as before boxes), alternately, in one run. Prints each
# run's wall and CPU time, the medians, the ratio boxed / off and the box's
# cost per program run.
#
#   benches/box.sh            # release build of mdbook-companion
#   RUNS=5 benches/box.sh     # more runs of each
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
cargo build --quiet --release --bin mdbook-companion
bin=$PWD/target/release/mdbook-companion
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
make_book() { # DIR ISOLATION
  mkdir -p "$1/src"
  printf '[book]\ntitle = "Boxes"\n\n[preprocessor.companion]\nisolation = "%s"\n' "$2" > "$1/book.toml"
  printf '# Summary\n\n' > "$1/src/SUMMARY.md"
  for c in $(seq 1 4); do
    echo "- [Chapter $c](ch$c.md)" >> "$1/src/SUMMARY.md"
    f=$1/src/ch$c.md
    echo "# Chapter $c" > "$f"
    for i in $(seq 1 50); do
      n=$((c * 100 + i))
      printf '\n```rust example\nprintln!("{}", %s * 2);\n```\n\n```output\n%s\n```\n' "$n" "$((n * 2))" >> "$f"
    done
  done
}
make_book "$work/boxed" auto
make_book "$work/off" off
# One cold check: "wall cpu" in seconds (CPU: user + system of the check
# and everything it started).
cold() {
  rm -rf "$1/.companion-cache"
  /usr/bin/time -f "%e %U %S" "$bin" check "$1" >/dev/null 2>"$work/time" || {
    echo "check $1 failed" >&2; cat "$work/time" >&2; exit 1; }
  tail -1 "$work/time" | awk '{ printf "%.2f %.2f\n", $1, $2 + $3 }'
}
: > "$work/boxed.txt"; : > "$work/off.txt"
for r in $(seq 1 "$runs"); do
  b=$(cold "$work/boxed"); o=$(cold "$work/off")
  echo "run $r: boxed $b   off $o   (wall cpu, s)"
  echo "$b" >> "$work/boxed.txt"; echo "$o" >> "$work/off.txt"
done
median() { sort -n -k"$2" "$1" | awk -v k="$2" '{ v[NR] = $k } END { print v[int((NR + 1) / 2)] }'; }
bw=$(median "$work/boxed.txt" 1); bc=$(median "$work/boxed.txt" 2)
ow=$(median "$work/off.txt" 1); oc=$(median "$work/off.txt" 2)
awk -v bw="$bw" -v bc="$bc" -v ow="$ow" -v oc="$oc" 'BEGIN {
  printf "median wall: boxed %.2f s, off %.2f s: ratio %.3fx\n", bw, ow, bw / ow
  printf "median CPU:  boxed %.2f s, off %.2f s: ratio %.3fx\n", bc, oc, bc / oc
  printf "per program run (200): %.2f ms wall, %.2f ms CPU\n", (bw - ow) * 5, (bc - oc) * 5
}'
