#!/usr/bin/env bash
# Benchmark of `mdbook-companion drift` against `check` on the example book.
#
# In each round, on a copy of example-book/ (its committed companion.lock
# made with the default toolchain): `check` cold (cache removed) and warm,
# then `drift --toolchain T` cold (cache removed again: neither toolchain's
# results cached) and warm. Prints each round and the ratio drift / check
# of the same round, then the medians.
#
#   benches/drift.sh                 # T = nightly, 5 rounds
#   TOOLCHAIN=beta ROUNDS=9 benches/drift.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
toolchain=${TOOLCHAIN:-nightly}
rounds=${ROUNDS:-5}

cargo build --quiet --release --bin mdbook-companion
bin=$root/target/release/mdbook-companion
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
book=$work/example-book
cp -r "$root/example-book" "$book"
rm -rf "$book/.companion-cache" "$book/book"
# The lock as this machine's default toolchain writes it.
"$bin" check "$book" >/dev/null

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

printf '%5s %10s %10s %10s %10s %11s %11s\n' round check_cold drift_cold check_warm drift_warm ratio_cold ratio_warm
: > "$work/rows"
for r in $(seq 1 "$rounds"); do
  rm -rf "$book/.companion-cache"
  t0=$(now); "$bin" check "$book" >/dev/null; t1=$(now)
  "$bin" check "$book" >/dev/null; t2=$(now)
  rm -rf "$book/.companion-cache"
  t3=$(now); "$bin" drift "$book" --toolchain "$toolchain" >"$work/drift.txt" || true; t4=$(now)
  "$bin" drift "$book" --toolchain "$toolchain" >/dev/null || true; t5=$(now)
  cc=$(secs "$t0" "$t1"); cw=$(secs "$t1" "$t2"); dc=$(secs "$t3" "$t4"); dw=$(secs "$t4" "$t5")
  rc=$(ratio "$dc" "$cc"); rw=$(ratio "$dw" "$cw")
  printf '%5s %10s %10s %10s %10s %11s %11s\n' "$r" "$cc" "$dc" "$cw" "$dw" "$rc" "$rw"
  echo "$cc $dc $cw $dw $rc $rw" >> "$work/rows"
done
col() { awk -v c="$1" '{ print $c }' "$work/rows" | median; }
printf '%5s %10s %10s %10s %10s %11s %11s\n' median "$(col 1)" "$(col 2)" "$(col 3)" "$(col 4)" "$(col 5)" "$(col 6)"
tail -n 1 "$work/drift.txt"
echo "cores: $(nproc); load: $(cut -d' ' -f1-3 /proc/loadavg); $(rustc --version); drift --toolchain $toolchain"
