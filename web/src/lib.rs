//! The book's live demos: the chapter crates' own, tested code, compiled to
//! WebAssembly and driven by the page.
//!
//! The page talks to the module through a small C ABI ([`abi`]): numbers in,
//! numbers out, strings as pointer and length. No bindings generator is needed, so
//! building the demos takes only `rustup target add wasm32-unknown-unknown`; the
//! page's loader (`book/demos.js`) is a short hand-written file that reads
//! the demos' parameters, units and readouts from the module itself.

pub mod abi;

pub use pbm_prelim::demo;
use pbm_prelim::demo::{Agreement, DemoSpec};

/// Every demo, in the book's order; the ABI numbers them in this order.
pub fn demos() -> impl Iterator<Item = &'static DemoSpec> {
    pbm_chapters::DEMOS.iter().flat_map(|c| c.specs.iter())
}

/// The demo a page names, if there is one.
pub fn find(id: &str) -> Option<&'static DemoSpec> {
    demos().find(|d| d.id == id)
}

/// Every agreement between a demo and an exercise, the chapters' in order.
pub fn agreements() -> impl Iterator<Item = &'static Agreement> {
    pbm_chapters::DEMOS.iter().flat_map(|c| c.agreements.iter())
}
