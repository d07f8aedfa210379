use super::*;
use crate::facts::{AsmNeed, Fact, MomentLink, Need, Published, Reference, Topic, Vouched};
use crate::scan;
use crate::testing::{config, with_env};
use mdbook_companion_core::asm::{Listing, Request};
use mdbook_companion_core::claim::Recorded;
use mdbook_companion_core::config::Config;
use mdbook_companion_core::expect::Expect;
use mdbook_companion_core::lang::Lang;
use mdbook_companion_core::links::Mode;
use mdbook_companion_core::markdown;
use mdbook_companion_core::run::RecordedRun;
use pretty_assertions::assert_eq;

/// The env of a block of `text` in `src/a.md`, placed nowhere.
fn env<'a>(cfg: &'a Config, shared: &'a crate::Shared, target: Target, text: &'a str) -> Env<'a> {
    crate::testing::env(cfg, shared, target, text, "src/a.md")
}

fn parse(text: &str) -> Result<Example, Problem> {
    let block = scan(text).into_iter().next().expect("a block");
    let attrs = KIND.attributes(&block)?;
    Example::parse(
        &block.fence,
        &attrs,
        block.output.as_ref(),
        None,
        &config(),
        Context::Standalone,
    )
}

fn problem(text: &str) -> (usize, usize, String) {
    let p = parse(text).unwrap_err();
    let (l, c) = markdown::line_col(text, p.offset);
    (l, c, p.message)
}

#[test]
fn attributes_fill_the_model() {
    let ex = parse("```rust example title=\"T\" expect=compile-fail error=E0381 edition=2018 mode=release asm editable\nfn main() { let x: i32; x; }\n```\n").unwrap();
    assert_eq!(ex.title.as_deref(), Some("T"));
    assert_eq!(ex.expect, Expect::CompileFail);
    assert_eq!(ex.error.as_deref(), Some("E0381"));
    assert_eq!(ex.edition, 2018);
    assert_eq!(ex.mode, Mode::Release);
    assert!(ex.asm);
    assert_eq!(ex.mdbook_flags, ["editable"]);
}

#[test]
fn mdbook_spellings_are_accepted() {
    let ex =
        parse("```rust,example,should_panic,edition2024\nfn main() { panic!() }\n```\n").unwrap();
    assert_eq!((ex.expect, ex.edition), (Expect::Panic, 2024));
    let ex =
        parse("```rust example compile_fail E0381\nfn main() { let x: i32; x; }\n```\n").unwrap();
    assert_eq!(
        (ex.expect, ex.error.as_deref()),
        (Expect::CompileFail, Some("E0381"))
    );
    let ex = parse("```rust example no_run\nfn main() {}\n```\n").unwrap();
    assert_eq!(ex.expect, Expect::NoRun);
}

#[test]
fn a_misspelled_attribute_gets_a_did_you_mean() {
    let err = parse("```rust example mdoe=release\nfn main() {}\n```\n").unwrap_err();
    assert!(
        err.message
            .ends_with("edition2015/2018/2021/2024, at; did you mean `mode`?"),
        "{}",
        err.message
    );
}

#[test]
fn errors_are_located_and_name_what_was_expected() {
    let cases: &[(&str, (usize, usize, &str))] = &[
        (
            "Text\n\n```rust example colour=red\nfn main() {}\n```\n",
            (
                3,
                17,
                "found unknown attribute `colour`; expected one of title, id, expect",
            ),
        ),
        (
            "```rust example expect=panics\nfn main() {}\n```\n",
            (
                1,
                17,
                "found `panics` for `expect`; expected one of run, panic, compile-fail, no-run; did you mean `panic`?",
            ),
        ),
        (
            "```rust example expect=crash\nfn main() {}\n```\n",
            (
                1,
                17,
                "found `crash` for `expect`; expected one of run, panic, compile-fail, no-run",
            ),
        ),
        (
            "```rust example title=\"open\nfn main() {}\n```\n",
            (
                1,
                23,
                "found an unterminated string; expected a closing `\"`",
            ),
        ),
        (
            "```rust example error=E0381\nfn main() {}\n```\n",
            (
                1,
                17,
                "found an error code with expect=run; expected `expect=compile-fail` alongside `error`",
            ),
        ),
        (
            "```rust example expect=compile-fail\n```\n",
            (
                1,
                4,
                "found an empty example; `expect=compile-fail` needs code that fails to compile",
            ),
        ),
        (
            "```rust example edition=2019\nfn main() {}\n```\n",
            (
                1,
                17,
                "found `2019` for `edition`; expected one of 2015, 2018, 2021, 2024",
            ),
        ),
        (
            "```rust example title=\"a\" title=\"b\"\nfn main() {}\n```\n",
            (
                1,
                27,
                "found `title` a second time; expected each attribute once",
            ),
        ),
        (
            "```rust example should_panic expect=run\nfn main() {}\n```\n",
            (
                1,
                30,
                "found `expect` after `should_panic`; expected one outcome per example",
            ),
        ),
        (
            "```rust example title=3\nfn main() {}\n```\n",
            (1, 17, "found integer for `title`; expected a string"),
        ),
        (
            "- item\n\n  > ```rust example asm=maybe\n  > fn main() {}\n  > ```\n",
            (
                3,
                21,
                "found a value for `asm` that is not `true`, `false` or `graph`; expected `asm`, `asm=false` or `asm=graph`",
            ),
        ),
    ];
    for (text, (line, col, msg)) in cases {
        let (l, c, m) = problem(text);
        assert!(m.starts_with(msg), "{text}: got {m}");
        assert_eq!((l, c), (*line, *col), "{text}: {m}");
    }
}

/// The first block of `text`, rendered from no facts.
fn rendered(text: &str, target: Target) -> Rendered {
    with_env(text, target, |b, env| {
        crate::render_block(b, env, &Facts::default())
    })
    .unwrap()
}

fn render_text(text: &str, target: Target) -> String {
    rendered(text, target).out.lines().join("\n")
}

#[test]
fn test_target_gets_rustdoc_attributes() {
    let text = "```rust example expect=compile-fail error=E0381 title=\"x\"\nfn main() { let x: i32; x; }\n```\n```output\nerror\n```\n";
    assert_eq!(
        render_text(text, Target::Test),
        "```rust,compile_fail,E0381,edition2021\nfn main() { let x: i32; x; }\n```"
    );
    let text = "```rust example expect=panic editable\n# fn main() {\npanic!(\"x\");\n# }\n```\n";
    assert_eq!(
        render_text(text, Target::Test),
        "```rust,should_panic,edition2021\n# fn main() {\npanic!(\"x\");\n# }\n```"
    );
}

#[test]
fn html_escapes_the_title_and_joins_the_output() {
    let text = "```rust example title=\"<b>&\" expect=panic\nfn main() { panic!() }\n```\n\n```output\nexplicit panic\n```\n";
    let html = render_text(text, Target::Html);
    assert!(
        html.contains("<span class=\"companion-title\">&lt;b&gt;&amp;</span>"),
        "{html}"
    );
    // Our Run button takes the block: mdBook makes none for it.
    assert!(
        html.contains("```rust,should_panic,edition2021,noplayground\nfn main() { panic!() }\n```"),
        "{html}"
    );
    assert!(
        html.contains("Panics with</div>\n\n```text\nexplicit panic\n```\n\n</div>"),
        "{html}"
    );
    assert!(!html.contains("\n\n\n"), "{html}");
}

#[test]
fn overlong_links_fall_back_with_a_located_warning() {
    let body = "    println!(\"{}\", \"a long line of text that repeats\");\n".repeat(300);
    let text = format!("Intro\n\n```rust example\nfn main() {{\n{body}}}\n```\n");
    let r = rendered(&text, Target::Html);
    let html = r.out.lines().join("\n");
    assert!(html.contains("href=\"https://play.rust-lang.org/?version=stable&amp;mode=debug&amp;edition=2021\">Playground</a>"), "{html}");
    assert!(
        html.contains("href=\"https://godbolt.org/clientstate/"),
        "compressed state still fits: {html}"
    );
    assert_eq!(r.warnings.len(), 1);
    assert_eq!(markdown::line_col(&text, r.warnings[0].offset), (3, 4));
    assert!(
        r.warnings[0]
            .message
            .starts_with("the Playground link would be"),
        "{}",
        r.warnings[0].message
    );
}

#[test]
fn markdown_target_is_plain() {
    let text = "```rust example title=\"*T*\" playground=false compiler-explorer=false\nfn main() {}\n```\n";
    assert_eq!(
        render_text(text, Target::Markdown),
        "Example 1 — **\\*T\\*** — *Runs*\n\n```rust,edition2021\nfn main() {}\n```"
    );
}

#[test]
fn an_asm_block_is_a_second_claim_of_the_same_frame() {
    let text = "```rust example asm-syntax=att warnings=none\nfn f() -> i32 { 1 }\n# fn main() { f(); }\n```\n\n```asm\nCHECK-LABEL: f:\nCHECK: ret\n```\n\n```output\n```\n";
    let cfg = config();
    let block = scan(text).into_iter().next().unwrap();
    let shared = crate::Shared::disabled();
    let env = env(&cfg, &shared, Target::Test, text);
    let parsed = crate::parse(&block, &env).unwrap();
    let r = crate::render(&block, &env, parsed.model.as_ref(), &Facts::default()).unwrap();
    let [own, asm] = &r.claims[..] else {
        panic!("{:?}", r.claims)
    };
    assert_eq!(
        (own.expectation.expect, own.expectation.no_warnings),
        (Expect::Run, true)
    );
    assert_eq!(
        (asm.expectation.expect, asm.expectation.no_warnings),
        (Expect::Asm, false)
    );
    assert_eq!(markdown::line_col(text, asm.origin.offset), (6, 4));
    assert_eq!(asm.program.source, own.program.source);
    let a = asm.expectation.asm.as_ref().unwrap();
    assert_eq!(a.shown, "fn f() -> i32 { 1 }\n");
    assert_eq!(a.syntax, mdbook_companion_core::machine::Syntax::Att);
    assert_eq!(
        r.entries.iter().map(|e| e.claim).collect::<Vec<_>>(),
        [Some(0), Some(1)]
    );
    assert_eq!(r.entries[1].number, r.entries[0].number);
    assert_eq!(r.entries[1].badge.as_deref(), Some("Assembly as stated"));
    // The block's directives are checked when the chapter is read.
    let bad = "```rust example\nfn main() {}\n```\n```asm\nCHECK: ret\nret\n```\n";
    let block = scan(bad).into_iter().next().unwrap();
    let env = Env { text: bad, ..env };
    let e = crate::parse(&block, &env).unwrap_err();
    assert_eq!(markdown::line_col(bad, e.offset), (6, 1), "{}", e.message);
}

#[test]
fn renders_from_made_up_facts_without_a_compiler() {
    // No compiler is configured that could run: the listing, the
    // crates and the talk's moment all come from the facts.
    let text = "```rust example asm at=\"1:00\"\nuse mylib::f;\nfn main() { f() }\n```\n";
    let mut cfg = config();
    cfg.rustc = "/nonexistent/rustc".into();
    let block = scan(text).into_iter().next().unwrap();
    let shared = crate::Shared::disabled();
    let env = env(&cfg, &shared, Target::Html, text);
    let parsed = crate::parse(&block, &env).unwrap();
    let source = "use mylib::f;\nfn main() { f() }\n";
    let moment = Reference {
        topic: Topic::Moment,
        value: "1:00".into(),
        at: 20,
    };
    let req = AsmNeed {
        request: Request {
            lang: Lang::Rust,
            source: source.into(),
            shown: source.into(),
            edition: 2021,
            syntax: None,
            flags: Vec::new(),
        },
        graph: false,
        at: 3,
    };
    let claim = match &parsed.needs[3] {
        Need::Recorded(c) => c.clone(),
        other => panic!("expected the recorded run's need, found {other:?}"),
    };
    assert_eq!(claim.program.source, source);
    assert_eq!(
        parsed.needs,
        [
            Need::Reference(moment.clone()),
            Need::Crates(source.into()),
            Need::Assembly(req.clone()),
            Need::Recorded(claim.clone()),
            Need::Vouched(claim.clone()),
        ]
    );
    let facts = Facts::new(vec![
        (
            Need::Reference(moment),
            Fact::Item(Ok(Published::Moment(MomentLink {
                label: "1:00 in the talk".into(),
                href: Some("https://youtu.be/v?t=60s".into()),
            }))),
        ),
        (
            Need::Crates(source.into()),
            Fact::Crates(vec!["mylib".into()]),
        ),
        (
            Need::Assembly(req),
            Fact::Assembly(Ok(AsmAnswer {
                listing: Some(Listing {
                    text: "main:\n  ret".into(),
                    lines: Vec::new(),
                }),
                ..AsmAnswer::default()
            })),
        ),
        (
            Need::Recorded(claim.clone()),
            Fact::Recorded(Some(RecordedRun {
                compiled: true,
                stdout: "<made up>\n".into(),
                stderr: String::new(),
                toolchain: "rustc 1.0.0".into(),
                status: None,
                report: None,
            })),
        ),
        // The lock records the claim as failed: no proving badge.
        (
            Need::Vouched(claim),
            Fact::Vouched(Vouched::Verdict(Recorded::Failed, None)),
        ),
    ]);
    let r = crate::render(&block, &env, parsed.model.as_ref(), &facts).unwrap();
    let html = r.out.lines().join("\n");
    assert!(
        html.contains(
            "<a class=\"companion-talk-at\" href=\"https://youtu.be/v?t=60s\">1:00 in the talk</a>"
        ),
        "{html}"
    );
    assert!(html.contains("<details class=\"companion-asm\">"), "{html}");
    assert!(html.contains("main:\n  ret"), "{html}");
    assert!(
        html.contains("needs <code>mylib</code>, not on the Playground"),
        "{html}"
    );
    assert!(html.contains(",noplayground"), "{html}");
    // The Run button shows the made-up recorded run; edited code
    // cannot go to a Playground that lacks `mylib`.
    assert!(
            html.contains("<div class=\"companion-example companion-expect-run\" id=\"example-1\" data-companion-run=\"{&quot;mode&quot;:&quot;auto&quot;,&quot;needs&quot;:&quot;`mylib`&quot;,&quot;edition&quot;:2021,&quot;release&quot;:false,&quot;recorded&quot;:{&quot;compiled&quot;:true,&quot;stdout&quot;:&quot;&lt;made up&gt;\\n&quot;,&quot;stderr&quot;:&quot;&quot;,&quot;toolchain&quot;:&quot;rustc 1.0.0&quot;}}\">"),
            "{html}"
        );
    assert!(
        html.contains("<span class=\"companion-badge\">Check failed</span>"),
        "{html}"
    );
    assert!(!html.contains(">Runs<"), "{html}");
    assert_eq!(r.claims.len(), 1);
    assert!(r.warnings.is_empty() && r.missing.is_empty());
}

#[test]
fn the_assembly_panel_ties_lines_tells_its_claims_and_draws_graphs_from_facts() {
    // Line 1 of the shown code is program line 1 (it has a main); the
    // listing's lines carry program lines, as the compiler's line
    // tables give them.
    let text = "```rust example asm=graph\n# #[inline(never)]\nfn f(x: u32) -> u32 { x + 1 }\nfn main() { f(1); }\n```\n\n```asm\nCHECK-LABEL: f:\nCHECK: lea\n```\n";
    let cfg = config();
    let block = scan(text).into_iter().next().unwrap();
    let shared = crate::Shared::disabled();
    let env = env(&cfg, &shared, Target::Html, text);
    let parsed = crate::parse(&block, &env).unwrap();
    let req = parsed
        .needs
        .iter()
        .find_map(|n| match n {
            Need::Assembly(r) => Some(r.clone()),
            _ => None,
        })
        .expect("an assembly need");
    assert!(req.graph);
    let render = |listing: &str, graphs: Vec<mdbook_companion_core::flowgraph::Drawing>| {
        let facts = Facts::new(vec![(
            Need::Assembly(req.clone()),
            Fact::Assembly(Ok(AsmAnswer {
                listing: Some(Listing {
                    text: listing.into(),
                    lines: vec![0, 2, 2, 3],
                }),
                graphs,
                ..AsmAnswer::default()
            })),
        )]);
        let r = crate::render(&block, &env, parsed.model.as_ref(), &facts).unwrap();
        r.out.lines().join("\n")
    };
    let drawing = mdbook_companion_core::flowgraph::Drawing {
        function: "f".into(),
        svg: format!(
            "<svg id=\"{}\"></svg>",
            mdbook_companion_core::flowgraph::ID_SLOT
        ),
    };
    let html = render("f:\n    lea eax, [rdi + 1]\n    ret\nmain:", vec![drawing]);
    // Shown line 1 (`fn f`, program line 2) and its two instructions
    // share a colour; `main:` (program line 3) is shown line 2's.
    assert!(html.contains("<div class=\"companion-asm-tie\""), "{html}");
    assert_eq!(
        html.matches("companion-ln companion-c0\" data-line=\"1\"")
            .count(),
        3,
        "{html}"
    );
    assert_eq!(
        html.matches("companion-ln companion-c1\" data-line=\"2\"")
            .count(),
        2,
        "{html}"
    );
    assert!(html.contains("Control-flow graph of f"), "{html}");
    assert!(html.contains("<svg id=\"example-1-cfg-0\">"), "{html}");
    let (_, claims) = html
        .split_once("<div class=\"companion-asm-claims")
        .expect("claims");
    assert!(
        claims.contains("Holds") && claims.contains("<code>lea</code>"),
        "{html}"
    );
    // A listing the claim does not match: the page says so.
    let html = render("f:\n    add eax, 1\n    ret\nmain:", Vec::new());
    assert!(html.contains("companion-asm-fails"), "{html}");
    assert!(!html.contains("companion-cfg"), "{html}");
}
