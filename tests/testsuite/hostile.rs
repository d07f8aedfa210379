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
mdbook-companion adopt: checked the book and wrote companion.lock: 4 passed, 0 failed
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
mdbook-companion: error: found no book.toml in .; expected an mdBook book's root directory: pass the root of an existing book, or run `mdbook-companion init .` to start a new book there

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
/// forks each program's supervisor (which forks the box's `init`, which
/// forks the program), rather than forking itself for each: the
/// program's parent is pid 1 of its box, a fork of `mdbook-companion
/// __companion_spawner …`, none of whose descriptors (the pipe on which
/// it tells how the program ended) the program can open.
#[test]
fn a_program_is_started_by_the_spawner_under_its_supervisor() {
    let chapter = "```rust example\nfn main() {\n    let stat = std::fs::read_to_string(\"/proc/self/stat\").unwrap();\n    let ppid = stat.rsplit(\") \").next().unwrap().split(' ').nth(1).unwrap().to_owned();\n    println!(\"parent {ppid}\");\n    let cmdline = std::fs::read(format!(\"/proc/{ppid}/cmdline\")).unwrap();\n    let args: Vec<String> = cmdline.split(|b| *b == 0).map(|a| String::from_utf8_lossy(a).into_owned()).collect();\n    println!(\"{}\", args.get(1).map_or(\"\", String::as_str));\n    let opened = std::fs::read_dir(format!(\"/proc/{ppid}/fd\")).map_or(0, |d| d.flatten().filter(|fd| std::fs::OpenOptions::new().write(true).open(fd.path()).is_ok()).count());\n    println!(\"opened {opened}\");\n}\n```\n\n```output\nparent 1\n__companion_spawner\nopened 0\n```\n";
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
    let mut book = BookTest::new();
    let mut ran_in = |tmpdir: Option<&Path>, base: &Path| {
        let chapter = format!(
            "```rust example\nfn main() {{\n    println!(\"{{}}\", std::env::current_exe().unwrap().display());\n}}\n```\n\n```output\n{}/companion-[..]/main\n```\n",
            base.display()
        );
        book.set_chapter("ch.md", &chapter);
        let _ = std::fs::remove_dir_all(book.root().join(".companion-cache"));
        book.run(&["check"], |cmd| {
            match tmpdir {
                Some(dir) => cmd.env("TMPDIR", dir),
                None => cmd.env_remove("TMPDIR"),
            };
            cmd.expect_stdout(str![[r#"
ok      src/ch.md:1: rust example (expect=run)
...
"#]]);
        });
    };
    let shm = Path::new("/dev/shm");
    let base = match mdbook_companion_engine::exec::memory_dir(shm) {
        true => shm.to_owned(),
        false => std::env::temp_dir(),
    };
    ran_in(None, &base);
    let own = tempfile::tempdir().expect("a directory");
    ran_in(Some(own.path()), own.path());
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

// Issue 57 (round 10): programs in a box, merged binaries read before
// they run, cache records sealed to their key, exercises judged from the
// harness's whole report; a chapter of many blocks in linear time, quiz
// files' links located in them.
mod boxed;
mod harnessed;
mod locked;
mod merged;
mod sealed;
mod stress;
