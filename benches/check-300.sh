#!/usr/bin/env bash
# Benchmark of cold `check` on a book of 300 Rust examples: merged builds
# (the default) against `--no-merge` (each example alone) and against
# `mdbook test` (mdBook 0.5.4's doctest run of the same book), in one run.
#
# The book: 10 chapters of 30 examples, of ten kinds in turn: prints,
# prints with hidden lines, panics, compile-fail E0382, compile-fail E0308,
# no-run, edition 2024, release mode, traits and structs, `main` returning
# a Result. Every program differs (its number is in it), so nothing is
# shared between examples.
#
# Targets: cold `check` at most 0.25x `mdbook test`, and at least 2x
# faster than `--no-merge`; the three runs agree (every example passes).
#
#   benches/check-300.sh            # release build of mdbook-companion
#   RUNS=3 benches/check-300.sh     # repeat the measurement
set -euo pipefail
source "$(dirname "$0")/common.sh"
runs=${RUNS:-1}
book=$work/book300
mkdir -p "$book/src"
cat > "$book/book.toml" <<'TOML'
[book]
title = "Three hundred"

[rust]
edition = "2021"

[preprocessor.companion]
after = ["links"]
TOML
printf '# Summary\n\n' > "$book/src/SUMMARY.md"
n=0
for c in $(seq 1 10); do
  echo "- [Chapter $c](ch$c.md)" >> "$book/src/SUMMARY.md"
  f=$book/src/ch$c.md
  echo "# Chapter $c" > "$f"
  for i in $(seq 0 29); do
    n=$((n + 1))
    echo >> "$f"
    case $((i % 10)) in
      0) printf '```rust example title="prints %s"\nlet v: Vec<u32> = (1..=%s).collect();\nprintln!("{}", v.iter().sum::<u32>());\n```\n\n```output\n%s\n```\n' \
           "$n" "$n" "$((n * (n + 1) / 2))" >> "$f" ;;
      1) printf '```rust example title="hidden %s"\n# fn helper(x: u64) -> u64 {\n#     x * 3\n# }\nprintln!("{}", helper(%s));\n```\n\n```output\n%s\n```\n' \
           "$n" "$n" "$((n * 3))" >> "$f" ;;
      2) printf '```rust example title="panics %s" expect=panic\nlet v = vec![0u8; %s];\nlet i = v.len() + std::env::args().count() - 1;\nprintln!("{}", v[i]);\n```\n\n```output\nindex out of bounds: the len is %s but the index is %s\n```\n' \
           "$n" "$n" "$n" "$n" >> "$f" ;;
      3) printf '```rust example title="moved %s" expect=compile-fail error=E0382\nlet s = String::from("%s");\nlet t = s;\nprintln!("{s} {t}");\n```\n' "$n" "$n" >> "$f" ;;
      4) printf '```rust example title="mismatched %s" expect=compile-fail error=E0308\nlet x: u32 = "%s";\nprintln!("{x}");\n```\n' "$n" "$n" >> "$f" ;;
      5) printf '```rust example title="no-run %s" expect=no-run\nfn main() {\n    loop { std::thread::sleep(std::time::Duration::from_millis(%s)); }\n}\n```\n' "$n" "$n" >> "$f" ;;
      6) printf '```rust example title="2024 %s" edition=2024\nlet r#gen = %s;\nlet s: String = (0..3).map(|i| format!("{}", i + r#gen)).collect();\nprintln!("{s}");\n```\n\n```output\n%s%s%s\n```\n' \
           "$n" "$n" "$n" "$((n + 1))" "$((n + 2))" >> "$f" ;;
      7) printf '```rust example title="release %s" mode=release\nlet x: u64 = (1..=%s).product::<u64>() %% 1000;\nprintln!("{x}");\n```\n' "$n" "$((n % 15 + 1))" >> "$f" ;;
      8) printf '```rust example title="trait %s"\ntrait Area { fn area(&self) -> u32; }\n#[derive(Debug)]\nstruct Square(u32);\nimpl Area for Square { fn area(&self) -> u32 { self.0 * self.0 } }\nfn main() {\n    let s = Square(%s);\n    println!("{:?} {}", s, s.area());\n}\n```\n\n```output\nSquare(%s) %s\n```\n' \
           "$n" "$n" "$n" "$((n * n))" >> "$f" ;;
      9) printf '```rust example title="result %s"\nuse std::num::ParseIntError;\nfn main() -> Result<(), ParseIntError> {\n    let n: i64 = "%s".parse()?;\n    println!("{}", n - 1);\n    Ok(())\n}\n```\n\n```output\n%s\n```\n' \
           "$n" "$n" "$((n - 1))" >> "$f" ;;
    esac
  done
done

field() { sed -n "s/^  \"$1\": \\([0-9]*\\),\$/\\1/p"; }
cold() {
  rm -rf "$book/.companion-cache"
  "$bin" check "$book" --format json "$@" > "$work/out.json" || { cat "$work/out.json"; exit 1; }
}

status=0
printf '%-4s %9s %8s %11s %14s %10s %8s %8s %s\n' run examples cold_s no_merge_s mdbook_test_s ratio_test speedup starts verdict
for r in $(seq 1 "$runs"); do
  t0=$(now); cold; t1=$(now)
  passed=$(field passed < "$work/out.json"); starts=$(field compiler_runs < "$work/out.json")
  cold --no-merge; t2=$(now)
  alone_starts=$(field compiler_runs < "$work/out.json")
  [ "$(field passed < "$work/out.json")" = "$passed" ] || { echo "--no-merge disagrees"; exit 1; }
  (cd "$book" && mdbook test >/dev/null 2>"$work/mdbook-test.log") \
    || { echo "mdbook test failed:"; tail -30 "$work/mdbook-test.log"; exit 1; }
  t3=$(now)
  cold_s=$(secs "$t0" "$t1"); alone_s=$(secs "$t1" "$t2"); test_s=$(secs "$t2" "$t3")
  ratio=$(awk -v c="$cold_s" -v t="$test_s" 'BEGIN { printf "%.2fx", c / t }')
  speedup=$(awk -v c="$cold_s" -v a="$alone_s" 'BEGIN { printf "%.1fx", a / c }')
  verdict=ok
  if [ "$passed" != 300 ]; then
    verdict="MISSED: $passed of 300 passed"; status=1
  elif ! awk -v c="$cold_s" -v t="$test_s" 'BEGIN { exit !(c <= 0.25 * t) }'; then
    verdict="MISSED: cold must take at most 0.25x mdbook test"; status=1
  elif ! awk -v c="$cold_s" -v a="$alone_s" 'BEGIN { exit !(2 * c <= a) }'; then
    verdict="MISSED: cold must be 2x faster than --no-merge"; status=1
  fi
  printf '%-4s %9s %8s %11s %14s %10s %8s %8s %s\n' "$r" "$passed" "$cold_s" "$alone_s" "$test_s" "$ratio" "$speedup" "$starts/$alone_starts" "$verdict"
done
echo "cores: $(nproc); load: $(cut -d' ' -f1-3 /proc/loadavg); $(rustc --version); $(mdbook --version)"
exit $status
