//! The ground floor: pure models and functions, no I/O. Languages,
//! expected outcomes, claims, problems with their locations, the
//! attribute parser, the Markdown scan and splice, hidden lines, links,
//! escaping, and the checked configuration.

pub mod asm;
pub mod attrs;
pub mod ccflags;
pub mod claim;
pub mod code;
pub mod config;
pub mod crates;
pub mod diff;
pub mod doctest;
pub mod escape;
pub mod expect;
pub mod filecheck;
pub mod flowgraph;
pub mod hash;
pub mod i18n;
pub mod labels;
pub mod lang;
pub mod languages;
pub mod lines;
pub mod links;
pub mod machine;
pub mod markdown;
pub mod offsets;
pub mod problem;
pub mod run;
pub mod sanitize;
pub mod tie;
pub mod tokens;
pub mod values;
