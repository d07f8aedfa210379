//! The stylesheet, embedded in the binary and written into books by
//! `install`. Each directive keeps its rules in its own file under
//! `assets/`; they are joined here at compile time. The installed copy
//! starts with a version stamp so the preprocessor can tell a stale copy.

/// The whole stylesheet, without the stamp.
pub const STYLESHEET: &str = concat!(
    include_str!("../assets/base.css"),
    "\n",
    include_str!("../assets/example.css"),
);

/// The first line of an installed stylesheet, before the version.
pub const STAMP_PREFIX: &str = "/* mdbook-companion ";

/// The stylesheet as `install` writes it: a version stamp, then the rules.
pub fn stamped_stylesheet() -> String {
    format!(
        "{STAMP_PREFIX}{} (written by `mdbook-companion install`; run it again after upgrading) */\n{STYLESHEET}",
        env!("CARGO_PKG_VERSION")
    )
}

/// The version in an installed stylesheet's stamp.
pub fn stamp_version(css: &str) -> Option<semver::Version> {
    let rest = css.strip_prefix(STAMP_PREFIX)?;
    let version = rest.split_whitespace().next()?;
    semver::Version::parse(version).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamp_round_trips() {
        let v = stamp_version(&stamped_stylesheet()).unwrap();
        assert_eq!(v.to_string(), env!("CARGO_PKG_VERSION"));
        assert_eq!(stamp_version(".x { }"), None);
    }

    #[test]
    fn every_class_is_prefixed() {
        for (i, _) in STYLESHEET.match_indices('.') {
            let rest = &STYLESHEET[i + 1..];
            if rest.starts_with(|c: char| c.is_ascii_alphabetic()) {
                let prev = STYLESHEET[..i].chars().last().unwrap_or(' ');
                if prev.is_whitespace() || matches!(prev, ',' | '>' | '(' | '}' | '{' | '~' | '+') {
                    assert!(
                        rest.starts_with("companion-"),
                        "unprefixed class at: {}",
                        &rest[..rest.len().min(40)]
                    );
                }
            }
        }
    }
}
