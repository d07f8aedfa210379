#!/usr/bin/env bash
# Benchmark of what a compiler start costs us (issue 60): a book of
# BLOCKS (default 1,000) failing one-line plain blocks, each compiled
# alone (`check --no-merge -j 1`: one compiler start per block, one at a
# time), against the same rustc commands started directly by a shell
# loop, in one run; and the same check with `isolation = "off"` (no box
# around the compiler). Prints wall and CPU time (user + system of
# everything started) of each, and our share of a start: what `check`
# adds per compile (spawner, scratch directory, supervisor, box, the
# book's loading and the report) over rustc's own, as a fraction of the
# whole start. Goal: under 5 %.
#
#   benches/starts.sh               # release build, 1,000 blocks
#   BLOCKS=200 benches/starts.sh    # a smaller book
#   BEFORE=PATH benches/starts.sh   # also another build (an earlier
#                                   # commit's), in the same run
#   ROUNDS=N benches/starts.sh      # N rounds, each the loop then the
#                                   # checks, and the medians of our
#                                   # shares (the machine's speed drifts
#                                   # between the runs of one round by
#                                   # as much as the share itself)
#
# With `perf` on PATH (and allowed to sample the whole machine), each
# round also runs the boxed check under `perf record -a` and counts our
# share within that one run, where no drift can enter: the samples of
# our processes (the checker, and the spawner, supervisors and boxes,
# named `exe`: the spawner is started as `/proc/self/exe`) against those
# of the compilers (every sample of a process once it is `rustc`, its
# threads included). A compiler's process before its exec is ours.
set -euo pipefail
cd "$(dirname "$0")/.."
blocks=${BLOCKS:-1000}
rounds=${ROUNDS:-1}
cargo build --quiet --release --bin mdbook-companion
bin=$PWD/target/release/mdbook-companion
before=${BEFORE:-}
# The compiler itself, not rustup's proxy (check starts the toolchain's
# rustc directly too).
rustc=${RUSTC:-$(rustc --print sysroot)/bin/rustc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
make_book() { # DIR ISOLATION
  mkdir -p "$1/src"
  printf '[book]\ntitle = "Starts"\n\n[rust]\nedition = "2021"\n\n[preprocessor.companion]\nisolation = "%s"\n' "$2" > "$1/book.toml"
  printf '# Summary\n\n- [Failing](failing.md)\n' > "$1/src/SUMMARY.md"
  {
    echo "# Failing"
    for i in $(seq 1 "$blocks"); do
      printf '\n```rust\nlet x: u32 = "%s";\n```\n' "$i"
    done
  } > "$1/src/failing.md"
}
make_book "$work/boxed" auto
make_book "$work/off" off
# The programs rustc compiles for them, as check writes them (a plain
# block's body in `fn main`), each in a directory of its own.
for i in $(seq 1 "$blocks"); do
  mkdir -p "$work/direct/$i"
  printf 'fn main() {\nlet x: u32 = "%s";\n}\n' "$i" > "$work/direct/$i/main.rs"
done
# "wall cpu" in seconds of a command and everything it started.
timed() {
  /usr/bin/time -f "%e %U %S" "$@" >/dev/null 2>"$work/time" || true
  tail -1 "$work/time" | awk '{ printf "%.2f %.2f\n", $1, $2 + $3 }'
}
direct() {
  for i in $(seq 1 "$blocks"); do
    (cd "$work/direct/$i" && "$rustc" --edition 2021 --crate-type bin --crate-name main \
      -C opt-level=0 -C debug-assertions=on -C overflow-checks=on -C debuginfo=0 \
      --color never -o main main.rs 2>/dev/null) || true
  done
}
export -f direct
export work blocks rustc
checked() { # BOOK [BINARY]: "wall cpu starts"
  rm -rf "$1/.companion-cache"
  /usr/bin/time -f "%e %U %S" "${2:-$bin}" check "$1" --no-merge -j 1 --format json >"$work/report" 2>"$work/time" || true
  starts=$(grep -o '"compiler_runs": [0-9]*' "$work/report" | grep -o '[0-9]*$' || echo '?')
  tail -1 "$work/time" | awk -v s="$starts" '{ printf "%.2f %.2f %s\n", $1, $2 + $3, s }'
}
report() { # DIRECT BOXED OFF
awk -v d="$1" -v b="$2" -v o="$3" -v n="$blocks" 'BEGIN {
  split(d, D, " "); split(b, B, " "); split(o, O, " ")
  printf "per start: rustc %.1f ms wall %.1f ms CPU; check %.1f ms wall %.1f ms CPU\n", D[1] * 1000 / n, D[2] * 1000 / n, B[1] * 1000 / n, B[2] * 1000 / n
  printf "ours per start (boxed):  %.1f ms wall (%.1f %%), %.1f ms CPU (%.1f %%)\n", (B[1] - D[1]) * 1000 / n, (B[1] - D[1]) * 100 / B[1], (B[2] - D[2]) * 1000 / n, (B[2] - D[2]) * 100 / B[2]
  printf "ours per start (no box): %.1f ms wall (%.1f %%), %.1f ms CPU (%.1f %%)\n", (O[1] - D[1]) * 1000 / n, (O[1] - D[1]) * 100 / O[1], (O[2] - D[2]) * 1000 / n, (O[2] - D[2]) * 100 / O[2]
  printf "the box per start: %.1f ms wall, %.1f ms CPU\n", (B[1] - O[1]) * 1000 / n, (B[2] - O[2]) * 1000 / n
}'
}
# Our share of a boxed check's samples, in %, and ours per start in ms
# ("share ms"; empty without perf).
sampled() { # BOOK [BINARY]
  command -v perf >/dev/null || return 0
  local b=${2:-$bin}
  rm -rf "$1/.companion-cache"
  # (`-a`: sampled as the check's tree only, rustc came to 39 ms of
  # samples a start against the 47-50 ms of CPU `time` gives it, so that
  # mode loses samples; with `-a` the two agree. Nothing else may run
  # `rustc` or our binary on the machine meanwhile: it would count.)
  perf record -q -a -F 1000 -o "$work/perf.data" -- "$b" check "$1" --no-merge -j 1 >/dev/null 2>&1 || true
  perf script -i "$work/perf.data" -F comm,pid 2>/dev/null |
    awk -v me="$(basename "$b" | cut -c1-15)" -v n="$blocks" '
      { comm[NR] = $1; pid[NR] = $2; if ($1 == "rustc") compiler[$2] = 1 }
      END {
        for (i = 1; i <= NR; i++) {
          if (comm[i] == me || comm[i] == "exe") ours++
          else if (pid[i] in compiler) theirs++
        }
        if (ours + theirs > 0) printf "%.2f %.2f\n", ours * 100 / (ours + theirs), ours / n
      }'
}
# `sampled`, printed after LABEL and kept in FILE for the medians.
sampled_into() { # FILE LABEL BOOK [BINARY]
  local p
  p=$(sampled "$3" "${4:-$bin}")
  [ -n "$p" ] || return 0
  echo "$2: ours $(echo "$p" | cut -d' ' -f1) % of the samples, $(echo "$p" | cut -d' ' -f2) ms a start"
  echo "$p" >> "$1"
}
# Our CPU share of a start, boxed and not ("boxed off", in %).
shares() { # DIRECT BOXED OFF
  awk -v d="$1" -v b="$2" -v o="$3" 'BEGIN {
    split(d, D, " "); split(b, B, " "); split(o, O, " ")
    printf "%.2f %.2f\n", (B[2] - D[2]) * 100 / B[2], (O[2] - D[2]) * 100 / O[2]
  }'
}
: > "$work/shares"; : > "$work/shares-before"; : > "$work/sampled"; : > "$work/sampled-before"
for r in $(seq 1 "$rounds"); do
  d=$(timed bash -c direct)
  b=$(checked "$work/boxed")
  o=$(checked "$work/off")
  [ "$rounds" -gt 1 ] && echo "round $r:"
  echo "rustc by a shell loop: $d   (wall cpu, s; $blocks starts)"
  echo "check, compiler boxed: $b   (wall cpu, s; compiler starts)"
  echo "check, isolation off:  $o"
  report "$d" "$b" "$o"
  shares "$d" "$b" "$o" >> "$work/shares"
  sampled_into "$work/sampled" "sampled, compiler boxed" "$work/boxed"
  if [ -n "$before" ]; then
    bb=$(checked "$work/boxed" "$before")
    bo=$(checked "$work/off" "$before")
    echo "before ($before), boxed: $bb; isolation off: $bo"
    report "$d" "$bb" "$bo"
    shares "$d" "$bb" "$bo" >> "$work/shares-before"
    sampled_into "$work/sampled-before" "before, sampled" "$work/boxed" "$before"
  fi
done
median() { sort -n -k"$2" "$1" | awk -v k="$2" '{ v[NR] = $k } END { print v[int((NR + 1) / 2)] }'; }
if [ "$rounds" -gt 1 ]; then
  echo "median of $rounds rounds, ours per start (CPU): boxed $(median "$work/shares" 1) %, no box $(median "$work/shares" 2) % (goal: under 5 %)"
  if [ -s "$work/sampled" ]; then
    echo "median of $rounds rounds, sampled within the boxed check: ours $(median "$work/sampled" 1) % ($(median "$work/sampled" 2) ms a start)"
  fi
  if [ -n "$before" ]; then
    echo "before: boxed $(median "$work/shares-before" 1) %, no box $(median "$work/shares-before" 2) %"
    if [ -s "$work/sampled-before" ]; then
      echo "before, sampled: ours $(median "$work/sampled-before" 1) % ($(median "$work/sampled-before" 2) ms a start)"
    fi
  fi
fi
