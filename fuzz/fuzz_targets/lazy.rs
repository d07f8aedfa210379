//! The lazily decoded book (`src/book/lazy.rs`) on arbitrary input: never
//! panics; whatever it accepts goes back out as the same JSON; and every
//! chapter whose text may hold a directive is among the decoded ones (the
//! pre-filter on raw JSON never misses what the one on text would see).
#![no_main]

use libfuzzer_sys::fuzz_target;
use mdbook_companion::book::lazy;
use serde_json::Value;

/// The texts of chapters that may hold a directive, depth first.
fn flagged(items: &Value, out: &mut Vec<String>) {
    for item in items.as_array().into_iter().flatten() {
        let Some(ch) = item.get("Chapter").filter(|c| c.is_object()) else {
            continue;
        };
        if let Some(text) = ch.get("content").and_then(Value::as_str)
            && mdbook_companion_directives::may_contain(text)
        {
            out.push(text.to_owned());
        }
        if let Some(subs) = ch.get("sub_items") {
            flagged(subs, out);
        }
    }
}

fuzz_target!(|bytes: &[u8]| {
    let Ok((_, mut book)) = lazy::parse(bytes) else {
        return;
    };
    // The decoded path may refuse what the raw one keeps verbatim (a
    // number out of `f64` range): nothing to compare then.
    let Some(whole) = serde_json::from_slice::<Vec<Value>>(bytes)
        .ok()
        .and_then(|mut v| v.pop())
    else {
        return;
    };
    let decoded: Vec<String> = lazy::slots(&mut book, "src")
        .iter()
        .map(|s| s.content.clone())
        .collect();
    let mut want = Vec::new();
    for key in ["items", "sections"] {
        if let Some(items) = whole.get(key) {
            flagged(items, &mut want);
        }
    }
    for text in &want {
        assert!(decoded.contains(text), "missed {text:?}");
    }
    let out = serde_json::to_vec(&book).expect("serialise");
    let back: Value = serde_json::from_slice(&out).expect("valid JSON out");
    assert_eq!(back, whole);
});
