//! The info-string attribute parser on arbitrary text: never panics, and
//! word ranges and error offsets lie inside the info string.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mdbook_companion_core::attrs;

fuzz_target!(|info: &str| {
    match attrs::words(info) {
        Ok(words) => {
            for w in &words {
                assert!(w.start <= w.end && w.end <= info.len());
            }
            if let Err(e) = attrs::parse(info, &words) {
                assert!(e.offset <= info.len());
            }
        }
        Err(e) => assert!(e.offset <= info.len()),
    }
});
