//! Failing blocks told by the merged build they share: under `--exact`
//! a block's report is its compile alone's, word for word, whether the
//! merged build told it (the build ran to its end, and nothing another
//! block holds could change the block's diagnostics) or the block
//! compiled alone; without it, the merged build's verdict and words.

use crate::anybook::{merged_and_alone, runs};
use pretty_assertions::assert_eq;

/// Nine failing blocks and two that compile. The blocks' errors are in
/// every phase (parse, names, types, borrows) and one (an unresolved
/// trait) stops rustc before type checking for the whole crate: the
/// build that holds it is built again without it. The failing blocks
/// share builds, each other's errors with them, and their reports come
/// from those builds: fewer compiler starts than failing blocks, where
/// each compiled alone once before.
#[test]
fn failing_blocks_sharing_a_build_that_ran_to_its_end_are_told_by_it() {
    let (_book, merged, single) = merged_and_alone("anybook/told");
    assert_eq!(merged["summary"], "2 passed, 9 failed", "{merged:#}");
    assert_eq!(runs(&single), 11);
    assert!(
        runs(&merged) < 9,
        "{} compiler runs for 9 failing blocks",
        runs(&merged)
    );
}

/// A failing block whose error names a standard trait, in a build with
/// another failing block that defines a trait of the same name: merged,
/// rustc prints `std::iter::Iterator`, alone `Iterator`. Its verdict is
/// the merged build's, its words marked as that build's; under
/// `--exact` (as `--no-merge`) it compiles alone, and its report is that
/// compile's ([`merged_and_alone`]).
#[test]
fn a_failing_block_another_block_changes_is_marked_or_compiles_alone() {
    let (_book, merged, single) = merged_and_alone("anybook/retold");
    let detail = |r: &serde_json::Value| {
        r["results"][0]["detail"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    };
    let said = "the value of the associated type `Item` in `Iterator` must be specified";
    assert!(detail(&single).contains(said), "{single:#}");
    assert!(
        detail(&merged).contains("in `std::iter::Iterator`"),
        "{merged:#}"
    );
    assert_eq!(
        merged["results"][0]["merged_diagnostics"], true,
        "{merged:#}"
    );
    assert_eq!(merged["summary"], "1 passed, 2 failed", "{merged:#}");
}
