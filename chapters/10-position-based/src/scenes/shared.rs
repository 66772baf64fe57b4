//! What every scene of the chapter shares: the frame of its runs and an unrotated
//! orientation.

use pbm_rigid::rotation::Quat;

/// The frame of the book's runs: 60 Hz (s).
pub use pbm_prelim::demo::FRAME;

/// An unrotated orientation.
pub const UNROTATED: Quat = Quat::new(1.0, 0.0, 0.0, 0.0);
