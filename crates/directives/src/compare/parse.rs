//! Reading a compare block: its attributes, then its body as Markdown,
//! piece by piece (fences, note paragraphs, output blocks), with every
//! offset mapped back to the chapter.

use super::{Compare, KIND, KNOWN, Layout, Role, Side};
use crate::asmspec::{self, AsmBlock, AsmSpec, Panel};
use crate::attributes;
use crate::body::{self, Item, Mapper, closes, items};
use crate::contract::Env;
use crate::facts::{Reference, Topic};
use crate::numbering;
use crate::runnable::{Context, Example};
use mdbook_companion_core::attrs::{self, Attr};
use mdbook_companion_core::expect::Expect;
use mdbook_companion_core::lang::Lang;
use mdbook_companion_core::markdown::{self, Block, Fence};
use mdbook_companion_core::problem::Problem;
use mdbook_companion_core::values::Attrs;

const SIDES: &str = "a fenced code block (```c, ```cpp, ```rust, ```python, ```go)";

/// A C or C++ side, as [`attributes::c_code`] reads it.
const C_SIDE: attributes::CKind = attributes::CKind {
    block: "c side",
    called: ("a ", " side"),
    expects: &Expect::C_CHOICES,
    default: Expect::Compile,
};

impl Compare {
    /// Parses a compare block: its attributes and its sides.
    pub(crate) fn parse(block: &Block, env: &Env<'_>) -> Result<Compare, Problem> {
        let fence = &block.fence;
        let attrs = KIND.attributes(block)?;
        let mut cmp = Compare {
            title: None,
            at: None,
            layout: Layout::Columns,
            asm: Panel::None,
            sides: Vec::new(),
            id: None,
        };
        let mut a = Attrs::new(fence);
        for attr in &attrs {
            let key = attr.key.as_str();
            a.once(attr, key)?;
            match key {
                "title" => cmp.title = Some(a.string(attr)?),
                "id" => cmp.id = Some(numbering::parse_id(&a, attr, fence)?),
                "at" => {
                    cmp.at = Some(Reference {
                        topic: Topic::Moment,
                        value: a.string(attr)?,
                        at: fence.info_offset + attr.offset,
                    })
                }
                "layout" => {
                    cmp.layout = a.choice(
                        attr,
                        &[("columns", Layout::Columns), ("tabs", Layout::Tabs)],
                    )?;
                }
                "asm" => cmp.asm = asmspec::panel(&a, attr)?,
                _ => {
                    return Err(a.problem(
                        attr,
                        format!(
                            "found unknown attribute `{key}`; expected one of {KNOWN}{}",
                            attributes::hint("compare", key)
                        ),
                    ));
                }
            }
        }
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
        // A side's pieces as they are met: its fence, then any Markdown
        // (its note) and at most one ```output fence, in either order.
        struct Pending {
            fence: Fence,
            notes: Vec<std::ops::Range<usize>>,
            output: Option<Fence>,
            asm: Option<Fence>,
        }
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
                        match pending.last_mut() {
                            Some(p) => {
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
                            }
                            None => {
                                return Err(Problem::at(
                                    mapped.range.start,
                                    format!(
                                        "found an ```{lang} block before the first side; expected {SIDES} before its {lang} block"
                                    ),
                                ));
                            }
                        }
                        continue;
                    }
                    if Lang::in_book(lang, env.config).is_none() {
                        let found = if lang.is_empty() {
                            "a code block without a language".to_owned()
                        } else {
                            format!("a `{lang}` code block")
                        };
                        return Err(Problem::at(
                            if lang.is_empty() {
                                mapped.range.start
                            } else {
                                mapped.info_offset
                            },
                            format!(
                                "found {found}; expected a side in one of {}",
                                Lang::known(env.config)
                            ),
                        ));
                    }
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

/// A side's note made safe for the page ([`body::safe_markdown`]).
pub(super) fn safe_note(note: &str, at: usize) -> Result<String, Problem> {
    body::safe_markdown(note, at, "this side's note")
}

/// What a side in a language of programs is: checked when it says what
/// it does (`expect=`), else shown only.
fn program(
    fence: &Fence,
    rest: &[Attr],
    asm: Option<AsmBlock>,
    lang: Lang,
    block_asm: Panel,
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
    let mut a = Attrs::new(fence);
    let (mut ignore, mut expect, mut error) = (false, None, None);
    let mut spec = AsmSpec {
        block: asm,
        ..AsmSpec::default()
    };
    for attr in rest {
        a.once(attr, &attr.key)?;
        match attr.key.as_str() {
            "ignore" => ignore = a.boolean(attr)?,
            "expect" => expect = Some(a.choice(attr, &Expect::PROGRAM_CHOICES)?),
            "error" => error = Some((a.string(attr)?, attr)),
            "asm" if lang.has_asm() => {
                spec.panel = asmspec::panel(&a, attr)?;
                if spec.graph() {
                    return Err(a.problem(
                        attr,
                        format!("found `asm=graph` on a `{name}` side; expected `asm` or `asm=false` (graphs are drawn for C, C++ and Rust listings)"),
                    ));
                }
            }
            "asm" => {
                return Err(a.problem(
                    attr,
                    format!("found `asm` on a `{name}` side, a language whose assembly is not shown; expected it on a C, C++, Rust or Go side"),
                ));
            }
            key => {
                return Err(a.problem(
                    attr,
                    format!(
                        "found unknown attribute `{key}` on a `{name}` side; expected caption, id, expect, error{} or ignore{}",
                        if lang.has_asm() { ", asm" } else { "" },
                        attributes::hint("program side", key)
                    ),
                ));
            }
        }
    }
    // Its own `asm` compiles it: without `expect=`, it claims it
    // compiles, as a C side does. The block's `asm` shows the listing of
    // the sides that make a claim (graphs stay C's, C++'s and Rust's).
    let expect = match (expect, spec.shows()) {
        (None, true) => Some(Expect::Compile),
        (expect, _) => expect,
    };
    if lang.has_asm() && expect.is_some() {
        spec.panel = spec.panel.max(block_asm.min(Panel::Listing));
    }
    match (expect, error) {
        (Some(Expect::CompileFail), error) => Ok(Role::Program {
            expect: Expect::CompileFail,
            ignore,
            error: error.map(|(e, _)| e),
            spec,
        }),
        (_, Some((_, attr))) => Err(a.problem(
            attr,
            format!("found `error=` on a `{name}` side that does not say `expect=compile-fail`; expected it with `expect=compile-fail` only"),
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
    let words = attrs::words(&fence.info).map_err(|e| Problem::from_attr(&fence, e))?;
    let list = attrs::parse(&fence.info, words.get(1..).unwrap_or(&[]))
        .map_err(|e| Problem::from_attr(&fence, e))?;
    let a = Attrs::new(&fence);
    // `caption` and `id` belong to every side; the rest to its language.
    let mut caption = None;
    let mut id = None;
    let mut rest: Vec<Attr> = Vec::new();
    for attr in list {
        let seen = match attr.key.as_str() {
            "caption" => caption.is_some(),
            "id" => id.is_some(),
            _ => {
                rest.push(attr);
                continue;
            }
        };
        if seen {
            return Err(a.problem(
                &attr,
                format!(
                    "found `{}` a second time; expected each attribute once",
                    attr.key
                ),
            ));
        }
        match attr.key.as_str() {
            "caption" => caption = Some(a.string(&attr)?),
            _ => id = Some(numbering::parse_id(&a, &attr, &fence)?),
        }
    }
    let role = match lang {
        Lang::Rust => {
            let mut ex = Example::parse(
                &fence,
                &rest,
                output.as_ref(),
                asm,
                env.config,
                Context::Side,
            )?;
            ex.title = caption.clone().or(ex.title.take());
            ex.spec.panel = ex.spec.panel.max(block_asm);
            ex.asm |= block_asm != Panel::None;
            Role::Rust(ex)
        }
        Lang::C | Lang::Cpp => {
            let spec = AsmSpec {
                block: asm,
                ..AsmSpec::default()
            };
            let mut c = attributes::c_code(&fence, &rest, lang, C_SIDE, spec)?;
            c.spec.panel = c.spec.panel.max(block_asm);
            Role::Compiled {
                expect: c.expect,
                spec: c.spec,
                ignore: c.ignore,
                sanitize: c.sanitize,
            }
        }
        Lang::Program(_) => program(&fence, &rest, asm, lang, block_asm)?,
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
