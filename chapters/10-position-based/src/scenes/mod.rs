//! The chapter's scenes: a mass hanging from a compliant constraint, chapter 4's
//! chain held by projection, the slides' chain of boxes with its scripted mouse, and
//! a cloth of distance constraints for timing against chapter 9. One file per scene,
//! with what every scene shares in `shared.rs`; every scene's items are re-exported
//! here.

mod box_chain;
mod chain;
mod free_bodies;
mod ground;
mod hanging;
mod hinge;
mod shared;
mod sheet;
mod spring;

pub use box_chain::{BoxChain, SLIDES_G, drag_path, drag_run};
pub use chain::{
    ChainRun, ChainSample, REFERENCE_STEPS_PER_FRAME, lagrange_chain,
    max_position_difference, projected_chain, projected_chain_run,
};
pub use free_bodies::{
    brick, free_brick_momentum_change, jointed_pair_momentum_drift, spinning_pair,
};
pub use ground::{GroundRun, slide_and_bounce};
pub use hanging::{
    AT_REST, Cell, HANGING_REST, ITERATIONS, MOST_STEPS, SUBSTEPS, Settled,
    effective_stiffness, hanging_mass, matching_pbd_stiffness, predicted_extension,
    static_extension, stiffness_grid, stiffness_per_pass,
};
pub use hinge::{HingeRun, hinged_bar};
pub use shared::{FRAME, UNROTATED};
pub use sheet::{
    Pairs, SHEET_COMPLIANCE, SHEET_DENSITY, SheetSag, Sweep, hanging_sheet,
    jacobi_pass, jacobi_step, sheet_pairs, sheet_sag_closed_form, xpbd_cloth,
};
pub use spring::{SpringRun, spring_both_ways};
