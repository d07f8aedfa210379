//! Issue 57: every program of the book runs in a box of its own: it sees
//! only itself, leaves nothing running, writes only its bounded folder and
//! cannot read the cache; where no box can be made, `check` says so.

use crate::support::BookTest;
use snapbox::str;
use std::process::Command;

/// Issue 57: a program sees only its own box. It has no pid for anything
/// outside (its parent is the box's `init`, pid 1), cannot trace its
/// parent, and cannot write the book. Before boxes it saw every process
/// of the machine, attached to its supervisor and wrote the book.
#[test]
fn a_program_sees_only_its_own_box() {
    let book = BookTest::new();
    let planted = book.root().join("planted");
    let chapter = format!(
        "```rust example\nunsafe extern \"C\" {{\n    fn ptrace(request: i64, pid: i32, addr: usize, data: usize) -> i64;\n    fn getppid() -> i32;\n}}\nfn main() {{\n    let me = std::process::id().to_string();\n    let others = std::fs::read_dir(\"/proc\").unwrap().flatten()\n        .map(|e| e.file_name().to_string_lossy().into_owned())\n        .filter(|n| n.chars().all(|c| c.is_ascii_digit()) && *n != me && n != \"1\")\n        .count();\n    println!(\"others {{others}}\");\n    let parent = unsafe {{ getppid() }};\n    let traced = unsafe {{ ptrace(16, parent, 0, 0) }} == 0;\n    if traced {{\n        std::thread::sleep(std::time::Duration::from_millis(50));\n        unsafe {{ ptrace(17, parent, 0, 0) }};\n    }}\n    println!(\"traced its parent: {{traced}}\");\n    println!(\"wrote the book: {{}}\", std::fs::write({:?}, \"x\").is_ok());\n}}\n```\n\n```output\nothers 0\ntraced its parent: false\nwrote the book: false\n```\n",
        planted.display().to_string()
    );
    let book = book.chapter("ch.md", &chapter);
    book.run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/ch.md:1: rust example (expect=run)
compiler runs: 1, program runs: 1, from cache: 0
1 passed, 0 failed

"#]]);
    });
    assert!(!planted.exists(), "the program wrote into the book");
}

/// Issue 57, attack 2: a program forks a child that leaves its session and
/// closes its streams, then kills its parent (before boxes, its
/// supervisor): the child outlived `check`, reparented to pid 1. In a box
/// the parent is the box's `init`, which its signals do not reach, and
/// when the program ends the kernel ends the box. The child is found by
/// its own command line (a sleep of a length only this test uses), and
/// killed if it survived.
#[test]
fn nothing_a_program_starts_outlives_its_box() {
    let token = sleep_token(30);
    let chapter = format!(
        "```rust example\nunsafe extern \"C\" {{\n    fn getppid() -> i32;\n    fn kill(pid: i32, signal: i32) -> i32;\n}}\nfn main() {{\n    std::process::Command::new(\"setsid\")\n        .args([\"sleep\", \"{token}\"])\n        .stdin(std::process::Stdio::null())\n        .stdout(std::process::Stdio::null())\n        .stderr(std::process::Stdio::null())\n        .spawn()\n        .unwrap();\n    std::thread::sleep(std::time::Duration::from_millis(200));\n    unsafe {{ kill(getppid(), 9) }};\n    std::thread::sleep(std::time::Duration::from_millis(200));\n    println!(\"done\");\n}}\n```\n\n```output\ndone\n```\n"
    );
    let book = BookTest::new().chapter("ch.md", &chapter);
    book.run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/ch.md:1: rust example (expect=run)
...
"#]]);
    });
    assert_eq!(survivors(&token), Vec::<i32>::new(), "outlived the check");
}

/// Issue 57: what a program writes into its folder counts against its
/// `memory`: its box's memory file system holds no more. Before boxes a
/// program with `memory = "64 MiB"` wrote 768 MiB into `/dev/shm`.
#[test]
fn a_programs_scratch_folder_is_bounded_by_its_memory() {
    let chapter = "```rust example\nuse std::io::Write;\nfn main() {\n    let mut file = std::fs::File::create(\"big\").unwrap();\n    let chunk = vec![1u8; 1 << 20];\n    let mut written = 0;\n    while written < 256 && file.write_all(&chunk).is_ok() {\n        written += 1;\n    }\n    println!(\"{}\", if written < 256 { \"full\" } else { \"written\" });\n}\n```\n\n```output\nfull\n```\n";
    let book = BookTest::new()
        .companion("memory = \"64 MiB\"")
        .chapter("ch.md", chapter);
    book.run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/ch.md:1: rust example (expect=run)
...
"#]]);
    });
}

/// Issue 57: a program cannot read the cache (where the records of the
/// other blocks' verdicts are kept): it is hidden in its box. Before
/// boxes a second block saw the first one's records.
#[test]
fn the_cache_is_out_of_a_programs_reach() {
    let first =
        "```rust example\nfn main() {\n    println!(\"first\");\n}\n```\n\n```output\nfirst\n```\n";
    let mut book = BookTest::new().chapter("ch.md", first);
    book.run(&["check"], |_| {});
    let cache = book.root().join(".companion-cache");
    assert!(cache.is_dir(), "the first check made a cache");
    let second = format!(
        "{first}\n```rust example\nfn main() {{\n    println!(\"{{}}\", std::fs::read_dir({:?}).map_or(0, |d| d.count()));\n}}\n```\n\n```output\n0\n```\n",
        cache.display().to_string()
    );
    book.set_chapter("ch.md", &second);
    book.run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/ch.md:1: rust example (expect=run)
ok      src/ch.md:11: rust example (expect=run)
...
"#]]);
    });
}

/// `args` run on `book` as a machine that makes no namespaces for us
/// would (a user namespace that allows no PID namespace, as a locked-down
/// container or GitHub's runners).
fn locked_down(book: &BookTest, args: &[&str]) -> std::process::Output {
    Command::new("unshare")
        .args(["--user", "--map-root-user", "sh", "-c"])
        .arg("echo 0 > /proc/sys/user/max_pid_namespaces && exec \"$@\"")
        .arg("sh")
        .arg(crate::support::BIN)
        .args(args)
        .arg(book.root())
        .output()
        .expect("unshare (util-linux) runs")
}

/// Issue 57: where the machine cannot make a box, `check` says so once
/// and marks its JSON report: its programs ran in a lesser box
/// (Landlock); `isolation = "required"` makes it an error.
#[test]
fn without_a_box_check_says_so_and_required_makes_it_an_error() {
    let chapter =
        "```rust example\nfn main() {\n    println!(\"hi\");\n}\n```\n\n```output\nhi\n```\n";
    let book = BookTest::new().chapter("ch.md", chapter);
    book.write();
    let out = locked_down(&book, &["check", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
    assert_eq!(out.status.code(), Some(0), "{json:#}");
    assert_eq!(json["isolation"], "landlock", "{json:#}");
    let notes = json["notes"].to_string();
    assert!(
        notes.contains("ran in a lesser box on this machine (no namespaces: "),
        "{notes}"
    );
    // Boxed, the same book says nothing of it.
    let (boxed, code) = crate::anybook::check_json(&book, &[]);
    assert_eq!((code, &boxed["isolation"]), (0, &serde_json::json!("box")));
    let required = BookTest::new()
        .companion("isolation = \"required\"")
        .chapter("ch.md", chapter);
    required.write();
    let out = locked_down(&required, &["check"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("`isolation = \"required\"`, but the book's programs cannot run in a box on this machine"),
        "{stderr}"
    );
}

/// Issue 57, where no box can be made: in its lesser box a program can
/// neither trace nor signal its parent, nor write the book (under `/tmp`
/// here, so not `/tmp` either: its `TMPDIR` is its own folder), and it
/// writes its own folder. Before the lesser box, on such a machine, it
/// signalled its parent and wrote the book.
#[test]
fn a_lesser_box_keeps_a_program_to_itself_where_no_box_can_be_made() {
    let book = BookTest::new();
    let planted = book.root().join("planted");
    let chapter = format!(
        "```rust example\nunsafe extern \"C\" {{\n    fn ptrace(request: i64, pid: i32, addr: usize, data: usize) -> i64;\n    fn getppid() -> i32;\n    fn kill(pid: i32, sig: i32) -> i32;\n}}\nfn main() {{\n    let parent = unsafe {{ getppid() }};\n    println!(\"traced its parent: {{}}\", unsafe {{ ptrace(16, parent, 0, 0) }} == 0);\n    println!(\"signalled its parent: {{}}\", unsafe {{ kill(parent, 0) }} == 0);\n    println!(\"wrote the book: {{}}\", std::fs::write({:?}, \"x\").is_ok());\n    println!(\"wrote its folder: {{}}\", std::fs::write(\"here\", \"x\").is_ok());\n    println!(\"wrote its TMPDIR: {{}}\", std::fs::write(std::env::temp_dir().join(\"t\"), \"x\").is_ok());\n}}\n```\n\n```output\ntraced its parent: false\nsignalled its parent: false\nwrote the book: false\nwrote its folder: true\nwrote its TMPDIR: true\n```\n",
        planted.display().to_string()
    );
    let book = book.chapter("ch.md", &chapter);
    book.write();
    let out = locked_down(&book, &["check", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
    assert_eq!(json["isolation"], "landlock", "{json:#}");
    assert_eq!(out.status.code(), Some(0), "{json:#}");
    assert!(!planted.exists(), "the program wrote into the book");
}

/// Issue 57: a killed check leaves its scratch folders; the next check
/// removes those whose owner (the pid and start time in their name) is
/// gone, and keeps those of a check still running.
#[test]
fn the_scratch_folders_of_a_dead_check_are_removed_at_the_next_start() {
    let tmp = tempfile::tempdir().expect("a directory");
    let me = std::process::id();
    let stat = std::fs::read_to_string("/proc/self/stat").expect("our stat");
    let start: u64 = stat
        .rsplit_once(") ")
        .and_then(|(_, rest)| rest.split(' ').nth(19)?.parse().ok())
        .expect("our start time");
    // pid_max is at most 2^22: no process has this pid.
    let dead = tmp.path().join("companion-99999999-12345-AbCdEf");
    let alive = tmp.path().join(format!("companion-{me}-{start}-AbCdEf"));
    let reused = tmp
        .path()
        .join(format!("companion-{me}-{}-AbCdEf", start + 1));
    for dir in [&dead, &alive, &reused] {
        std::fs::create_dir_all(dir.join("inner")).expect("a folder");
    }
    let book = BookTest::new().chapter(
        "ch.md",
        "```rust example\nfn main() {\n    println!(\"hi\");\n}\n```\n\n```output\nhi\n```\n",
    );
    book.run(&["check"], |cmd| {
        cmd.env("TMPDIR", tmp.path());
    });
    assert!(!dead.exists(), "a dead check's folder stayed");
    assert!(
        !reused.exists(),
        "a folder of an earlier process of our pid stayed"
    );
    assert!(alive.exists(), "a running check's folder was removed");
}

/// Issue 57: no wait on the spawner without a limit. A spawner that stops
/// answering (here stopped with SIGSTOP by the test, the spawner of the
/// check this test started; no program can reach it from its box) costs
/// the request in flight 10 s, then the binary is started as each
/// supervisor instead: the check ends, every claim checked. Before, it
/// waited for the spawner forever.
#[test]
fn a_stopped_spawner_costs_time_not_the_check() {
    let chapter = (0..3)
        .map(|i| format!("```rust example\nfn main() {{\n    std::thread::sleep(std::time::Duration::from_millis(300));\n    println!(\"{i}\");\n}}\n```\n\n```output\n{i}\n```\n\n"))
        .collect::<String>();
    let book = BookTest::new().chapter("ch.md", &chapter);
    book.write();
    let mut check = Command::new(crate::support::BIN)
        .args(["check", "--jobs", "1"])
        .arg(book.root())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the check starts");
    // The spawner: a child of this check whose command line names it.
    let spawner = (0..2000)
        .find_map(|_| {
            let children =
                std::fs::read_to_string(format!("/proc/{0}/task/{0}/children", check.id()))
                    .unwrap_or_default();
            let found = children.split_whitespace().find(|pid| {
                std::fs::read(format!("/proc/{pid}/cmdline"))
                    .is_ok_and(|c| String::from_utf8_lossy(&c).contains("__companion_spawner"))
            });
            if found.is_none() {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            found.and_then(|p| p.parse::<i32>().ok())
        })
        .expect("the check starts its spawner");
    // SAFETY: kill(2) of the spawner of the check this test started.
    unsafe {
        libc::kill(spawner, libc::SIGSTOP);
    }
    let started = std::time::Instant::now();
    let out = loop {
        if let Some(status) = check.try_wait().expect("a wait") {
            break status;
        }
        if started.elapsed() > std::time::Duration::from_secs(90) {
            let _ = check.kill();
            break check.wait().expect("a wait");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    // SAFETY: kill(2) of the spawner of the check this test started.
    unsafe {
        libc::kill(spawner, libc::SIGKILL);
    }
    let mut stdout = String::new();
    std::io::Read::read_to_string(&mut check.stdout.take().expect("stdout"), &mut stdout)
        .expect("the report");
    assert_eq!(out.code(), Some(0), "{stdout}");
    assert!(stdout.contains("3 passed, 0 failed"), "{stdout}");
}

/// Issue 57, the compilers: what a compile runs for the book (a crate's
/// build script, when Cargo builds the book's crates; its procedural
/// macro, when the example compiles) and what it reads (`include_bytes!`)
/// are in a box too. The build script and the macro each try to write
/// the book and list what they see of the cache (in the box: only the
/// crates' folder); a second example includes the cache's secret, which
/// seals its records, at compile time. Before compilers ran in a box,
/// both wrote the book and saw the secret and the records, and the
/// secret was compiled into the program.
#[test]
fn what_a_compile_runs_or_reads_is_boxed_too() {
    let book = BookTest::new();
    let root = book.root().to_owned();
    let macro_crate = format!(
        "use proc_macro::TokenStream;\n\n#[proc_macro]\npub fn probe(_: TokenStream) -> TokenStream {{\n    let wrote = std::fs::write({planted:?}, \"x\").is_ok();\n    let seen: Vec<String> = std::fs::read_dir({cache:?})\n        .map(|d| d.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect())\n        .unwrap_or_default();\n    format!(\"\\\"wrote the book: {{wrote}}; cache: {{}}; {{}}\\\"\", seen.join(\" \"), env!(\"PROBED\")).parse().unwrap()\n}}\n",
        planted = root.join("planted").display().to_string(),
        cache = root.join(".companion-cache").display().to_string(),
    );
    let build_script = format!(
        "fn main() {{\n    let wrote = std::fs::write({planted:?}, \"x\").is_ok();\n    let seen: Vec<String> = std::fs::read_dir({cache:?})\n        .map(|d| d.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect())\n        .unwrap_or_default();\n    println!(\"cargo::rustc-env=PROBED=build script wrote the book: {{wrote}}; cache: {{}}\", seen.join(\" \"));\n}}\n",
        planted = root.join("planted-by-build").display().to_string(),
        cache = root.join(".companion-cache").display().to_string(),
    );
    let mut book = book
        .file(
            "crates/probe/Cargo.toml",
            "[package]\nname = \"probe\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[lib]\nproc-macro = true\n",
        )
        .file("crates/probe/src/lib.rs", macro_crate)
        .file("crates/probe/build.rs", build_script)
        .toml("[preprocessor.companion.dependencies]\nprobe = { path = \"crates/probe\" }\n")
        .chapter(
            "ch.md",
            "```rust example\nfn main() {\n    println!(\"{}\", probe::probe!());\n}\n```\n\n```output\nwrote the book: false; cache: crates; build script wrote the book: false; cache: crates\n```\n",
        );
    book.run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/ch.md:1: rust example (expect=run)
...
"#]]);
    });
    assert!(!root.join("planted").exists(), "the macro wrote the book");
    assert!(
        !root.join("planted-by-build").exists(),
        "the build script wrote the book"
    );
    let secret = std::fs::read_dir(root.join(".companion-cache"))
        .expect("the cache")
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("secret-"))
        })
        .expect("the cache's secret");
    book.set_chapter(
        "ch.md",
        &format!(
            "```rust example\nfn main() {{\n    println!(\"{{}}\", include_bytes!({:?}).len());\n}}\n```\n\n```output\n32\n```\n",
            secret.display().to_string()
        ),
    );
    let ran = book.run(&["check"], |cmd| {
        cmd.expect_failure();
    });
    assert!(
        ran.stdout.contains("does not compile") && ran.stdout.contains("couldn't read"),
        "{}",
        ran.stdout
    );
}

/// Issue 60: the compiles of one check share one network namespace (loopback
/// only), made once by the spawner instead of one for each compile, and it is
/// not the machine's. A wrapper compiler writes the namespace it runs in
/// beside the book: one for all three compiles, none the test's own. Before,
/// each compile had a namespace of its own (three different ones).
#[test]
fn the_compiles_of_a_check_share_one_network_namespace_not_the_machines() {
    let examples: String = (0..3)
        .map(|i| format!("```rust example\nfn main() {{\n    println!(\"{i}\");\n}}\n```\n\n```output\n{i}\n```\n\n"))
        .collect();
    let book = BookTest::new().chapter("ch.md", &examples);
    let log = crate::support::compiler_log(book.root());
    let wrapper = book.root().join("rustc-net");
    crate::support::executable(
        &wrapper,
        &format!(
            "#!/bin/sh\ncase \"$*\" in\n  *.rs*) echo \"$(readlink /proc/self/ns/net)\" >> '{}' ;;\nesac\nexec rustc \"$@\"\n",
            log.display()
        ),
    );
    let book = book.companion(&format!("rustc = \"{}\"", wrapper.display()));
    book.run(&["check", "--no-merge"], |_| {});
    let text = std::fs::read_to_string(&log).expect("the wrapper's log");
    let nets: Vec<&str> = text.lines().collect();
    assert_eq!(nets.len(), 3, "three compiles:\n{text}");
    assert!(nets.iter().all(|n| *n == nets[0]), "one namespace:\n{text}");
    let own = std::fs::read_link("/proc/self/ns/net").expect("the test's namespace");
    assert_ne!(nets[0], own.to_string_lossy(), "not the machine's");
}

/// Issue 60: a program's box reuses a network namespace another program's
/// box had, once that program ended, but never shares one with a program
/// that runs: six examples each hold a listener on the same port of the
/// loopback at once, which fails the second of any two that share a
/// namespace (as all did when every box joined one). The report shows
/// that they ran side by side.
#[test]
fn programs_that_run_at_once_never_share_a_network_namespace() {
    let examples: String = (0..6)
        .map(|i| format!("```rust example\nfn main() {{\n    let held = std::net::TcpListener::bind(\"127.0.0.1:47613\").unwrap();\n    std::thread::sleep(std::time::Duration::from_millis(300));\n    drop(held);\n    println!(\"held {i}\");\n}}\n```\n\n```output\nheld {i}\n```\n\n"))
        .collect();
    let book = BookTest::new().chapter("ch.md", &examples);
    let ran = book.run(&["check", "--format", "json", "--jobs", "4"], |_| {});
    let json: serde_json::Value = serde_json::from_str(&ran.stdout).expect("a JSON report");
    assert_eq!(json["passed"], 6, "{}", ran.stdout);
    assert_eq!(json["isolation"], "box", "{}", ran.stdout);
    assert!(
        json["programs_at_once"].as_u64().is_some_and(|n| n >= 4),
        "side by side: {}",
        json["programs_at_once"]
    );
}

/// Issue 60: a compiler is its box's pid 1, the supervisor's own child,
/// with no `init` between them (one process fewer a compile); it still
/// sees only its box's processes, and what it leaves running ends with
/// it. A wrapper compiler logs its pid and the pids it sees, and starts a
/// detached sleep of a length only this test uses before it becomes
/// rustc. Before, the compiler was pid 2 under its box's `init`.
#[test]
fn a_compiler_is_pid_1_of_its_box_and_leaves_nothing_running() {
    let token = sleep_token(31);
    let book = BookTest::new().chapter(
        "ch.md",
        "```rust example\nfn main() {\n    println!(\"built\");\n}\n```\n\n```output\nbuilt\n```\n",
    );
    let log = crate::support::compiler_log(book.root());
    let wrapper = book.root().join("rustc-pid");
    crate::support::executable(
        &wrapper,
        &format!(
            "#!/bin/sh\ncase \"$*\" in\n  *.rs*)\n    echo \"$$ $(ls /proc | grep -E '^[0-9]+$' | tr '\\n' ' ')\" >> '{}'\n    setsid sleep {token} </dev/null >/dev/null 2>&1 &\n    ;;\nesac\nexec rustc \"$@\"\n",
            log.display()
        ),
    );
    let book = book.companion(&format!("rustc = \"{}\"", wrapper.display()));
    book.run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/ch.md:1: rust example (expect=run)
...
"#]]);
    });
    assert_eq!(survivors(&token), Vec::<i32>::new(), "outlived the compile");
    let text = std::fs::read_to_string(&log).expect("the wrapper's log");
    let line = text.lines().next().expect("a compile");
    let mut pids = line
        .split_whitespace()
        .map(|p| p.parse::<i32>().expect("a pid"));
    assert_eq!(pids.next(), Some(1), "the compiler is pid 1: {line}");
    // The shell, its command substitution, `ls` and `grep`: nothing else.
    let seen: Vec<i32> = pids.collect();
    assert!(
        seen.contains(&1) && seen.iter().all(|p| (1..=8).contains(p)),
        "only its box's processes: {line}"
    );
}

/// A `sleep` length only this test run uses (`SECONDS.` and the clock's
/// nanoseconds), by which the processes a test's program starts are found.
fn sleep_token(seconds: u32) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!("{seconds}.{nanos:09}")
}

/// The processes still running whose command line holds `token` (which
/// only this test's programs use), killed once found.
fn survivors(token: &str) -> Vec<i32> {
    let found: Vec<i32> = std::fs::read_dir("/proc")
        .expect("/proc")
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).contains(token))
        })
        .collect();
    for pid in &found {
        // SAFETY: kill(2) of a process this test's program started.
        unsafe {
            libc::kill(*pid, libc::SIGKILL);
        }
    }
    found
}
