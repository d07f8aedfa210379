//! The quiz block parser on arbitrary chapter text: never panics, and a
//! problem's offset lies inside the text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mdbook_companion_core::config::Config;
use mdbook_companion_directives::quiz;

fuzz_target!(|text: &str| {
    let Ok(config) = Config::from_json("/b".into(), &serde_json::json!({})) else {
        return;
    };
    for r in quiz::Quiz::parse_chapter(text, &config) {
        if let Err(p) = r {
            assert!(p.offset <= text.len());
        }
    }
});
