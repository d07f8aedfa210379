//! Reading a compare block: its attributes, then its body as Markdown,
//! piece by piece (fences, note paragraphs, output blocks), with every
//! offset mapped back to the chapter.

use super::{Compare, KIND, Layout, Role, Side};
use crate::asmspec::{self, AsmBlock, AsmSpec, Panel};
use crate::attributes::{self, Given};
use crate::body::{self, Item, Mapper, closes, items};
use crate::contract::Env;
use crate::reader::Reader;
use crate::runnable::Example;
use mdbook_companion_core::expect::Expect;
use mdbook_companion_core::lang::{Family, Lang};
use mdbook_companion_core::markdown::{self, Block, Fence};
use mdbook_companion_core::problem::Problem;

const SIDES: &str = "a fenced code block (```c, ```cpp, ```rust, ```python, ```go)";

impl Compare {
    /// Parses a compare block: its attributes and its sides.
    pub(crate) fn parse(block: &Block, env: &Env<'_>) -> Result<Compare, Problem> {
        let fence = &block.fence;
        let attrs = KIND.attributes(block)?;
        let given = Reader::read(fence, &attrs, &attributes::COMPARE, "compare")?;
        let mut cmp = Compare {
            title: given.title,
            at: given.at,
            layout: given.layout.unwrap_or(Layout::Columns),
            asm: given.spec.panel,
            sides: Vec::new(),
            id: given.id,
        };
        let text = env.text;
        let line_start = text[..fence.body_offset.min(text.len())]
            .rfind('\n')
            .map_or(0, |i| i + 1);
        let mapper = Mapper::new(
            text,
            &fence.body,
            fence.body_offset,
            fence.body_offset.saturating_sub(line_start),
        );
        let pending = pieces(fence, &mapper, env)?;
        if pending.len() < 2 {
            let found = match pending.len() {
                0 => "no side".to_owned(),
                _ => "1 side".to_owned(),
            };
            return Err(Problem::at(
                fence.info_offset,
                format!("found {found}; expected 2 to 4 fenced code blocks in a compare block"),
            ));
        }
        for p in pending {
            let note = match p.notes.first() {
                None => None,
                Some(first) => {
                    let text: Vec<&str> = p
                        .notes
                        .iter()
                        .map(|r| fence.body[r.clone()].trim_end())
                        .collect();
                    Some((text.join("\n\n"), mapper.map(first.start)))
                }
            };
            let asm = p
                .asm
                .as_ref()
                .map(|f| asmspec::parse_block(env.text, f, &env.config.asm_arch))
                .transpose()?;
            cmp.sides
                .push(side(p.fence, note, p.output, asm, cmp.asm, env)?);
        }
        Ok(cmp)
    }
}

/// A side's pieces as they are met: its fence, then any Markdown (its
/// note) and at most one ```output fence, in either order.
struct Pending {
    fence: Fence,
    notes: Vec<std::ops::Range<usize>>,
    output: Option<Fence>,
    asm: Option<Fence>,
}

/// The sides of the compare block `fence`, piece by piece, mapped to the
/// chapter.
fn pieces(fence: &Fence, mapper: &Mapper, env: &Env<'_>) -> Result<Vec<Pending>, Problem> {
    let mut pending: Vec<Pending> = Vec::new();
    for item in items(&fence.body) {
        match item {
            Item::Fence(f) => {
                let mapped = mapper.fence(&f);
                let lang = markdown::first_word(&f.info);
                if !closes(&fence.body, &f.range) {
                    let what = if lang.is_empty() {
                        "a code block".to_owned()
                    } else {
                        format!("a `{lang}` block")
                    };
                    return Err(Problem::at(
                        mapped.range.start,
                        format!(
                            "found {what} whose fence never closes; expected a closing fence before the end of the compare block"
                        ),
                    ));
                }
                if lang == "output" || lang == "asm" {
                    attach(&mut pending, lang, mapped)?;
                    continue;
                }
                side_language(lang, &mapped, env)?;
                if pending.len() == 4 {
                    return Err(Problem::at(
                        mapped.range.start,
                        "found a 5th side; expected 2 to 4 sides in a compare block",
                    ));
                }
                pending.push(Pending {
                    fence: mapped,
                    notes: Vec::new(),
                    output: None,
                    asm: None,
                });
            }
            Item::Markdown(what, range) => match pending.last_mut() {
                Some(p) => p.notes.push(range),
                None => {
                    return Err(Problem::at(
                        mapper.map(range.start),
                        format!(
                            "found {what} before the first side; expected {SIDES} first (a side's note comes after its code)"
                        ),
                    ));
                }
            },
        }
    }
    Ok(pending)
}

/// Attaches an ```output or ```asm block (`lang`) to the side before it.
fn attach(pending: &mut [Pending], lang: &str, mapped: Fence) -> Result<(), Problem> {
    let Some(p) = pending.last_mut() else {
        return Err(Problem::at(
            mapped.range.start,
            format!(
                "found an ```{lang} block before the first side; expected {SIDES} before its {lang} block"
            ),
        ));
    };
    let slot = match lang {
        "output" => &mut p.output,
        _ => &mut p.asm,
    };
    if slot.is_some() {
        return Err(Problem::at(
            mapped.range.start,
            format!(
                "found a second ```{lang} block after the `{}` side; expected one {lang} block per side",
                markdown::first_word(&p.fence.info)
            ),
        ));
    }
    *slot = Some(mapped);
    Ok(())
}

/// Checks that a side's fence (`lang`, mapped to the chapter) is in a
/// language a side can be in.
fn side_language(lang: &str, mapped: &Fence, env: &Env<'_>) -> Result<(), Problem> {
    if Lang::in_book(lang, env.config).is_some() {
        return Ok(());
    }
    let found = if lang.is_empty() {
        "a code block without a language".to_owned()
    } else {
        format!("a `{lang}` code block")
    };
    Err(Problem::at(
        if lang.is_empty() {
            mapped.range.start
        } else {
            mapped.info_offset
        },
        format!(
            "found {found}; expected a side in one of {}",
            Lang::known(env.config)
        ),
    ))
}

/// A side's note made safe for the page ([`body::safe_markdown`]).
pub(super) fn safe_note(note: &str, at: usize) -> Result<String, Problem> {
    body::safe_markdown(note, at, "this side's note")
}

/// What a side in a language of programs is: checked when it says what
/// it does (`expect=`), else shown only.
fn program(
    given: Given,
    asm: Option<AsmBlock>,
    lang: Lang,
    block_asm: Panel,
    asm_at: usize,
) -> Result<Role, Problem> {
    let name = lang.fence();
    if let Some(b) = &asm
        && !lang.has_asm()
    {
        return Err(Problem::at(
            b.info_offset,
            format!(
                "found an ```asm block after a `{name}` side; expected it after a side whose assembly is shown (C, C++, Rust, Go)"
            ),
        ));
    }
    let ignore = given.ignore.unwrap_or(false);
    let mut spec = AsmSpec {
        block: asm,
        ..given.spec
    };
    if spec.panel != Panel::None && !lang.has_asm() {
        return Err(Problem::at(
            asm_at,
            format!(
                "found `asm` on a `{name}` side, a language whose assembly is not shown; expected it on a C, C++, Rust or Go side"
            ),
        ));
    }
    if spec.graph() {
        return Err(Problem::at(
            asm_at,
            format!(
                "found `asm=graph` on a `{name}` side; expected `asm` or `asm=false` (graphs are drawn for C, C++ and Rust listings)"
            ),
        ));
    }
    // Its own `asm` compiles it: without `expect=`, it claims it
    // compiles, as a C side does. The block's `asm` shows the listing of
    // the sides that make a claim (graphs stay C's, C++'s and Rust's).
    let expect = match (given.expect.map(|(e, _)| e), spec.shows()) {
        (None, true) => Some(Expect::Compile),
        (expect, _) => expect,
    };
    if lang.has_asm() && expect.is_some() {
        spec.panel = spec.panel.max(block_asm.min(Panel::Listing));
    }
    match (expect, given.error) {
        (Some(Expect::CompileFail), error) => Ok(Role::Program {
            expect: Expect::CompileFail,
            ignore,
            error: error.map(|(e, _)| e),
            spec,
        }),
        (_, Some((_, at))) => Err(Problem::at(
            at,
            format!(
                "found `error=` on a `{name}` side that does not say `expect=compile-fail`; expected it with `expect=compile-fail` only"
            ),
        )),
        (Some(expect), None) => Ok(Role::Program {
            expect,
            ignore,
            error: None,
            spec,
        }),
        (None, None) => Ok(Role::Shown { ignore }),
    }
}

/// Parses one side from its (chapter-mapped) fence.
fn side(
    fence: Fence,
    note: Option<(String, usize)>,
    output: Option<Fence>,
    asm: Option<AsmBlock>,
    block_asm: Panel,
    env: &Env<'_>,
) -> Result<Side, Problem> {
    let lang = Lang::in_book(markdown::first_word(&fence.info), env.config).unwrap_or(Lang::C);
    let list = markdown::attributes(&fence, 1).map_err(|e| Problem::from_attr(&fence, e))?;
    let kind = match lang.family() {
        Family::Rustdoc => &attributes::RUST_SIDE,
        Family::Native => &attributes::C_SIDE,
        Family::Program => &attributes::PROGRAM_SIDE,
    };
    let mut given = Reader::read(&fence, &list, kind, lang.fence())?;
    // `caption` and `id` belong to every side; the rest to its language.
    let caption = given.caption.take();
    let id = given.id.take();
    let role = match lang.family() {
        Family::Rustdoc => {
            let mut ex = Example::from_given(&fence, given, output.as_ref(), asm, env.config)?;
            ex.title = caption.clone().or(ex.title.take());
            ex.spec.panel = ex.spec.panel.max(block_asm);
            ex.asm |= block_asm != Panel::None;
            Role::Rust(ex)
        }
        Family::Native => {
            given.spec.block = asm;
            let mut c = crate::reader::c_code(&fence, &mut given)?;
            c.spec.panel = c.spec.panel.max(block_asm);
            Role::Compiled {
                expect: c.expect,
                spec: c.spec,
                ignore: c.ignore,
                sanitize: c.sanitize,
            }
        }
        Family::Program => {
            let asm_at = list
                .iter()
                .find(|a| a.key == "asm")
                .map_or(fence.info_offset, |a| fence.info_offset + a.offset);
            program(given, asm, lang, block_asm, asm_at)?
        }
    };
    let (shown, source) = lang.split_hidden(&fence.body, env.config);
    let s = Side {
        lang,
        caption,
        code: fence.body.clone(),
        shown,
        source,
        output: output.as_ref().map(|o| o.body.clone()),
        output_range: output.as_ref().map(|o| o.range.clone()),
        note: note.as_ref().map(|(n, at)| safe_note(n, *at)).transpose()?,
        note_source: note,
        role,
        offset: fence.range.start,
        info_offset: fence.info_offset,
        id,
    };
    if s.shown.trim().is_empty() {
        return Err(Problem::at(
            fence.info_offset,
            format!(
                "found an empty `{}` side; expected code the reader can see",
                lang.fence()
            ),
        ));
    }
    Ok(s)
}
