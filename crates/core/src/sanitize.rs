//! `sanitize=`: which checker watches a program's run. UBSan proves C's
//! arithmetic undefined behaviour; AddressSanitizer (with LeakSanitizer)
//! use after free, double free, out of bounds and leaks; ThreadSanitizer
//! data races; Valgrind's Memcheck reads of uninitialised memory on a
//! build without sanitizers, Rust's included.
//!
//! One value for every block that runs a program (examples, comparison
//! sides, quiz programs): the attribute is read here, checked against the
//! block's language and outcome, and named in the same words on the page,
//! on the claims page and in `check`'s report.

use crate::attrs::Attr;
use crate::expect::Expect;
use crate::problem::Problem;
use crate::values::Attrs;

/// One tool that watches a program run (a sanitizer, or Valgrind's
/// Memcheck); the engine's `Sanitizer` is what checks a claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Sanitizer {
    /// `address`: AddressSanitizer, with LeakSanitizer.
    Address,
    /// `thread`: ThreadSanitizer.
    Thread,
    /// `undefined`: UndefinedBehaviorSanitizer.
    Undefined,
    /// `memcheck`: Valgrind's Memcheck, on a build without sanitizers.
    Memcheck,
}

impl Sanitizer {
    /// Every checker, in the order values are written and named.
    pub const ALL: [Sanitizer; 4] = [
        Sanitizer::Address,
        Sanitizer::Thread,
        Sanitizer::Undefined,
        Sanitizer::Memcheck,
    ];

    /// The attribute value (`address`), also gcc's `-fsanitize=` word.
    pub fn value(self) -> &'static str {
        match self {
            Sanitizer::Address => "address",
            Sanitizer::Thread => "thread",
            Sanitizer::Undefined => "undefined",
            Sanitizer::Memcheck => "memcheck",
        }
    }

    /// Its name as its reports print it (`AddressSanitizer`).
    pub fn name(self) -> &'static str {
        match self {
            Sanitizer::Address => "AddressSanitizer",
            Sanitizer::Thread => "ThreadSanitizer",
            Sanitizer::Undefined => "UndefinedBehaviorSanitizer",
            Sanitizer::Memcheck => "Memcheck",
        }
    }

    /// A sanitizer compiled into the program (not Memcheck).
    pub(crate) fn compiled_in(self) -> bool {
        self != Sanitizer::Memcheck
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// The checkers of a block: none, one, or several that combine
/// (`address,undefined`, `thread,undefined`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Sanitize(u8);

/// The values `sanitize=` takes, for messages.
pub const KNOWN: &str =
    "address, thread, undefined, memcheck (combined: \"address,undefined\", \"thread,undefined\")";

impl Sanitize {
    /// No checker.
    pub const NONE: Sanitize = Sanitize(0);

    /// One checker.
    pub fn one(c: Sanitizer) -> Sanitize {
        Sanitize(c.bit())
    }

    /// No checker asked for.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `c` is among them.
    pub fn has(self, c: Sanitizer) -> bool {
        self.0 & c.bit() != 0
    }

    /// The checkers, in [`Sanitizer::ALL`]'s order.
    pub fn checkers(self) -> Vec<Sanitizer> {
        Sanitizer::ALL
            .into_iter()
            .filter(|c| self.has(*c))
            .collect()
    }

    /// The sanitizers compiled in (`address,undefined`), for
    /// `-fsanitize=`; empty for none or Memcheck.
    pub fn fsanitize(self) -> String {
        let words: Vec<&str> = self
            .checkers()
            .into_iter()
            .filter(|c| c.compiled_in())
            .map(Sanitizer::value)
            .collect();
        words.join(",")
    }

    /// The value as the book writes it (`address,undefined`).
    pub fn value(self) -> String {
        let words: Vec<&str> = self.checkers().into_iter().map(Sanitizer::value).collect();
        words.join(",")
    }

    /// The checkers' names (`AddressSanitizer and
    /// UndefinedBehaviorSanitizer`), empty for none.
    pub fn names(self) -> String {
        let names: Vec<&str> = self.checkers().into_iter().map(Sanitizer::name).collect();
        names.join(" and ")
    }

    /// Parses a value: checker words separated by commas or `+`. The
    /// error is the "found" part of the message: the first word that is
    /// no checker, a word given twice, or why the set cannot be.
    pub fn parse(text: &str) -> Result<Sanitize, String> {
        let mut set = Sanitize::NONE;
        let words: Vec<&str> = text.split([',', '+']).map(str::trim).collect();
        for w in &words {
            let c = Sanitizer::ALL
                .into_iter()
                .find(|c| c.value() == *w)
                .ok_or_else(|| format!("found `{w}` for `sanitize`"))?;
            if set.has(c) {
                return Err(format!("found `{w}` twice in `sanitize`"));
            }
            set.0 |= c.bit();
        }
        set.combinable()
            .map_err(|why| format!("found `sanitize=\"{text}\"`, {why}"))?;
        Ok(set)
    }

    /// Whether the checkers can watch one run: AddressSanitizer and
    /// ThreadSanitizer each own the program's memory layout, and Memcheck
    /// runs a build without sanitizers.
    fn combinable(self) -> Result<(), &'static str> {
        if self.has(Sanitizer::Address) && self.has(Sanitizer::Thread) {
            return Err("but AddressSanitizer and ThreadSanitizer cannot watch one program");
        }
        if self.has(Sanitizer::Memcheck) && self.0 != Sanitizer::Memcheck.bit() {
            return Err("but Memcheck runs a program built without sanitizers");
        }
        Ok(())
    }

    /// Reads a `sanitize=` attribute (a string, or an array of strings)
    /// of a block in the language `label`, which takes the checkers
    /// `takes`, with a located message naming the known values.
    pub fn read(
        a: &Attrs<'_>,
        attr: &Attr,
        takes: &[Sanitizer],
        label: &str,
    ) -> Result<Sanitize, Problem> {
        let text = match &attr.value {
            Some(toml::Value::Array(_)) => a.strings(attr)?.join(","),
            Some(toml::Value::String(s)) => s.clone(),
            Some(v) => v.to_string(),
            None => String::new(),
        };
        let set = Sanitize::parse(&text).map_err(|found| {
            let names: Vec<&str> = Sanitizer::ALL.iter().map(|c| c.value()).collect();
            let near = (text.split([',', '+']).map(str::trim))
                .find(|w| !names.contains(w))
                .map(|w| crate::values::did_you_mean(w, &names))
                .unwrap_or_default();
            a.problem(attr, format!("{found}; expected one of {KNOWN}{near}"))
        })?;
        if set.checkers().iter().any(|c| !takes.contains(c)) {
            return Err(a.problem(
                attr,
                format!(
                    "found `sanitize={}` on {} code; expected `{}` (the sanitizers need a nightly Rust compiler)",
                    set.value(),
                    label,
                    takes.iter().map(|c| c.value()).collect::<Vec<_>>().join(",")
                ),
            ));
        }
        Ok(set)
    }

    /// Checks the set against the block's outcome once every attribute
    /// is read: a checker watches a run, so it needs an outcome that runs
    /// the program; `at` is the attribute's chapter offset.
    pub fn fits(self, expect: Expect, at: usize) -> Result<(), Problem> {
        if self.is_empty() || expect.runs() {
            return Ok(());
        }
        Err(Problem::at(
            at,
            format!(
                "found `sanitize={}` with expect={}; expected an outcome that runs the program (expect=run or expect=ub on C and C++, run or panic on Rust)",
                self.value(),
                expect.name()
            ),
        ))
    }

    /// The checkers that watch a claim's run: the block's own, or UBSan
    /// for an `expect=ub` that names none.
    pub fn effective(self, expect: Expect) -> Sanitize {
        if self.is_empty() && expect == Expect::Ub {
            Sanitize::one(Sanitizer::Undefined)
        } else {
            self
        }
    }

    /// The badge's suffix: `Undefined behaviour · AddressSanitizer`.
    pub fn badge(self, badge: &str) -> String {
        match self.is_empty() {
            true => badge.to_owned(),
            false => format!("{badge} · {}", self.names()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn values_combine_where_the_checkers_do() {
        let ok = |t: &str| Sanitize::parse(t).map(Sanitize::value);
        assert_eq!(ok("address"), Ok("address".into()));
        assert_eq!(ok("undefined,address"), Ok("address,undefined".into()));
        assert_eq!(ok("thread+undefined"), Ok("thread,undefined".into()));
        assert_eq!(ok("memcheck"), Ok("memcheck".into()));
        assert_eq!(
            ok("address,thread"),
            Err("found `sanitize=\"address,thread\"`, but AddressSanitizer and ThreadSanitizer cannot watch one program".into())
        );
        assert_eq!(
            ok("memcheck,undefined"),
            Err("found `sanitize=\"memcheck,undefined\"`, but Memcheck runs a program built without sanitizers".into())
        );
        assert_eq!(ok("leak"), Err("found `leak` for `sanitize`".into()));
        assert_eq!(ok(""), Err("found `` for `sanitize`".into()));
        assert_eq!(
            ok("address,address"),
            Err("found `address` twice in `sanitize`".into())
        );
        let s = Sanitize::parse("address,undefined").unwrap();
        assert_eq!(s.fsanitize(), "address,undefined");
        assert_eq!(
            s.badge("Undefined behaviour"),
            "Undefined behaviour · AddressSanitizer and UndefinedBehaviorSanitizer"
        );
        assert_eq!(Sanitize::one(Sanitizer::Memcheck).fsanitize(), "");
        assert_eq!(
            Sanitize::NONE.effective(Expect::Ub),
            Sanitize::one(Sanitizer::Undefined)
        );
        assert_eq!(Sanitize::NONE.effective(Expect::Run), Sanitize::NONE);
    }

    proptest! {
        /// Any text either parses to a set that prints back to a value
        /// that parses to the same set, or is refused with a message that
        /// names what was found; nothing panics.
        #[test]
        fn parsing_round_trips_or_refuses(text in "[a-z,+ ]{0,40}") {
            match Sanitize::parse(&text) {
                Ok(set) => {
                    prop_assert!(!set.is_empty());
                    prop_assert_eq!(Sanitize::parse(&set.value()), Ok(set));
                    prop_assert!(!(set.has(Sanitizer::Address) && set.has(Sanitizer::Thread)));
                }
                Err(m) => prop_assert!(m.starts_with("found `"), "{}", m),
            }
        }

        #[test]
        fn every_combinable_set_round_trips(bits in 1u8..16) {
            let set = Sanitize(bits);
            if set.combinable().is_ok() {
                prop_assert_eq!(Sanitize::parse(&set.value()), Ok(set));
            } else {
                prop_assert!(Sanitize::parse(&set.value()).is_err());
            }
        }
    }
}
