#!/usr/bin/env bash
# Benchmark: what installing mdbook-companion costs an author, against
# installing mdBook itself, in one run on the same machine.
#
# mdBook is installed as users get it from the registry: `cargo install
# mdbook --version 0.5.4 --locked`. Ours is a workspace of four crates
# (core, engine, directives and mdbook-companion) that the registry would
# hand out as four packages; until they are published, an install of the
# packaged root cannot find the other three, so ours is installed from the
# workspace as committed (`git archive HEAD`, the same sources the packages
# hold, with `--locked`, so the same Cargo.lock). `cargo package` still
# runs, to show what the four packages ship. Each install gets a fresh,
# empty CARGO_TARGET_DIR and its own install root; the shared registry
# cache (~/.cargo/registry) is warmed first for both (`cargo fetch`), so
# neither pays for downloads.
#
# Prints each install's wall time, CPU time and binary size, and the
# ratios: time ≤ 0.80× mdBook's and size ≤ 2.00× mdBook's are the limits
# (the CPU ratio is shown, not judged: it says what a loaded machine
# cannot).
# Exits non-zero when a limit is exceeded.
#
# FLOOR=1 also builds, the same way, a crate with no code of its own that
# depends on what ours shares with mdBook (mdbook-driver with search,
# mdbook-preprocessor, clap, regex, serde, serde_json, toml, tracing,
# pulldown-cmark, anyhow; our Cargo.lock's versions): what any
# preprocessor that loads and renders a book as mdBook does pays before
# its first line. It then builds, the same way, a crate with no code that
# depends on every crate ours depends on: the rest of ours is our own
# code.
#
#   benches/install.sh              # mdBook first, then ours
#   ORDER=ours-first benches/install.sh
#   FLOOR=1 benches/install.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# Our crates as the registry would hand them out.
cargo package --workspace --quiet --allow-dirty --no-verify --target-dir "$work/pkg-target" >/dev/null 2>&1
for crate in "$work"/pkg-target/package/mdbook-companion*.crate; do
  echo "packaged: $(basename "$crate"), $(du -h "$crate" | cut -f1), $(tar -tzf "$crate" | wc -l) files"
done
mkdir "$work/ours-src"
git archive HEAD | tar -x -C "$work/ours-src"

# Warm the registry cache for both, so the timed installs only build.
(cd "$work/ours-src" && cargo fetch --locked --quiet)
# mdBook's own Cargo.lock (what `--locked` installs) from its packaged
# crate: fetched through a throwaway manifest, unpacked, then fetched.
mkdir -p "$work/mdbook-fetch/src"
printf '[package]\nname = "fetch-mdbook"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\nmdbook = "=0.5.4"\n' \
  > "$work/mdbook-fetch/Cargo.toml"
touch "$work/mdbook-fetch/src/lib.rs"
(cd "$work/mdbook-fetch" && cargo fetch --quiet)
mdbook_crate=$(ls "$HOME"/.cargo/registry/cache/*/mdbook-0.5.4.crate | head -1)
mkdir "$work/mdbook-src"
tar -xzf "$mdbook_crate" -C "$work/mdbook-src" --strip-components=1
(cd "$work/mdbook-src" && cargo fetch --locked --quiet)

# Runs "$@" quietly; sets wall_secs (elapsed) and cpu_secs (user + system
# time of every process it started). The CPU time is what the build costs
# whatever else the machine is doing; the wall time is what an author
# waits on an idle one, where parallel crates help.
timed() {
  local t0 times TIMEFORMAT='%U %S'
  t0=$(now)
  times=$( { time "$@" >/dev/null 2>"$work/stderr"; } 2>&1 ) || { cat "$work/stderr"; return 1; }
  wall_secs=$(secs "$t0" "$(now)")
  cpu_secs=$(awk '{ printf "%.1f", $1 + $2 }' <<< "$times")
}
install_mdbook() {
  timed cargo install mdbook --version 0.5.4 --locked --quiet --root "$work/mdbook" \
    --target-dir "$work/mdbook-target"
  mdbook_secs=$wall_secs mdbook_cpu=$cpu_secs
  mdbook_size=$(stat -c %s "$work/mdbook/bin/mdbook")
}
install_ours() {
  timed cargo install --path "$work/ours-src" --locked --quiet --root "$work/ours" \
    --target-dir "$work/ours-target"
  ours_secs=$wall_secs ours_cpu=$cpu_secs
  ours_size=$(stat -c %s "$work/ours/bin/mdbook-companion")
}
if [ "${ORDER:-mdbook-first}" = ours-first ]; then
  install_ours
  install_mdbook
else
  install_mdbook
  install_ours
fi

# A crate with no code of its own that depends on the crates named in
# "$2" (Cargo.toml dependency lines), installed as ours is; prints its
# times as "$1" and its CPU time against mdBook's.
install_no_code() {
  local name=$1 deps=$2
  mkdir -p "$work/$name/src"
  printf '[package]\nname = "%s"\nversion = "0.0.0"\nedition = "2024"\n[dependencies]\n%s\n[profile.release]\ndebug = false\nlto = "off"\n' \
    "$name" "$deps" > "$work/$name/Cargo.toml"
  echo 'fn main() { let _ = mdbook_driver::MDBook::load("."); }' > "$work/$name/src/main.rs"
  cp Cargo.lock "$work/$name/Cargo.lock"
  (cd "$work/$name" && cargo fetch --quiet)
  timed cargo install --path "$work/$name" --quiet --root "$work/$name-root" \
    --target-dir "$work/$name-target"
  echo "$name: ${wall_secs} s wall, ${cpu_secs} s CPU, $(awk -v a="$cpu_secs" -v b="$mdbook_cpu" 'BEGIN { printf "%.2f", a / b }')x mdBook's CPU"
}
if [ "${FLOOR:-0}" = 1 ]; then
  shared='anyhow = "1"
clap = { version = "4", features = ["derive"] }
mdbook-driver = { version = "0.5.4", features = ["search"] }
mdbook-preprocessor = "0.5.4"
pulldown-cmark = { version = "0.13", default-features = false, features = ["html"] }
regex = "1"
serde = { version = "1", features = ["derive"] }
serde_json = "1"
toml = "1"
tracing = "0.1"
tracing-subscriber = { version = "0.3", default-features = false, features = ["fmt", "ansi", "std", "registry"] }'
  install_no_code floor "$shared"
  # Every dependency of our four crates (the workspace's table, less
  # what only tests use), with the same features: the rest of ours is
  # our own code.
  ours_deps=$(cargo metadata --format-version 1 --no-deps --locked |
    python3 -c '
import json, sys
seen = {}
for p in json.load(sys.stdin)["packages"]:
    for d in p["dependencies"]:
        if d["kind"] is None and not d["name"].startswith("mdbook-companion"):
            f = seen.setdefault(d["name"], [d["req"], set(), d["uses_default_features"]])
            f[1].update(d["features"])
for name, (req, feats, default) in sorted(seen.items()):
    print(f"{name} = {{ version = \"{req}\", features = {json.dumps(sorted(feats))}, default-features = {str(default).lower()} }}")
')
  install_no_code dependencies "$ours_deps"
fi

mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1000000 }'; }
time_ratio=$(awk -v a="$ours_secs" -v b="$mdbook_secs" 'BEGIN { printf "%.2f", a / b }')
cpu_ratio=$(awk -v a="$ours_cpu" -v b="$mdbook_cpu" 'BEGIN { printf "%.2f", a / b }')
size_ratio=$(awk -v a="$ours_size" -v b="$mdbook_size" 'BEGIN { printf "%.2f", a / b }')
echo "cargo install mdbook 0.5.4:     ${mdbook_secs} s wall, ${mdbook_cpu} s CPU, binary $(mb "$mdbook_size")"
echo "cargo install mdbook-companion: ${ours_secs} s wall, ${ours_cpu} s CPU, binary $(mb "$ours_size")"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "ratio (ours / mdBook): time ${time_ratio}x (limit 0.80x), CPU ${cpu_ratio}x, size ${size_ratio}x (limit 2.00x)"
status=0
awk -v r="$time_ratio" 'BEGIN { exit !(r > 0.80) }' && { echo "install takes longer than 0.80x mdBook's"; status=1; }
awk -v r="$size_ratio" 'BEGIN { exit !(r > 2.0) }' && { echo "binary is more than twice mdBook's size"; status=1; }
exit $status
