// The book's answer to `solvers/softness`, as `pbm practice solution` prints it. The
// chapter's own (`soft.rs`) returns the same three numbers as a `Softness`.

// ANCHOR: soft_coefficients
/// β = ω/(2ζ + hω), σ_m = a/(1 + a), σ_λ = 1/(1 + a), with a = hω(2ζ + hω).
pub fn soft_coefficients(hertz: f64, zeta: f64, h: f64) -> (f64, f64, f64) {
    let omega = 2.0 * std::f64::consts::PI * hertz;
    let a = h * omega * (2.0 * zeta + h * omega);
    (omega / (2.0 * zeta + h * omega), a / (1.0 + a), 1.0 / (1.0 + a))
}
// ANCHOR_END: soft_coefficients
