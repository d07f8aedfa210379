//! Hostile and careless input, round 4 (issue 40, points 1, 2, 5 and 6),
//! each as a fixture book run through the binary: commands that write an
//! author's file stay inside the book and leave links and read-only files
//! alone; a program's children cannot outlive its time limit and its memory
//! is limited; C flags cannot read or write files; a stray ```asm block is
//! warned about; program output cannot break the JUnit report or drive the
//! terminal; `exercises --out` never follows a link; a FIFO in the cache
//! cannot hang `check`.

use crate::support::BookTest;
use snapbox::str;
use std::os::unix::fs::{PermissionsExt as _, symlink};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const PLAIN: &str = "# C\n\n```rust\nfn main() {\n    println!(\"hi\");\n}\n```\n";

#[test]
fn adopt_write_stays_in_src_keeps_links_refuses_read_only_and_keeps_a_bom() {
    let book = BookTest::new()
        .chapter("../outside.md", PLAIN)
        .chapter("link.md", "placeholder")
        .chapter("ro.md", PLAIN)
        .chapter(
            "bom.md",
            &format!("\u{feff}{}", PLAIN.replace('\n', "\r\n")),
        );
    book.write();
    let src = book.root().join("src");
    std::fs::create_dir_all(src.join("real")).unwrap();
    std::fs::write(src.join("real/target.md"), PLAIN).unwrap();
    std::fs::remove_file(src.join("link.md")).unwrap();
    symlink("real/target.md", src.join("link.md")).unwrap();
    std::fs::set_permissions(src.join("ro.md"), std::fs::Permissions::from_mode(0o444)).unwrap();

    // Refused files make adopt --write fail.
    book.run(&["adopt", "--write"], |cmd| {
        cmd.expect_failure().expect_stderr(str![[r#"
mdbook-companion adopt: src/../outside.md: not written: resolves to [ROOT]/outside.md, outside the book's src; expected a file inside it
mdbook-companion adopt: wrote src/link.md
mdbook-companion adopt: src/ro.md: not written: is read-only; make it writable to let this command change it
mdbook-companion adopt: wrote src/bom.md
mdbook-companion adopt: 2 block(s) became examples; 0 left as they are
mdbook-companion: error: 2 file(s) not written

"#]]);
    });
    // Outside and read-only: untouched.
    assert_eq!(
        std::fs::read_to_string(book.root().join("outside.md")).unwrap(),
        PLAIN
    );
    assert_eq!(std::fs::read_to_string(src.join("ro.md")).unwrap(), PLAIN);
    // The link is still a link, and its target was adopted.
    assert!(
        src.join("link.md")
            .symlink_metadata()
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let target = std::fs::read_to_string(src.join("real/target.md")).unwrap();
    assert!(target.contains("```rust example"), "{target}");
    assert!(target.contains("```output\nhi\n```"), "{target}");
    // The byte-order mark and the CRLF line ends are kept.
    let bom = std::fs::read_to_string(src.join("bom.md")).unwrap();
    assert!(bom.starts_with("\u{feff}# C\r\n"), "{bom:?}");
    assert!(bom.contains("```rust example"), "{bom:?}");
    assert!(bom.contains("```output\r\nhi\r\n```\r\n"), "{bom:?}");
    assert!(!bom.replace("\r\n", "").contains('\n'), "{bom:?}");
}

#[test]
fn bless_and_install_refuse_read_only_files() {
    let book = BookTest::new().chapter(
        "ro.md",
        "```rust example\nfn main() { println!(\"new\"); }\n```\n\n```output\nold\n```\n",
    );
    book.write();
    let ro = book.root().join("src/ro.md");
    let before = std::fs::read_to_string(&ro).unwrap();
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o444)).unwrap();
    book.run(&["check", "--bless"], |cmd| {
        cmd.expect_failure().expect_stdout(str![[r#"
FAILED  src/ro.md:1: rust example (expect=run): the output differs from the output block
    --- expected
    +++ actual
    @@ -1 +1 @@
    -old
    +new
bless: src/ro.md:1: not blessed: ./src/ro.md is read-only; make it writable to let this command change it
compiler runs: 2, program runs: 2, from cache: 0
0 passed, 1 failed

"#]]);
    });
    assert_eq!(std::fs::read_to_string(&ro).unwrap(), before);

    let toml = book.root().join("book.toml");
    std::fs::write(&toml, "[book]\ntitle = \"x\"\n").unwrap();
    std::fs::set_permissions(&toml, std::fs::Permissions::from_mode(0o444)).unwrap();
    book.run(&["install"], |cmd| {
        cmd.expect_failure().expect_stderr(str![[r#"
mdbook-companion: error: not written: ./book.toml is read-only; make it writable to let this command change it

"#]]);
    });
    assert_eq!(
        std::fs::read_to_string(&toml).unwrap(),
        "[book]\ntitle = \"x\"\n"
    );
}

/// An error that already says its cause's words (the I/O error in
/// "cannot read …: No such file…") says them once, not again after a colon.
#[test]
fn install_outside_a_book_says_why_once() {
    let book = BookTest::new();
    book.write();
    std::fs::remove_file(book.root().join("book.toml")).unwrap();
    book.run(&["install"], |cmd| {
        cmd.expect_failure().expect_stderr(str![[r#"
mdbook-companion: error: cannot read ./book.toml: No such file or directory (os error 2); expected an mdBook book root (a folder with book.toml)

"#]]);
    });
}

/// How a program ended is never taken from anything it could write: a
/// program that writes a forged "exited with 0" record into every pipe
/// its parent (its supervisor) holds, then exits 1, fails, with its own
/// exit code.
#[test]
fn a_program_cannot_forge_how_it_ended() {
    let chapter = "```rust example\nuse std::io::Write;\nfn main() {\n    let stat = std::fs::read_to_string(\"/proc/self/stat\").unwrap();\n    let ppid = stat.rsplit(\") \").next().unwrap().split(' ').nth(1).unwrap().to_owned();\n    for fd in std::fs::read_dir(format!(\"/proc/{ppid}/fd\")).unwrap().flatten() {\n        if let Ok(mut pipe) = std::fs::OpenOptions::new().write(true).open(fd.path()) {\n            let _ = pipe.write_all(b\"X\\0\\0\\0\\0X\\0\\0\\0\\0\");\n        }\n    }\n    std::process::exit(1);\n}\n```\n";
    let book = BookTest::new().chapter("ch.md", chapter);
    book.run(&["check"], |cmd| {
        cmd.expect_failure().expect_stdout(str![[r#"
FAILED  src/ch.md:1: rust example (expect=run): the program exited with code 1
compiler runs: 1, program runs: 1, from cache: 0
0 passed, 1 failed

"#]]);
    });
}

#[test]
fn a_programs_children_end_with_it_and_at_the_time_limit() {
    let mut book = BookTest::new().companion("timeout = 2");
    let late = book.root().join("late");
    let waited = book.root().join("waited");
    let chapter = format!(
        "```rust example\nuse std::process::Command;\nfn main() {{\n    // Detached, holding stdout, and left behind.\n    Command::new(\"setsid\").args([\"sh\", \"-c\", \"sleep 15; touch {}\"]).spawn().unwrap();\n    println!(\"started\");\n}}\n```\n\n```output\nstarted\n```\n\n```rust example\nuse std::process::Command;\nfn main() {{\n    Command::new(\"setsid\").args([\"sh\", \"-c\", \"sleep 15; touch {}\"]).status().unwrap();\n}}\n```\n",
        late.display(),
        waited.display()
    );
    book.set_chapter("ch.md", &chapter);
    let start = Instant::now();
    book.run(&["check"], |cmd| {
        cmd.expect_failure().expect_stdout(str![[r#"
ok      src/ch.md:1: rust example (expect=run)
FAILED  src/ch.md:14: rust example (expect=run): the program ran longer than the 2 s time limit and was killed (config `timeout`)
compiler runs: 1, program runs: 2, from cache: 0
1 passed, 1 failed

"#]]);
    });
    let took = start.elapsed();
    assert!(took < Duration::from_secs(13), "check waited {took:?}");
    std::thread::sleep(Duration::from_secs(17).saturating_sub(start.elapsed()));
    assert!(!late.exists(), "the detached child outlived its program");
    assert!(
        !waited.exists(),
        "the detached child outlived the time limit"
    );
}

/// The binary starts itself once as the spawner, a small process that
/// forks each program's supervisor (which forks the program), rather than
/// forking itself for each: the program's parent is a fork of
/// `mdbook-companion __companion_spawner …`, and holds none of the
/// program's output pipes, only its status pipe.
#[test]
fn a_program_is_started_by_the_spawner_under_its_supervisor() {
    let chapter = "```rust example\nfn main() {\n    let stat = std::fs::read_to_string(\"/proc/self/stat\").unwrap();\n    let ppid = stat.rsplit(\") \").next().unwrap().split(' ').nth(1).unwrap().to_owned();\n    let cmdline = std::fs::read(format!(\"/proc/{ppid}/cmdline\")).unwrap();\n    let args: Vec<String> = cmdline.split(|b| *b == 0).map(|a| String::from_utf8_lossy(a).into_owned()).collect();\n    println!(\"{}\", args.get(1).map_or(\"\", String::as_str));\n    let fds = std::fs::read_dir(format!(\"/proc/{ppid}/fd\")).map_or(0, |d| d.count());\n    println!(\"{fds} descriptor\");\n}\n```\n\n```output\n__companion_spawner\n1 descriptor\n```\n";
    let book = BookTest::new().chapter("ch.md", chapter);
    book.run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/ch.md:1: rust example (expect=run)
compiler runs: 1, program runs: 1, from cache: 0
1 passed, 0 failed

"#]]);
    });
}

/// A program starts as `std::process::Command` would start it, though
/// through the spawner and its supervisor (our binary, whose runtime
/// ignores SIGPIPE): SIGPIPE at its default, so a C program writing to a
/// closed pipe is killed by it, as under `mdbook test`.
#[test]
fn a_program_starts_with_sigpipe_at_its_default() {
    let chapter = "````compare\n```c expect=run\n#include <signal.h>\n#include <stdio.h>\nint main(void) {\n    void (*was)(int) = signal(SIGPIPE, SIG_DFL);\n    puts(was == SIG_DFL ? \"default\" : \"ignored\");\n    return 0;\n}\n```\n\n```output\ndefault\n```\n\n```rust\nfn main() {}\n```\n````\n";
    let book = BookTest::new().chapter("ch.md", chapter);
    book.write();
    let (json, code) = crate::anybook::check_json(&book, &[]);
    assert_eq!(
        (code, json["summary"].as_str()),
        (0, Some("2 passed, 0 failed")),
        "{json:#}"
    );
}

/// Programs are built and run in scratch directories under `TMPDIR` when
/// it is set; otherwise under `/dev/shm` when it is a memory file system
/// with room whose programs may run (as on this machine), else under the
/// system's temporary directory.
#[test]
fn scratch_directories_go_under_tmpdir_or_in_memory() {
    let book = BookTest::new();
    let exe = book.root().join("exe");
    let chapter = format!(
        "```rust example\nfn main() {{\n    let exe = std::env::current_exe().unwrap();\n    std::fs::write({:?}, exe.display().to_string()).unwrap();\n}}\n```\n",
        exe.display().to_string()
    );
    let book = book.chapter("ch.md", &chapter);
    let ran_in = |tmpdir: Option<&Path>| {
        let _ = std::fs::remove_dir_all(book.root().join(".companion-cache"));
        book.run(&["check"], |cmd| {
            match tmpdir {
                Some(dir) => cmd.env("TMPDIR", dir),
                None => cmd.env_remove("TMPDIR"),
            };
        });
        std::fs::read_to_string(&exe).expect("the program ran")
    };
    let shm = Path::new("/dev/shm");
    let base = match mdbook_companion_engine::exec::memory_dir(shm) {
        true => shm.to_owned(),
        false => std::env::temp_dir(),
    };
    let default = ran_in(None);
    assert!(
        default.starts_with(&format!("{}/companion-", base.display())),
        "{default}"
    );
    let own = tempfile::tempdir().expect("a directory");
    let chosen = ran_in(Some(own.path()));
    assert!(
        chosen.starts_with(&format!("{}/companion-", own.path().display())),
        "{chosen}"
    );
}

#[test]
fn the_memory_limit_stops_a_program_and_is_configurable() {
    // calloc'd pages are not touched: 3 GiB of address space, no real memory.
    let chapter = "```rust example\nfn main() {\n    let v = vec![0u8; 3 << 30];\n    println!(\"{}\", v[12345]);\n}\n```\n\n```output\n0\n```\n";
    let limited = BookTest::new().chapter("ch.md", chapter);
    limited.run(&["check"], |cmd| {
        cmd.expect_failure().expect_stdout(str![[r#"
FAILED  src/ch.md:1: rust example (expect=run): the program was killed by a signal
    | memory allocation of 3221225472 bytes failed
    | note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
compiler runs: 1, program runs: 1, from cache: 0
0 passed, 1 failed

"#]]);
    });
    let roomy = BookTest::new()
        .companion("memory = \"4 GiB\"")
        .chapter("ch.md", chapter);
    roomy.run(&["check"], |_| {});
    let bad = BookTest::new()
        .companion("memory = \"lots\"")
        .chapter("ch.md", chapter);
    bad.run(&["check"], |cmd| {
        cmd.expect_failure().expect_stderr(str![[r#"
mdbook-companion: error: book.toml [preprocessor.companion]: memory is `"lots"`; expected a size such as "2 GiB" or "512 MiB" (a bare number is MiB), at least 16 MiB, or "unlimited"

"#]]);
    });
}

#[test]
fn c_flags_that_touch_files_are_located_errors_and_nothing_is_written() {
    // The table of errors: each `flags`, and what the build said.
    let mut book = BookTest::new();
    let written = book.root().join("x");
    let mut table = String::new();
    for flags in [
        format!("-Wall -MF{} -MD", written.display()),
        "-include/etc/hostname".to_owned(),
        "-fplugin=/tmp/p.so".to_owned(),
        format!("-Wl,-o,{}", written.display()),
    ] {
        let chapter = format!(
            "# C\n\n````compare\n```c flags=\"{flags}\" asm\nint f(int x) {{ return x + 1; }}\n```\n```rust\npub fn f(x: i32) -> i32 {{ x + 1 }}\n```\n````\n"
        );
        book.set_chapter("ch.md", &chapter);
        book.write();
        let ran = book.run(&["build"], |cmd| {
            cmd.expect_failure();
        });
        table.push_str(&format!("flags=\"{flags}\"\n{}", ran.stderr));
        assert!(!written.exists(), "{flags} wrote a file");
    }
    book.check_text(table, str![[r#"
flags="-Wall -MF[ROOT]/x -MD"
 INFO Book building has started
mdbook-companion: error: src/ch.md:4:6: found `-MF[ROOT]/x` in `flags`, which is refused: it does not change how the code is generated or diagnosed, or names a file; expected only flags that change how the code is generated or diagnosed: `-W…`, `-O…`, `-std=…`, `-f…` without a file, `-D…`, `-U…`, `-m…`, `-w`, `-pedantic`
flags="-include/etc/hostname"
 INFO Book building has started
mdbook-companion: error: src/ch.md:4:6: found `-include/etc/hostname` in `flags`, which is refused: it does not change how the code is generated or diagnosed, or names a file; expected only flags that change how the code is generated or diagnosed: `-W…`, `-O…`, `-std=…`, `-f…` without a file, `-D…`, `-U…`, `-m…`, `-w`, `-pedantic`
flags="-fplugin=/tmp/p.so"
 INFO Book building has started
mdbook-companion: error: src/ch.md:4:6: found `-fplugin=/tmp/p.so` in `flags`, which is refused: it names a file or runs another program; expected only flags that change how the code is generated or diagnosed: `-W…`, `-O…`, `-std=…`, `-f…` without a file, `-D…`, `-U…`, `-m…`, `-w`, `-pedantic`
flags="-Wl,-o,[ROOT]/x"
 INFO Book building has started
mdbook-companion: error: src/ch.md:4:6: found `-Wl,-o,[ROOT]/x` in `flags`, which is refused: it passes options through to the assembler, linker or preprocessor; expected only flags that change how the code is generated or diagnosed: `-W…`, `-O…`, `-std=…`, `-f…` without a file, `-D…`, `-U…`, `-m…`, `-w`, `-pedantic`

"#]]);
}

#[test]
fn a_stray_asm_block_is_a_located_warning() {
    let chapter = "# C\n\n```rust example\npub fn f() {}\nfn main() {}\n```\n\nA paragraph in between.\n\n```asm\nCHECK: ret\n```\n\n```asm\nmov eax, 1\n```\n";
    let book = BookTest::new().chapter("ch.md", chapter);
    // One warning, at the stray block.
    book.run(&["build"], |cmd| {
        cmd.expect_stderr(str![[r#"
 INFO Book building has started
 WARN src/ch.md:10:4: found an ```asm block of FileCheck directives that follows no example or comparison side; it claims nothing and is shown as plain code; expected it right after the snippet (or its ```output), with only blank lines between
 INFO Running the html backend
 INFO HTML book written to `./book`

"#]]);
    });
    book.run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/ch.md:3: rust example (expect=run)
warning: src/ch.md:10:4: found an ```asm block of FileCheck directives that follows no example or comparison side; it claims nothing and is shown as plain code; expected it right after the snippet (or its ```output), with only blank lines between
compiler runs: 1, program runs: 1, from cache: 0
1 passed, 0 failed

"#]]);
    });
}

#[test]
fn program_output_can_neither_break_junit_nor_drive_the_terminal() {
    let chapter = "```rust example\nfn main() {\n    println!(\"\\u{1b}[2J\\u{1b}]0;owned\\u{7}\\u{fffe}\\u{9b}31m\");\n}\n```\n\n```output\nquiet\n```\n";
    let book = BookTest::new().chapter("ch.md", chapter);
    let xml = book
        .run(&["check", "--format", "junit"], |cmd| {
            cmd.expect_failure();
        })
        .stdout;
    let mut reader = quick_xml::Reader::from_str(&xml);
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!("invalid XML: {e}\n{xml}"),
        }
    }
    assert!(!xml.contains(['\u{fffe}', '\u{1b}', '\u{7}']), "{xml:?}");
    assert!(xml.contains("\\u{fffe}"), "{xml}");
    // No raw control character reaches the terminal: each is written
    // as its escape.
    let text = book
        .run(&["check"], |cmd| {
            cmd.expect_failure().expect_stdout(str![[r#"
FAILED  src/ch.md:1: rust example (expect=run): the output differs from the output block
    --- expected
    +++ actual
    @@ -1 +1 @@
    -quiet
    +\u{1b}[2J\u{1b}]0;owned\u{7}\u{fffe}\u{9b}31m
compiler runs: 0, program runs: 0, from cache: 1
0 passed, 1 failed

"#]]);
        })
        .stdout;
    assert!(
        !text.contains(['\u{1b}', '\u{7}', '\u{9b}', '\u{fffe}']),
        "raw control characters reach the terminal: {text:?}"
    );
}

#[test]
fn exercises_out_never_follows_a_link_inside_it() {
    let chapter = "````exercise title=\"Add\" id=add\n```rust starter\npub fn add(a: i32, b: i32) -> i32 { todo!() }\n```\n\n```rust tests\n#[test]\nfn adds() { assert_eq!(add(1, 2), 3); }\n```\n\n```rust solution\npub fn add(a: i32, b: i32) -> i32 { a + b }\n```\n````\n";
    let book = BookTest::new().chapter("ch.md", chapter);
    book.write();
    let elsewhere = tempfile::tempdir().unwrap();
    let out = book.root().join("ws/out");
    std::fs::create_dir_all(&out).unwrap();
    symlink(elsewhere.path(), out.join("add")).unwrap();
    book.run(&["exercises", ".", "--out", "ws/out"], |cmd| {
        cmd.expect_failure().expect_stderr(str![[r#"
mdbook-companion: error: ws/out holds add, a symbolic link; expected only folders and regular files under it, which this command writes (nothing was written)

"#]]);
    });
    assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 0);
    assert!(!out.join("Cargo.toml").exists(), "nothing was written");
    // A FIFO where a file would go is refused too, without hanging.
    std::fs::remove_file(out.join("add")).unwrap();
    mkfifo(&out.join("Cargo.toml"));
    book.run(&["exercises", ".", "--out", "ws/out"], |cmd| {
        cmd.timeout(Duration::from_secs(60))
            .expect_failure()
            .expect_stderr(str![[r#"
mdbook-companion: error: ws/out holds Cargo.toml, which is not a regular file; expected only folders and regular files under it, which this command writes (nothing was written)

"#]]);
    });
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(status.success());
}

#[test]
fn a_fifo_in_the_cache_is_a_miss_not_a_hang() {
    let book = BookTest::new().chapter(
        "ch.md",
        "```rust example\nfn main() { println!(\"hi\"); }\n```\n\n```output\nhi\n```\n",
    );
    book.run(&["check"], |_| {});
    // Every entry of the cache becomes a FIFO.
    let mut entries = Vec::new();
    let mut stack = vec![book.root().join(".companion-cache")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().is_some_and(|n| n != ".gitignore") {
                entries.push(p);
            }
        }
    }
    assert!(!entries.is_empty());
    for p in &entries {
        std::fs::remove_file(p).unwrap();
        mkfifo(p);
    }
    // A hang fails the test after a minute.
    book.run(&["check"], |cmd| {
        cmd.timeout(Duration::from_secs(60)).expect_stdout(str![[r#"
ok      src/ch.md:1: rust example (expect=run)
compiler runs: 1, program runs: 1, from cache: 0
1 passed, 0 failed

"#]]);
    });
}

/// The CPU time (user and system, in seconds) of the binary run with
/// `args` in `root`, or `None` when it ran past `wall` (it is then
/// killed): a run that costs the square of its blocks is told without
/// waiting for it.
// Reaped by `wait4`, which gives its CPU time too; clippy sees no `wait`.
#[allow(clippy::zombie_processes)]
fn cpu_seconds(root: &Path, args: &[&str], wall: Duration) -> Option<f64> {
    // The preprocessor (no arguments) reads mdBook's input from a file.
    let stdin = match args.is_empty() {
        true => std::fs::File::open(root.join("input.json"))
            .expect("input")
            .into(),
        false => std::process::Stdio::null(),
    };
    let child = Command::new(crate::support::BIN)
        .args(args)
        .current_dir(root)
        .stdin(stdin)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn");
    let pid = child.id() as libc::pid_t;
    let start = Instant::now();
    loop {
        let mut status = 0;
        // SAFETY: an all-zero rusage is a valid value for wait4 to fill.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `pid` is our child, not yet reaped; both pointers are
        // to live locals.
        let done = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if done == pid {
            assert!(
                libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
                "{args:?} ended with {status}"
            );
            let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
            return Some(secs(usage.ru_utime) + secs(usage.ru_stime));
        }
        if start.elapsed() > wall {
            // SAFETY: signalling our own child, not yet reaped.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            // SAFETY: reaping it, as above.
            unsafe { libc::waitpid(pid, &mut status, 0) };
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Issue 57 (item 6.1): a chapter of n `rust example ignore` blocks cost
/// `check` the square of n (each block's `--bless` target was found by
/// counting lines from the chapter's start), `check --locked` more (each
/// entry looked for its pair among all the lock's), and the build's
/// preprocessor too once the book has a lock (each claim's line counted
/// from the start). Sixteen times the blocks must cost less than forty
/// times the CPU (linear work is about sixteen; main took over a hundred,
/// and is stopped well before).
#[test]
fn a_chapter_of_many_blocks_costs_in_proportion_to_them() {
    // Prose between the blocks, as a book has: a step that counts from
    // the chapter's start for each block pays for it.
    let prose = "Some words about the example, as a chapter has them. ".repeat(8);
    let book = |n: usize| {
        let mut chapter = String::from("# One\n");
        for i in 0..n {
            chapter.push_str(&format!(
                "\n{prose}\n\n```rust example ignore\nfn main() {{ println!(\"{i}\"); }}\n```\n"
            ));
        }
        let book = BookTest::new().chapter("one.md", &chapter);
        book.write();
        // mdBook's input to the preprocessor, as `mdbook build` gives it.
        let one = serde_json::json!({"Chapter": {"name": "One", "content": chapter,
            "number": [1], "sub_items": [], "path": "one.md", "source_path": "one.md",
            "parent_names": []}});
        let context = serde_json::json!({"root": book.root(), "renderer": "html",
            "mdbook_version": "0.5.4", "config": {"book": {"title": "Case", "src": "src"},
            "preprocessor": {"companion": {"after": ["links"]}}}});
        let input = serde_json::json!([context, {"items": [one]}]);
        std::fs::write(book.root().join("input.json"), input.to_string()).unwrap();
        book
    };
    let (small, big) = (book(1_000), book(16_000));
    let mut budget = Vec::new();
    // `check` writes the lock the other two read.
    for args in [&["check"][..], &["check", "--locked"], &[]] {
        let start = Instant::now();
        let base = cpu_seconds(small.root(), args, Duration::from_secs(600)).expect("small book");
        // Generous in wall time too, on a loaded machine: eighty times.
        let wall = start.elapsed().max(Duration::from_millis(500)) * 80;
        let cost = cpu_seconds(big.root(), args, wall);
        budget.push((args, base, cost));
    }
    for (args, base, cost) in budget {
        let cost = cost.unwrap_or_else(|| panic!("{args:?}: 16,000 blocks ran past 80 times the wall time of 1,000 ({base:.2} s of CPU)"));
        eprintln!("{args:?}: 1,000 blocks {base:.2} s, 16,000 {cost:.2} s of CPU");
        assert!(
            cost < 40.0 * base,
            "{args:?}: 16,000 blocks took {cost:.2} s of CPU, 1,000 took {base:.2} s: {:.1} times",
            cost / base
        );
    }
}

/// Issue 57 (item 6.2): a link a quiz file's Markdown may not hold
/// (`javascript:`, `data:`) was told at the chapter's `{{#quiz}}` line;
/// it is told at its string in the file, wherever the string is: a
/// prompt, an explanation, a distractor, one of the right answers, a
/// `[multipart]` context.
#[test]
fn a_bad_link_in_a_quiz_file_is_told_at_its_string_in_the_file() {
    let clean = concat!(
        "[multipart]\n",
        "parts = \"Both parts.\"\n",
        "\n",
        "[[questions]]\n",
        "type = \"ShortAnswer\"\n",
        "prompt.prompt = \"Which keyword?\"\n",
        "answer.answer = \"let\"\n",
        "context = \"As the chapter says.\"\n",
        "\n",
        "[[questions]]\n",
        "type = \"MultipleChoice\"\n",
        "multipart = \"parts\"\n",
        "prompt.prompt = \"Pick.\"\n",
        "prompt.distractors = [\"a\", \"b\"]\n",
        "answer.answer = [\"c\", \"d\"]\n",
    );
    let mut table = String::new();
    for (place, text) in [
        ("a prompt", "Which keyword?"),
        ("an explanation", "As the chapter says."),
        ("a distractor", "\"b\""),
        ("a right answer", "\"d\""),
        ("a multipart context", "Both parts."),
    ] {
        let bad = match text.strip_suffix('"') {
            Some(t) => format!("{t} [x](javascript:alert(1))\""),
            None => format!("{text} [x](data:text/html,hi)"),
        };
        let book = BookTest::new()
            .chapter("quiz.md", "# Quiz\n\nBefore.\n\n{{#quiz q.toml}}\n")
            .file("src/q.toml", clean.replacen(text, &bad, 1));
        let ran = book.run(&["check"], |cmd| {
            cmd.expect_failure();
        });
        let first = ran.stdout.lines().next().unwrap_or("").to_owned();
        table.push_str(&format!("{place}: {first}\n"));
    }
    BookTest::new().check_text(table, str![[r#"
a prompt: FAILED  src/q.toml:6:17: found a link to `data:text/html,hi` in the question; expected an http(s) or relative link (asked for by src/quiz.md:5:1)
an explanation: FAILED  src/q.toml:8:11: found a link to `data:text/html,hi` in the note; expected an http(s) or relative link (asked for by src/quiz.md:5:1)
a distractor: FAILED  src/q.toml:14:28: found a link to `javascript:alert(1)` in the note; expected an http(s) or relative link (asked for by src/quiz.md:5:1)
a right answer: FAILED  src/q.toml:15:23: found a link to `javascript:alert(1)` in the note; expected an http(s) or relative link (asked for by src/quiz.md:5:1)
a multipart context: FAILED  src/q.toml:2:9: found a link to `data:text/html,hi` in the question; expected an http(s) or relative link (asked for by src/quiz.md:5:1)

"#]]);
}

/// Issue 57 (item 6.3): a quiz file's question `id` with a space made an
/// element id with a space, which HTML forbids (and no `#` link can
/// reach). mdbook-quiz takes any string, so the file keeps working: each
/// whitespace character of the id becomes `-`, as in mdBook's heading
/// anchors, and an id of whitespace alone makes no anchor.
#[test]
fn a_quiz_file_id_with_spaces_is_a_valid_anchor() {
    let toml = concat!(
        "[[questions]]\n",
        "id = \"ownership  one\\tbis\"\n",
        "type = \"ShortAnswer\"\n",
        "prompt.prompt = \"Which keyword?\"\n",
        "answer.answer = \"let\"\n",
        "\n",
        "[[questions]]\n",
        "id = \" \"\n",
        "type = \"ShortAnswer\"\n",
        "prompt.prompt = \"Which other?\"\n",
        "answer.answer = \"mut\"\n",
    );
    let book = BookTest::new()
        .chapter("quiz.md", "# Quiz\n\n{{#quiz q.toml}}\n")
        .file("src/q.toml", toml);
    let page = book.html("quiz.md");
    let ids: Vec<Option<&str>> = page
        .all("fieldset.companion-quiz-question")
        .iter()
        .map(|q| q.value().attr("id"))
        .collect();
    assert_eq!(ids, [Some("ownership--one-bis"), None]);
    for el in page.all("[id]") {
        let id = el.value().attr("id").unwrap_or("");
        assert!(
            !id.is_empty() && !id.contains(|c: char| c.is_ascii_whitespace()),
            "an invalid id: {id:?}"
        );
    }
}

/// The `FAILED` lines of a report, each cut before what it quotes (a
/// listing, a toolchain), one per line; `-` when none.
fn failures(report: &str) -> String {
    let cut = |l: &str| {
        let end = [l.find(": \""), l.find(';')].into_iter().flatten().min();
        l[..end.unwrap_or(l.len())].to_owned()
    };
    let lines: Vec<String> = report
        .lines()
        .filter(|l| l.starts_with("FAILED"))
        .map(cut)
        .collect();
    match lines.is_empty() {
        true => "-".to_owned(),
        false => lines.join("\n    "),
    }
}

/// Issue 57 (item 5): `check --locked` under `--chapter` or `--partition`
/// passed with a note that the lock was not compared, even with no lock.
/// It compares the chosen blocks' entries and assembly panels with the
/// lock and fails where they differ or are missing; the other blocks'
/// are not judged.
#[test]
fn locked_judges_the_chosen_blocks_under_chapter_and_partition() {
    let one =
        "# One\n\n```rust example\nfn main() { println!(\"1\"); }\n```\n\n```output\n1\n```\n";
    let two = "# Two\n\n```rust example\nfn main() { println!(\"2\"); }\n```\n\n```output\n2\n```\n\n```rust example asm\npub fn f(x: u32) -> u32 { x * 2 }\nfn main() { println!(\"{}\", f(2)); }\n```\n\n```output\n4\n```\n";
    let book = BookTest::new()
        .chapter("one.md", one)
        .chapter("two.md", two);
    let mut table = String::new();
    let mut runs = |when: &str| {
        for args in [
            &["--chapter", "one.md"][..],
            &["--chapter", "two.md"],
            &["--partition", "hash:1/2"],
            &["--partition", "hash:2/2"],
        ] {
            let ran = book.run(&[&["check", "--locked"][..], args].concat(), |cmd| {
                cmd.expect_any_status();
            });
            let said = failures(&ran.stdout);
            table.push_str(&format!("{when} {args:?} ended {}: {said}\n", ran.code));
        }
    };
    runs("no lock:");
    book.run(&["check"], |_| {});
    runs("locked:");
    // The entry of one.md's block and the panel of two.md's second.
    let lock = book.read("companion.lock");
    let forged = lock.replacen("\n1\n\"\"\"", "\nFORGED\n\"\"\"", 1);
    assert_ne!(forged, lock, "one.md's recorded output");
    let lock = forged;
    let at = lock.find("[[assembly]]").expect("a panel");
    let panel = lock[at..].replacen("toolchain = \"", "toolchain = \"FORGED ", 1);
    std::fs::write(
        book.root().join("companion.lock"),
        format!("{}{panel}", &lock[..at]),
    )
    .unwrap();
    runs("forged:");
    book.check_text(table, str![[r#"
no lock: ["--chapter", "one.md"] ended 1: FAILED  --locked: companion.lock is missing
no lock: ["--chapter", "two.md"] ended 1: FAILED  --locked: companion.lock is missing
no lock: ["--partition", "hash:1/2"] ended 1: FAILED  --locked: companion.lock is missing
no lock: ["--partition", "hash:2/2"] ended 1: FAILED  --locked: companion.lock is missing
locked: ["--chapter", "one.md"] ended 0: -
locked: ["--chapter", "two.md"] ended 0: -
locked: ["--partition", "hash:1/2"] ended 0: -
locked: ["--partition", "hash:2/2"] ended 0: -
forged: ["--chapter", "one.md"] ended 1: FAILED  --locked: src/one.md:3: rust example: run.stdout
forged: ["--chapter", "two.md"] ended 1: FAILED  --locked: src/two.md:11: rust example: assembly.toolchain
forged: ["--partition", "hash:1/2"] ended 1: FAILED  --locked: src/two.md:11: rust example: assembly.toolchain
forged: ["--partition", "hash:2/2"] ended 1: FAILED  --locked: src/one.md:3: rust example: run.stdout

"#]]);
}

/// Issue 57 (item 5): `mdbook build` failed where `check --locked`
/// passed when a file `[output.html]` names was gone (the companion
/// stylesheet, a script, the 404 page), when book.toml named a theme
/// directory that is not there, or when a template of the theme was not
/// UTF-8. `check` fails on each, at the value of book.toml that names
/// the file (the template at its own bad byte), also for one chapter.
#[test]
fn check_fails_where_the_html_renderer_would() {
    /// A case, a file removed, book.toml added, a file written.
    type Case = (
        &'static str,
        &'static str,
        &'static str,
        (&'static str, &'static [u8]),
    );
    let cases: [Case; 6] = [
        ("nothing missing", "", "", ("", b"")),
        ("no stylesheet", "theme/companion.css", "", ("", b"")),
        ("no script", "theme/companion.js", "", ("", b"")),
        ("a theme named, gone", "", "theme = \"mytheme\"", ("", b"")),
        (
            "a 404 page named, gone",
            "",
            "input-404 = \"nope.md\"",
            ("", b""),
        ),
        (
            "a template not UTF-8",
            "",
            "",
            ("theme/index.hbs", b"<html>\n  \xff</html>\n"),
        ),
    ];
    let mut table = String::new();
    for (case, gone, toml, (file, bytes)) in cases {
        let mut book = BookTest::new().chapter("c.md", "# C\n\nNo directive.\n");
        if !toml.is_empty() {
            book = book.toml(&format!("[output.html]\n{toml}"));
        }
        if !file.is_empty() {
            book = book.file(file, bytes);
        }
        book.write();
        if !gone.is_empty() {
            std::fs::remove_file(book.root().join(gone)).unwrap();
        }
        // Real mdBook on the book as it stands (`BookTest::build` would
        // write the removed file again).
        let built = match mdbook_driver::MDBook::load(book.root()).and_then(|b| b.build()) {
            Ok(()) => "passes",
            Err(_) => "fails",
        };
        for args in [&["check"][..], &["check", "--locked", "--chapter", "c.md"]] {
            let ran = book.run(args, |cmd| {
                cmd.expect_any_status();
            });
            let said = failures(&ran.stdout);
            table.push_str(&format!(
                "{case}: build {built}; {args:?} ended {}: {said}\n",
                ran.code
            ));
        }
    }
    BookTest::new().check_text(table, str![[r#"
nothing missing: build passes; ["check"] ended 0: -
nothing missing: build passes; ["check", "--locked", "--chapter", "c.md"] ended 0: -
no stylesheet: build fails; ["check"] ended 1: FAILED  book.toml:10:19: found theme/companion.css, which [output.html] additional-css names, but there is no such file
no stylesheet: build fails; ["check", "--locked", "--chapter", "c.md"] ended 1: FAILED  book.toml:10:19: found theme/companion.css, which [output.html] additional-css names, but there is no such file
no script: build fails; ["check"] ended 1: FAILED  book.toml:11:18: found theme/companion.js, which [output.html] additional-js names, but there is no such file
no script: build fails; ["check", "--locked", "--chapter", "c.md"] ended 1: FAILED  book.toml:11:18: found theme/companion.js, which [output.html] additional-js names, but there is no such file
a theme named, gone: build fails; ["check"] ended 1: FAILED  book.toml:11:9: found no directory mytheme, which [output.html] theme names
a theme named, gone: build fails; ["check", "--locked", "--chapter", "c.md"] ended 1: FAILED  book.toml:11:9: found no directory mytheme, which [output.html] theme names
a 404 page named, gone: build fails; ["check"] ended 1: FAILED  book.toml:11:13: found src/nope.md, which [output.html] input-404 names, but there is no such file
a 404 page named, gone: build fails; ["check", "--locked", "--chapter", "c.md"] ended 1: FAILED  book.toml:11:13: found src/nope.md, which [output.html] input-404 names, but there is no such file
a template not UTF-8: build fails; ["check"] ended 1: FAILED  theme/index.hbs:2:3: found bytes that are not UTF-8 in a template of the theme
a template not UTF-8: build fails; ["check", "--locked", "--chapter", "c.md"] ended 1: FAILED  theme/index.hbs:2:3: found bytes that are not UTF-8 in a template of the theme

"#]]);
}
