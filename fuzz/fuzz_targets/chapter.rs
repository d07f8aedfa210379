//! The whole chapter pipeline (scan, parse, render, splice) for all three
//! targets on arbitrary text: never panics. Compilers are configured to a
//! path that does not exist, so `asm` requests fail fast with a warning
//! instead of running rustc for every input.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mdbook_companion_core::config::Config;
use mdbook_companion::book::resolve::BookContext;
use mdbook_companion_directives::Target;
use mdbook_companion::book::chapter as process;
use std::path::PathBuf;
use std::sync::OnceLock;

fn config() -> &'static Config {
    static CONFIG: OnceLock<Config> = OnceLock::new();
    CONFIG.get_or_init(|| {
        let table = serde_json::json!({"preprocessor": {"companion": {
            "rustc": "/nonexistent-companion-fuzz/rustc",
            "cc": "/nonexistent-companion-fuzz/cc",
            "on-failure": "continue",
        }}});
        Config::from_json(PathBuf::from("/nonexistent-companion-fuzz"), &table).expect("config")
    })
}

fuzz_target!(|text: &str| {
    let run = BookContext::disabled();
    for target in [Target::Html, Target::Test, Target::Markdown] {
        let out = process::chapter(config(), &run, target, "src/fuzz.md", text);
        for w in &out.warnings {
            assert!(w.line >= 1 && w.column >= 1);
        }
    }
});
