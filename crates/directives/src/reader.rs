//! Reading a fence's attributes through their declaration: each one is
//! looked up in its [`BlockKind`], read and checked once by its
//! [`Value`] type (located at the attribute), and put into [`Given`] —
//! what ripgrep's `LowArgs` is to its flags — that the parsers act on.

use crate::asmspec::{self, AsmSpec};
use crate::attributes::{BlockKind, LAYOUTS, MODES, Value};
use crate::facts::{Reference, Topic};
use crate::given::Given;
use crate::numbering;
use mdbook_companion_core::attrs::Attr;
use mdbook_companion_core::config::EDITIONS;
use mdbook_companion_core::expect::Expect;
use mdbook_companion_core::markdown::Fence;
use mdbook_companion_core::problem::Problem;
use mdbook_companion_core::sanitize::Sanitize;
use mdbook_companion_core::values::Attrs;

/// A reader of one fence's attributes, of one kind of block.
#[derive(Debug)]
pub(crate) struct Reader<'f> {
    kind: &'static BlockKind,
    lang: &'f str,
    fence: &'f Fence,
    a: Attrs<'f>,
    /// The outcome attribute met, on a Rust snippet (which takes one
    /// however it is spelled).
    outcome: Option<String>,
    /// The attributes met, by name.
    taken: Vec<&'static str>,
    /// What was read so far.
    pub(crate) given: Given,
}

impl<'f> Reader<'f> {
    /// A reader for `fence` (in `lang`, as messages name it), a `kind`.
    pub(crate) fn new(fence: &'f Fence, kind: &'static BlockKind, lang: &'f str) -> Self {
        Reader {
            kind,
            lang,
            fence,
            a: Attrs::new(fence),
            outcome: None,
            taken: Vec::new(),
            given: Given::default(),
        }
    }

    /// Reads every attribute of `list`, stopping at the first problem.
    pub(crate) fn read(
        fence: &'f Fence,
        list: &[Attr],
        kind: &'static BlockKind,
        lang: &'f str,
    ) -> Result<Given, Problem> {
        let mut r = Reader::new(fence, kind, lang);
        for attr in list {
            r.take(attr)?;
        }
        r.finish()
    }

    /// What was read, each attribute of the kind that was not given set
    /// to its declared default, read as the author's word would be.
    pub(crate) fn finish(mut self) -> Result<Given, Problem> {
        for decl in self.kind.attributes {
            let Some(word) = decl.default else { continue };
            let outcome_said = is_outcome(decl.value) && self.outcome.is_some();
            if self.taken.contains(&decl.name) || outcome_said {
                continue;
            }
            let attr = Attr {
                key: decl.name.to_owned(),
                value: Some(toml::Value::String(word.to_owned())),
                offset: 0,
            };
            self.set(decl.value, &attr)?;
        }
        Ok(self.given)
    }

    /// Reads one attribute: its declaration's value, once.
    pub(crate) fn take(&mut self, attr: &Attr) -> Result<(), Problem> {
        let key = attr.key.as_str();
        let decl = self.kind.get(key);
        self.taken.extend(decl.map(|d| d.name));
        match decl {
            Some(decl) if self.kind.rustdoc() && is_outcome(decl.value) => {
                if let Some(prev) = &self.outcome {
                    return Err(self.a.problem(
                        attr,
                        format!("found `{key}` after `{prev}`; expected one outcome per example"),
                    ));
                }
                self.outcome = Some(key.to_owned());
                self.set(decl.value, attr)
            }
            Some(decl) => {
                self.a.once(attr, key)?;
                self.set(decl.value, attr)
            }
            None if self.kind.rustdoc() && attr.value.is_none() => self.rustdoc_form(attr),
            None => Err(self.a.problem(attr, self.kind.unknown(key, self.lang))),
        }
    }

    /// Reads `attr`'s value as `value` says into [`Given`].
    fn set(&mut self, value: Value, attr: &Attr) -> Result<(), Problem> {
        let (a, g) = (&self.a, &mut self.given);
        let at = self.fence.info_offset + attr.offset;
        match value {
            Value::Flag(field) => *field(g) = Some(a.boolean(attr)?),
            Value::Text(field) => *field(g) = Some(a.string(attr)?),
            Value::Src => g.src = Some((a.string(attr)?, at)),
            Value::Id => g.id = Some(numbering::parse_id(a, attr, self.fence)?),
            Value::Moment => {
                let value = a.string(attr)?;
                g.at = Some(Reference {
                    topic: Topic::Moment,
                    value,
                    at,
                });
            }
            Value::Expect(choices) => g.expect = Some((a.choice(attr, choices)?, at)),
            Value::Outcome(e) => {
                let e = if a.boolean(attr)? { e } else { Expect::Run };
                g.expect = Some((e, at));
            }
            Value::ErrorCode => g.error = Some((error_code(a, attr, &a.string(attr)?)?, at)),
            Value::Pattern => g.error = Some((a.string(attr)?, at)),
            Value::Edition => g.edition = Some(edition(a, attr)?),
            Value::Mode => g.mode = Some(a.choice(attr, &MODES)?),
            Value::Layout => g.layout = Some(a.choice(attr, &LAYOUTS)?),
            Value::Panel => g.spec.panel = asmspec::panel(a, attr)?,
            Value::Syntax => g.spec.syntax = Some(asmspec::syntax(a, attr)?),
            Value::CcFlags => g.spec.flags = asmspec::flags(a, attr)?,
            Value::Warnings => g.spec.no_warnings = asmspec::warnings(a, attr)?,
            Value::Sanitize(lang) => {
                g.sanitize = Some((
                    Sanitize::read(a, attr, lang.sanitizers(), lang.label())?,
                    at,
                ));
            }
            Value::MdBook => {
                if a.boolean(attr)? {
                    g.mdbook_flags.push(attr.key.clone());
                }
            }
            Value::HideLines => {
                let lines = a.string(attr)?;
                g.mdbook_flags.push(format!("hidelines={lines}"));
            }
            Value::Line => g.line = Some((line(a, attr)?, at)),
        }
        Ok(())
    }

    /// rustdoc's spellings a Rust snippet takes: `edition2021`, `E0381`.
    fn rustdoc_form(&mut self, attr: &Attr) -> Result<(), Problem> {
        let key = attr.key.as_str();
        let at = self.fence.info_offset + attr.offset;
        if let Some(year) = key.strip_prefix("edition") {
            self.a.once(attr, "edition")?;
            let edition = year.parse::<u16>().ok().filter(|e| EDITIONS.contains(e));
            self.given.edition = Some(edition.ok_or_else(|| {
                self.a.problem(
                    attr,
                    format!(
                        "found `{key}`; expected edition2015, edition2018, edition2021 or edition2024"
                    ),
                )
            })?);
            return Ok(());
        }
        if is_error_code(key) {
            self.a.once(attr, "error")?;
            self.given.error = Some((key.to_owned(), at));
            return Ok(());
        }
        Err(self.a.problem(attr, self.kind.unknown(key, self.lang)))
    }
}

/// Whether a value states the outcome (`expect=`, `should_panic`).
fn is_outcome(value: Value) -> bool {
    matches!(value, Value::Expect(_) | Value::Outcome(_))
}

fn is_error_code(s: &str) -> bool {
    s.len() == 5 && s.starts_with('E') && s[1..].bytes().all(|b| b.is_ascii_digit())
}

fn error_code(a: &Attrs<'_>, attr: &Attr, code: &str) -> Result<String, Problem> {
    if is_error_code(code) {
        Ok(code.to_owned())
    } else {
        Err(a.problem(
            attr,
            format!("found `{code}` for `error`; expected a rustc error code such as E0381"),
        ))
    }
}

/// The value of an `edition=` attribute, or the located error.
fn edition(a: &Attrs<'_>, attr: &Attr) -> Result<u16, Problem> {
    let text = match &attr.value {
        Some(toml::Value::Integer(i)) => i.to_string(),
        Some(toml::Value::String(s)) => s.clone(),
        _ => String::new(),
    };
    text.parse::<u16>()
        .ok()
        .filter(|e| EDITIONS.contains(e))
        .ok_or_else(|| {
            a.problem(
                attr,
                format!("found `{text}` for `edition`; expected one of 2015, 2018, 2021, 2024"),
            )
        })
}

/// The value of `line=`: a line number from 1.
fn line(a: &Attrs<'_>, attr: &Attr) -> Result<usize, Problem> {
    let n = match &attr.value {
        Some(toml::Value::Integer(i)) => usize::try_from(*i).ok().filter(|n| *n > 0),
        _ => None,
    };
    n.ok_or_else(|| {
        a.problem(
            attr,
            "found a `line` that is not a line number; expected `line=3`, the line (from 1, as the reader sees the code) of the first error",
        )
    })
}

/// What a C or C++ snippet's own attributes say.
#[derive(Debug, Clone)]
pub(crate) struct CCode {
    /// `expect=`, or the kind's default.
    pub(crate) expect: Expect,
    /// `ignore` (only where the kind takes it).
    pub(crate) ignore: bool,
    /// The assembly attributes and `flags`.
    pub(crate) spec: AsmSpec,
    /// `sanitize=`, checked against the outcome.
    pub(crate) sanitize: Sanitize,
}

/// What a C or C++ snippet said (`given`, read from `fence`, its
/// outcome defaulted as its kind declares), its checkers checked against
/// that outcome.
pub(crate) fn c_code(fence: &Fence, given: &mut Given) -> Result<CCode, Problem> {
    let expect = given.expect.map_or(Expect::Run, |(e, _)| e);
    let (sanitize, at) = given
        .sanitize
        .unwrap_or((Sanitize::NONE, fence.info_offset));
    sanitize.fits(expect, at)?;
    Ok(CCode {
        expect,
        ignore: given.ignore.unwrap_or(false),
        spec: std::mem::take(&mut given.spec),
        sanitize,
    })
}
