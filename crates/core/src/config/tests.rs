use super::*;
use serde_json::json;

fn cfg(table: Value) -> Result<Config, ConfigError> {
    Config::from_json(
        PathBuf::from("/book"),
        &json!({"book": {"src": "src"}, "preprocessor": {"companion": table}}),
    )
}

#[test]
fn defaults_when_table_is_empty() {
    let c = cfg(json!({})).unwrap();
    assert_eq!(c.on_failure, OnFailure::Bail);
    assert_eq!(c.playground_url.as_deref(), Some(DEFAULT_PLAYGROUND));
    assert_eq!(c.rust_compiler, DEFAULT_RUST_COMPILER);
    assert_eq!(c.edition, 2021);
    assert_eq!(c.timeout, Duration::from_secs(10));
    assert_eq!(c.hang_guard, Duration::from_secs(120));
    assert_eq!(c.c_hidden_prefix, "~ ");
    let talks = DataKey {
        key: "talks",
        default: "talks.toml",
    };
    assert_eq!(c.data_file(&talks), PathBuf::from("talks.toml"));
    let c = cfg(json!({"talks": "data/talks.toml"})).unwrap();
    assert_eq!(c.data_file(&talks), PathBuf::from("data/talks.toml"));
}

#[test]
fn output_filters_scrub_in_pattern_order_and_bad_ones_are_named() {
    let c = cfg(json!({"output-filters": {
        "0x[0-9a-f]+": "0x[ADDR]",
        "/tmp/[^ ]+": "[TMP]",
        "took ([0-9]+) ms": "took [..] ms ($1 before)",
    }}))
    .unwrap();
    assert_eq!(
        OutputFilter::apply_all(&c.output_filters, "at 0x7ffd12 in /tmp/x.rs took 17 ms"),
        "at 0x[ADDR] in [TMP] took [..] ms (17 before)"
    );
    assert!(matches!(
        OutputFilter::apply_all(&c.output_filters, "nothing"),
        std::borrow::Cow::Borrowed("nothing")
    ));
    let err = cfg(json!({"output-filters": {"(unclosed": "x"}}))
        .unwrap_err()
        .to_string();
    assert!(
            err.starts_with("book.toml [preprocessor.companion]: output-filters: `(unclosed` is not a regular expression ("),
            "{err}"
        );
    let err = cfg(json!({"output-filters": {"a": 1}}))
        .unwrap_err()
        .to_string();
    assert!(err.contains("expected a string"), "{err}");
}

#[test]
fn unknown_key_names_the_known_ones() {
    let data = [
        Key::File(DataKey {
            key: "reading-list",
            default: "reading-list.toml",
        }),
        Key::File(DataKey {
            key: "talks",
            default: "talks.toml",
        }),
        Key::Flag("print-solutions"),
    ];
    let check = |table| cfg(table).and_then(|c| c.check_keys(&data));
    assert!(check(json!({"talks": "t.toml", "verify": true})).is_ok());
    let err = check(json!({"talks": 3})).unwrap_err();
    assert_eq!(err.key, ["talks"]);
    assert!(
        err.to_string()
            .contains("found `talks = 3`; expected a path relative to the book's source directory"),
        "{err}"
    );
    let err = check(json!({"playground": false})).unwrap_err().to_string();
    assert!(
        err.starts_with("book.toml [preprocessor.companion]: unknown field `playground`"),
        "{err}"
    );
    assert!(
        err.contains("known keys: reading-list, talks, print-solutions, playground-url"),
        "{err}"
    );
    // A flag is true or false, false when absent.
    assert!(!cfg(json!({})).unwrap().flag("print-solutions"));
    let on = cfg(json!({"print-solutions": true})).unwrap();
    assert!(on.check_keys(&data).is_ok() && on.flag("print-solutions"));
    let err = check(json!({"print-solutions": "yes"})).unwrap_err();
    assert_eq!(err.key, ["print-solutions"]);
    assert!(
        err.to_string()
            .contains("found `print-solutions = \"yes\"`; expected true or false"),
        "{err}"
    );
}

#[test]
fn dependencies_and_the_playground_list_are_read_and_errors_keep_their_key() {
    let c = cfg(json!({
        "dependencies": {"mylib": {"path": "crates/mylib"}, "rand": "0.8"},
        "cargo-manifest": "../Cargo.toml",
        "playground-crates": ["serde-json"],
    }))
    .unwrap();
    assert_eq!(c.dependencies.len(), 2);
    assert_eq!(c.cargo_manifest, Some(PathBuf::from("../Cargo.toml")));
    assert_eq!(c.playground_crates, ["serde_json"]);
    assert!(
        cfg(json!({}))
            .unwrap()
            .playground_crates
            .contains(&"rand".to_owned())
    );
    let err = cfg(json!({"dependencies": {"rand": {"version": "one"}}})).unwrap_err();
    assert_eq!(err.key, ["dependencies", "rand", "version"]);
    let text = "[preprocessor.companion.dependencies]\nrand = { version = \"one\" }\n";
    assert_eq!(
        err.locate(text).to_string(),
        "book.toml:2:10: [preprocessor.companion] dependencies.rand: version `one` is not a version requirement (unexpected character 'o' while parsing major version number); expected one such as \"0.8\" or \"=1.2.3\""
    );
    let err = cfg(json!({"dependency": {}}))
        .and_then(|c| c.check_keys(&[]))
        .unwrap_err();
    assert_eq!(err.key, ["dependency"]);
}

#[test]
fn mdbook_keys_and_nulls_are_accepted() {
    let c = cfg(json!({"command": "x", "after": ["links"], "renderers": null, "verify": null}))
        .unwrap();
    assert!(!c.verify);
}

#[test]
fn links_can_be_switched_off_or_moved() {
    let c =
        cfg(json!({"playground-url": false, "compiler-explorer-url": "https://ce.example.org"}))
            .unwrap();
    assert_eq!(c.playground_url, None);
    assert_eq!(
        c.compiler_explorer_url.as_deref(),
        Some("https://ce.example.org/")
    );
    let err = cfg(json!({"playground-url": "javascript:alert(1)"})).unwrap_err();
    assert!(
        err.to_string()
            .contains("expected an http:// or https:// address")
    );
}

#[test]
fn warnings_are_warned_about_unless_denied() {
    assert_eq!(cfg(json!({})).unwrap().warnings, Warnings::Warn);
    let deny = cfg(json!({"warnings": "deny"})).unwrap();
    assert_eq!(deny.warnings, Warnings::Deny);
    assert!(cfg(json!({"warnings": "error"})).is_err());
}

#[test]
fn bad_values_are_errors() {
    assert!(cfg(json!({"on-failure": "ignore"})).is_err());
    assert!(cfg(json!({"timeout": 0})).is_err());
    assert!(cfg(json!({"hang-guard": 0})).is_err());
    assert_eq!(
        cfg(json!({"hang-guard": 30})).map(|c| c.hang_guard).ok(),
        Some(Duration::from_secs(30))
    );
    assert_eq!(
        cfg(json!({"asm-syntax": "masm"})).unwrap_err().to_string(),
        "book.toml [preprocessor.companion]: asm-syntax is `masm`; expected `\"intel\"` or `\"att\"`"
    );
    assert!(cfg(json!({"asm-arch": "vax"})).is_err());
    let c = cfg(json!({"asm-syntax": "att", "asm-arch": "aarch64"})).unwrap();
    assert_eq!(
        (c.asm_syntax, c.asm_arch.as_str()),
        (crate::machine::Syntax::Att, "aarch64")
    );
    assert!(cfg(json!({"rust-compiler": "r 1"})).is_err());
    let err = Config::from_json(PathBuf::new(), &json!({"rust": {"edition": "2019"}})).unwrap_err();
    assert!(err.to_string().contains("expected one of 2015"), "{err}");
}

#[test]
fn run_takes_three_values_and_a_bad_one_is_located() {
    assert_eq!(cfg(json!({})).unwrap().run, RunMode::Auto);
    for (name, mode) in RunMode::CHOICES {
        assert_eq!(cfg(json!({ "run": name })).unwrap().run, mode);
        assert_eq!(mode.name(), name);
    }
    let text = "[book]\ntitle = \"T\"\n\n[preprocessor.companion]\nrun = \"offline\"\n";
    let err = cfg(json!({"run": "offline"})).unwrap_err().locate(text);
    assert_eq!(
        err.to_string(),
        "book.toml:5:1: [preprocessor.companion] run is `offline`; expected \"auto\" (recorded output, edited code on the Playground), \"recorded\" (no request ever) or \"playground\" (mdBook's own button)"
    );
    let err = cfg(json!({"run": true})).unwrap_err();
    assert!(err.to_string().contains("run is `true`; expected"), "{err}");
}

#[test]
fn book_edition_becomes_the_default() {
    let c = Config::from_json(PathBuf::new(), &json!({"rust": {"edition": "2024"}})).unwrap();
    assert_eq!(c.edition, 2024);
}

#[test]
fn keys_are_the_fields_of_the_table_and_the_message_names_them_all() {
    let keys = keys();
    assert!(
        keys.contains(&"on-failure") && keys.contains(&"after"),
        "{keys:?}"
    );
    let listed = KNOWN_KEYS.replace("(and mdBook's", ",");
    let named: std::collections::BTreeSet<&str> = listed
        .split([',', ' ', ')'])
        .filter(|w| !w.is_empty())
        .collect();
    let fields: std::collections::BTreeSet<&str> = keys.into_iter().collect();
    assert_eq!(named, fields);
}
