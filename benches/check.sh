#!/usr/bin/env bash
# Benchmark of `mdbook-companion check` against `mdbook test`.
#
# In one run, on each book: `check` cold (cache removed), `check` warm
# (unchanged book, cache kept) and `mdbook test` (mdBook 0.5.4's own
# doctest run). Books: the repository's example-book/ and a generated book
# of 20 examples in 5 chapters (every kind of outcome).
#
# Targets: warm under 0.5 s with zero compiler runs; cold faster than
# `mdbook test`. Prints a table; exits non-zero when a target is missed.
#
#   benches/check.sh            # release build of mdbook-companion
#   PROFILE=debug benches/check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
profile=${PROFILE:-release}

if ! mdbook --version 2>/dev/null | grep -q '^mdbook v0\.5\.4'; then
  cargo install --locked mdbook@0.5.4
fi
if [ "$profile" = release ]; then
  cargo build --quiet --release --bin mdbook-companion
else
  cargo build --quiet --bin mdbook-companion
fi
bin_dir=$root/target/$profile
bin=$bin_dir/mdbook-companion
# `mdbook test` finds the preprocessor on PATH, as a book's readers would.
export PATH=$bin_dir:$PATH

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A book of 20 examples: 5 chapters, each with run, panic, compile-fail
# and no-run examples, distinct programs so nothing is shared.
gen=$work/generated
mkdir -p "$gen/src"
cat > "$gen/book.toml" <<'TOML'
[book]
title = "Generated"

[rust]
edition = "2021"

[preprocessor.companion]
after = ["links"]
TOML
printf '# Summary\n\n' > "$gen/src/SUMMARY.md"
for c in 1 2 3 4 5; do
  echo "- [Chapter $c](ch$c.md)" >> "$gen/src/SUMMARY.md"
  {
    echo "# Chapter $c"
    echo
    echo '```rust example title="prints"'
    echo "let v: Vec<u32> = (1..=$c).collect();"
    echo 'println!("{:?} sums to {}", v, v.iter().sum::<u32>());'
    echo '```'
    echo
    echo '```output'
    seq -s ', ' 1 "$c" | sed 's/^/[/; s/$/]/' | tr -d '\n'
    echo " sums to $(( c * (c + 1) / 2 ))"
    echo '```'
    echo
    echo '```rust example title="panics" expect=panic'
    echo "let v = vec![0u8; $c];"
    echo "let i = v.len() + std::env::args().count() - 1;"
    echo 'println!("{}", v[i]);'
    echo '```'
    echo
    echo '```output'
    echo "index out of bounds: the len is $c but the index is $c"
    echo '```'
    echo
    echo '```rust example title="does not compile" expect=compile-fail error=E0382'
    echo "let s = String::from(\"chapter $c\");"
    echo 'let t = s;'
    echo 'println!("{s} {t}");'
    echo '```'
    echo
    echo '```rust example title="only compiles" expect=no-run'
    echo "fn main() { loop { std::thread::sleep(std::time::Duration::from_secs($c)); } }"
    echo '```'
  } > "$gen/src/ch$c.md"
done

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
field() { sed -n "s/^  \"$1\": \\([0-9]*\\),\$/\\1/p"; }

status=0
printf '%-14s %9s %9s %9s %14s %10s %s\n' book examples cold_s warm_s mdbook_test_s warm_runs verdict
for book in "$root/example-book" "$gen"; do
  name=$(basename "$book")
  # Work on a copy, so the cache and build output stay out of the tree.
  copy=$work/copy-$name
  rm -rf "$copy"
  cp -r "$book" "$copy"
  rm -rf "$copy/.companion-cache" "$copy/book"

  t0=$(now)
  cold=$("$bin" check "$copy" --format json) || { echo "check failed on $name:"; echo "$cold"; exit 1; }
  t1=$(now)
  warm=$("$bin" check "$copy" --format json)
  t2=$(now)
  (cd "$copy" && mdbook test >/dev/null 2>"$work/mdbook-test-$name.log") \
    || { echo "mdbook test failed on $name:"; cat "$work/mdbook-test-$name.log"; exit 1; }
  t3=$(now)

  examples=$(echo "$cold" | field passed)
  warm_runs=$(echo "$warm" | field compiler_runs)
  cold_s=$(secs "$t0" "$t1"); warm_s=$(secs "$t1" "$t2"); test_s=$(secs "$t2" "$t3")
  verdict=ok
  if ! awk -v w="$warm_s" 'BEGIN { exit !(w < 0.5) }' || [ "$warm_runs" != 0 ]; then
    verdict="MISSED: warm must take < 0.5 s with 0 compiler runs"; status=1
  elif ! awk -v c="$cold_s" -v t="$test_s" 'BEGIN { exit !(c < t) }'; then
    verdict="MISSED: cold must beat mdbook test"; status=1
  fi
  printf '%-14s %9s %9s %9s %14s %10s %s\n' "$name" "$examples" "$cold_s" "$warm_s" "$test_s" "$warm_runs" "$verdict"
done
echo "cores: $(nproc); $(rustc --version); $(mdbook --version)"
exit $status
