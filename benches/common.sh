# Shared by the shell benchmarks of `check` (sourced, not run): mdBook
# 0.5.4 on PATH, the release binary built and first on PATH (so a book's
# `command = "mdbook-companion"` finds it, as it would for readers), a work
# directory removed on exit, and the timing helpers.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
if ! mdbook --version 2>/dev/null | grep -q '^mdbook v0\.5\.4'; then
  echo "needs mdbook v0.5.4 on PATH (cargo install --locked mdbook@0.5.4)" >&2
  exit 1
fi
# COMPANION=PATH: another build of mdbook-companion instead (the binary
# of an earlier commit, for a before/after in the same conditions).
if [ -n "${COMPANION:-}" ]; then
  bin_dir=$(mktemp -d)
  cp "$COMPANION" "$bin_dir/mdbook-companion"
else
  cargo build --quiet --release --bin mdbook-companion
  bin_dir=$root/target/release
fi
bin=$bin_dir/mdbook-companion
export PATH=$bin_dir:$PATH
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
