//! Benchmark: `mdbook build` of the example book with a warm cache, with the
//! preprocessor (its `asm` blocks, and `verify = true`) against the same
//! build with the preprocessor removed, timed alternately in one run.
//!
//! Run with `cargo bench --bench book` (needs the `mdbook` 0.5 CLI on PATH:
//! `cargo install --locked mdbook@0.5.4`). The compilers are wrapped in
//! scripts that log every start, so the run also proves that a warm build
//! starts no compiler. A third build uses a no-op command preprocessor (this
//! executable, passing the book through): the price any command
//! preprocessor pays to mdBook's protocol, whatever it does. A fourth
//! replays the pages mdbook-companion wrote (this executable again, writing
//! back a saved copy of its output): what mdBook itself spends on the
//! richer pages, so that `with / replay` is the preprocessor's own price.
//! A fifth is `with` plus `renderers = ["html", "test"]`, which spares
//! mdBook the `supports` process start.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Set in the environment of the no-op preprocessor's builds.
const NOOP: &str = "COMPANION_BENCH_NOOP";
/// Set, to the saved output, in the environment of the replay builds.
const REPLAY: &str = "COMPANION_BENCH_REPLAY";
/// The preprocessor whose output a replay saves on its first run.
const REAL: &str = "COMPANION_BENCH_REAL";

fn main() {
    if let Some(saved) = std::env::var_os(REPLAY) {
        replay_preprocessor(Path::new(&saved));
        return;
    }
    if std::env::var_os(NOOP).is_some() {
        noop_preprocessor();
        return;
    }
    let quick = std::env::args().any(|a| a == "--quick");
    let version = Command::new("mdbook")
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    assert!(
        version.starts_with("mdbook v0.5."),
        "needs the mdbook 0.5 CLI on PATH (cargo install --locked mdbook@0.5.4); found {version:?}"
    );
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_mdbook-companion"));
    let path = format!(
        "{}:{}",
        bin.parent().expect("bin dir").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("example-book");
    // In memory where the machine has it: the books are rebuilt over a
    // hundred times, and disk write-back otherwise dominates the variance.
    let shm = Path::new("/dev/shm");
    let dir = if shm.is_dir() {
        tempfile::tempdir_in(shm)
    } else {
        tempfile::tempdir()
    }
    .expect("tempdir");
    let with = dir.path().join("with");
    let without = dir.path().join("without");
    let noop = dir.path().join("noop");
    let replay = dir.path().join("replay");
    let listed = dir.path().join("listed");
    let saved = dir.path().join("replayed.json");
    copy_dir(&source, &with);
    copy_dir(&source, &without);
    copy_dir(&source, &noop);
    let me = std::env::current_exe().expect("current exe");
    let log = dir.path().join("compilers.log");
    let wrap = |name: &str, real: &str| {
        let p = dir.path().join(name);
        std::fs::write(
            &p,
            format!(
                "#!/bin/sh\necho \"{name} $*\" >> {}\nexec {real} \"$@\"\n",
                log.display()
            ),
        )
        .expect("wrapper");
        set_executable(&p);
        p
    };
    let cc = wrap("cc-wrapper", "cc");
    let rustc = wrap("rustc-wrapper", "rustc");
    edit_toml(&with, |doc| {
        let t = &mut doc["preprocessor"]["companion"];
        t["verify"] = toml_edit::value(true);
        t["cc"] = toml_edit::value(cc.display().to_string());
        t["rustc"] = toml_edit::value(rustc.display().to_string());
    });
    edit_toml(&noop, |doc| {
        doc["preprocessor"]["companion"]["command"] = toml_edit::value(me.display().to_string());
    });
    // The replayed book is `with` itself (same config, same cache), its
    // preprocessor swapped for the replayer.
    copy_dir(&with, &replay);
    copy_dir(&with, &listed);
    edit_toml(&listed, |doc| {
        let mut renderers = toml_edit::Array::new();
        renderers.push("html");
        renderers.push("test");
        doc["preprocessor"]["companion"]["renderers"] = toml_edit::value(renderers);
    });
    edit_toml(&replay, |doc| {
        doc["preprocessor"]["companion"]["command"] = toml_edit::value(me.display().to_string());
    });
    edit_toml(&without, |doc| {
        if let Some(p) = doc
            .get_mut("preprocessor")
            .and_then(|p| p.as_table_like_mut())
        {
            p.remove("companion");
        }
    });
    // Wall time, and CPU time (user + system) of mdBook and every process
    // it waited for: the steadier figure on a shared machine.
    let build = |root: &Path| -> (Duration, Duration) {
        let cpu_before = children_cpu();
        let start = Instant::now();
        let mut cmd = Command::new("mdbook");
        cmd.arg("build").arg(root).env("PATH", &path);
        if root == noop {
            cmd.env(NOOP, "1");
        }
        if root == replay {
            cmd.env(REPLAY, &saved).env(REAL, &bin);
        }
        let out = cmd.output().expect("mdbook");
        let t = start.elapsed();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        (t, children_cpu() - cpu_before)
    };
    // Cold build fills the cache; it may start compilers.
    let (cold, _) = build(&with);
    let cold_starts = count_lines(&log);
    // The first replay runs the real preprocessor once and saves its output.
    for warm_up in [&without, &noop, &replay, &listed] {
        build(warm_up);
    }
    std::fs::write(&log, "").expect("log");
    let runs = if quick { 5 } else { 41 };
    let builds: [(&str, &Path); 5] = [
        ("without the preprocessor", &without),
        (
            "with a no-op command preprocessor (the protocol's price)",
            &noop,
        ),
        (
            "replaying mdbook-companion's pages, no preprocessing (the pages' price)",
            &replay,
        ),
        ("with mdbook-companion, warm, `asm` and `verify`", &with),
        (
            "the same with `renderers = [\"html\", \"test\"]` (no `supports` start)",
            &listed,
        ),
    ];
    let mut wall = vec![Vec::new(); builds.len()];
    let mut cpu = vec![Vec::new(); builds.len()];
    // Each round starts one build later, so no build always runs in the
    // same place (after the same other build).
    for round in 0..runs {
        for k in 0..builds.len() {
            let i = (round + k) % builds.len();
            let (w, c) = build(builds[i].1);
            wall[i].push(w);
            cpu[i].push(c);
        }
    }
    let warm_starts = count_lines(&log);
    // Medians, and minimums: on a shared machine bursts of other work only
    // ever add time, so the fastest run is the steadiest estimate of a
    // build's own cost.
    let fastest: Vec<f64> = wall
        .iter()
        .map(|v| v.iter().min().copied().unwrap_or_default().as_secs_f64())
        .collect();
    let wall: Vec<f64> = wall.iter_mut().map(|v| median(v).as_secs_f64()).collect();
    let cpu: Vec<f64> = cpu.iter_mut().map(|v| median(v).as_secs_f64()).collect();
    println!(
        "cold build, with the preprocessor (fills the cache): {:.3} s\n",
        cold.as_secs_f64()
    );
    println!(
        "| build ({runs} runs each) | median wall | ratio | median CPU | ratio | fastest wall | ratio |\n|---|---:|---:|---:|---:|---:|---:|"
    );
    for (i, (name, _)) in builds.iter().enumerate() {
        println!(
            "| {name} | {:.3} s | {:.2}× | {:.3} s | {:.2}× | {:.3} s | {:.2}× |",
            wall[i],
            wall[i] / wall[0],
            cpu[i],
            cpu[i] / cpu[0],
            fastest[i],
            fastest[i] / fastest[0]
        );
    }
    println!(
        "\nthe preprocessor's own price (with / replay): median wall {:.3}×, median CPU {:.3}×, fastest wall {:.3}×",
        wall[3] / wall[2],
        cpu[3] / cpu[2],
        fastest[3] / fastest[2]
    );
    println!("compiler starts: cold {cold_starts}, warm {warm_starts} (over {runs} builds)");
}

/// User plus system time of this process's waited-for children so far.
fn children_cpu() -> Duration {
    // SAFETY: getrusage writes into the zeroed struct we own.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// A command preprocessor that reads the book and writes back the saved
/// output of mdbook-companion, which it runs (once) to save it.
fn replay_preprocessor(saved: &Path) {
    use std::io::{Read as _, Write as _};
    if std::env::args().nth(1).as_deref() == Some("supports") {
        return;
    }
    let mut input = Vec::new();
    std::io::stdin().read_to_end(&mut input).expect("stdin");
    let output = match std::fs::read(saved) {
        Ok(output) => output,
        Err(_) => {
            let real = std::env::var_os(REAL).expect("the real preprocessor");
            let mut child = Command::new(real)
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .spawn()
                .expect("spawn mdbook-companion");
            child
                .stdin
                .take()
                .expect("stdin")
                .write_all(&input)
                .expect("write");
            let out = child.wait_with_output().expect("mdbook-companion");
            assert!(out.status.success(), "mdbook-companion failed");
            std::fs::write(saved, &out.stdout).expect("save");
            out.stdout
        }
    };
    std::io::stdout().lock().write_all(&output).expect("write");
}

/// A command preprocessor that does nothing: says yes to every renderer and
/// hands the book back unchanged (buffered).
fn noop_preprocessor() {
    use std::io::{Read as _, Write as _};
    if std::env::args().nth(1).as_deref() == Some("supports") {
        return;
    }
    let mut input = Vec::new();
    std::io::stdin().read_to_end(&mut input).expect("stdin");
    let value: serde_json::Value = serde_json::from_slice(&input).expect("json");
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    serde_json::to_writer(&mut out, &value[1]).expect("write");
    out.flush().expect("flush");
}

fn count_lines(p: &Path) -> usize {
    std::fs::read_to_string(p)
        .unwrap_or_default()
        .lines()
        .count()
}

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn edit_toml(root: &Path, f: impl FnOnce(&mut toml_edit::DocumentMut)) {
    let p = root.join("book.toml");
    let mut doc: toml_edit::DocumentMut = std::fs::read_to_string(&p)
        .expect("book.toml")
        .parse()
        .expect("toml");
    f(&mut doc);
    std::fs::write(&p, doc.to_string()).expect("write book.toml");
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let name = entry.file_name();
        if name == "book" || name == ".companion-cache" {
            continue;
        }
        let (src, dst) = (entry.path(), to.join(&name));
        if entry.file_type().expect("type").is_dir() {
            copy_dir(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).expect("copy");
        }
    }
}

fn set_executable(p: &Path) {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}
