// Practice `solvers/relax`: one point's normal impulse in a pass of soft step.
//
// Read "Contact Solvers for Games" (book/src/12-solvers/index.md), the sections
// "One pass, four kinds of feedback", "Soft contacts" and "Substeps instead of
// iterations". Then fill in the body and run
// `cargo run --release -- practice check solvers/relax`.

/// The accumulated normal impulse (N s) of one contact point after one pass of soft
/// step, from:
///
/// - `vn`: the point's normal velocity now (m/s), negative closing;
/// - `gap`: its gap now (m), negative overlapping;
/// - `mass`: the effective mass of its normal row (kg), and `total`: the impulse
///   accumulated so far (N s, never negative);
/// - `soft`: the contact's (bias rate β, mass scale σ_m, impulse scale σ_λ);
/// - `h`: the substep (s); `max_speed`: the fastest push-out (m/s); `relax`: whether
///   this is the relax pass.
///
/// A point still apart (gap > 0) may close by its gap in this substep and no more,
/// rigidly; the relax pass solves rigidly with no feedback; the soft pass adds
/// Δλ = −m σ_m (v + b) − σ_λ λ₀ with b = max(β C, −max_speed). The total is kept
/// non-negative: a contact pushes, it never pulls.
pub fn soft_step_impulse(
    vn: f64,
    gap: f64,
    (mass, total): (f64, f64),
    soft: (f64, f64, f64),
    (h, max_speed, relax): (f64, f64, bool),
) -> f64 {
    let _ = (vn, gap, mass, total, soft, h, max_speed, relax);
    todo!("the bias and the softness the pass uses, then Δλ, then the clamped total")
}
