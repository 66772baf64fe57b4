//! What every scene of the chapter shares: the frame of its runs and an unrotated
//! orientation.

use pbm_rigid::rotation::Quat;

/// The frame of the book's runs: 60 Hz (s).
pub const FRAME: f64 = 1.0 / 60.0;

/// An unrotated orientation.
pub const UNROTATED: Quat = Quat::new(1.0, 0.0, 0.0, 0.0);
