//! What a program puts at its crate's root that another program compiled
//! in the same crate would meet there: the macros it exports
//! (`#[macro_export]`, at the root whatever module defines them) and the
//! symbols it gives the linker (`#[no_mangle]`, `#[export_name]`, one
//! namespace for the whole binary).

use super::{Tokens, group_end, is_ident};

/// The names a program puts at its crate's root ([`root_names`]).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct RootNames {
    /// The macros it exports.
    pub macros: Vec<String>,
    /// The symbols it names for the linker.
    pub symbols: Vec<String>,
}

/// The names `source` puts at its crate's root, when that is all it
/// does there: `None` when it reaches those names from its own code, or
/// one cannot tell them. In a module of a shared crate (where each
/// program is compiled in one of its own) an exported macro is still at
/// the root, but a path to it from the program's top (`self::m!`,
/// `crate::m!`, `use m`) looks in the module; and `$crate` in a macro
/// the program calls names the shared crate's root, not the program's.
/// So every macro the program defines that is exported, holds `$crate`,
/// or calls one that does, must not be named outside a macro's
/// definition (where it is never expanded). A symbol is read from
/// `#[no_mangle]` on the `fn` or `static` that follows, or from
/// `export_name = "…"`.
pub fn root_names(source: &str) -> Option<RootNames> {
    let tokens: Vec<&str> = Tokens::new(source).collect();
    // Each `macro_rules! NAME { … }`: its name's place and its tokens.
    let mut defined: Vec<(usize, std::ops::Range<usize>)> = Vec::new();
    let mut i = 0;
    while i + 3 < tokens.len() {
        if tokens[i] == "macro_rules" && tokens[i + 1] == "!" && is_ident(tokens[i + 2]) {
            let end = group_end(&tokens, i + 3);
            defined.push((i + 2, i..end));
            i = end.max(i + 1);
            continue;
        }
        i += 1;
    }
    let inside_a_definition = |at: usize| defined.iter().any(|(_, r)| r.contains(&at));
    let mut names = RootNames::default();
    let mut tainted: Vec<&str> = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        match *t {
            "macro_export" => {
                // The macro the attribute (and any after it) stands on.
                // Attributes only between them: not a macro's call that
                // makes one (whose name cannot be read), nor an item.
                let next = (i..tokens.len())
                    .take_while(|&j| !matches!(tokens[j], "!" | "{" | ";"))
                    .find(|&j| tokens[j] == "macro_rules")?;
                let (name, _) = defined.iter().find(|(n, _)| *n == next + 2)?;
                names.macros.push(tokens[*name].to_owned());
                tainted.push(tokens[*name]);
            }
            "no_mangle" => {
                // The item it stands on, before its body or end.
                let item = (i..tokens.len())
                    .take_while(|&j| !matches!(tokens[j], ";" | "{"))
                    .find(|&j| matches!(tokens[j], "fn" | "static"))?;
                let name = match tokens.get(item + 1)? {
                    &"mut" => tokens.get(item + 2)?,
                    name => name,
                };
                names.symbols.push(name.to_string());
            }
            "export_name" => {
                let name = tokens
                    .get(i + 2)
                    .filter(|_| tokens.get(i + 1) == Some(&"="))?;
                let name = name.strip_prefix('"')?.strip_suffix('"')?;
                if name.contains('\\') {
                    return None;
                }
                names.symbols.push(name.to_owned());
            }
            _ => {}
        }
    }
    let plain = |s: &str| is_ident(s) && s.chars().all(|c| c == '_' || c.is_ascii_alphanumeric());
    if !names.symbols.iter().all(|s| plain(s)) {
        return None;
    }
    // A macro holding `$crate` (or calling one that does, or an exported
    // one), to a fixed point.
    for (name, body) in &defined {
        if tokens[body.clone()].windows(2).any(|w| w == ["$", "crate"]) {
            tainted.push(tokens[*name]);
        }
    }
    loop {
        let more: Vec<&str> = (defined.iter())
            .filter(|(name, body)| {
                !tainted.contains(&tokens[*name])
                    && tokens[body.clone()].iter().any(|t| tainted.contains(t))
            })
            .map(|(name, _)| tokens[*name])
            .collect();
        if more.is_empty() {
            break;
        }
        tainted.extend(more);
    }
    let named_outside = tokens
        .iter()
        .enumerate()
        .any(|(i, t)| tainted.contains(t) && !inside_a_definition(i));
    (!named_outside).then_some(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(macros: &[&str], symbols: &[&str]) -> Option<RootNames> {
        Some(RootNames {
            macros: macros.iter().map(|s| s.to_string()).collect(),
            symbols: symbols.iter().map(|s| s.to_string()).collect(),
        })
    }

    #[test]
    fn exported_macros_the_program_never_calls_are_told() {
        for (source, told) in [
            (
                "#[macro_export]\nmacro_rules! warn {\n    ($m:expr) => { eprintln!(\"{}\", $m) };\n}",
                names(&["warn"], &[]),
            ),
            // `local_inner_macros`, and a macro called only inside
            // another's definition.
            (
                "#[macro_export(local_inner_macros)]\nmacro_rules! helped {\n    () => { helper!() }\n}\n#[macro_export]\nmacro_rules! helper {\n    () => { () }\n}",
                names(&["helped", "helper"], &[]),
            ),
            (
                "pub mod inner {\n    #[macro_export]\n    #[doc = \"x\"]\n    macro_rules! call_foo {\n        () => { $crate::inner::foo() };\n    }\n    pub fn foo() {}\n}",
                names(&["call_foo"], &[]),
            ),
            // `$crate` in a macro never called.
            (
                "macro_rules! import_root {\n    () => { use $crate as my_crate; };\n}",
                names(&[], &[]),
            ),
            // A macro of its own with no `$crate`, called.
            (
                "macro_rules! m { () => { 1 } }\nfn main() { let _ = m!(); }",
                names(&[], &[]),
            ),
            // Called by path, from the top or a module of its own.
            (
                "#[macro_export]\nmacro_rules! m { () => {}; }\nself::m!();\ncrate::m!();\nfn main() {}",
                None,
            ),
            (
                "mod mac {\n    #[macro_export]\n    macro_rules! m { () => {}; }\n}\nmod inner { crate::m!(); }\nfn main() {}",
                None,
            ),
            (
                "#[macro_export]\nmacro_rules! m { () => {}; }\npub use m as n;",
                None,
            ),
            // `$crate` in one it calls, or in one called by one it calls.
            (
                "macro_rules! call_foo { () => { $crate::foo() }; }\nfn foo() {}\nfn main() { call_foo!(); }",
                None,
            ),
            (
                "macro_rules! a { () => { $crate::foo() }; }\nmacro_rules! b { () => { a!() }; }\nfn foo() {}\nfn main() { b!(); }",
                None,
            ),
            // An attribute on no macro, or on a macro's call that makes
            // one.
            (
                "#[macro_export]\nfn f() {}\nmacro_rules! m { () => {} }",
                None,
            ),
            (
                "macro_rules! make { ($n:ident) => { macro_rules! $n { () => {} } } }\n#[macro_export]\nmake!(m);\nmacro_rules! other { () => {} }",
                None,
            ),
        ] {
            assert_eq!(root_names(source), told, "{source}");
        }
    }

    #[test]
    fn symbols_for_the_linker_are_read() {
        for (source, told) in [
            (
                "#[unsafe(no_mangle)]\nextern \"C\" fn foo() {}",
                names(&[], &["foo"]),
            ),
            (
                "#[no_mangle]\n#[used]\npub static mut VAR1: u32 = 1;",
                names(&[], &["VAR1"]),
            ),
            (
                "#[unsafe(export_name = \"exported_symbol_name\")]\npub fn name_in_rust() { }",
                names(&[], &["exported_symbol_name"]),
            ),
            ("#[export_name = \"a.b\"]\nfn f() {}", None),
            ("#[export_name = \"a\\u{62}\"]\nfn f() {}", None),
            ("#[no_mangle]\nconst X: u8 = 0;\nfn main() {}", None),
        ] {
            assert_eq!(root_names(source), told, "{source}");
        }
    }
}
