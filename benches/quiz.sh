#!/usr/bin/env bash
# Benchmark: `check` on a quiz file of 100 Tracing questions (an
# mdbook-quiz TOML file read through ```quiz src="…"): 60 programs that
# print, 40 that do not compile, each with its own answer. Cold: a fresh
# book (no cache, no lock), every program compiled (merged builds where
# they apply); warm: the same book again, from the cache. ROUNDS runs of
# each, in turn; prints medians and the work counters.
#
#   benches/quiz.sh                  # debug build of mdbook-companion
#   PROFILE=release ROUNDS=5 benches/quiz.sh
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${PROFILE:-debug}
rounds=${ROUNDS:-3}
if [ "$profile" = release ]; then
  cargo build --quiet --release --bin mdbook-companion
else
  cargo build --quiet --bin mdbook-companion
fi
bin=$PWD/target/$profile/mdbook-companion
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$work/template" <<'EOF'
import os, sys
root = sys.argv[1]
os.makedirs(os.path.join(root, "src"))
open(os.path.join(root, "book.toml"), "w").write(
    '[book]\ntitle = "Quiz bench"\n\n[preprocessor.companion]\nafter = ["links"]\n')
open(os.path.join(root, "src/SUMMARY.md"), "w").write("# Summary\n\n- [Quiz](quiz.md)\n")
open(os.path.join(root, "src/quiz.md"), "w").write(
    '# Quiz\n\n```quiz title="A hundred" src="quiz.toml"\n```\n')
qs = []
for i in range(100):
    if i % 5 < 3:
        program = f'fn main() {{\n    let n: u64 = {i};\n    println!("{{}}", n * {i + 1});\n}}\n'
        answer = f'answer.doesCompile = true\nanswer.stdout = "{i * (i + 1)}"\n'
    else:
        program = f'fn main() {{\n    let s = String::from("{i}");\n    let t = s;\n    println!("{{s}} {{t}}");\n}}\n'
        answer = "answer.doesCompile = false\nanswer.lineNumber = 4\n"
    qs.append(f'[[questions]]\ntype = "Tracing"\nprompt.program = """\n{program}"""\n{answer}')
open(os.path.join(root, "src/quiz.toml"), "w").write("\n".join(qs))
EOF

python3 - "$bin" "$work" "$rounds" <<'EOF'
import json, shutil, statistics, subprocess, sys, time
bin_, work, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
cold, warm, counters = [], [], {}
for i in range(rounds):
    book = f"{work}/book{i}"
    shutil.copytree(f"{work}/template", book)
    for kind, times in (("cold", cold), ("warm", warm)):
        t = time.perf_counter()
        out = subprocess.run([bin_, "check", book, "--format", "json"], capture_output=True, text=True)
        times.append(time.perf_counter() - t)
        r = json.loads(out.stdout)
        passed = sum(1 for x in r["results"] if x["status"] == "passed")
        assert out.returncode == 0 and passed == 100, (out.returncode, passed, out.stderr[-2000:])
        counters[kind] = {k: r[k] for k in ("compiler_runs", "program_runs", "cache_hits")}
print(f"100 Tracing questions, {rounds} runs of each:")
print(f"cold check: median {statistics.median(cold):.2f} s (runs: {', '.join(f'{t:.2f}' for t in cold)}), {counters['cold']}")
print(f"warm check: median {statistics.median(warm):.3f} s (runs: {', '.join(f'{t:.3f}' for t in warm)}), {counters['warm']}")
EOF
