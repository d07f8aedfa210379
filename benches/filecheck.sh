#!/usr/bin/env bash
# FileCheck at the size of real listings and beyond: `check` of a book
# whose one C side compiles to a listing of N stores (default 20,000) and
# whose ```asm block holds N `CHECK:` lines that match it, against, in the
# same run, the baseline: the same book and listing with a block of one
# `CHECK:` line (the same compile, one directive).
#
#   benches/filecheck.sh                 # N=20000 ROUNDS=3, release build
#   N=5000 PROFILE=profiling benches/filecheck.sh
#   BIN=path/to/mdbook-companion benches/filecheck.sh   # another binary
#                                                       # (an older commit's)
#
# Each round, for each book: `check` cold (the cache removed: listing
# compiled, claims matched) and `check` warm (cache kept). Prints medians,
# the cost of the N directives (N lines minus one line) cold and warm,
# and the ratios N lines / one line. Exits non-zero when the N-line claim
# does not pass, or when the directives cost more than 0.5 s cold or 0.1 s
# warm.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
profile=${PROFILE:-release}
n=${N:-20000}
rounds=${ROUNDS:-3}
bin=${BIN:-}
if [ -z "$bin" ]; then
  cargo build --quiet --profile "$profile" --bin mdbook-companion
  bin=$root/target/$profile/mdbook-companion
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# book DIR CHECKS: a book whose C side stores 1..N through a volatile
# pointer (one `mov` a line at -O2) and whose claims are the first CHECKS.
book() {
  mkdir -p "$1/src"
  printf '[book]\ntitle = "FileCheck"\n\n[preprocessor.companion]\n' > "$1/book.toml"
  printf '# Summary\n\n- [Stores](stores.md)\n' > "$1/src/SUMMARY.md"
  python3 - "$n" "$2" > "$1/src/stores.md" <<'EOF'
import sys
n, checks = int(sys.argv[1]), int(sys.argv[2])
print("# Stores\n\n````compare\n```c caption=\"C\"")
print("void fill(volatile int *p) {")
for i in range(1, n + 1):
    print(f"    p[{i}] = {i};")
print("}\n```\n```asm\nCHECK-LABEL: fill:")
for i in range(1, checks + 1):
    print(f"CHECK: mov DWORD PTR {4 * i}[rdi], {i}")
print("CHECK: ret\n```\n```rust caption=\"Rust\"\npub fn f() {}\n```\n````")
EOF
}
book "$work/many" "$n"
book "$work/one" 1

check() { # book -> seconds; fails when the claims do not pass
  local t0 t1
  t0=$(now)
  if ! "$bin" check "$1" > "$work/out" 2>&1; then
    cat "$work/out" >&2
    echo "check $1 failed" >&2
    exit 1
  fi
  t1=$(now)
  secs "$t0" "$t1"
}

declare -A times
for _ in $(seq 1 "$rounds"); do
  for which in many one; do
    rm -rf "$work/$which/.companion-cache" "$work/$which/companion.lock"
    times[cold-$which]+="$(check "$work/$which") "
    times[warm-$which]+="$(check "$work/$which") "
  done
done

printf '| check, %s stores | one CHECK (s) | %s CHECKs (s) | the CHECKs cost (s) | ratio |\n|---|---:|---:|---:|---:|\n' "$n" "$n"
fail=0
for kind in cold warm; do
  one=$(echo "${times[$kind-one]}" | median)
  many=$(echo "${times[$kind-many]}" | median)
  cost=$(awk -v a="$many" -v b="$one" 'BEGIN { printf "%.3f", a - b }')
  ratio=$(awk -v a="$many" -v b="$one" 'BEGIN { printf "%.2f", a / b }')
  printf '| %s | %s | %s | %s | %s |\n' "$kind" "$one" "$many" "$cost" "$ratio"
  limit=0.5
  [ "$kind" = warm ] && limit=0.1
  if awk -v c="$cost" -v l="$limit" 'BEGIN { exit !(c > l) }'; then
    echo "the $n CHECK lines cost ${cost} s $kind (target: under $limit s)" >&2
    fail=1
  fi
done
exit "$fail"
