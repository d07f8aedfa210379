//! The `companion.lock` reader on arbitrary text: never panics; a text it
//! refuses is refused at a line and column inside the text; a lock it
//! accepts is written back as text that reads as the same lock.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mdbook_companion_engine::lock::Lock;

fuzz_target!(|text: &str| {
    match Lock::parse(text) {
        Ok(lock) => {
            let mut sorted = lock.clone();
            sorted.normalize();
            let again = Lock::parse(&lock.to_text()).expect("a written lock reads back");
            assert_eq!(again, sorted);
        }
        Err(e) => {
            let lines = text.split('\n').count();
            assert!(e.line >= 1 && e.line <= lines, "{e} in {lines} lines");
            let line = text.split('\n').nth(e.line - 1).unwrap_or("");
            assert!(e.column >= 1 && e.column <= line.chars().count() + 1, "{e}");
            assert!(!e.message.is_empty());
        }
    }
});
