//! Whether a failing block's report from a merged build stands for its
//! compile alone, and a way to see it ([`COMPARE`]).
//!
//! [`super::merge_fail::attribute`] gives each failing member its own
//! diagnostics; this module decides which of them a cold `check` may
//! report without compiling the block alone.

use super::Checker;
use super::merge_fail::Own;
use super::verdict::{Job, Observation};
use mdbook_companion_core::claim::Stated;
use mdbook_companion_core::expect::Expect;
use std::io::Write;

/// The environment variable that, set to a file, makes every failing
/// plain block of a merged build compile alone as well, and appends to
/// that file (one JSON object a line) its merged report, its report
/// alone, and whether `check` would have taken the merged one. For
/// measuring the rule, not for users: it costs a compile per failing
/// block.
pub(super) const COMPARE: &str = "COMPANION_COMPARE_MERGED";

/// The probe a merged build of plain blocks ends with: a function after
/// every block, whose `unused_mut` warning rustc gives only when it
/// borrow-checks it, after every body before it. Seen in the output, it
/// says rustc went through every phase up to borrow checking for the
/// whole crate (no error stopped it early); a warning from the crate's
/// root is no block's ([`super::merge_fail::attribute`]), and it changes
/// nothing a build of blocks that compile does.
pub(super) const PROBE: &str =
    "#[warn(unused_mut)]\nfn __companion_probe() { let mut x = 0; let _ = x; }\n";

/// Whether a merged build's output (rustc's JSON diagnostics) holds the
/// warning of [`PROBE`]: an `unused_mut` whose primary span lies in the
/// crate's root, `main.rs`, where no block's code is (each block is a
/// file of its own), so no text a block makes rustc print can stand for
/// it.
pub(super) fn reached_the_end(stderr: &str) -> bool {
    stderr.lines().any(|line| {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            return false;
        };
        v["code"]["code"] == "unused_mut"
            && v["spans"].as_array().is_some_and(|spans| {
                spans
                    .iter()
                    .any(|s| s["is_primary"] == true && s["file_name"] == "main.rs")
            })
    })
}

/// Whether a failing block's own diagnostics in a merged build (told as
/// its compile alone would tell them, by
/// [`super::merge_fail::attribute`]) are those of its compile alone, as
/// far as the other blocks of the build could change them; `source` is
/// the block's code, `mentioned` whether another block of the build
/// mentions a word. Not when:
///
/// - rustc speaks of the block's module (an unresolved macro's "have you
///   added the `#[macro_use]`", a path "in `self`" or "in the crate
///   root", which alone is the block's own root; a file named after a
///   hash of the crate);
/// - the block has several of the resolver's errors that rustc gathers
///   and reports in an order of its own (unresolved paths, macros and
///   attributes), which the other blocks' code can change;
/// - the block has coherence errors (checked once for the whole crate,
///   in an order of rustc's own among its type errors);
/// - the block has an undeclared lifetime (E0261) without the note rustc
///   gives the first one of a run (it went to another block's);
/// - the block has an identifier that is not ASCII (the lints on those
///   look at the whole crate's identifiers at once);
/// - a diagnostic names a standard library item by its full path whose
///   name another block mentions: rustc prints an item by its name alone
///   only when no other item in the crate has it.
pub(super) fn stands_alone(
    diagnostics: &str,
    source: &str,
    mentioned: impl Fn(&str) -> bool,
) -> bool {
    const MODULE: [&str; 5] = [
        "have you added the `#[macro_use]` on the module/import?",
        "in `self`",
        "in `super`",
        "crate root",
        // A file named after a hash of the crate.
        "has been written to",
    ];
    // Coherence: checked once for the whole crate, in an order of
    // rustc's own among the other analyses.
    const COHERENCE: [&str; 7] = [
        "error[E0116]",
        "error[E0117]",
        "error[E0119]",
        "error[E0120]",
        "error[E0210]",
        "error[E0390]",
        "error[E0592]",
    ];
    const GATHERED: [&str; 4] = [
        "error[E0433]",
        "error: cannot find attribute",
        "error: cannot find macro",
        "error: cannot find derive macro",
    ];
    // The diagnostics' own words, not the code lines they quote.
    let said: Vec<&str> = diagnostics.lines().filter(|l| !quoted_code(l)).collect();
    let gathered = said
        .iter()
        .filter(|l| GATHERED.iter().any(|g| l.starts_with(g)))
        .count();
    !said.iter().any(|l| MODULE.iter().any(|m| l.contains(m)))
        && gathered < 2
        && !said
            .iter()
            .any(|l| COHERENCE.iter().any(|c| l.starts_with(c)))
        && (diagnostics.contains(HRTB) || !said.iter().any(|l| l.starts_with("error[E0261]")))
        && !mdbook_companion_core::tokens::non_ascii_identifiers(source)
        && !said.iter().any(|l| std_names(l).any(&mentioned))
}

/// Whether a failing block sharing a build with other failing blocks
/// may be told by it with `errors` errors: one, or several that rustc
/// reports as it reads and resolves the block's own code, in its order
/// (syntax, feature gates, unresolved names, type and borrow errors in
/// bodies: each pass goes through the modules in order), which
/// the other blocks cannot reorder or cut short. Errors about items
/// (signatures, impls, attributes, derives) are checked when anything in
/// the crate asks for them, in an order the other blocks change, and an
/// item's error can leave the rest of the block's checks out: measured
/// on the RFCs, such blocks lost errors or had them in another order.
pub(super) fn in_its_order(diagnostics: &str, errors: usize) -> bool {
    const BODIES: [&str; 25] = [
        "E0061", "E0106", "E0277", "E0282", "E0308", "E0369", "E0382", "E0384", "E0423", "E0424",
        "E0425", "E0412", "E0432", "E0499", "E0502", "E0531", "E0560", "E0586", "E0596", "E0597",
        "E0599", "E0609", "E0614", "E0618", "E0658",
    ];
    errors == 1
        || diagnostics
            .lines()
            .filter(|l| l.starts_with("error") && !l.starts_with("error: aborting due to"))
            .all(|l| match l.strip_prefix("error[") {
                Some(rest) => BODIES.iter().any(|c| rest.starts_with(&format!("{c}]"))),
                // Syntax.
                None => l.starts_with("error: expected ") || l.starts_with("error: unexpected "),
            })
}

/// Whether a merged build decides the verdict of a plain block with
/// errors of its own (`found`, their codes), however its compile alone
/// would word them: every error is in the block's own lines (none at the
/// merged crate's root or another block's, `foreign`), and its code was
/// not rewritten to share the crate. Such a block fails to compile alone
/// too: a `compile_fail` block that names no code, or whose `codes` are
/// all among its own errors, holds; one whose codes are missing fails,
/// certainly only when no other block of the build failed (another's
/// error may have stopped rustc before the block's later errors); any
/// other plain block fails with "does not compile". Its report shows
/// the merged build's words, marked so ([`super::Observation::inexact`]).
/// An example's diagnostics are its page's and lock's: never.
pub(super) fn verdict_certain(
    claim: &Stated<'_>,
    own: &Own,
    rewritten: bool,
    codes: &[String],
    found: &[String],
) -> bool {
    claim.program.doctest.is_some()
        && own.errors > 0
        && !own.foreign
        && !rewritten
        && (claim.expectation.expect != Expect::CompileFail
            || codes.iter().all(|c| found.contains(c))
            || !own.crowded)
}

/// The note rustc gives the first undeclared lifetime of a run only.
const HRTB: &str = "for more information on higher-ranked polymorphism";

/// Whether a line of rustc's human output quotes code (`12 |     let x`,
/// `   |`, `+  `, a suggestion's changed or removed lines, `5 ~ let y`),
/// rather than saying something. A suggestion's added lines
/// (`1 + use std::os;`) are rustc's own words: the imports it suggests
/// are looked for across the whole crate.
fn quoted_code(line: &str) -> bool {
    let rest = line.trim_start_matches(|c: char| c.is_ascii_digit() || c == ' ');
    let numbered =
        rest.len() < line.len() && line.starts_with(|c: char| c.is_ascii_digit() || c == ' ');
    rest.starts_with('|')
        || line.starts_with('+')
        || line.starts_with('-') && line.len() > 1 && line.as_bytes()[1] == b' '
        || numbered && ["~ ", "- "].iter().any(|m| rest.starts_with(m))
}

/// The last names of the `std::`, `core::` and `alloc::` paths in `line`
/// (`Iterator` in "`std::iter::Iterator`").
fn std_names(line: &str) -> impl Iterator<Item = &str> {
    static PATH: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"\b(?:std|core|alloc)(?:::\w+)+").expect("a valid pattern")
    });
    PATH.find_iter(line)
        .filter_map(|m| m.as_str().rsplit("::").next())
}

/// Whether a block's own diagnostics hold an error after which rustc
/// stops the whole crate before type checking: a trait path it cannot
/// resolve (E0405 "cannot find trait", E0404 "expected trait, found …").
/// Such a block compiles alone; the others of its build are built again
/// without it.
pub(super) fn stops_the_crate(diagnostics: &str) -> bool {
    diagnostics
        .lines()
        .any(|l| l.starts_with("error[E0405]") || l.starts_with("error[E0404]"))
}

/// How many blocks of a build mention each word (an identifier or a
/// keyword), for [`stands_alone`].
pub(super) struct Words(std::collections::HashMap<String, usize>);

impl Words {
    /// The words of `sources`, each counted once per source.
    pub(super) fn new<'s>(sources: impl Iterator<Item = &'s str>) -> Words {
        let mut count = std::collections::HashMap::new();
        for source in sources {
            let mut seen = std::collections::HashSet::new();
            for word in words(source) {
                if seen.insert(word) {
                    *count.entry(word.to_owned()).or_insert(0) += 1;
                }
            }
        }
        Words(count)
    }

    /// Whether a block other than the one of `source` mentions `word`.
    pub(super) fn by_others(&self, word: &str, source: &str) -> bool {
        let own = usize::from(words(source).any(|w| w == word));
        self.0.get(word).is_some_and(|&n| n > own)
    }
}

/// The words of `text`.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

/// Whether all of a block's errors are the parser's (no code, or
/// E0586): when the parser cannot go on in a module's file, rustc stops
/// the whole crate before type checking.
pub(super) fn syntax_only(diagnostics: &str) -> bool {
    diagnostics
        .lines()
        .filter(|l| l.starts_with("error") && !l.starts_with("error: aborting due to"))
        .all(|l| l.starts_with("error: ") || l.starts_with("error[E0586]"))
}

/// The parts to build again of the failing blocks of a build that
/// stopped before its end (each with whether its errors are all the
/// parser's): the blocks with other errors apart from those with only
/// the parser's (among which the one that stopped the crate may be); a
/// part of one kind only, after blocks known to stop the crate were
/// taken out (`stoppers_out`), whole, else in halves.
pub(super) fn parts<T>(cut: Vec<(bool, T)>, stoppers_out: bool) -> Vec<Vec<T>> {
    let (syntax, other): (Vec<_>, Vec<_>) = cut.into_iter().partition(|(s, _)| *s);
    let strip = |v: Vec<(bool, T)>| v.into_iter().map(|(_, m)| m).collect::<Vec<T>>();
    let (syntax, mut other) = (strip(syntax), strip(other));
    match (syntax.is_empty(), other.is_empty()) {
        (false, false) => vec![syntax, other],
        _ if stoppers_out => vec![syntax, other],
        _ => {
            let mut all = syntax;
            all.append(&mut other);
            let second = all.split_off(all.len() / 2);
            vec![all, second]
        }
    }
    .into_iter()
    .filter(|p| !p.is_empty())
    .collect()
}

impl Checker {
    /// Under [`COMPARE`], `claim`'s compile alone (its observation), with
    /// its report compared with `own`'s, which the merged build would
    /// have given it when `trusted`; `None` otherwise.
    pub(super) fn compared(
        &self,
        claim: &Stated<'_>,
        job: &Job,
        own: &Own,
        trusted: bool,
        reached: bool,
    ) -> Option<Observation> {
        let path = std::env::var_os(COMPARE)?;
        claim.program.doctest.as_ref()?;
        let alone = self.execute(job, &claim.program.source)?;
        let record = serde_json::json!({
            "claim": self.names.of(claim.id),
            "expect": format!("{:?}", claim.expectation.expect),
            "crowded": own.crowded,
            "differs": own.differs,
            "foreign": own.foreign,
            "trusted": trusted,
            "reached": reached,
            "same": alone.diagnostics == own.diagnostics,
            "compiled": alone.compiled,
            "merged": own.diagnostics,
            "alone": alone.diagnostics,
        });
        let line = format!("{record}\n");
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            // One write per record, so that parallel builds do not mix lines.
            let _ = f.write_all(line.as_bytes());
        }
        Some(alone)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE: &str = "error[E0308]: mismatched types\n --> main.rs:1:26\n  |\n1 | fn main() { let x: i32 = \"a\"; }\n  |                          ^^^ expected `i32`, found `&str`\n\nerror: aborting due to 1 previous error\n\n";

    #[test]
    fn what_other_blocks_could_change_is_not_taken() {
        let none = |_: &str| false;
        assert!(stands_alone(ONE, "fn main() {}", none));
        // rustc speaking of the block's module, or of a file named after
        // the crate.
        for said in [
            "error: cannot find macro `m` in this scope\n  = help: have you added the `#[macro_use]` on the module/import?\n",
            "error[E0433]: cannot find `x` in `self`\n",
            "error: x\n  = note: the full name for the type has been written to 'main.long-type-1.txt'\n",
        ] {
            assert!(!stands_alone(said, "", none), "{said}");
        }
        // Gathered errors, reordered in a merged build; one is fine.
        let twice = "error: cannot find attribute `a` in this scope\n\nerror: cannot find attribute `b` in this scope\n";
        assert!(!stands_alone(twice, "", none));
        assert!(stands_alone(&twice[..47], "", none));
        assert!(!stands_alone(
            "error[E0119]: conflicting implementations\n",
            "",
            none
        ));
        // The first undeclared lifetime of a run carries the note.
        let lifetime = "error[E0261]: use of undeclared lifetime name `'a`\n";
        assert!(!stands_alone(lifetime, "", none));
        assert!(stands_alone(
            &format!("{lifetime}  = note: {HRTB}, visit …\n"),
            "",
            none
        ));
        assert!(!stands_alone(ONE, "fn main() { let ε = 1; }", none));
        // A std item by its full path, its name used by another block;
        // quoted code is not what rustc says.
        let full = "error[E0191]: the value of the associated type `Item` in `std::iter::Iterator` must be specified\n";
        assert!(stands_alone(full, "", none));
        assert!(!stands_alone(full, "", |w| w == "Iterator"));
        let quoted = "error[E0308]: x\n1 | let v: std::iter::Empty<u8>;\n";
        assert!(stands_alone(quoted, "", |w| w == "Empty"));
        // A suggestion's lines quote code too (the Reference's E0716).
        let suggested = "error[E0716]: x\nhelp: consider using a `let` binding\n  |\n4 + let binding = vec![()];\n5 ~ let y = &*std::ops::Index::index(&binding, 0);\n12 - let z = std::mem::take(&mut a);\n";
        assert!(stands_alone(suggested, "", |w| w == "index" || w == "take"));
        // An import rustc suggests is its own words (the RFCs: `use
        // std::os;` suggested in one merged build, not alone).
        let import =
            "error[E0433]: x\nhelp: consider importing this module\n  |\n1 + use std::os;\n  |\n";
        assert!(stands_alone(import, "", |w| w == "index"));
        assert!(!stands_alone(import, "", |w| w == "os"));
        // Not a said line that begins with a number's words.
        assert!(!stands_alone(
            "error[E0716]: x\n  = note: 2 ~ `std::ops::Index::index`\n",
            "",
            |w| w == "index"
        ));
    }

    #[test]
    fn errors_in_the_blocks_own_order_are_those_of_bodies_and_syntax() {
        assert!(in_its_order("error[E0405]: cannot find trait `T`\n", 1));
        let bodies = "error: expected `;`, found `}`\n\nerror[E0425]: cannot find value `x`\n\nerror[E0308]: mismatched types\n\nerror: aborting due to 3 previous errors\n";
        assert!(in_its_order(bodies, 3));
        // Feature gates: the gate pass goes through the modules in order.
        let gated = "error[E0658]: C-variadic functions are unstable\n\nerror[E0658]: C-variadic functions are unstable\n";
        assert!(in_its_order(gated, 2));
        // Items: an impl's missing method, a type in a signature.
        assert!(!in_its_order(
            "error: non-item in item list\n\nerror[E0046]: not all trait items implemented\n",
            2
        ));
        assert!(!in_its_order(
            "error[E0223]: ambiguous associated type\n\nerror[E0107]: trait takes 0 generic arguments\n",
            2
        ));
        // No code, and not the parser's.
        assert!(!in_its_order(
            "error: cannot find derive macro `From` in this scope\n\nerror[E0425]: x\n",
            2
        ));
    }

    #[test]
    fn a_stopped_build_is_built_again_in_parts() {
        assert!(syntax_only(
            "error: unexpected token: `...`\n\nerror[E0586]: x\n\nerror: aborting due to 2 previous errors\n"
        ));
        assert!(!syntax_only("error: expected `;`\n\nerror[E0425]: x\n"));
        // The parser's blocks apart from the others.
        assert_eq!(
            parts(vec![(true, 1), (false, 2), (true, 3)], false),
            [vec![1, 3], vec![2]]
        );
        // One kind: whole once the known stoppers are out, else halves.
        assert_eq!(parts(vec![(false, 1), (false, 2)], true), [vec![1, 2]]);
        assert_eq!(
            parts(vec![(false, 1), (false, 2), (false, 3)], false),
            [vec![1], vec![2, 3]]
        );
    }

    #[test]
    fn words_are_counted_once_per_block() {
        let words = Words::new(
            [
                "trait Iterator {}",
                "fn f(_: &dyn Iterator) {}",
                "fn g() {}",
            ]
            .into_iter(),
        );
        assert!(words.by_others("Iterator", "fn f(_: &dyn Iterator) {}"));
        assert!(!words.by_others("g", "fn g() {}"));
        assert!(!words.by_others("absent", ""));
    }

    #[test]
    fn the_probe_is_seen_in_rustcs_output() {
        assert!(PROBE.starts_with("#[warn(unused_mut)]\n"));
        let warned = r#"{"$message_type":"diagnostic","message":"variable does not need to be mutable","code":{"code":"unused_mut"},"level":"warning","spans":[{"file_name":"main.rs","is_primary":true}],"rendered":"warning: variable does not need to be mutable\n --> main.rs:9:30\n"}"#;
        assert!(reached_the_end(warned));
        // The same words from a block (its own file), or as text a block
        // makes rustc print, are not the probe.
        let a_blocks = warned.replace(r#""main.rs""#, r#""__companion_ex_3.rs""#);
        assert!(!reached_the_end(&a_blocks));
        let printed = r#"{"$message_type":"diagnostic","message":"x","code":null,"level":"error","spans":[{"file_name":"__companion_ex_0.rs","is_primary":true}],"rendered":"error: --> main.rs:9:30\n9 | fn __companion_probe() { let mut x = 0; let _ = x; }\n"}"#;
        assert!(!reached_the_end(printed));
        assert!(!reached_the_end(ONE));
        assert!(stops_the_crate(
            "error[E0405]: cannot find trait `Foo` in this scope\n"
        ));
        assert!(!stops_the_crate(ONE));
    }
}
