//! The FileCheck parser and matcher on arbitrary text (the block, then
//! after a NUL the listing): never panics, offsets and lines lie inside the
//! block, every directive is described, and matching returns.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mdbook_companion_core::filecheck;

fuzz_target!(|input: &str| {
    let (block, listing) = input.split_once('\0').unwrap_or((input, ""));
    match filecheck::parse(block) {
        Ok(checks) => {
            let lines = block.split_inclusive('\n').count();
            for d in &checks.directives {
                assert!(d.offset < block.len() && block.is_char_boundary(d.offset));
                assert!(d.line >= 1 && d.line <= lines);
                assert!(!d.pattern.is_empty());
            }
            assert_eq!(checks.describe().len(), checks.directives.len());
            if let Err(f) = checks.run(listing) {
                assert!(f.directive < checks.directives.len());
            }
        }
        Err(e) => assert!(e.offset <= block.len(), "{e:?}"),
    }
});
