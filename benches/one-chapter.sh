#!/usr/bin/env bash
# Benchmark: one chapter of many blocks, against the same chapter with a
# tenth of them, in the same run. Each block is a `rust example ignore`
# (placed, given a `--bless` target and a lock entry, never compiled), so
# the times are the book layer's alone: a step that walks the chapter
# for every block makes the big book cost a hundred times the small one,
# a linear one ten times. For each size: `check` on a fresh copy (no
# cache, no lock: it writes the lock), `check --locked` against that
# lock, and `mdbook-companion build` (mdBook as a library). Prints, per
# step, the wall and CPU (user + system) times of each size, the medians
# of ROUNDS runs, and the big-to-small ratios.
#
#   benches/one-chapter.sh                         # release build of this tree, 10k and 100k
#   SMALL=2000 BIG=20000 ROUNDS=3 benches/one-chapter.sh
#   BIN=/path/to/mdbook-companion benches/one-chapter.sh  # another build
set -euo pipefail
cd "$(dirname "$0")/.."
small=${SMALL:-10000}
big=${BIG:-100000}
rounds=${ROUNDS:-1}
if [ -z "${BIN:-}" ]; then
  cargo build --quiet --release --bin mdbook-companion
  BIN=$PWD/target/release/mdbook-companion
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$BIN" "$work" "$small" "$big" "$rounds" <<'EOF'
import os, shutil, statistics, subprocess, sys, time
bin_, work, small, big, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])

def template(n):
    root = os.path.join(work, f"template{n}")
    os.makedirs(os.path.join(root, "src"))
    with open(os.path.join(root, "book.toml"), "w") as f:
        f.write('[book]\ntitle = "One chapter"\n\n[preprocessor.companion]\nafter = ["links"]\n')
    with open(os.path.join(root, "src/SUMMARY.md"), "w") as f:
        f.write("# Summary\n\n- [One](one.md)\n")
    with open(os.path.join(root, "src/one.md"), "w") as f:
        f.write("# One\n")
        for i in range(n):
            f.write(f"\n```rust example ignore\nfn main() {{ println!(\"{i}\"); }}\n```\n")
    return root

def timed(args, expect=0):
    """Wall and CPU (user + system) seconds of one run of the binary."""
    start = time.perf_counter()
    child = subprocess.Popen([bin_] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    assert code == expect, (args, code, err[-2000:])
    return wall, usage.ru_utime + usage.ru_stime

steps = ("check", "check --locked", "build")
results = {}
for n in (small, big):
    tpl = template(n)
    runs = {s: [] for s in steps}
    for r in range(rounds):
        book = os.path.join(work, f"book{n}-{r}")
        shutil.copytree(tpl, book)
        runs["check"].append(timed(["check", book]))
        runs["check --locked"].append(timed(["check", "--locked", book]))
        runs["build"].append(timed(["build", book]))
        shutil.rmtree(book)
    results[n] = {s: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
                  for s, v in runs.items()}

print(f"one chapter of n `rust example ignore` blocks, median of {rounds} run(s):")
print(f"{'step':<16} {'n':>7} {'wall s':>8} {'cpu s':>8}")
for s in steps:
    for n in (small, big):
        w, c = results[n][s]
        print(f"{s:<16} {n:>7} {w:>8.2f} {c:>8.2f}")
    (ws, cs), (wb, cb) = results[small][s], results[big][s]
    print(f"{s:<16} {'ratio':>7} {wb / ws:>8.1f} {cb / cs:>8.1f}   ({big // small}x the blocks)")
EOF
