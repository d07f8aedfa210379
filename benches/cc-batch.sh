#!/usr/bin/env bash
# Does batching pay for C sides? 40 small C programs, each compiled and
# linked as `check` does today (`cc -Wall -O0 -o main main.c`, two at a
# time on two cores), against one `cc -c` of all 40 files followed by 40
# links (the only batching C allows: each program has its own `main`).
#
#   benches/cc-batch.sh
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=40
for i in $(seq 1 $n); do
  mkdir -p "$work/alone/$i"
  printf '#include <stdio.h>\nint f%s(int x) { return x * %s; }\nint main(void) { printf("%%d\\n", f%s(2)); return 0; }\n' \
    "$i" "$i" "$i" | tee "$work/alone/$i/main.c" > "$work/p$i.c"
done
now() { date +%s.%N; }
t0=$(now)
seq 1 $n | xargs -P 2 -I{} sh -c "cd '$work/alone/{}' && cc -Wall -O0 -o main main.c"
t1=$(now)
(cd "$work" && cc -Wall -O0 -c p*.c)
seq 1 $n | xargs -P 2 -I{} cc -o "$work/p{}" "$work/p{}.o"
t2=$(now)
awk -v a="$t0" -v b="$t1" -v c="$t2" -v n="$n" 'BEGIN {
  printf "C programs: %d; alone, 2 at a time: %.2f s; one cc -c for all + %d links: %.2f s (%.2fx)\n", n, b - a, n, c - b, (c - b) / (b - a) }'
