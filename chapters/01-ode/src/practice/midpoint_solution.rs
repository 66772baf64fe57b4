// The book's answer to `ode/midpoint`, as `pbm practice solution ode/midpoint` prints
// it. The chapter's own midpoint step is the tableau loop of `runge_kutta.rs` fed
// `MIDPOINT`; this is the same step written out.

use pbm_ode::system::OdeSystem;
use pbm_prelim::PbmError;

// ANCHOR: midpoint_step
/// One midpoint step: x₁ = x₀ + h f(x₀ + (h/2) f(x₀, t₀), t₀ + h/2), at t₀ + h.
pub fn midpoint_step(system: &mut dyn OdeSystem, h: f64) -> Result<(), PbmError> {
    let t0 = system.time();
    let mut x0 = vec![0.0; system.dimension()];
    system.gather_state(&mut x0);
    let mut k = vec![0.0; x0.len()];
    system.derivative(&mut k)?; // k₁ = f(x₀, t₀)
    let middle: Vec<f64> = x0.iter().zip(&k).map(|(x, k)| x + 0.5 * h * k).collect();
    system.scatter_state(&middle, t0 + 0.5 * h);
    system.derivative(&mut k)?; // k₂, the slope at the middle
    let x1: Vec<f64> = x0.iter().zip(&k).map(|(x, k)| x + h * k).collect();
    system.scatter_state(&x1, t0 + h);
    Ok(())
}
// ANCHOR_END: midpoint_step
