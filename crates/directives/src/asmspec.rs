//! What a runnable snippet (an example or a comparison side) asks of its
//! assembly and its compiler: the panel (`asm`, `asm=graph`), its syntax
//! (`asm-syntax=`), the C or C++ side's own flags (`flags="-Wall
//! -Wextra"`), the claim that the compiler prints no warning
//! (`warnings=none`), and the claims of the ```` ```asm ```` block after
//! it. Examples and sides read these attributes the same way through
//! [`mod@crate::attributes`]; and what they make of it: the panel a frame
//! shows (`asm_panel`) and the claim of the ```` ```asm ```` block
//! ([`asm_claim`]).

use super::asmview::Standing;
use super::contract::Env;
use super::facts::{AsmAnswer, AsmNeed};
use super::frame::AsmPanel;
use super::numbering::Number;
use mdbook_companion_core::attrs::Attr;
use mdbook_companion_core::claim::{AsmClaim, Claim};
use mdbook_companion_core::expect::Expect;
use mdbook_companion_core::filecheck::{self, Checks};
use mdbook_companion_core::lang::Lang;
use mdbook_companion_core::machine::{self, Syntax};
use mdbook_companion_core::markdown::Fence;
use mdbook_companion_core::problem::Problem;
use mdbook_companion_core::sanitize::Sanitize;
use mdbook_companion_core::values::Attrs;
use std::ops::Range;

/// The panel a snippet shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Panel {
    /// No assembly panel.
    #[default]
    None,
    /// The listing, tied to the source (`asm`).
    Listing,
    /// The listing and each function's control-flow graph (`asm=graph`).
    Graph,
}

/// The claims of an ```` ```asm ```` block.
#[derive(Debug, Clone, PartialEq)]
pub struct AsmBlock {
    /// The directives.
    pub checks: Checks,
    /// The architecture they hold for.
    pub arch: String,
    /// Where the block's info string stands in the chapter.
    pub info_offset: usize,
    /// The chapter offset of each of its directives.
    pub offsets: Vec<usize>,
}

/// A snippet's assembly and compiler attributes.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AsmSpec {
    /// Which panel.
    pub panel: Panel,
    /// The syntax, when the snippet names one (else the book's).
    pub syntax: Option<Syntax>,
    /// `flags=`: the C or C++ side's own flags.
    pub flags: Vec<String>,
    /// `warnings=none`.
    pub no_warnings: bool,
    /// The ```` ```asm ```` block after it, if any.
    pub block: Option<AsmBlock>,
}

/// The panel `asm` asks for: `asm` (or `asm=true`), `asm=false` or
/// `asm=graph`.
pub fn panel(a: &Attrs<'_>, attr: &Attr) -> Result<Panel, Problem> {
    match &attr.value {
        Some(toml::Value::String(s)) if s == "graph" => Ok(Panel::Graph),
        _ => match a.boolean(attr) {
            Ok(true) => Ok(Panel::Listing),
            Ok(false) => Ok(Panel::None),
            Err(_) => Err(a.problem(
                attr,
                "found a value for `asm` that is not `true`, `false` or `graph`; expected `asm`, `asm=false` or `asm=graph`",
            )),
        },
    }
}

/// The syntax `asm-syntax=` names.
pub fn syntax(a: &Attrs<'_>, attr: &Attr) -> Result<Syntax, Problem> {
    let syntax = a.string(attr)?;
    Syntax::parse(&syntax).ok_or_else(|| {
        a.problem(
            attr,
            format!("found `asm-syntax={syntax}`; expected {}", Syntax::KNOWN),
        )
    })
}

/// A C or C++ snippet's own compiler options (`flags="-Wall -Wextra"`):
/// options only, and only those `ccflags` allows.
pub fn flags(a: &Attrs<'_>, attr: &Attr) -> Result<Vec<String>, Problem> {
    let flags: Vec<String> = a
        .string(attr)?
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    if let Some(bad) = flags.iter().find(|f| !f.starts_with('-')) {
        return Err(a.problem(
            attr,
            format!(
                "found `{bad}` in `flags`; expected compiler options, each starting with `-` (`flags=\"-Wall -Wextra\"`)"
            ),
        ));
    }
    for flag in &flags {
        if let Err(why) = mdbook_companion_core::ccflags::check(flag) {
            return Err(a.problem(
                attr,
                format!(
                    "found `{flag}` in `flags`, which is refused: {why}; expected only flags that change how the code is generated or diagnosed: {}",
                    mdbook_companion_core::ccflags::ALLOWED
                ),
            ));
        }
    }
    Ok(flags)
}

/// `warnings=none`, the only value it takes: true.
pub fn warnings(a: &Attrs<'_>, attr: &Attr) -> Result<bool, Problem> {
    let w = a.string(attr)?;
    if w != "none" {
        return Err(a.problem(
            attr,
            format!("found `warnings={w}`; expected `warnings=none`"),
        ));
    }
    Ok(true)
}

impl AsmSpec {
    /// The syntax of its listing: its own, else the book's.
    pub fn syntax(&self, book: Syntax) -> Syntax {
        self.syntax.unwrap_or(book)
    }

    /// True when its panel draws control-flow graphs (`asm=graph`).
    pub fn graph(&self) -> bool {
        self.panel == Panel::Graph
    }

    /// True when a panel is shown: asked for, or implied by an `asm` block.
    pub fn shows(&self) -> bool {
        self.panel != Panel::None || self.block.is_some()
    }
}

/// Reads an ```` ```asm ```` block of `text` (the chapter): its `arch=`
/// attribute (else `book_arch`) and its directives, errors located in the
/// chapter.
pub(crate) fn parse_block(text: &str, fence: &Fence, book_arch: &str) -> Result<AsmBlock, Problem> {
    let list = mdbook_companion_core::markdown::attributes(fence, 1)
        .map_err(|e| Problem::from_attr(fence, e))?;
    let mut a = Attrs::new(fence);
    let mut arch = book_arch.to_owned();
    for attr in &list {
        a.once(attr, &attr.key)?;
        if attr.key != "arch" {
            return Err(a.problem(
                attr,
                format!(
                    "found unknown attribute `{}` on an ```asm block; expected arch",
                    attr.key
                ),
            ));
        }
        arch = a.string(attr)?;
        if !machine::ARCHES.contains(&arch.as_str()) {
            return Err(a.problem(
                attr,
                format!(
                    "found `arch={arch}`; expected one of {}",
                    machine::ARCHES.join(", ")
                ),
            ));
        }
    }
    let map = BodyMap::new(text, fence);
    let at = |offset: usize| map.chapter_offset(offset);
    let checks = filecheck::parse(&fence.body).map_err(|e| Problem::at(at(e.offset), e.message))?;
    if checks.directives.is_empty() {
        return Err(Problem::at(
            fence.info_offset,
            format!(
                "found an ```asm block with no directive; expected {} lines",
                filecheck::KNOWN
            ),
        ));
    }
    let offsets = checks.directives.iter().map(|d| at(d.offset)).collect();
    Ok(AsmBlock {
        checks,
        arch,
        info_offset: fence.info_offset,
        offsets,
    })
}

/// The ```` ```asm ```` blocks of `text` that hold FileCheck directives
/// but belong to no directive among `blocks` (only blank lines may stand
/// between a snippet and its ```` ```asm ````): they claim nothing and are
/// shown as plain code, so the author is warned, at the block's info
/// string. A plain assembly listing (no `CHECK` line) is left alone.
pub fn stray_asm(text: &str, blocks: &[mdbook_companion_core::markdown::Block]) -> Vec<Problem> {
    if memchr::memmem::find(text.as_bytes(), b"CHECK").is_none() {
        return Vec::new();
    }
    let Ok(fences) = std::panic::catch_unwind(|| mdbook_companion_core::markdown::fences(text))
    else {
        return Vec::new();
    };
    fences
        .into_iter()
        .filter(|f| mdbook_companion_core::markdown::first_word(&f.info) == "asm")
        .filter(|f| {
            f.body.lines().any(|l| {
                let l = l.trim_start();
                l.starts_with("CHECK:") || l.starts_with("CHECK-")
            })
        })
        .filter(|f| {
            !blocks
                .iter()
                .any(|b| b.range.start <= f.range.start && f.range.end <= b.range.end)
        })
        .map(|f| {
            Problem::at(
                f.info_offset,
                "found an ```asm block of FileCheck directives that follows no example or comparison side; it claims nothing and is shown as plain code; expected it right after the snippet (or its ```output), with only blank lines between",
            )
        })
        .collect()
}

/// Where a fence's body lines stand in the chapter: the body's lines lost
/// their container prefix (list indentation, `> `), so they are matched
/// from their ends, which the prefix does not change. Built in one pass
/// over the body and the chapter lines it spans; each lookup is a binary
/// search, so locating every directive of a block is linear, not quadratic.
struct BodyMap<'a> {
    text: &'a str,
    body: &'a str,
    /// Byte offsets where the body's lines start.
    body_lines: Vec<usize>,
    /// The chapter offsets where the same lines start.
    chapter_lines: Vec<usize>,
}

impl<'a> BodyMap<'a> {
    fn new(text: &'a str, fence: &'a Fence) -> BodyMap<'a> {
        let body = fence.body.as_str();
        let mut body_lines = vec![0];
        body_lines.extend(memchr::memchr_iter(b'\n', body.as_bytes()).map(|i| i + 1));
        filecheck::work(body_lines.len());
        let first = text[..fence.body_offset.min(text.len())]
            .rfind('\n')
            .map_or(0, |i| i + 1);
        let mut chapter_lines = Vec::with_capacity(body_lines.len());
        let mut start = first;
        for _ in 0..body_lines.len() {
            chapter_lines.push(start);
            start = text[start..]
                .find('\n')
                .map_or(text.len(), |i| start + i + 1);
        }
        filecheck::work(chapter_lines.len());
        BodyMap {
            text,
            body,
            body_lines,
            chapter_lines,
        }
    }

    /// The chapter offset of byte `at` of the body.
    fn chapter_offset(&self, at: usize) -> usize {
        let (text, body) = (self.text, self.body);
        let at = at.min(body.len());
        let line = self
            .body_lines
            .partition_point(|&s| s <= at)
            .saturating_sub(1);
        let line_start = self.body_lines.get(line).copied().unwrap_or(0);
        let body_line_len = body[line_start..]
            .find('\n')
            .unwrap_or(body.len() - line_start);
        filecheck::work(1);
        let col = at - line_start;
        let start = self.chapter_lines.get(line).copied().unwrap_or(text.len());
        let chapter_line = &text[start..];
        let len = chapter_line.find('\n').unwrap_or(chapter_line.len());
        let len = chapter_line[..len].trim_end_matches('\r').len();
        (start + len.saturating_sub(body_line_len) + col).min(text.len())
    }
}

/// A snippet's assembly panel from its `listing` (a fact), when one was
/// made: the listing tied to `shown` through `program_lines` (the shown
/// line of each line of the program compiled, [`tie`](mdbook_companion_core::tie)), the claims of its
/// ```` ```asm ```` block (in `spec`) matched against it, the graphs'
/// ids made unique by the frame's `number`.
pub(crate) fn asm_panel<'a>(
    listing: &'a AsmAnswer,
    how: &'a str,
    shown: &'a str,
    program_lines: &[u32],
    spec: &'a AsmSpec,
    number: Option<&Number>,
) -> Option<AsmPanel<'a>> {
    let made = listing.listing.as_ref()?;
    let text = made.text.as_str();
    let lines = made
        .lines
        .iter()
        .map(|&l| {
            (l as usize)
                .checked_sub(1)
                .and_then(|i| program_lines.get(i))
                .copied()
                .unwrap_or(0)
        })
        .collect();
    let claims = spec.block.as_ref().map(|b| {
        let here = machine::host_arch();
        let standing = if b.arch != here {
            Standing::OtherArch(here)
        } else if b.checks.run(text).is_ok() {
            Standing::Holds
        } else {
            Standing::Fails
        };
        (&b.checks, b.arch.as_str(), standing)
    });
    Some(AsmPanel {
        listing: text,
        how,
        shown,
        lines,
        claims,
        graphs: &listing.graphs,
        id: number.map_or_else(|| "companion-cfg".to_owned(), |n| format!("{}-cfg", n.id)),
    })
}

/// The claim of a snippet's ```` ```asm ```` block (in `spec`), made
/// beside `claim`, the snippet's own: its listing is the one `program`
/// makes, the panel's, matched against the block's directives.
pub fn asm_claim(env: &Env<'_>, claim: &Claim, spec: &AsmSpec, program: AsmNeed) -> Option<Claim> {
    let block = spec.block.as_ref()?;
    let mut asm = claim.clone();
    asm.origin.line = env.place.line(block.info_offset);
    asm.origin.offset = block.info_offset;
    asm.origin.what = format!("asm of {}", claim.origin.what);
    asm.program.source = program.request.source;
    asm.expectation.expect = Expect::Asm;
    asm.expectation.output = None;
    asm.origin.output_range = None;
    asm.origin.bless = None;
    asm.program.flags = program.request.flags;
    asm.expectation.no_warnings = false;
    asm.expectation.sanitize = mdbook_companion_core::sanitize::Sanitize::NONE;
    asm.expectation.unordered = false;
    asm.expectation.asm = Some(AsmClaim {
        shown: program.request.shown,
        syntax: spec.syntax(env.config.asm_syntax),
        arch: block.arch.clone(),
        checks: block.checks.clone(),
    });
    Some(asm)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mdbook_companion_core::markdown::fences;
    use pretty_assertions::assert_eq;

    fn spec(info: &str, c: bool) -> Result<AsmSpec, Problem> {
        let text = format!("```{info}\nx\n```\n");
        let fence = fences(&text).remove(0);
        let list = mdbook_companion_core::markdown::attributes(&fence, 1).unwrap();
        let kind = match c {
            true => &crate::attributes::C_SIDE,
            false => &crate::attributes::RUST_EXAMPLE,
        };
        Ok(crate::reader::Reader::read(&fence, &list, kind, "c")?.spec)
    }

    #[test]
    fn attributes_are_read_once_for_examples_and_sides() {
        let s = spec(
            "c asm=graph asm-syntax=att flags=\"-Wall -Wextra\" warnings=none",
            true,
        )
        .unwrap();
        assert_eq!(
            (s.panel, s.syntax, s.flags.clone(), s.no_warnings),
            (
                Panel::Graph,
                Some(Syntax::Att),
                vec!["-Wall".to_owned(), "-Wextra".into()],
                true
            )
        );
        assert_eq!(s.syntax(Syntax::Intel), Syntax::Att);
        assert_eq!(spec("rust asm", false).unwrap().panel, Panel::Listing);
        assert_eq!(spec("rust asm=false", false).unwrap().panel, Panel::None);
        let e = spec("c warnings=some", true).unwrap_err();
        assert_eq!(e.message, "found `warnings=some`; expected `warnings=none`");
        assert_eq!(e.offset, 5);
        let e = spec("c flags=\"Wall\"", true).unwrap_err();
        assert!(
            e.message.starts_with("found `Wall` in `flags`"),
            "{}",
            e.message
        );
        assert!(
            spec("c asm-syntax=masm", true)
                .unwrap_err()
                .message
                .contains("`\"intel\"` or `\"att\"`")
        );
        assert!(spec("rust asm=3", false).is_err());
    }

    #[test]
    fn asm_blocks_are_located_in_the_chapter_even_in_a_list() {
        let text = "- item\n\n  ```asm arch=aarch64\n  CHECK: ret\n    CHECK-NXT: x\n  ```\n";
        let fence = fences(text).remove(0);
        let e = parse_block(text, &fence, "x86_64").unwrap_err();
        assert_eq!(&text[e.offset..e.offset + 9], "CHECK-NXT", "{}", e.message);
        let text = "> ```asm\n> CHECK: ret\n> CHECK-NOT: call\n> ```\n";
        let fence = fences(text).remove(0);
        let b = parse_block(text, &fence, "x86_64").unwrap();
        assert_eq!(b.arch, "x86_64");
        let at: Vec<&str> = b.offsets.iter().map(|&o| &text[o..o + 9]).collect();
        assert_eq!(at, ["CHECK: re", "CHECK-NOT"]);
        let text = "```asm arch=vax\nCHECK: x\n```\n";
        let e = parse_block(text, &fences(text)[0], "x86_64").unwrap_err();
        assert!(e.message.starts_with("found `arch=vax`"), "{}", e.message);
        let text = "```asm\n\n```\n";
        let e = parse_block(text, &fences(text)[0], "x86_64").unwrap_err();
        assert!(
            e.message
                .starts_with("found an ```asm block with no directive")
        );
    }

    /// Reading an ```asm block and describing it does work in proportion
    /// to its size: counted, not timed (locating each directive by walking
    /// the chapter again made it quadratic in the block's lines).
    #[test]
    fn reading_an_asm_block_is_linear_in_its_lines() {
        let steps = |n: usize, kind: &str| {
            let mut text = String::from("> ```asm\n");
            for i in 0..n {
                text.push_str(&format!("> {kind} f{i}\n"));
            }
            text.push_str("> ```\n");
            let fence = fences(&text).remove(0);
            filecheck::WORK.with(|w| w.set(0));
            let block = parse_block(&text, &fence, "x86_64").unwrap();
            assert_eq!(block.offsets.len(), n);
            assert_eq!(&text[block.offsets[n - 1]..][..kind.len()], kind);
            block.checks.describe();
            filecheck::WORK.with(std::cell::Cell::get)
        };
        for kind in ["CHECK:", "CHECK-NOT:"] {
            let (small, large) = (steps(1_000, kind), steps(16_000, kind));
            assert!(
                large <= small * 16 + 16 && large >= 16_000,
                "{kind}: {small} steps for 1,000 lines, {large} for 16,000"
            );
        }
    }
}

/// A compiled C or C++ snippet where it stands in a chapter: a comparison's
/// side or a quiz's program.
#[derive(Debug, Clone, Copy)]
pub struct CSnippet<'a> {
    /// C or C++.
    pub lang: Lang,
    /// Where its info string starts in the chapter.
    pub info_offset: usize,
    /// The program the compiler gets (hidden lines included).
    pub source: &'a str,
    /// Its output block, and where that stands.
    pub output: Option<(&'a str, &'a Range<usize>)>,
}

impl AsmSpec {
    /// The claim of a compiled C or C++ snippet with these compiler
    /// attributes: it does `expect`, watched by `sanitize`.
    pub fn c_claim(
        &self,
        env: &Env<'_>,
        snippet: CSnippet<'_>,
        expect: Expect,
        sanitize: Sanitize,
    ) -> Claim {
        let output_range = snippet.output.map(|(_, r)| r.clone());
        let mut claim = Claim::new(
            env.file,
            snippet.info_offset,
            "",
            snippet.lang,
            snippet.source,
            expect,
        );
        claim.origin.line = env.place.line(snippet.info_offset);
        claim.expectation.output = snippet.output.map(|(o, _)| o.to_owned());
        claim.origin.bless = output_range.as_ref().and_then(|r| env.place.bless(r));
        claim.origin.output_range = output_range;
        claim.program.edition = env.config.edition;
        claim.program.flags = self.flags.clone();
        claim.expectation.no_warnings = self.no_warnings;
        claim.expectation.sanitize = sanitize;
        claim
    }
}
