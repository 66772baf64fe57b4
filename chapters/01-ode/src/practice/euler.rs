// Practice `ode/euler`: Euler's step, x₁ = x₀ + h f(x₀, t₀).
//
// Read "Euler's method and its two problems" (book/src/01-ode/euler.md), the first
// numbered equation. Then fill in the body and run
// `cargo run --release -- practice check ode/euler`.

use pbm_ode::system::OdeSystem;
use pbm_prelim::PbmError;

/// Advances `system` from its state x₀ at its clock t₀ by one Euler step of size
/// `h`: x₁ = x₀ + h f(x₀, t₀), at time t₀ + h. `system.dimension()`,
/// `gather_state`, `derivative` and `scatter_state` are all it needs.
pub fn euler_step(system: &mut dyn OdeSystem, h: f64) -> Result<(), PbmError> {
    let _ = (system, h);
    todo!("one Euler step")
}
