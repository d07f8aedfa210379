#!/usr/bin/env bash
# Runs every fuzz target for SECONDS (default 600) one after another, then
# minimises each target's corpus, and prints per target the wall seconds,
# libFuzzer's executions and the crashes found.
#
#   fuzz/run.sh [SECONDS] [TARGET...]
#
# One libFuzzer process at a time, under `nice -n 10`, with
# -rss_limit_mb=2048 and -timeout=10 (an input that takes longer is
# reported as a crash: a hang or a quadratic path). The seeds in git,
# fuzz/corpus/<target>, are read; new inputs go into the git-ignored
# fuzz/target/corpus/<target>, which `cargo fuzz cmin` minimises in place
# once every target has run (thousands of files each: too many for git). Crashing inputs land in
# fuzz/artifacts/<target>/ (git-ignored); libFuzzer's output per target in
# fuzz/target/run-logs/<target>.log. A crash ends that target's run early:
# fix it, then run the target again for the rest of its time.
#
# Needs cargo-fuzz (`cargo install cargo-fuzz --locked`) and a nightly
# toolchain (without one, RUSTC_BOOTSTRAP=1 on stable is used).
set -euo pipefail

cd "$(dirname "$0")"
seconds=${1:-600}
shift || true
# The likeliest to find something first.
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(lock quiz_toml filecheck chapter scan reading quiz attrs lazy)
fi

if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    fuzz=(cargo +nightly fuzz)
else
    export RUSTC_BOOTSTRAP=1
    fuzz=(cargo fuzz)
fi
# No sanitizer: the fuzzed code is safe Rust, and ASan halves the rate.
# Debug assertions on (cargo-fuzz's default): overflow is a crash too.
build=(-s none)

# NO_BUILD=1: run the binaries as last built (a build of the crate takes
# minutes), and minimise with libFuzzer's -merge=1, as `cargo fuzz cmin`
# does, instead of `cargo fuzz cmin`, which builds first.
if [ -z "${NO_BUILD:-}" ]; then
    if [ $# -eq 0 ]; then
        "${fuzz[@]}" build "${build[@]}"
    else
        for t in "${targets[@]}"; do "${fuzz[@]}" build "${build[@]}" "$t"; done
    fi
fi

host=$(rustc -vV | sed -n 's/^host: //p')
bin="target/$host/release"
mkdir -p target/run-logs
declare -A wall execs crashes status
# The binaries built above run as they are: an edit to the sources while
# this runs changes nothing until the next build.
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t" "target/corpus/$t" "artifacts/$t"
    log="target/run-logs/$t.log"
    before=$(find "artifacts/$t" -type f | wc -l)
    start=$(date +%s)
    status[$t]=0
    nice -n 10 "$bin/$t" "target/corpus/$t" "corpus/$t" -artifact_prefix="artifacts/$t/" \
        -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
        -print_final_stats=1 >"$log" 2>&1 || status[$t]=$?
    wall[$t]=$(($(date +%s) - start))
    execs[$t]=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    crashes[$t]=$(($(find "artifacts/$t" -type f | wc -l) - before))
    echo "$t: ${wall[$t]} s, ${execs[$t]:-?} executions, ${crashes[$t]} crash(es), exit ${status[$t]}"
    if [ "${crashes[$t]}" -gt 0 ]; then
        grep -m 2 -E '^(thread .* panicked|==[0-9]+== ERROR|SUMMARY)' "$log" || true
        ls -t "artifacts/$t" | head -n "${crashes[$t]}" | sed "s|^|  fuzz/artifacts/$t/|"
    fi
done

# Minimise each working corpus in place.
for t in "${targets[@]}"; do
    if [ -z "${NO_BUILD:-}" ]; then
        nice -n 10 "${fuzz[@]}" cmin "${build[@]}" "$t" "target/corpus/$t" >>"target/run-logs/$t.log" 2>&1
    else
        rm -rf "target/cmin/$t" && mkdir -p "target/cmin/$t"
        nice -n 10 "$bin/$t" -merge=1 -rss_limit_mb=2048 -timeout=10 "target/cmin/$t" "target/corpus/$t" \
            >>"target/run-logs/$t.log" 2>&1
        rm -rf "target/corpus/$t" && mv "target/cmin/$t" "target/corpus/$t"
    fi
done

echo
printf '%-10s %8s %12s %8s %6s %14s\n' target seconds executions crashes exit corpus
for t in "${targets[@]}"; do
    printf '%-10s %8s %12s %8s %6s %5s files %3s KiB\n' "$t" "${wall[$t]}" "${execs[$t]:-?}" \
        "${crashes[$t]}" "${status[$t]}" "$(find "target/corpus/$t" -type f | wc -l)" \
        "$(du -sk "target/corpus/$t" | cut -f1)"
done
