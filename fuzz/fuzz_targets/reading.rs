//! The reading-list TOML parser on arbitrary text: never panics, and a
//! fault's offset lies inside the text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mdbook_companion_directives::reading;

fuzz_target!(|text: &str| {
    if let Err(f) = reading::parse_entries(text) {
        assert!(f.offset <= text.len());
    }
});
