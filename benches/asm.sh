#!/usr/bin/env bash
# What tied listings, assembly claims and control-flow graphs cost a
# build of the example book, against the binary before them, in one run.
#
#   benches/asm.sh [BASE_REV]     # default BASE_REV: the commit before
#                                 # the assembly work landed (dfae362)
#
# Both binaries are release builds (the base one in target/bench-base,
# built once from a git worktree). In turn, ROUNDS times each:
#   - warm: `mdbook-companion build` of a copy of example-book/ whose
#     chapter memo and caches are kept from a first build (the case of an
#     author's every rebuild);
#   - cold: the same copy with its `.companion-cache` and its
#     `companion.lock` moved away, so every listing is compiled again and
#     every graph laid out again (no claim is checked: `verify` is off, as
#     in the example book).
# The base binary builds the same pages minus what it cannot read: the
# copy it builds has `asm=graph` as `asm`, its ```asm blocks removed, and
# no `flags`, `warnings` or `asm-syntax` attributes.
#
# Prints medians and the ratios new / base; exits non-zero when the warm
# ratio is above 1.05 (the target: within 5%).
set -euo pipefail
source "$(dirname "$0")/common.sh"
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
base_rev=${1:-dfae362}
rounds=${ROUNDS:-5}

base_dir=$root/target/bench-base
if [ ! -x "$base_dir/$base_rev/mdbook-companion" ]; then
  git -C "$root" worktree add --detach "$work/base-src" "$base_rev" >/dev/null 2>&1
  (cd "$work/base-src" && CARGO_TARGET_DIR=$base_dir/target cargo build --quiet --release --bin mdbook-companion)
  mkdir -p "$base_dir/$base_rev"
  cp "$base_dir/target/release/mdbook-companion" "$base_dir/$base_rev/"
  git -C "$root" worktree remove --force "$work/base-src"
fi
base_bin=$base_dir/$base_rev/mdbook-companion

# The new binary's book, and the base binary's (what it can read).
cp -r "$root/example-book" "$work/new"
rm -rf "$work/new/book" "$work/new/.companion-cache"
cp -r "$work/new" "$work/base"
python3 - "$work/base/src" <<'EOF'
import pathlib, re, sys
for p in pathlib.Path(sys.argv[1]).glob("*.md"):
    s = p.read_text()
    s = re.sub(r"\n```asm[^\n]*\n.*?\n```\n", "\n", s, flags=re.S)
    s = s.replace("asm=graph", "asm")
    s = re.sub(r' (flags="[^"]*"|warnings=none|asm-syntax=\w+)', "", s)
    p.write_text(s)
EOF

build() { # binary book
  "$1" build "$2" >/dev/null 2>&1
}
# First builds make the caches (and the chapter memo) warm builds keep.
build "$bin" "$work/new"
build "$base_bin" "$work/base"

declare -A times
for i in $(seq 1 "$rounds"); do
  for which in new base; do
    b=$bin; [ "$which" = base ] && b=$base_bin
    t0=$(now); build "$b" "$work/$which"; t1=$(now)
    times[warm-$which]+="$(secs "$t0" "$t1") "
    rm -rf "$work/$which/.companion-cache"
    mv "$work/$which/companion.lock" "$work/$which.lock"
    t0=$(now); build "$b" "$work/$which"; t1=$(now)
    mv "$work/$which.lock" "$work/$which/companion.lock"
    times[cold-$which]+="$(secs "$t0" "$t1") "
  done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
printf '| build of example-book/ | base %s (s) | now (s) | now / base |\n|---|---:|---:|---:|\n' "$base_rev"
fail=0
for kind in warm cold; do
  nb=$(echo "${times[$kind-base]}" | median)
  nn=$(echo "${times[$kind-new]}" | median)
  ratio=$(awk -v a="$nn" -v b="$nb" 'BEGIN { printf "%.3f", a / b }')
  printf '| %s, median of %d | %s | %s | %sx |\n' "$kind" "$rounds" "$nb" "$nn" "$ratio"
  if [ "$kind" = warm ] && awk -v r="$ratio" 'BEGIN { exit !(r > 1.05) }'; then
    fail=1
  fi
done
graphs=$(grep -o 'class="companion-cfg"' "$work/new/book/"*.html | wc -l)
ties=$(grep -o 'class="companion-asm-tie"' "$work/new/book/"*.html | wc -l)
echo "pages: $ties tied listings, $graphs control-flow graphs"
if [ "$fail" = 1 ]; then
  echo "FAIL: a warm build takes more than 1.05x the base's" >&2
  exit 1
fi
