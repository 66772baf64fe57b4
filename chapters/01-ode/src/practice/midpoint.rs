// Practice `ode/midpoint`: one step of the midpoint method.
//
// Read "Midpoint, RK4 and Butcher tableaus" (book/src/01-ode/runge-kutta.md), the
// section "The midpoint method", its step and the erratum after it. Then fill in the
// body and run `cargo run --release -- practice check ode/midpoint`.

use pbm_ode::system::OdeSystem;
use pbm_prelim::PbmError;

/// Advances `system` from (x₀, t₀) by one midpoint step of size `h`: the slope
/// k₁ = f(x₀, t₀), then the slope k₂ = f(x₀ + (h/2) k₁, t₀ + h/2) at the middle of
/// the step (scatter that state and time first), and x₁ = x₀ + h k₂ at time t₀ + h.
/// An error from `derivative` is passed on (`?`).
pub fn midpoint_step(system: &mut dyn OdeSystem, h: f64) -> Result<(), PbmError> {
    let _ = (system, h);
    todo!("one midpoint step")
}
