use super::parse::safe_note;
use super::render::block_id;
use super::*;
use crate::testing::{config, env, with_env};
use crate::{Shared, Target};
use mdbook_companion_core::machine::Syntax;
use mdbook_companion_core::markdown;
use pretty_assertions::assert_eq;

fn parse(text: &str) -> Result<Compare, Problem> {
    with_env(text, Target::Html, Compare::parse)
}

fn problem(text: &str) -> (usize, usize, String) {
    let p = parse(text).unwrap_err();
    let (l, c) = markdown::line_col(text, p.offset);
    (l, c, p.message)
}

const DIVISION: &str = "Intro.\n\n````compare title=\"Integer division\" layout=tabs\n```c caption=\"C: undefined\" expect=ub\n~ #include <limits.h>\nint divide(int a, int b) { return a / b; }\n~ int main(void) { return divide(INT_MIN, -1); }\n```\nA *note* about C,\nover two lines.\n```output\nruntime error: division overflow\n```\n```rust caption=\"Rust: panics\" expect=panic\npub fn divide(a: i32, b: i32) -> i32 { a / b }\n# fn main() { divide(1, 0); }\n```\n\nRust note.\n\n```python\ndef divide(a, b): return a // b\n```\n````\n";

#[test]
fn sides_carry_captions_notes_outputs_and_sources() {
    let cmp = parse(DIVISION).unwrap();
    assert_eq!(cmp.title.as_deref(), Some("Integer division"));
    assert_eq!((cmp.layout, cmp.asm), (Layout::Tabs, Panel::None));
    let langs: Vec<Lang> = cmp.sides.iter().map(|s| s.lang).collect();
    assert_eq!(langs, [Lang::C, Lang::Rust, Lang::PYTHON]);
    let [c, rust, py] = &cmp.sides[..] else {
        panic!("three sides")
    };
    assert_eq!(c.caption.as_deref(), Some("C: undefined"));
    assert_eq!(c.expect(), Some(Expect::Ub));
    assert_eq!(c.shown, "int divide(int a, int b) { return a / b; }\n");
    assert_eq!(
        c.source,
        "#include <limits.h>\nint divide(int a, int b) { return a / b; }\nint main(void) { return divide(INT_MIN, -1); }\n"
    );
    assert_eq!(
        c.note.as_deref(),
        Some("A *note* about C,\nover two lines.")
    );
    assert_eq!(
        c.output.as_deref(),
        Some("runtime error: division overflow\n")
    );
    assert_eq!(markdown::line_col(DIVISION, c.offset), (4, 1));
    assert!(DIVISION[c.offset..].starts_with("```c caption"));
    assert_eq!(rust.expect(), Some(Expect::Panic));
    assert_eq!(
        rust.source,
        "pub fn divide(a: i32, b: i32) -> i32 { a / b }\nfn main() { divide(1, 0); }\n"
    );
    assert_eq!(
        rust.shown,
        "pub fn divide(a: i32, b: i32) -> i32 { a / b }\n"
    );
    assert_eq!(rust.note.as_deref(), Some("Rust note."));
    assert_eq!(
        rust.example().and_then(|e| e.title.as_deref()),
        Some("Rust: panics")
    );
    assert!(DIVISION[rust.offset..].starts_with("```rust caption"));
    assert_eq!((py.expect(), py.note.as_deref()), (None, None));
    // The claims come from the same parse: the compiled sides only.
    let claims = with_env(DIVISION, Target::Html, render).unwrap().claims;
    let langs: Vec<Lang> = claims.iter().map(|c| c.program.lang).collect();
    assert_eq!(langs, [Lang::C, Lang::Rust]);
}

#[test]
fn a_side_owns_any_markdown_and_its_output_in_either_order() {
    let text = "````compare\n```cpp caption=\"Fragment\" ignore asm\nstd::transform(a.begin(), a.end(), b.begin(), f);\n```\n```output\nnot a program\n```\nFirst paragraph with `code`.\n\n- a list\n- of [links](https://example.com)\n\n> quoted\n```rust\nfn main() {}\n```\nRust's own note.\n\nSecond *paragraph*.\n```output\n```\n````\n";
    let cmp = parse(text).unwrap();
    let [cpp, rust] = &cmp.sides[..] else {
        panic!("two sides")
    };
    assert_eq!(
        cpp.note.as_deref(),
        Some(
            "First paragraph with `code`.\n\n- a list\n- of [links](https://example.com)\n\n> quoted"
        )
    );
    assert_eq!(cpp.output.as_deref(), Some("not a program\n"));
    assert!(
        cpp.ignore() && !cpp.asm(),
        "an ignored side is never disassembled"
    );
    assert_eq!(
        rust.note.as_deref(),
        Some("Rust's own note.\n\nSecond *paragraph*.")
    );
    assert_eq!(rust.output.as_deref(), Some(""));
    assert!(!rust.ignore());
    // The ignored side's claim says so, so nothing compiles it.
    let claims = with_env(text, Target::Html, render).unwrap().claims;
    let ignored: Vec<(Lang, bool)> = claims
        .iter()
        .map(|c| (c.program.lang, c.expectation.ignore))
        .collect();
    assert_eq!(ignored, [(Lang::Cpp, true), (Lang::Rust, false)]);
    let html = render_text(text, Target::Html);
    assert!(
        html.contains("<div class=\"companion-example companion-expect-ignore\" id=\"example-1\">")
    );
    assert!(html.contains("<span class=\"companion-badge\">Not checked</span>"));
    assert!(!html.contains("companion-asm"), "{html}");
}

#[test]
fn asm_blocks_are_claims_of_their_sides_with_the_panels_listing() {
    let text = "# T\n\n````compare\n```c caption=\"C\" flags=\"-Wall -Wextra\" warnings=none asm-syntax=att\n~ #include <stdio.h>\nint f(void) { return 1; }\n```\nA note.\n```asm\nCHECK-LABEL: f:\nCHECK: ret\n```\n```rust caption=\"Rust\"\npub fn f() -> i32 { 1 }\n```\n```asm arch=aarch64\nCHECK: ret\n```\n```output\n```\n````\n";
    let r = with_env(text, Target::Html, render).unwrap();
    let expects: Vec<Expect> = r.claims.iter().map(|c| c.expectation.expect).collect();
    assert_eq!(
        expects,
        [Expect::Compile, Expect::Asm, Expect::Run, Expect::Asm]
    );
    let c = &r.claims[0];
    assert_eq!(
        (c.program.flags.clone(), c.expectation.no_warnings),
        (vec!["-Wall".to_owned(), "-Wextra".into()], true)
    );
    // The C side's claim is located at its asm block, and its listing
    // is the panel's: the same program, flags and syntax.
    let a = &r.claims[1];
    assert_eq!(markdown::line_col(text, a.origin.offset), (9, 4));
    assert_eq!(a.origin.what, "asm of compare side \"C\"");
    assert_eq!(a.program.flags, c.program.flags);
    let claim = a.expectation.asm.as_ref().unwrap();
    assert_eq!(
        (claim.syntax, claim.arch.as_str(), claim.shown.as_str()),
        (Syntax::Att, "x86_64", "int f(void) { return 1; }\n")
    );
    assert_eq!(claim.checks.directives.len(), 2);
    let rust = r.claims[3].expectation.asm.as_ref().unwrap();
    assert_eq!(
        (rust.arch.as_str(), rust.syntax),
        ("aarch64", Syntax::Intel)
    );
    // One frame per side; each asm claim's row shares its side's number.
    let rows: Vec<(&str, &str, Option<usize>)> = r
        .entries
        .iter()
        .map(|e| (e.number.digits.as_str(), e.what.as_str(), e.claim))
        .collect();
    assert_eq!(
        rows,
        [
            ("1", "C side", Some(0)),
            ("1", "C side, assembly", Some(1)),
            ("2", "Rust side", Some(2)),
            ("2", "Rust side, assembly", Some(3)),
        ]
    );
    assert_eq!(r.entries.iter().map(|e| e.number.n).max(), Some(2));
    let want = with_env(text, Target::Html, |_, env| {
        let s = &parse(text).unwrap().sides[0];
        s.asm_request(env).unwrap()
    });
    assert_eq!(
        (
            want.request.source.as_str(),
            &want.request.flags,
            want.request.syntax
        ),
        (
            a.program.source.as_str(),
            &a.program.flags,
            Some(Syntax::Att)
        )
    );
    let (l, c, m) = problem(
        "````compare\n```c\nint f(void);\n```\n```asm\nCHECK: a\n```\n```asm\nCHECK: b\n```\n```rust\nfn main() {}\n```\n````\n",
    );
    assert_eq!((l, c), (8, 1));
    assert!(
        m.starts_with("found a second ```asm block after the `c` side"),
        "{m}"
    );
    let (l, _, m) = problem(
        "````compare\n```c\nint f(void);\n```\n```asm\nCHECK-NXT: a\n```\n```rust\nfn main() {}\n```\n````\n",
    );
    assert_eq!(l, 6, "{m}");
    let (l, c, m) = problem(
        "````compare\n```python\nx = 1\n```\n```asm\nCHECK: a\n```\n```rust\nfn main() {}\n```\n````\n",
    );
    assert_eq!((l, c), (5, 4));
    assert!(
        m.starts_with("found an ```asm block after a `python` side"),
        "{m}"
    );
}

#[test]
fn block_asm_reaches_compiled_sides() {
    let cmp = parse("````compare asm\n```c\nint f(void) { return 1; }\n```\n```rust\npub fn f() -> i32 { 1 }\n```\n```python\nx = 1\n```\n````\n").unwrap();
    // The block's `asm` reaches the compiled sides; a Python side is
    // only shown.
    let asm: Vec<bool> = cmp.sides.iter().map(|s| s.asm()).collect();
    assert_eq!(asm, [true, true, false]);
    let cmp = parse("````compare\n```c asm\nint f(void) { return 1; }\n```\n```rust asm=false\npub fn f() -> i32 { 1 }\n```\n````\n").unwrap();
    let asm: Vec<bool> = cmp.sides.iter().map(|s| s.asm()).collect();
    assert_eq!(asm, [true, false]);
}

#[test]
fn errors_are_located_and_name_what_was_expected() {
    let five = format!("````compare\n{}````\n", "```c\nint x;\n```\n".repeat(5));
    let cases: Vec<(&str, (usize, usize, &str))> = vec![
        (
            "````compare\n```c\nint x;\n```\n````\n",
            (1, 5, "found 1 side; expected 2 to 4 fenced code blocks"),
        ),
        (&five, (14, 1, "found a 5th side; expected 2 to 4 sides")),
        (
            "Text\n\n````compare\n```c\nint x;\n```\n```java caption=\"J\"\nclass A {}\n```\n````\n",
            (
                7,
                4,
                "found a `java` code block; expected a side in one of c, cpp, rust, python, go",
            ),
        ),
        (
            "````compare\n```c caption=3\nint x;\n```\n```rust\nfn f() {}\n```\n````\n",
            (2, 6, "found integer for `caption`; expected a string"),
        ),
        (
            "````compare\n```c\nint x;\n```\n```rust caption=\"a\" caption=\"b\"\nfn f() {}\n```\n````\n",
            (
                5,
                21,
                "found `caption` a second time; expected each attribute once",
            ),
        ),
        (
            "````compare colour=red\n```c\nint x;\n```\n```c\nint y;\n```\n````\n",
            (
                1,
                13,
                "found unknown attribute `colour`; expected one of title, id, at, layout, asm",
            ),
        ),
        (
            "````compare\n```c volatile\nint x;\n```\n```c\nint y;\n```\n````\n",
            (
                2,
                6,
                "found unknown attribute `volatile` on a `c` side; expected one of caption, id, expect, ignore, sanitize, asm, asm-syntax, flags, warnings",
            ),
        ),
        (
            "````compare\n```c sanitise=address\nint x;\n```\n```c\nint y;\n```\n````\n",
            (
                2,
                6,
                "found unknown attribute `sanitise` on a `c` side; expected one of caption, id, expect, ignore, sanitize, asm, asm-syntax, flags, warnings; did you mean `sanitize`?",
            ),
        ),
        (
            "````compare\n```c expect=ub sanitize=adress\nint x;\n```\n```c\nint y;\n```\n````\n",
            (
                2,
                16,
                "found `adress` for `sanitize`; expected one of address, thread, undefined, memcheck (combined: \"address,undefined\", \"thread,undefined\"); did you mean `address`?",
            ),
        ),
        (
            "````compare\n```c expect=ub sanitize=leak\nint x;\n```\n```c\nint y;\n```\n````\n",
            (
                2,
                16,
                "found `leak` for `sanitize`; expected one of address, thread, undefined, memcheck (combined: \"address,undefined\", \"thread,undefined\")",
            ),
        ),
        (
            "````compare\n```c\nint x;\n```\n```cpp expect=ub sanitize=\"address,thread\"\nint y;\n```\n````\n",
            (
                5,
                18,
                "found `sanitize=\"address,thread\"`, but AddressSanitizer and ThreadSanitizer cannot watch one program; expected one of address, thread",
            ),
        ),
        (
            "````compare\n```c sanitize=address\nint x;\n```\n```c\nint y;\n```\n````\n",
            (
                2,
                6,
                "found `sanitize=address` with expect=compile; expected an outcome that runs the program",
            ),
        ),
        (
            "````compare\n```c\nint x;\n```\n```rust sanitize=thread\nfn main() {}\n```\n````\n",
            (
                5,
                9,
                "found `sanitize=thread` on Rust code; expected `memcheck`",
            ),
        ),
        (
            "````compare\n```c\nint x;\n```\n```rust colour=red\nfn f() {}\n```\n````\n",
            (
                5,
                9,
                "found unknown attribute `colour`; expected one of title, id, expect",
            ),
        ),
        (
            "````compare\n```c\nint x;\n```\n```rust expect=explode\nfn f() {}\n```\n````\n",
            (
                5,
                9,
                "found `explode` for `expect`; expected one of run, panic, compile-fail, no-run",
            ),
        ),
        (
            "````compare\n```c expect=crash\nint x;\n```\n```c\nint y;\n```\n````\n",
            (
                2,
                6,
                "found `crash` for `expect`; expected one of compile, run, ub",
            ),
        ),
        (
            "````compare layout=grid\n```c\nint x;\n```\n```c\nint y;\n```\n````\n",
            (
                1,
                13,
                "found `grid` for `layout`; expected one of columns, tabs",
            ),
        ),
        (
            "````compare\nFirst a paragraph.\n\n```c\nint x;\n```\n```c\nint y;\n```\n````\n",
            (
                2,
                1,
                "found a paragraph before the first side; expected a fenced code block (```c, ```cpp, ```rust, ```python, ```go) first",
            ),
        ),
        (
            "````compare\n```c\nint x;\n```\n```rust\nfn f() {}\n````\n",
            (
                5,
                1,
                "found a `rust` block whose fence never closes; expected a closing fence before the end of the compare block",
            ),
        ),
        (
            "````compare\n```c ignore=1\nint x;\n```\n```python colour=red\nx\n```\n````\n",
            (2, 6, "found integer for `ignore`; expected true or false"),
        ),
        (
            "````compare\n```c\nint x;\n```\n```python colour=red\nx\n```\n````\n",
            (
                5,
                11,
                "found unknown attribute `colour` on a `python` side; expected caption, id, expect, error, asm or ignore",
            ),
        ),
        (
            "````compare\n```output\nx\n```\n```c\nint y;\n```\n````\n",
            (2, 1, "found an ```output block before the first side"),
        ),
        (
            "````compare\n```c\n~ int hidden;\n```\n```c\nint y;\n```\n````\n",
            (2, 4, "found an empty `c` side; expected code"),
        ),
        (
            "````compare\n```\nx\n```\n```c\nint y;\n```\n````\n",
            (
                2,
                1,
                "found a code block without a language; expected a side in one of c, cpp, rust, python, go",
            ),
        ),
        (
            // Inside a list item: columns count the indentation.
            "- Item:\n\n  ````compare\n  ```c\n  int x;\n  ```\n  ```rust ignore=maybe\n  fn f() {}\n  ```\n  ````\n",
            (7, 11, "found string for `ignore`; expected true or false"),
        ),
        (
            // Inside a block quote.
            "> ````compare\n> ```c\n> int x;\n> ```\n> ```kotlin\n> fun f() {}\n> ```\n> ````\n",
            (5, 6, "found a `kotlin` code block"),
        ),
    ];
    for (text, (line, col, msg)) in &cases {
        let (l, c, m) = problem(text);
        assert!(m.starts_with(msg), "{text}: got {m}");
        assert_eq!((l, c), (*line, *col), "{text}: {m}");
    }
}

fn render(block: &Block, env: &Env<'_>) -> Result<Rendered, Problem> {
    crate::render_block(block, env, &Facts::default())
}

fn render_text(text: &str, target: Target) -> String {
    with_env(text, target, render)
        .unwrap()
        .out
        .lines()
        .join("\n")
}

#[test]
fn test_target_keeps_only_the_rust_sides() {
    assert_eq!(
        render_text(DIVISION, Target::Test),
        "```rust,should_panic,edition2021\npub fn divide(a: i32, b: i32) -> i32 { a / b }\n# fn main() { divide(1, 0); }\n```"
    );
    let two_rust = "````compare\n```c\nint x;\n```\n```rust\nfn a() {}\n```\n```rust expect=no-run\nfn b() {}\n```\n````\n";
    assert_eq!(
        render_text(two_rust, Target::Test),
        "```rust,edition2021\nfn a() {}\n```\n\n```rust,no_run,edition2021\nfn b() {}\n```"
    );
    let no_rust = "````compare\n```c\nint x;\n```\n```python\nx = 1\n```\n````\n";
    assert_eq!(render_text(no_rust, Target::Test), "");
}

#[test]
fn markdown_target_is_a_titled_sequence_of_plain_fences() {
    let md = render_text(DIVISION, Target::Markdown);
    let ce = md
        .lines()
        .last()
        .and_then(|l| l.strip_prefix("[Compare in Compiler Explorer](<"))
        .and_then(|l| l.strip_suffix(">)"))
        .unwrap_or_else(|| panic!("{md}"));
    let state = mdbook_companion_core::links::decode_client_state(ce).unwrap();
    assert_eq!(state["sessions"].as_array().map(Vec::len), Some(2));
    let body = md.rsplit_once("\n\n[Compare").unwrap().0;
    let rust_links = body
        .lines()
        .find(|l| l.starts_with("[Playground]"))
        .unwrap_or_else(|| panic!("{md}"));
    let expected = format!(
        "**Integer division**\n\nExample 1 — **C: undefined** — *Undefined behaviour*\n\n```c\nint divide(int a, int b) {{ return a / b; }}\n```\n\nSanitizer reports:\n\n```text\nruntime error: division overflow\n```\n\nA *note* about C,\nover two lines.\n\nExample 2 — **Rust: panics** — *Panics*\n\n```rust,should_panic,edition2021\npub fn divide(a: i32, b: i32) -> i32 {{ a / b }}\n# fn main() {{ divide(1, 0); }}\n```\n\n{rust_links}\n\nRust note.\n\nExample 3 — **Python**\n\n```python\ndef divide(a, b): return a // b\n```"
    );
    assert_eq!(body, expected);
}

#[test]
fn html_escapes_captions_and_titles() {
    let text = "````compare title=\"<T>\"\n```c caption=\"a < b & 'c'\"\nint x;\n```\n```python caption=\"<script>\"\nx = 1\n```\n````\n";
    let html = render_text(text, Target::Html);
    assert!(html.contains(">&lt;T&gt;</span>"), "{html}");
    assert!(
        html.contains(">a &lt; b &amp; &#x27;c&#x27;</span>"),
        "{html}"
    );
    assert!(html.contains(">&lt;script&gt;</span>"), "{html}");
    assert!(!html.contains("<script>"), "{html}");
    assert!(!html.contains("\n\n\n"), "{html}");
}

#[test]
fn tabs_of_one_language_use_captions_or_numbers() {
    let cmp = parse("````compare layout=tabs\n```c caption=\"Checked\"\nint a;\n```\n```c\nint b;\n```\n```rust\nfn f() {}\n```\n````\n").unwrap();
    let labels: Vec<String> = (0..3).map(|i| cmp.tab_label(i)).collect();
    assert_eq!(labels, ["Checked", "C 2", "Rust"]);
}

#[test]
fn tab_ids_differ_between_chapters_and_blocks() {
    let cfg = config();
    let shared = Shared::disabled();
    let env = |file| env(&cfg, &shared, Target::Html, "", file);
    let a = block_id(&env("src/a.md"), 10);
    assert_ne!(a, block_id(&env("src/b.md"), 10));
    assert_ne!(a, block_id(&env("src/a.md"), 11));
    assert_eq!(a, block_id(&env("src/a.md"), 10));
}

#[test]
fn notes_show_raw_html_as_text_and_refuse_other_schemes() {
    for (note, want) in [
        ("A *note*.", Ok("A *note*.")),
        (
            "Has <script>x</script> in it",
            Ok("Has &lt;script&gt;x&lt;/script&gt; in it"),
        ),
        ("<div>\nopen", Ok("&lt;div&gt;\nopen")),
        (
            "[ok](https://a.example/) [rel](../b.md)",
            Ok("[ok](https://a.example/) [rel](../b.md)"),
        ),
        ("[x](javascript:alert(1))", Err("javascript:alert(1)")),
        ("<javascript:alert(1)>", Err("javascript:alert(1)")),
    ] {
        match (safe_note(note, 7), want) {
            (Ok(got), Ok(want)) => assert_eq!(got, want, "{note}"),
            (Err(p), Err(url)) => {
                assert_eq!(p.offset, 7);
                assert_eq!(
                    p.message,
                    format!(
                        "found a link to `{url}` in this side's note; expected an http(s) or relative link"
                    )
                );
            }
            (got, _) => panic!("{note}: {got:?}"),
        }
    }
}
