//! Integration tests: the real binary driven by real mdBook (through
//! `mdbook-driver`'s command preprocessor), checked on the HTML a reader
//! gets. One binary, a module per feature; `support` builds the case books.
//! The tests in a real browser are a target of their own, `tests/browser/`,
//! and so are those that run Valgrind, `tests/valgrind/`.

#![allow(unreachable_pub, missing_docs, dead_code)]

mod adopt;
mod anybook;
mod architecture;
mod assets;
mod catalogue;
mod check;
mod compare;
mod drift;
mod example;
mod exercise;
mod honest;
mod hostile;
mod i18n;
mod init;
mod injection;
mod memo;
mod one_pass;
mod protocol;
mod publish;
mod quiz;
mod reading;
mod readme;
mod robust;
mod shown;
mod support;
mod talk;
mod talk_at;
mod told;
mod tools;
