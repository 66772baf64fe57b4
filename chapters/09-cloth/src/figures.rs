//! The chapter's figures, computed with the chapter's own code.

use pbm_prelim::Figure;

/// Every figure of the chapter, in reading order.
pub fn all() -> Vec<Figure> {
    vec![]
}
