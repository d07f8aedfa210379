//! Benchmark: the preprocessor against the JSON floor on synthetic books.
//!
//! Run with `cargo bench --bench preprocess` (add `-- --quick` for fewer
//! runs). For 250, 1,000 and 4,000 chapters of generated Markdown (about
//! 15 KB each: prose, lists, tables, Rust and C code, and a sprinkling of
//! directives, some in list items and block quotes) it writes mdBook 0.5
//! input once, then times, alternating on the same input, the release
//! `mdbook-companion` binary and a no-op floor (this same executable run
//! with `--floor`: read stdin, parse the JSON, serialise it back, buffered).
//! It prints medians, the ratio, the growth from 1,000 to 4,000 chapters and
//! each program's peak memory against the input size.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--floor") {
        floor();
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--dump") {
        // `--dump N FILE`: write the input for N chapters, for profiling.
        let n: usize = args
            .get(i + 1)
            .and_then(|n| n.parse().ok())
            .expect("--dump N FILE");
        std::fs::write(args.get(i + 2).expect("--dump N FILE"), generate(n)).expect("write");
        return;
    }
    let quick = args.iter().any(|a| a == "--quick");
    let bin = env!("CARGO_BIN_EXE_mdbook-companion");
    let me = std::env::current_exe().expect("current exe");
    let dir = tempfile::tempdir().expect("tempdir");
    println!(
        "| chapters | input MB | floor median s | companion median s | ratio | floor peak MB | companion peak MB | peak / input |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut at_1000 = None;
    for &n in &[250usize, 1000, 4000] {
        // A child process writes the input, so this process stays small:
        // a spawned child's peak memory counts the parent's pages it
        // starts from.
        let path = dir.path().join(format!("book-{n}.json"));
        let status = Command::new(&me)
            .arg("--dump")
            .arg(n.to_string())
            .arg(&path)
            .status()
            .expect("generate");
        assert!(status.success(), "generating the input failed");
        let input_len = std::fs::metadata(&path).expect("input").len() as usize;
        let runs = match (quick, n) {
            (true, _) => 3,
            (false, 4000) => 7,
            (false, _) => 11,
        };
        let mut floor_t = Vec::new();
        let mut comp_t = Vec::new();
        let mut floor_mem = 0;
        let mut comp_mem = 0;
        // One warm-up each, then paired runs.
        run(me.to_str().expect("utf8 path"), &["--floor"], &path);
        run(bin, &[], &path);
        for _ in 0..runs {
            let (t, m) = run(me.to_str().expect("utf8 path"), &["--floor"], &path);
            floor_t.push(t);
            floor_mem = floor_mem.max(m);
            let (t, m) = run(bin, &[], &path);
            comp_t.push(t);
            comp_mem = comp_mem.max(m);
        }
        let f = median(&mut floor_t);
        let c = median(&mut comp_t);
        let mb = input_len as f64 / 1e6;
        println!(
            "| {n} | {mb:.1} | {:.3} | {:.3} | {:.2} | {:.0} | {:.0} | {:.2} |",
            f.as_secs_f64(),
            c.as_secs_f64(),
            c.as_secs_f64() / f.as_secs_f64(),
            floor_mem as f64 / 1e6,
            comp_mem as f64 / 1e6,
            comp_mem as f64 / input_len as f64,
        );
        if n == 1000 {
            at_1000 = Some(c);
        }
        if let (4000, Some(base)) = (n, at_1000) {
            println!();
            println!(
                "growth 1,000 -> 4,000 chapters: {:.2}x (linear would be 4.00x)",
                c.as_secs_f64() / base.as_secs_f64()
            );
        }
    }
}

/// The floor: buffered parse and re-serialisation of the same JSON.
fn floor() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).expect("stdin");
    let value: serde_json::Value = serde_json::from_str(&text).expect("json");
    let book = &value[1];
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    serde_json::to_writer(&mut out, book).expect("write");
    out.flush().expect("flush");
}

/// Runs a program with the file on stdin and stdout discarded; returns the
/// wall time and the peak resident memory in bytes.
#[allow(
    clippy::zombie_processes,
    reason = "reaped by wait4 below, which also gives its rusage"
)]
fn run(program: &str, args: &[&str], input: &std::path::Path) -> (Duration, u64) {
    let file = std::fs::File::open(input).expect("input");
    let start = Instant::now();
    let child = Command::new(program)
        .args(args)
        .stdin(file)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child; pointers are to live locals.
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let elapsed = start.elapsed();
    assert_eq!(r, pid, "wait4");
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "{program} failed"
    );
    (elapsed, usage.ru_maxrss as u64 * 1024)
}

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// A small deterministic generator (xorshift), so every run sees the same book.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

const WORDS: &[&str] = &[
    "kernel", "driver", "memory", "safe", "unsafe", "borrow", "lifetime", "pointer", "the", "a",
    "compiler", "checks", "every", "access", "while", "C", "leaves", "it", "to", "you", "for",
    "example", "compare", "this", "with", "that", "integer", "overflow", "panic", "defined",
];

fn sentence(r: &mut Rng) -> String {
    let n = 8 + (r.next() % 12) as usize;
    let mut s: Vec<&str> = (0..n).map(|_| r.pick(WORDS)).collect();
    s[0] = "Rust";
    format!("{}.", s.join(" "))
}

fn chapter(i: usize, r: &mut Rng) -> String {
    let mut s = format!("# Chapter {i}\n\n");
    while s.len() < 15_000 {
        match r.next() % 10 {
            0..=3 => {
                for _ in 0..4 {
                    s.push_str(&sentence(r));
                    s.push(' ');
                }
                s.push_str("\n\n");
            }
            4 => {
                for k in 0..4 {
                    s.push_str(&format!("- item {k}: {}\n", sentence(r)));
                }
                s.push('\n');
            }
            5 => s.push_str(
                "| type | size | signed |\n|---|---:|---|\n| i32 | 4 | yes |\n| u64 | 8 | no |\n\n",
            ),
            6 => s.push_str(
                "```rust\nfn add(a: i32, b: i32) -> i32 {\n    a.wrapping_add(b)\n}\n```\n\n",
            ),
            7 => s.push_str(
                "```c\nint add(int a, int b) {\n    return a + b; /* may overflow */\n}\n```\n\n",
            ),
            8 => s.push_str("> A note: for example, compare the two versions.\n> They differ.\n\n"),
            _ => s.push_str(
                "## A section\n\nMore text follows, with `inline code` and *emphasis*.\n\n",
            ),
        }
        // A sprinkling of all three directives: roughly one chapter in ten gets some.
        if i.is_multiple_of(10) && r.next().is_multiple_of(12) {
            match r.next() % 5 {
                0 => s.push_str("```rust example title=\"Checked\" expect=panic\nfn main() {\n    let v: Vec<u8> = Vec::new();\n    v[0];\n}\n```\n\n```output\nindex out of bounds\n```\n\n"),
                1 => s.push_str("1. In a list:\n\n   ```rust example\n   # fn main() {\n   println!(\"hi\");\n   # }\n   ```\n2. Next.\n\n"),
                2 => s.push_str("> Quoted:\n>\n> ```rust example mode=release\n> fn main() { println!(\"{}\", 1u8.wrapping_add(255)); }\n> ```\n\n"),
                3 => s.push_str("````compare title=\"Division\"\n```c caption=\"C\"\nint divide(int a, int b) { return a / b; }\n```\nUndefined for two inputs.\n```rust caption=\"Rust\"\npub fn divide(a: i32, b: i32) -> i32 { a / b }\n```\n````\n\n"),
                _ => s.push_str("```reading-list\n[[entry]]\ntitle = \"The Rust Programming Language\"\nurl = \"https://doc.rust-lang.org/book/\"\naccess = \"free\"\nrecommended = true\n```\n\n"),
            }
        }
    }
    s
}

/// mdBook 0.5 input `[context, book]` for a book of `n` chapters.
fn generate(n: usize) -> String {
    let mut r = Rng(0x9E37_79B9_7F4A_7C15);
    let items: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            let file = format!("chapter-{i}.md");
            serde_json::json!({"Chapter": {"name": format!("Chapter {i}"), "content": chapter(i, &mut r),
                "number": [i + 1], "sub_items": [], "path": file, "source_path": file, "parent_names": []}})
        })
        .collect();
    let ctx = serde_json::json!({"root": "/nonexistent-bench-book", "renderer": "html", "mdbook_version": "0.5.4",
        "config": {"book": {"title": "Bench", "src": "src"}, "preprocessor": {"companion": {"after": ["links"]}},
            "output": {"html": {}}}});
    serde_json::to_string(&serde_json::json!([ctx, {"items": items}])).expect("json")
}
