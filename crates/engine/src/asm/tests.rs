use super::*;
use mdbook_companion_core::lang::Lang;
use pretty_assertions::assert_eq;
use std::path::PathBuf;

fn config() -> Config {
    Config::from_json(PathBuf::from("/b"), &serde_json::json!({})).unwrap()
}

fn compile(lang: Lang, source: &str, shown: &str) -> String {
    listing(lang, source, shown, Syntax::Intel).text
}

/// A request for `source` showing `shown`, edition 2021, no flags.
fn request(lang: Lang, source: &str, shown: &str, syntax: Syntax) -> Request {
    Request {
        lang,
        source: source.into(),
        shown: shown.into(),
        edition: 2021,
        syntax: Some(syntax),
        flags: Vec::new(),
    }
}

fn listing(lang: Lang, source: &str, shown: &str, syntax: Syntax) -> Listing {
    let dir = tempfile::tempdir().unwrap();
    let cache = Cache::for_book(dir.path());
    let req = request(lang, source, shown, syntax);
    assembly(&req, &config(), &cache).unwrap_or_else(|e| panic!("{e}"))
}

fn labels(asm: &str) -> Vec<&str> {
    asm.lines()
        .filter(|l| !l.starts_with(' ') && l.ends_with(':'))
        .collect()
}

#[test]
fn reader_functions_come_from_visible_code() {
    assert_eq!(
        reader_functions(
            Lang::Rust,
            "pub fn divide(a: i32) -> i32 { a }\nfn rest(a: i32) -> i32 { a }\n"
        ),
        ["divide", "rest"]
    );
    assert_eq!(
        reader_functions(
            Lang::C,
            "int divide(int a, int b) { if (b) return a / b; return sizeof (int); }\n"
        ),
        ["divide"]
    );
}

#[test]
fn c_listing_keeps_only_the_readers_function() {
    let source =
        "int divide(int a, int b) { return a / b; }\nint main(void) { return divide(4, 2); }\n";
    let asm = compile(
        Lang::C,
        source,
        "int divide(int a, int b) { return a / b; }\n",
    );
    assert_eq!(labels(&asm), ["divide:"], "{asm}");
    assert!(asm.contains("idiv"), "{asm}");
    for line in asm.lines() {
        let t = line.trim();
        assert!(
            !t.starts_with('.') || t.ends_with(':'),
            "directive kept: {line}\n{asm}"
        );
        assert!(!t.is_empty() && !t.contains('#'), "blank or comment: {asm}");
    }
}

#[test]
fn c_jump_targets_are_kept_and_unused_labels_dropped() {
    let source = "int sum(const int *v, int n) { int s = 0; for (int i = 0; i < n; i++) { if (v[i] < 0) break; s += v[i]; } return s; }\n";
    let asm = compile(Lang::C, source, source);
    assert_eq!(labels(&asm)[0], "sum:", "{asm}");
    let locals: Vec<&str> = labels(&asm)[1..].to_vec();
    assert!(!locals.is_empty(), "a loop has jump targets: {asm}");
    for l in locals {
        let name = l.trim_end_matches(':');
        assert!(
            asm.lines()
                .any(|i| i.starts_with("    ") && i.contains(name)),
            "{name} is referenced\n{asm}"
        );
    }
    assert!(!asm.contains(".LFB") && !asm.contains(".LFE"), "{asm}");
}

#[test]
fn rust_listing_is_demangled_and_hidden_main_dropped() {
    let source = "fn divide(a: i32, b: i32) -> i32 { a / b }\nfn main() { divide(1, 0); }\n";
    let asm = compile(
        Lang::Rust,
        source,
        "fn divide(a: i32, b: i32) -> i32 { a / b }\n",
    );
    assert_eq!(labels(&asm)[0], "divide:", "{asm}");
    assert!(!asm.contains("main:"), "{asm}");
    assert!(!asm.contains("_ZN"), "symbols are demangled: {asm}");
    assert!(asm.contains("idiv"), "{asm}");
    assert!(
        asm.contains("core::panicking::panic_const::panic_const_div_by_zero"),
        "{asm}"
    );
}

#[test]
fn cpp_functions_match_their_mangled_names() {
    let source = "int twice(int x) { return 2 * x; }\nnamespace m { struct S { int v; int get() const; }; int S::get() const { return v; } }\n";
    let asm = compile(Lang::Cpp, source, source);
    assert_eq!(labels(&asm), ["twice(int):", "m::S::get() const:"], "{asm}");
}

#[test]
fn go_listing_is_the_readers_functions_with_their_lines() {
    let source = "package main\n\nimport \"fmt\"\n\nfunc divide(a, b int) int {\n\treturn a / b\n}\n\nfunc main() {\n\tfmt.Println(divide(7, 2))\n}\n";
    assert_eq!(reader_functions(Lang::GO, source), ["divide"]);
    let go = listing(Lang::GO, source, source, Syntax::Intel);
    assert_eq!(labels(&go.text)[0], "main.divide:", "{go:?}");
    assert!(go.text.contains("    IDIVQ "), "{go:?}");
    let at_six = go.text.lines().zip(&go.lines).filter(|(_, n)| **n == 6);
    assert!(at_six.count() > 2, "{go:?}");
    let only_main = "package main\n\nfunc main() {\n\tprintln(1)\n}\n";
    let go = compile(Lang::GO, only_main, only_main);
    assert_eq!(labels(&go)[0], "main.main:", "{go}");
}

#[test]
fn main_is_kept_only_when_alone_and_anon_hashes_are_dropped() {
    let shown = "pub fn f(x: u32) -> u32 { x / 3 }\nfn main() { println!(\"{}\", f(9)); }\n";
    assert_eq!(reader_functions(Lang::Rust, shown), ["f"]);
    assert_eq!(reader_functions(Lang::Rust, "fn main() {}\n"), ["main"]);
    assert_eq!(
        reader_functions(Lang::C, "int f(void);\nint main(void) { return f(); }\n"),
        ["f"]
    );
    assert_eq!(
        shorten_anon("    leaq .Lanon.84aa650e52a326698febdc518806384d.2(%rip), %rdi"),
        "    leaq .Lanon.2(%rip), %rdi"
    );
    assert_eq!(shorten_anon(".Lanon.x.1 .Lanon."), ".Lanon.x.1 .Lanon.");
}

#[test]
fn filter_on_a_fixed_listing() {
    let listing = "\t.text\n\t.globl\tf\n\t.type\tf, @function\nf:\n.LFB0:\n\t.cfi_startproc\n\ttestl\t%edi, %edi # test\n\tje\t.L2\n\tmovl\t$1, %eax\n.L2:\n\tret\n\t.cfi_endproc\n.LFE0:\n\t.size\tf, .-f\n\t.type\tg, @function\ng:\n\tret\n\t.size\tg, .-g\n";
    assert_eq!(
        filter(listing, Lang::C, &["f".into()], "block.c").text,
        "f:\n    testl %edi, %edi\n    je .L2\n    movl $1, %eax\n.L2:\n    ret\n"
    );
    assert_eq!(
        filter(listing, Lang::C, &["f".into(), "g".into()], "block.c")
            .text
            .matches(':')
            .count(),
        3
    );
}

#[test]
fn second_request_is_served_from_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    let cache = Cache::for_book(dir.path());
    let source = "int cached_twice(int x) { return 2 * x; }\n";
    let req = request(Lang::C, source, source, Syntax::Intel);
    let (first, origin) = assembly_from(&req, &config(), &cache).unwrap();
    assert_eq!(origin, Provenance::Compiler);
    // A new cache over the same directory, as the next build has.
    let again = Cache::for_book(dir.path());
    let mut cfg = config();
    let (second, origin) = assembly_from(&req, &cfg, &again).unwrap();
    assert_eq!((&second, origin), (&first, Provenance::Cache));
    // A different flag set (another compiler) is another key.
    cfg.cc = "gcc".into();
    let (_, origin) = assembly_from(&req, &cfg, &again).unwrap();
    assert_eq!(origin, Provenance::Compiler);
}

#[test]
fn missing_compiler_and_bad_code_are_told_apart() {
    let dir = tempfile::tempdir().unwrap();
    let cache = Cache::for_book(dir.path());
    let mut cfg = config();
    cfg.cc = "/nonexistent/cc".into();
    let req = request(Lang::C, "int f(void) { return 1; }\n", "", Syntax::Intel);
    let e = assembly(&req, &cfg, &cache).unwrap_err();
    assert!(
        matches!(e, AsmError::Missing { .. }) && !e.is_code_error(),
        "{e}"
    );
    let req = Request {
        source: "int f(void) { return }\n".into(),
        ..req
    };
    let e = assembly(&req, &config(), &cache).unwrap_err();
    assert!(e.is_code_error(), "{e}");
    assert!(e.to_string().contains("error"), "{e}");
}

#[test]
fn corrupt_or_deleted_cache_entries_are_compiled_again() {
    let dir = tempfile::tempdir().unwrap();
    let cache = Cache::for_book(dir.path());
    let source = "int corrupt_me(int x) { return 3 * x; }\n";
    let req = request(Lang::C, source, source, Syntax::Intel);
    let (first, _) = assembly_from(&req, &config(), &cache).unwrap();
    let entries: Vec<PathBuf> = walk(&dir.path().join(crate::cache::DIR).join(NAMESPACE));
    assert_eq!(entries.len(), 1);
    // A bit flipped in the stored listing: not shown, compiled again.
    let mut bytes = std::fs::read(&entries[0]).unwrap();
    let at = bytes.len() - 2;
    bytes[at] ^= 0x20;
    std::fs::write(&entries[0], &bytes).unwrap();
    let (second, origin) = assembly_from(&req, &config(), &cache).unwrap();
    assert_eq!((&second, origin), (&first, Provenance::Compiler));
    // The entry was repaired: the next request is a hit again.
    let (_, origin) = assembly_from(&req, &config(), &cache).unwrap();
    assert_eq!(origin, Provenance::Cache);
    // The whole cache deleted mid-run: compiled again, then cached again.
    std::fs::remove_dir_all(dir.path().join(crate::cache::DIR)).unwrap();
    let (third, origin) = assembly_from(&req, &config(), &cache).unwrap();
    assert_eq!((&third, origin), (&first, Provenance::Compiler));
    let (_, origin) = assembly_from(&req, &config(), &cache).unwrap();
    assert_eq!(origin, Provenance::Cache);
}

/// The raw and filtered listing of `req`, with or without line tables.
fn both_ways(req: &Request) -> (Listing, Listing) {
    let cfg = config();
    let keep = kept(req);
    let run = |lines: bool| {
        let (program, args) = command(req, &cfg, lines);
        let raw = super::compile(req, &cfg, &program, &args).unwrap_or_else(|e| panic!("{e}"));
        filter(&raw, req.lang, &keep, req.lang.asm_file())
    };
    (run(true), run(false))
}

#[test]
fn line_tables_change_no_instruction() {
    let programs: [(Lang, &str); 6] = [
        (Lang::C, "int divide(int a, int b) { return a / b; }\n"),
        (
            Lang::C,
            "int more(void);\nint f(void) {\n    int x;\n    for (int i = 0; i < 10; i++)\n        if (more())\n            x = 42;\n    return x;\n}\n",
        ),
        (
            Lang::Cpp,
            "#include <vector>\nint sum(const std::vector<int>& v) { int s = 0; for (int x : v) s += x; return s; }\n",
        ),
        (
            Lang::Rust,
            "pub fn divide(a: i32, b: i32) -> i32 {\n    a / b\n}\n",
        ),
        (
            Lang::Rust,
            "pub fn sum(v: &[u32]) -> u32 {\n    v.iter().filter(|x| **x > 3).sum()\n}\n",
        ),
        (
            Lang::Rust,
            "use std::num::NonZero;\npub fn divide(a: u32, b: NonZero<u32>) -> u32 {\n    a / b\n}\n",
        ),
    ];
    for (lang, source) in programs {
        for syntax in [Syntax::Intel, Syntax::Att] {
            let req = request(lang, source, source, syntax);
            let (with, without) = both_ways(&req);
            assert!(!with.text.is_empty(), "{source}");
            assert_eq!(with.text, without.text, "{lang:?} {syntax}\n{source}");
            assert!(without.lines.iter().all(|l| *l == 0));
            assert!(with.lines.iter().any(|l| *l > 0), "{source}\n{with:?}");
            assert_eq!(with.lines.len(), with.text.lines().count());
        }
    }
}

#[test]
fn instructions_carry_their_source_lines() {
    let at = |l: &Listing, needle: &str| -> Vec<u32> {
        l.text
            .lines()
            .zip(&l.lines)
            .filter(|(t, _)| t.contains(needle))
            .map(|(_, n)| *n)
            .collect()
    };
    let c = listing(
        Lang::C,
        "int divide(int a, int b)\n{\n    return a / b;\n}\n",
        "int divide(int a, int b)\n{\n    return a / b;\n}\n",
        Syntax::Intel,
    );
    assert_eq!(at(&c, "idiv"), [3], "{c:?}");
    assert_eq!(at(&c, "divide:"), [0]);
    let source = "pub fn divide(a: i32, b: i32) -> i32 {\n    a / b\n}\n";
    let rust = listing(Lang::Rust, source, source, Syntax::Intel);
    assert_eq!(at(&rust, "idiv"), [2], "{rust:?}");
    assert_eq!(at(&rust, "panic_const_div_by_zero"), [2], "{rust:?}");
    // Code inlined from the standard library has no line of the block.
    let source = "pub fn sum(v: &[u32]) -> u32 {\n    v.iter().filter(|x| **x > 3).sum()\n}\n";
    let rust = listing(Lang::Rust, source, source, Syntax::Intel);
    assert!(
        rust.text
            .lines()
            .zip(&rust.lines)
            .any(|(t, n)| t.starts_with("    ") && *n == 0),
        "{rust:?}"
    );
}

#[test]
fn intel_by_default_att_on_request() {
    let c = "int divide(int a, int b) { return a / b; }\n";
    let rust = "pub fn divide(a: i32, b: i32) -> i32 { a / b }\n";
    for (lang, source) in [(Lang::C, c), (Lang::Rust, rust)] {
        let intel = compile(lang, source, source);
        let att = listing(lang, source, source, Syntax::Att).text;
        assert!(intel.contains("    idiv esi"), "{intel}");
        assert!(att.contains("    idivl %esi"), "{att}");
    }
}

#[test]
fn flags_are_the_blocks_own() {
    let dir = tempfile::tempdir().unwrap();
    let cache = Cache::for_book(dir.path());
    let source = "int shift(int a) { return a << 31 >> 31; }\n";
    let flags = ["-O0".to_owned()];
    let req = |flags: &[String]| Request {
        flags: flags.to_vec(),
        ..request(Lang::C, source, source, Syntax::Intel)
    };
    let o2 = assembly(&req(&[]), &config(), &cache).unwrap();
    let o0 = assembly(&req(&flags), &config(), &cache).unwrap();
    assert_ne!(o2, o0);
    assert!(o0.text.contains("rbp"), "{}", o0.text);
    assert_ne!(
        lock_key(&req(&[]), &config()),
        lock_key(&req(&flags), &config())
    );
}

#[test]
fn graphs_are_drawn_once_and_cached() {
    let dir = tempfile::tempdir().unwrap();
    let cache = Cache::for_book(dir.path());
    let listing = "f:\n    test edi, edi\n    je .L2\n    ret\n.L2:\n    ud2\n";
    let first = graphs(listing, &cache);
    assert_eq!(first.len(), 1);
    assert!(
        first[0]
            .svg
            .contains(mdbook_companion_core::flowgraph::ID_SLOT)
    );
    let entries = walk(&dir.path().join(crate::cache::DIR).join(GRAPHS));
    assert_eq!(entries.len(), 1);
    assert_eq!(graphs(listing, &Cache::for_book(dir.path())), first);
}

fn walk(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}
