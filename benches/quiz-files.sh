#!/usr/bin/env bash
# Benchmark: `check` on a book laid out as the course book mdbook-quiz was
# made for: 100 chapters, each linking its own quiz file
# (`{{#quiz ../quizzes/chNNN.toml}}`, the files beside `src/`), each file
# a MultipleChoice question and a Tracing one (half print, half do not
# compile). Cold: a fresh book (no cache, no lock); warm: the same book
# again. ROUNDS runs of each; prints medians and the work counters.
#
#   benches/quiz-files.sh                       # release build of this tree
#   BIN=/path/to/mdbook-companion LAYOUT=src benches/quiz-files.sh
#
# LAYOUT=src keeps the files in src/quizzes/ (`{{#quiz quizzes/…}}`), for
# a binary that reads quiz files only inside src; KEY=secondary keys each
# failing program on the line rustc's "borrow later used here" labels
# rather than its primary line.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-3}
layout=${LAYOUT:-beside}
key=${KEY:-primary}
if [ -z "${BIN:-}" ]; then
  cargo build --quiet --release --bin mdbook-companion
  BIN=$PWD/target/release/mdbook-companion
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$work/template" "$layout" "$key" <<'EOF'
import os, sys
root, layout, key = sys.argv[1], sys.argv[2], sys.argv[3]
quizzes = os.path.join(root, "quizzes" if layout == "beside" else "src/quizzes")
link = "../quizzes" if layout == "beside" else "quizzes"
os.makedirs(os.path.join(root, "src"))
os.makedirs(quizzes)
open(os.path.join(root, "book.toml"), "w").write(
    '[book]\ntitle = "Quiz files bench"\n\n[preprocessor.companion]\nafter = ["links"]\n')
summary = ["# Summary", ""]
for i in range(100):
    name = f"ch{i:03}"
    summary.append(f"- [Chapter {i}]({name}.md)")
    open(os.path.join(root, f"src/{name}.md"), "w").write(
        f"# Chapter {i}\n\nSome prose.\n\n{{{{#quiz {link}/{name}.toml}}}}\n")
    if i % 2 == 0:
        program = f'fn main() {{\n    let n: u64 = {i};\n    println!("{{}}", n * {i + 1});\n}}\n'
        answer = f'answer.doesCompile = true\nanswer.stdout = "{i * (i + 1)}"\n'
    else:
        program = (f'fn main() {{\n    let mut v = vec![{i}, 2, 3];\n    let first = &v[0];\n'
                   f'    v.push(4);\n    println!("{{first}}");\n}}\n')
        line = 5 if key == "secondary" else 4
        answer = f"answer.doesCompile = false\nanswer.lineNumber = {line}\n"
    open(os.path.join(quizzes, f"{name}.toml"), "w").write(
        f'# Quiz of chapter {i}.\n\n[[questions]]\nid = "q{i}-mc"\ntype = "MultipleChoice"\n'
        f'prompt.prompt = "What is `{i} / 2`?"\nprompt.distractors = ["`{i / 2}`"]\n'
        f'answer.answer = "`{i // 2}`"\n\n'
        f'[[questions]]\ntype = "Tracing"\nprompt.program = """\n{program}"""\n{answer}')
open(os.path.join(root, "src/SUMMARY.md"), "w").write("\n".join(summary) + "\n")
EOF

python3 - "$BIN" "$work" "$rounds" <<'EOF'
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
print(f"100 quiz files (100 Tracing answers), {rounds} runs of each:")
print(f"cold check: median {statistics.median(cold):.2f} s (runs: {', '.join(f'{t:.2f}' for t in cold)}), {counters['cold']}")
print(f"warm check: median {statistics.median(warm):.3f} s (runs: {', '.join(f'{t:.3f}' for t in warm)}), {counters['warm']}")
EOF
