#!/usr/bin/env bash
# Benchmark of `sanitize=` (issue 34), in one run, as ratios:
#
# 1. `check example-book`, cold (cache removed) and warm (cache kept), with
#    a baseline binary on the baseline's example book (BASE_BIN, BASE_REF;
#    default: main's), then this tree's binary on this tree's book. Warm
#    must stay under 1 s with no compiler start.
# 2. What each checker adds per side: a book of N distinct C sides (and N
#    Rust sides) checked cold with no checker, then under each checker;
#    (checked - plain) / N.
#
#   BASE_BIN=/path/to/main/mdbook-companion benches/sanitize.sh
#   NEW_BIN=target/release/mdbook-companion BASE_BIN=… benches/sanitize.sh
#   N=8 ROUNDS=3 benches/sanitize.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
n=${N:-6}
rounds=${ROUNDS:-3}
base_ref=${BASE_REF:-main}
# NEW_BIN: an already built binary of this tree (else a release build).
new=${NEW_BIN:-}
if [ -z "$new" ]; then
  cargo build --quiet --release --bin mdbook-companion
  new=$root/target/release/mdbook-companion
fi
base=${BASE_BIN:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# One timing of `check` on a book, cold (no cache) or warm: "wall cpu"
# seconds (cpu: user + system of check and every process it started, the
# figure a loaded machine disturbs least).
time_check() { # bin book cold|warm
  local bin=$1 book=$2 mode=$3
  [ "$mode" = cold ] && rm -rf "$book/.companion-cache"
  local TIMEFORMAT='%R %U %S'
  { time "$bin" check "$book" >"$work/out.txt" 2>&1; } 2>"$work/time.txt" || true
  awk '{ printf "%.3f %.3f", $1, $2 + $3 }' "$work/time.txt"
}

runs() { # bin book mode -> "wall cpu", each the median of $rounds
  for _ in $(seq "$rounds"); do time_check "$@"; echo; done >"$work/runs.txt"
  printf '%s %s' "$(cut -d' ' -f1 "$work/runs.txt" | median)" "$(cut -d' ' -f2 "$work/runs.txt" | median)"
}
wall() { echo "${1% *}"; }
cpu() { echo "${1#* }"; }

echo "== check example-book (median of $rounds)"
cp -r example-book "$work/after"
rm -rf "$work/after/.companion-cache" "$work/after/book"
if [ -n "$base" ]; then
  mkdir -p "$work/before"
  git archive "$base_ref" example-book | tar -x -C "$work/before"
  before_cold=$(runs "$base" "$work/before/example-book" cold)
  before_warm=$(runs "$base" "$work/before/example-book" warm)
fi
after_cold=$(runs "$new" "$work/after" cold)
after_warm=$(runs "$new" "$work/after" warm)
"$new" check "$work/after" --format json >"$work/warm.json" 2>/dev/null || true
warm_runs=$(grep -o '"compiler_runs": [0-9]*' "$work/warm.json" | grep -o '[0-9]*$')
printf '%-8s %10s %10s %10s %10s\n' "" "cold wall" "cold cpu" "warm wall" "warm cpu"
row() { printf '%-8s %9ss %9ss %9ss %9ss\n' "$1" "$(wall "$2")" "$(cpu "$2")" "$(wall "$3")" "$(cpu "$3")"; }
[ -n "$base" ] && row before "$before_cold" "$before_warm"
row after "$after_cold" "$after_warm"
echo "(warm compiler runs after: $warm_runs)"
if [ -n "$base" ]; then
  awk -v a="$(wall "$after_cold")" -v b="$(wall "$before_cold")" -v c="$(cpu "$after_cold")" -v d="$(cpu "$before_cold")" \
    -v e="$(wall "$after_warm")" -v f="$(wall "$before_warm")" \
    'BEGIN { printf "ratio    %9.2fx %9.2fx %9.2fx            (after / before)\n", a / b, c / d, e / f }'
fi
echo
echo "== what one checker adds per side ($n sides, median of $rounds cold checks)"
book_with() { # dir lang sanitize expect
  local dir=$1 lang=$2 sanitize=$3 expect=$4
  mkdir -p "$dir/src"
  printf '[book]\ntitle = "S"\n\n[preprocessor.companion]\n' >"$dir/book.toml"
  printf '# Summary\n\n- [S](s.md)\n' >"$dir/src/SUMMARY.md"
  {
    echo "# S"
    for i in $(seq "$n"); do
      echo
      echo '`````compare'
      if [ "$lang" = c ]; then
        echo "\`\`\`c expect=$expect $sanitize"
        echo '~ #include <stdio.h>'
        echo "int main(void) { int a[$i]; for (int k = 0; k < $i; k++) a[k] = k; printf(\"%d\\n\", a[$((i - 1))]); return 0; }"
      else
        echo "\`\`\`rust $sanitize"
        echo "fn main() { let v: Vec<u32> = (0..$i).collect(); println!(\"{}\", v[$((i - 1))]); }"
      fi
      echo '```'
      echo '```python'
      echo 'pass'
      echo '```'
      echo '`````'
    done
  } >"$dir/src/s.md"
}
printf '%-22s %10s %10s %14s %14s\n' checker "cold wall" "cold cpu" "wall per side" "cpu per side"
for lang in c rust; do
  book_with "$work/plain-$lang" "$lang" "" run
  plain=$(runs "$new" "$work/plain-$lang" cold)
  printf '%-22s %9ss %9ss %14s %14s\n' "$lang, none" "$(wall "$plain")" "$(cpu "$plain")" - -
  if [ "$lang" = c ]; then checkers="undefined address thread memcheck address,undefined"; else checkers="memcheck"; fi
  for s in $checkers; do
    book_with "$work/$lang-$s" "$lang" "sanitize=\"$s\"" run
    t=$(runs "$new" "$work/$lang-$s" cold)
    if ! grep -q ' 0 failed' "$work/out.txt"; then
      echo "a $s side failed:" >&2
      cat "$work/out.txt" >&2
      exit 1
    fi
    per() { awk -v a="$1" -v b="$2" -v n="$n" 'BEGIN { printf "%+.3f s", (a - b) / n }'; }
    printf '%-22s %9ss %9ss %14s %14s\n' "$lang, $s" "$(wall "$t")" "$(cpu "$t")" \
      "$(per "$(wall "$t")" "$(wall "$plain")")" "$(per "$(cpu "$t")" "$(cpu "$plain")")"
  done
done
w=$(wall "$after_warm")
awk -v w="$w" 'BEGIN { exit !(w < 1) }' || { echo "warm check is not under 1 s" >&2; exit 1; }
[ "$warm_runs" = 0 ] || { echo "warm check started a compiler" >&2; exit 1; }
