//! How the engine names a claim in what it traces (`compiled alone:
//! src/intro.md:12` in the debug log, a record of
//! `COMPANION_COMPARE_MERGED`): by its caller's number for it
//! ([`Stated::id`](super::Stated)), which the caller maps to a name
//! ([`Namer`], given to [`Checker::name_claims`](super::Checker::name_claims)).
//! The engine never knows where a claim came from; the caller, which
//! does, names it.

use std::sync::{Arc, Mutex};

/// The caller's name of the claim it numbered `id`.
pub type Namer = Arc<dyn Fn(usize) -> String + Send + Sync>;

/// A checker's [`Namer`], when its caller gave one.
#[derive(Default)]
pub(super) struct Names(Mutex<Option<Namer>>);

impl std::fmt::Debug for Names {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Names")
    }
}

impl Names {
    /// Names claims by `namer` from now on (`None`: by their numbers).
    pub(super) fn set(&self, namer: Option<Namer>) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = namer;
    }

    /// The name of the claim numbered `id`: its caller's, or `claim {id}`.
    pub(super) fn of(&self, id: usize) -> String {
        let namer = self.0.lock().unwrap_or_else(|e| e.into_inner()).clone();
        match namer {
            Some(name) => name(id),
            None => format!("claim {id}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::tests::claim;
    use mdbook_companion_core::expect::Expect;

    #[test]
    fn a_claim_is_named_as_its_caller_names_it_or_by_its_number() {
        let names = Names::default();
        assert_eq!(names.of(3), "claim 3");
        names.set(Some(Arc::new(|id| format!("src/c.md:{}", id * 10))));
        assert_eq!(names.of(3), "src/c.md:30");
        names.set(None);
        assert_eq!(names.of(3), "claim 3");
        let c = claim(Expect::Run, "fn main() {}");
        assert_eq!((c.stated().id, c.stated().numbered(7).id), (0, 7));
    }
}
