// The book's answer to `ode/rk4`, as `pbm practice solution ode/rk4` prints it. The
// chapter's own RK4 is the tableau loop of `runge_kutta.rs`; this is the same step
// written out for one method.

use pbm_ode::system::OdeSystem;
use pbm_prelim::PbmError;

// ANCHOR: rk4_step
/// One classical RK4 step: x₁ = x₀ + h (k₁ + 2k₂ + 2k₃ + k₄)/6 at t₀ + h.
pub fn rk4_step(system: &mut dyn OdeSystem, h: f64) -> Result<(), PbmError> {
    let t0 = system.time();
    let mut x0 = vec![0.0; system.dimension()];
    system.gather_state(&mut x0);
    // The slope at x₀ + a h k, time t₀ + a h.
    let mut slope = |a: f64, k: &[f64]| -> Result<Vec<f64>, PbmError> {
        let trial: Vec<f64> = x0.iter().zip(k).map(|(x, k)| x + a * h * k).collect();
        system.scatter_state(&trial, t0 + a * h);
        let mut out = vec![0.0; trial.len()];
        system.derivative(&mut out)?;
        Ok(out)
    };
    let zero = vec![0.0; x0.len()];
    let k1 = slope(0.0, &zero)?;
    let k2 = slope(0.5, &k1)?;
    let k3 = slope(0.5, &k2)?;
    let k4 = slope(1.0, &k3)?;
    let x1: Vec<f64> = (0..x0.len())
        .map(|i| x0[i] + h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]))
        .collect();
    system.scatter_state(&x1, t0 + h);
    Ok(())
}
// ANCHOR_END: rk4_step
