//! Hostile and careless input, round 4 (issue 40, points 1, 2, 5 and 6),
//! each as a fixture book run through the binary: commands that write an
//! author's file stay inside the book and leave links and read-only files
//! alone; a program's children cannot outlive its time limit and its memory
//! is limited; C flags cannot read or write files; a stray ```asm block is
//! warned about; program output cannot break the JUnit report or drive the
//! terminal; `exercises --out` never follows a link; a FIFO in the cache
//! cannot hang `check`.

use crate::support::{BIN, TestBook};
use std::os::unix::fs::{PermissionsExt as _, symlink};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// Runs the binary; (stdout, stderr, success).
fn run(args: &[&dyn AsRef<std::ffi::OsStr>]) -> (String, String, bool) {
    let out = Command::new(BIN)
        .args(args.iter().map(|a| a.as_ref()))
        .output()
        .expect("run the binary");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

const PLAIN: &str = "# C\n\n```rust\nfn main() {\n    println!(\"hi\");\n}\n```\n";

#[test]
fn adopt_write_stays_in_src_keeps_links_refuses_read_only_and_keeps_a_bom() {
    let book = TestBook::new()
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

    let (_, said, ok) = run(&[&"adopt", &book.root(), &"--write"]);
    assert!(!ok, "refused files make adopt --write fail:\n{said}");
    assert!(
        said.contains("src/../outside.md: not written: resolves to ")
            && said.contains(", outside the book's src; expected a file inside it"),
        "{said}"
    );
    assert!(
        said.contains(
            "src/ro.md: not written: is read-only; make it writable to let this command change it"
        ),
        "{said}"
    );
    assert!(said.contains("2 file(s) not written"), "{said}");
    assert!(said.contains("2 block(s) became examples"), "{said}");
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
    let book = TestBook::new().chapter(
        "ro.md",
        "```rust example\nfn main() { println!(\"new\"); }\n```\n\n```output\nold\n```\n",
    );
    book.write();
    let ro = book.root().join("src/ro.md");
    let before = std::fs::read_to_string(&ro).unwrap();
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o444)).unwrap();
    let (out, _, ok) = run(&[&"check", &book.root(), &"--bless"]);
    assert!(!ok, "{out}");
    assert!(
        out.contains("bless: src/ro.md:1: not blessed: ")
            && out.contains("ro.md is read-only; make it writable"),
        "{out}"
    );
    assert_eq!(std::fs::read_to_string(&ro).unwrap(), before);

    let toml = book.root().join("book.toml");
    std::fs::write(&toml, "[book]\ntitle = \"x\"\n").unwrap();
    std::fs::set_permissions(&toml, std::fs::Permissions::from_mode(0o444)).unwrap();
    let (_, said, ok) = run(&[&"install", &book.root()]);
    assert!(!ok);
    assert!(said.contains("book.toml is read-only"), "{said}");
    assert_eq!(
        std::fs::read_to_string(&toml).unwrap(),
        "[book]\ntitle = \"x\"\n"
    );
}

#[test]
fn a_programs_children_end_with_it_and_at_the_time_limit() {
    let marker = tempfile::tempdir().unwrap();
    let late = marker.path().join("late");
    let waited = marker.path().join("waited");
    let chapter = format!(
        "```rust example\nuse std::process::Command;\nfn main() {{\n    // Detached, holding stdout, and left behind.\n    Command::new(\"setsid\").args([\"sh\", \"-c\", \"sleep 15; touch {}\"]).spawn().unwrap();\n    println!(\"started\");\n}}\n```\n\n```output\nstarted\n```\n\n```rust example\nuse std::process::Command;\nfn main() {{\n    Command::new(\"setsid\").args([\"sh\", \"-c\", \"sleep 15; touch {}\"]).status().unwrap();\n}}\n```\n",
        late.display(),
        waited.display()
    );
    let book = TestBook::new()
        .companion("timeout = 2")
        .chapter("ch.md", &chapter);
    book.write();
    let start = Instant::now();
    let (out, _, ok) = run(&[&"check", &book.root()]);
    let took = start.elapsed();
    assert!(!ok, "{out}");
    assert!(
        took < Duration::from_secs(13),
        "check waited {took:?}:\n{out}"
    );
    assert!(out.contains("ok      src/ch.md:1:"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("FAILED  src/ch.md:14:") && l.contains("time")),
        "{out}"
    );
    std::thread::sleep(Duration::from_secs(17).saturating_sub(start.elapsed()));
    assert!(!late.exists(), "the detached child outlived its program");
    assert!(
        !waited.exists(),
        "the detached child outlived the time limit"
    );
}

#[test]
fn the_memory_limit_stops_a_program_and_is_configurable() {
    // calloc'd pages are not touched: 3 GiB of address space, no real memory.
    let chapter = "```rust example\nfn main() {\n    let v = vec![0u8; 3 << 30];\n    println!(\"{}\", v[12345]);\n}\n```\n\n```output\n0\n```\n";
    let limited = TestBook::new().chapter("ch.md", chapter);
    limited.write();
    let (out, _, ok) = run(&[&"check", &limited.root()]);
    assert!(!ok, "{out}");
    assert!(
        out.contains("memory allocation of 3221225472 bytes failed"),
        "{out}"
    );
    let roomy = TestBook::new()
        .companion("memory = \"4 GiB\"")
        .chapter("ch.md", chapter);
    roomy.write();
    let (out, _, ok) = run(&[&"check", &roomy.root()]);
    assert!(ok, "{out}");
    let bad = TestBook::new()
        .companion("memory = \"lots\"")
        .chapter("ch.md", chapter);
    bad.write();
    let (_, said, ok) = run(&[&"check", &bad.root()]);
    assert!(!ok);
    assert!(
        said.contains("memory is `\"lots\"`; expected a size"),
        "{said}"
    );
}

#[test]
fn c_flags_that_touch_files_are_located_errors_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let written = dir.path().join("x");
    for flags in [
        format!("-Wall -MF{} -MD", written.display()),
        "-include/etc/hostname".to_owned(),
        "-fplugin=/tmp/p.so".to_owned(),
        format!("-Wl,-o,{}", written.display()),
    ] {
        let bad = flags.split(' ').find(|f| *f != "-Wall").unwrap().to_owned();
        let chapter = format!(
            "# C\n\n````compare\n```c flags=\"{flags}\" asm\nint f(int x) {{ return x + 1; }}\n```\n```rust\npub fn f(x: i32) -> i32 {{ x + 1 }}\n```\n````\n"
        );
        let book = TestBook::new().chapter("ch.md", &chapter);
        book.write();
        let (_, said, ok) = run(&[&"build", &book.root()]);
        assert!(!ok, "{said}");
        assert!(
            said.contains("src/ch.md:4:")
                && said.contains(&format!(": found `{bad}` in `flags`, which is refused")),
            "{flags}: {said}"
        );
        assert!(!written.exists(), "{flags} wrote a file");
    }
}

#[test]
fn a_stray_asm_block_is_a_located_warning() {
    let chapter = "# C\n\n```rust example\npub fn f() {}\nfn main() {}\n```\n\nA paragraph in between.\n\n```asm\nCHECK: ret\n```\n\n```asm\nmov eax, 1\n```\n";
    let book = TestBook::new().chapter("ch.md", chapter);
    book.write();
    let (_, said, ok) = run(&[&"build", &book.root()]);
    assert!(ok, "{said}");
    let warning = "found an ```asm block of FileCheck directives that follows no example or comparison side; it claims nothing";
    assert!(
        said.contains(&format!("src/ch.md:10:4: {warning}")),
        "{said}"
    );
    assert_eq!(
        said.matches("```asm block of FileCheck").count(),
        1,
        "{said}"
    );
    let (out, _, ok) = run(&[&"check", &book.root()]);
    assert!(ok, "{out}");
    assert!(
        out.contains(&format!("warning: src/ch.md:10:4: {warning}")),
        "{out}"
    );
}

#[test]
fn program_output_can_neither_break_junit_nor_drive_the_terminal() {
    let chapter = "```rust example\nfn main() {\n    println!(\"\\u{1b}[2J\\u{1b}]0;owned\\u{7}\\u{fffe}\\u{9b}31m\");\n}\n```\n\n```output\nquiet\n```\n";
    let book = TestBook::new().chapter("ch.md", chapter);
    book.write();
    let (xml, _, ok) = run(&[&"check", &book.root(), &"--format", &"junit"]);
    assert!(!ok);
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
    let (text, _, ok) = run(&[&"check", &book.root()]);
    assert!(!ok);
    assert!(
        !text.contains(['\u{1b}', '\u{7}', '\u{9b}', '\u{fffe}']),
        "raw control characters reach the terminal: {text:?}"
    );
    assert!(
        text.contains("\\u{1b}[2J\\u{1b}]0;owned\\u{7}\\u{fffe}\\u{9b}31m"),
        "{text}"
    );
}

#[test]
fn exercises_out_never_follows_a_link_inside_it() {
    let chapter = "````exercise title=\"Add\" id=add\n```rust starter\npub fn add(a: i32, b: i32) -> i32 { todo!() }\n```\n\n```rust tests\n#[test]\nfn adds() { assert_eq!(add(1, 2), 3); }\n```\n\n```rust solution\npub fn add(a: i32, b: i32) -> i32 { a + b }\n```\n````\n";
    let book = TestBook::new().chapter("ch.md", chapter);
    book.write();
    let ws = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let out = ws.path().join("out");
    std::fs::create_dir(&out).unwrap();
    symlink(elsewhere.path(), out.join("add")).unwrap();
    let (_, said, ok) = run(&[&"exercises", &book.root(), &"--out", &out]);
    assert!(!ok, "{said}");
    assert!(
        said.contains(
            "holds add, a symbolic link; expected only folders and regular files under it"
        ),
        "{said}"
    );
    assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 0);
    assert!(!out.join("Cargo.toml").exists(), "nothing was written");
    // A FIFO where a file would go is refused too, without hanging.
    std::fs::remove_file(out.join("add")).unwrap();
    mkfifo(&out.join("Cargo.toml"));
    let (_, said, ok) = run(&[&"exercises", &book.root(), &"--out", &out]);
    assert!(!ok);
    assert!(
        said.contains("Cargo.toml, which is not a regular file"),
        "{said}"
    );
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(status.success());
}

#[test]
fn a_fifo_in_the_cache_is_a_miss_not_a_hang() {
    let book = TestBook::new().chapter(
        "ch.md",
        "```rust example\nfn main() { println!(\"hi\"); }\n```\n\n```output\nhi\n```\n",
    );
    book.write();
    let (out, _, ok) = run(&[&"check", &book.root()]);
    assert!(ok, "{out}");
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
    let mut child = Command::new(BIN)
        .arg("check")
        .arg(book.root())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("check hangs on a FIFO in the cache");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("ok      src/ch.md:1:"), "{text}");
}
