// Practice `ode/rk4`: one step of the classical fourth-order Runge–Kutta method.
//
// Read "Midpoint, RK4 and Butcher tableaus" (book/src/01-ode/runge-kutta.md), the
// section "RK4" and its two numbered displays. Then fill in the body and run
// `cargo run --release -- practice check ode/rk4`.

use pbm_ode::system::OdeSystem;
use pbm_prelim::PbmError;

/// Advances `system` from (x₀, t₀) by one RK4 step of size `h`: four slopes k₁ … k₄,
/// then x₁ = x₀ + h (k₁ + 2k₂ + 2k₃ + k₄)/6 at time t₀ + h. Each slope is the
/// system's `derivative` at a trial state and time you `scatter_state` first.
pub fn rk4_step(system: &mut dyn OdeSystem, h: f64) -> Result<(), PbmError> {
    let _ = (system, h);
    todo!("one RK4 step")
}
