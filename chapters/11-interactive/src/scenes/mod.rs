//! The paper's mechanisms, built from the world's parts: the block feeder (its
//! Figures 1 and 11), the ways to make it jam (Figure 2), and a scripted mouse to
//! drive it. Lengths are in the paper's units, a world about 20 wide with
//! ε = 0.02, taken as metres. One file per scene, with what the scenes share in
//! `shared.rs`; every scene's items are re-exported here.

mod falling;
mod feeder;
mod graze;
mod jack;
mod ledge;
mod overlaps;
mod pendulum;
mod pile;
mod pin_free;
mod shared;
mod stack;

pub use falling::Falling;
pub use feeder::{CRANK, Drive, Fault, Feeder, ROD, SETTLED, STEPS, drive, faulty};
pub use graze::Graze;
pub use jack::{Jack, LEVER};
pub use ledge::Ledge;
pub use overlaps::Overlaps;
pub use pendulum::{Pendulum, PendulumRun, xpbd_pendulum};
pub use pile::Pile;
pub use pin_free::{PinRun, pin_and_free, spin_after_catch};
pub use shared::SOLIDS;
pub use stack::{StackRun, stack_run, stack_world, xpbd_stack_run};
