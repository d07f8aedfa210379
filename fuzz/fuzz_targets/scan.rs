//! The directive scanner on arbitrary text: never panics, and every block
//! it reports lies inside the text, in order, on character boundaries.
//!
//! pulldown-cmark 0.13.6 itself panics on some inputs (see the
//! `fuzz_scan_*` regression tests); the chapter layer catches those
//! ([`mdbook_companion_directives::try_scan`]). Here a panic whose location is inside
//! pulldown-cmark is skipped, any other one is a crash.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mdbook_companion_core::markdown;
use std::cell::Cell;
use std::sync::Once;

thread_local! {
    static IN_PARSER: Cell<bool> = const { Cell::new(false) };
}

fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let upstream = info
                .location()
                .is_some_and(|l| l.file().contains("pulldown-cmark"));
            IN_PARSER.with(|c| c.set(upstream));
            if !upstream {
                default(info);
            }
        }));
    });
}

fuzz_target!(|text: &str| {
    install_hook();
    let fences = std::panic::catch_unwind(|| markdown::fences(text));
    if let Err(payload) = fences {
        if IN_PARSER.with(Cell::get) {
            return;
        }
        std::panic::resume_unwind(payload);
    }
    // The parser got through this text, so a panic from here is ours.
    let blocks = mdbook_companion_directives::scan(text);
    let mut end = 0;
    for b in &blocks {
        assert!(b.range.start >= end && b.range.end <= text.len());
        assert!(text.is_char_boundary(b.range.start) && text.is_char_boundary(b.range.end));
        end = b.range.end;
        let _ = markdown::line_col(text, b.fence.info_offset);
    }
});
