//! Practice for chapter 12: no tasks yet.

use pbm_prelim::practice::Task;

/// The chapter's tasks.
pub const TASKS: &[Task] = &[];
