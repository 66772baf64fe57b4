// The book's answer to `ode/euler`, as `pbm practice solution ode/euler` prints it:
// the chapter's `euler_step` (runge_kutta.rs), written for the stub's signature.

use pbm_ode::system::OdeSystem;
use pbm_prelim::PbmError;

// ANCHOR: euler_step
/// One Euler step: x₁ = x₀ + h f(x₀, t₀), at time t₀ + h.
pub fn euler_step(system: &mut dyn OdeSystem, h: f64) -> Result<(), PbmError> {
    let t0 = system.time();
    let mut x = vec![0.0; system.dimension()];
    system.gather_state(&mut x);
    let mut slope = vec![0.0; x.len()];
    system.derivative(&mut slope)?; // f(x₀, t₀)
    for (x_i, f_i) in x.iter_mut().zip(&slope) {
        *x_i += h * f_i;
    }
    system.scatter_state(&x, t0 + h);
    Ok(())
}
// ANCHOR_END: euler_step
