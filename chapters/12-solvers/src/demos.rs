//! The chapter's live demos: none yet (the bench runs from the command line).

use pbm_prelim::demo::Demos;

/// The chapter's demos.
pub const DEMOS: Demos = Demos::NONE;
