//! A program question: a Rust, C or C++ fence read with an example's or
//! a side's attributes (and `line=`, the line of the first error the
//! reader predicts), its ```` ```output ````, and the lines the reader
//! sees told as lines of the program the compiler gets.

use super::{Program, Role};
use crate::attributes;
use crate::reader::Reader;
use crate::runnable::Example;
use mdbook_companion_core::claim::{UNORDERED, has_pattern};
use mdbook_companion_core::code;
use mdbook_companion_core::config::Config;
use mdbook_companion_core::expect::Expect;
use mdbook_companion_core::lang::Lang;
use mdbook_companion_core::markdown::{self, Fence};
use mdbook_companion_core::problem::Problem;

/// The values `expect=` takes on a quiz's Rust program.
const RUST_OUTCOMES: [(&str, Expect); 3] = [
    ("run", Expect::Run),
    ("panic", Expect::Panic),
    ("compile-fail", Expect::CompileFail),
];

/// A program question from its (chapter-mapped) fence and output block.
pub(super) fn program(
    fence: Fence,
    output: Option<Fence>,
    config: &Config,
) -> Result<Program, Problem> {
    let lang = Lang::from_fence(markdown::first_word(&fence.info)).unwrap_or(Lang::Rust);
    let list = markdown::attributes(&fence, 1).map_err(|e| Problem::from_attr(&fence, e))?;
    let kind = match lang.follows_rustdoc() {
        true => &attributes::QUIZ_RUST,
        false => &attributes::QUIZ_C,
    };
    let mut given = Reader::read(&fence, &list, kind, lang.fence())?;
    let line = given.line.take();
    let (shown, source) = lang.split_hidden(&fence.body, config);
    let role = match lang.follows_rustdoc() {
        true => {
            let ex = Example::from_given(&fence, given, output.as_ref(), None, config)?;
            if !RUST_OUTCOMES.iter().any(|(_, e)| *e == ex.expect) || ex.ignore {
                let found = list
                    .iter()
                    .find(|at| matches!(at.key.as_str(), "expect" | "no_run" | "ignore"));
                let message = |key: &str| {
                    format!(
                        "found `{key}` on a quiz's program; expected expect=run, expect=panic or expect=compile-fail (what the reader predicts, and the build proves)"
                    )
                };
                return Err(match found {
                    Some(attr) => Problem::at(fence.info_offset + attr.offset, message(&attr.key)),
                    None => Problem::at(fence.info_offset, message("no_run")),
                });
            }
            Role::Rust(Box::new(ex))
        }
        false => {
            let c = crate::reader::c_code(&fence, &mut given)?;
            Role::Compiled {
                expect: c.expect,
                spec: c.spec,
                sanitize: c.sanitize,
            }
        }
    };
    let expect = match &role {
        Role::Rust(ex) => ex.expect,
        Role::Compiled { expect, .. } => *expect,
    };
    if shown.trim().is_empty() {
        return Err(Problem::at(
            fence.info_offset,
            "found a program with no code the reader can see; expected the program the question asks about",
        ));
    }
    if expect == Expect::Run
        && let Some(o) = &output
    {
        let unordered = o.info.split([' ', ',', '\t']).any(|w| w == UNORDERED);
        literal_output(&o.body, unordered).map_err(|m| Problem::at(o.info_offset, m))?;
    }
    if expect == Expect::Run && output.is_none() {
        return Err(Problem::at(
            fence.info_offset,
            "found a program question with no ```output block; expected what the program prints right after it (the reader's answer is compared with it, and the build proves it)",
        ));
    }
    let shown_lines = shown_lines(lang, &fence.body, config);
    check_line(expect, line, shown_lines.len(), fence.info_offset)?;
    Ok(Program {
        lang,
        role,
        code: fence.body.clone(),
        shown,
        source,
        output: output.as_ref().map(|o| o.body.clone()),
        output_range: output.as_ref().map(|o| o.range.clone()),
        line: line.map(|(n, _)| n),
        shown_lines,
        info_offset: fence.info_offset,
        placed: None,
        bless: None,
        placed_code: None,
    })
}

/// Checks `line=` (its value and where it stands) against the outcome:
/// a program that does not compile names the line of its first error,
/// one of the `shown` lines the reader sees; any other names none.
fn check_line(
    expect: Expect,
    line: Option<(usize, usize)>,
    shown: usize,
    info_offset: usize,
) -> Result<(), Problem> {
    match (expect, line) {
        (Expect::CompileFail, None) => {
            return Err(Problem::at(
                info_offset,
                "found `expect=compile-fail` without `line`; expected `line=N`, the line (from 1, as the reader sees the code) of the compiler's first error",
            ));
        }
        (Expect::CompileFail, Some((n, at))) if n > shown => {
            return Err(Problem::at(
                at,
                format!(
                    "found line={n} in a program the reader sees {} lines of; expected a line the reader can see",
                    shown
                ),
            ));
        }
        (Expect::CompileFail, _) => {}
        (_, Some((_, at))) => {
            return Err(Problem::at(
                at,
                "found `line` on a program that compiles; expected it only with expect=compile-fail",
            ));
        }
        (_, None) => {}
    }
    Ok(())
}

/// The output a reader predicts must be the output itself: the page
/// compares what the reader types with it literally, so a pattern (`[..]`,
/// a `...` line) or lines in any order (`unordered`), which the build
/// would accept, would mark the true output wrong.
pub(super) fn literal_output(output: &str, unordered: bool) -> Result<(), String> {
    if unordered {
        return Err(format!(
            "found ```output {UNORDERED} on a quiz's program; expected its output in the one order it is printed (the reader's page compares the reader's answer with it literally)"
        ));
    }
    if has_pattern(output) {
        return Err("found a pattern (`[..]` or a `...` line) in the output a quiz's reader predicts; expected the exact output (the reader's page compares the reader's answer with it literally, so the true output would be marked wrong)".to_owned());
    }
    Ok(())
}

/// For each line the reader sees, its 1-based line in the program the
/// compiler gets (Rust: wrapped in `fn main` when it has none, after its
/// inner attributes).
fn shown_lines(lang: Lang, code: &str, config: &Config) -> Vec<usize> {
    let (wrapped, head) = match lang.follows_rustdoc() {
        true => {
            let source = code::rust_source(code);
            let head = source
                .lines()
                .take_while(|l| l.trim_start().starts_with("#!["))
                .count();
            (!code::has_main(&source), head)
        }
        false => (false, 0),
    };
    code.lines()
        .enumerate()
        .filter(|(_, l)| !lang.hides(l, config))
        .map(|(i, _)| match wrapped && i >= head {
            true => i + 2,
            false => i + 1,
        })
        .collect()
}
