//! The mdbook-quiz file reader on arbitrary text: never panics, and a
//! fault's offset lies inside the text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mdbook_companion_core::config::Config;
use mdbook_companion_directives::quiz;

fuzz_target!(|text: &str| {
    let Ok(config) = Config::from_json("/b".into(), &serde_json::json!({})) else {
        return;
    };
    if let Err(mdbook_companion_core::problem::Fault { offset, .. }) =
        quiz::Quiz::read_quiz_file(text, &config)
    {
        assert!(offset <= text.len());
    }
});
