use super::*;

#[test]
fn the_project_has_a_workspace_of_its_own_and_the_entries() {
    let deps = [
        Dependency {
            key: "my-lib".into(),
            path: Some(PathBuf::from("/books/b/mylib")),
            features: vec!["fast".into()],
            ..Dependency::default()
        },
        Dependency {
            key: "rand".into(),
            version: Some("0.8".into()),
            default_features: Some(false),
            ..Dependency::default()
        },
    ];
    let text = manifest(&deps);
    let back: toml::Table = toml::from_str(&text).unwrap();
    assert!(back["workspace"].as_table().unwrap().is_empty());
    assert_eq!(back["lib"]["path"].as_str(), Some("lib.rs"));
    assert_eq!(
        back["dependencies"]["my-lib"]["path"].as_str(),
        Some("/books/b/mylib")
    );
    assert_eq!(
        back["dependencies"]["rand"]["default-features"].as_bool(),
        Some(false)
    );
}

#[test]
fn libraries_another_rustc_built_are_built_again() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("mylib");
    std::fs::create_dir_all(lib.join("src")).unwrap();
    std::fs::write(
        lib.join("Cargo.toml"),
        "[package]\nname = \"mylib\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    )
    .unwrap();
    std::fs::write(lib.join("src/lib.rs"), "pub fn one() -> i32 { 1 }\n").unwrap();
    let config = Config::from_json(
        dir.path().to_path_buf(),
        &serde_json::json!({"dependencies": {"mylib": {"path": "mylib"}}}),
    )
    .unwrap();
    let first = for_book(&config);
    first.ensure_built(Mode::Debug).unwrap();
    assert_eq!(first.builds(), 1);
    // Built for this fingerprint by this compiler: kept.
    let second = for_book(&config);
    second.ensure_built(Mode::Debug).unwrap();
    assert_eq!(second.builds(), 0);
    // The same set, built by another rustc (`rustup update`): the
    // libraries are built again.
    let stamp = second.lib_dir(Mode::Debug).join(STAMP);
    let text = std::fs::read_to_string(&stamp).unwrap();
    let (_, externs) = text.split_once('\n').unwrap();
    let fp = second.fingerprint().unwrap();
    let other = "rustc 1.80.0 (051478957 2024-07-21)\nbinary: rustc";
    std::fs::write(&stamp, format!("{}\n{externs}", stamp_id(fp, other))).unwrap();
    let third = for_book(&config);
    third.ensure_built(Mode::Debug).unwrap();
    assert_eq!(third.builds(), 1, "a stamp of another rustc");
    assert!(
        std::fs::read_to_string(&stamp)
            .unwrap()
            .starts_with(&stamp_id(fp, &third.rustc_version()))
    );
    let fourth = for_book(&config);
    fourth.ensure_built(Mode::Debug).unwrap();
    assert_eq!(fourth.builds(), 0);
}
