// Practice `solvers/softness`: a soft contact's three coefficients.
//
// Read "Contact Solvers for Games" (book/src/12-solvers/index.md), the section
// "Soft contacts". Then fill in the body and run
// `cargo run --release -- practice check solvers/softness`.

/// The coefficients of a soft constraint of frequency `hertz` (f = ω/2π) and damping
/// ratio `zeta` (ζ), stepped by `h`: with a = hω(2ζ + hω),
///
///   bias rate β = ω/(2ζ + hω),  mass scale σ_m = a/(1 + a),  impulse scale σ_λ = 1/(1 + a).
///
/// A solver then adds Δλ = −m σ_m (v + β C) − σ_λ λ₀ to a row's impulse.
/// Returns (β, σ_m, σ_λ).
pub fn soft_coefficients(hertz: f64, zeta: f64, h: f64) -> (f64, f64, f64) {
    let _ = (hertz, zeta, h);
    todo!("ω, then a, then the three coefficients")
}
