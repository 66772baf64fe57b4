//! Practice for chapter 12: the reader writes a soft contact's three coefficients,
//! checked by what they must do: one soft update of a spring and damper must be the
//! implicit Euler step of it, the two scales must share the impulse, and a stiff
//! enough contact must become the rigid one.

use pbm_prelim::practice::{Listing, Report, sequence};

/// The reader's coefficients: (hertz, ζ, h) → (bias rate, mass scale, impulse scale).
pub type SoftnessFn = fn(f64, f64, f64) -> (f64, f64, f64);

/// The chapter's tasks.
pub const TASKS: &[Task] = &[Task {
    id: "solvers/softness",
    title: "a soft contact's three coefficients",
    section: "Soft contacts",
    page: "12-solvers/index.md",
    equation: "solvers-soft-coefficients",
    difficulty: 1,
    file: "softness.rs",
    stub: include_str!("practice/softness.rs"),
    check: "pbm_solvers::practice::check_softness(reader::soft_coefficients)",
    hints: &[
        "ω = 2π f: the frequency is in hertz, the formulas want radians per second.",
        "a = hω(2ζ + hω) appears in both scales: σ_m = a/(1 + a) and σ_λ = 1/(1 + a), \
         so that they add to one.",
        "The bias rate is ω/(2ζ + hω), not ω/(2ζ): with ζ = 0 it must be 1/h, all of the \
         error removed in one step.",
    ],
    solution: Listing {
        source: include_str!("practice/softness_solution.rs"),
        anchor: "soft_coefficients",
    },
}];

use pbm_prelim::practice::Task;

/// One soft update from rest of impulse, on a mass `m` at error `c` moving at `v`,
/// with the reader's coefficients: the velocity after it.
fn soft_velocity((beta, sm, _): (f64, f64, f64), m: f64, c: f64, v: f64) -> f64 {
    v + (-m * sm * (v + beta * c)) / m
}

/// The implicit Euler step of the same spring and damper (k = m ω², c = 2 m ζ ω).
fn implicit_velocity(
    (hertz, zeta, h): (f64, f64, f64),
    m: f64,
    c0: f64,
    v: f64,
) -> f64 {
    let omega = 2.0 * std::f64::consts::PI * hertz;
    let (k, d) = (m * omega * omega, 2.0 * m * zeta * omega);
    (m * v - h * k * c0) / (m + h * d + h * h * k)
}

/// Checks a soft contact's coefficients: implicit Euler, the scales' sum, the rigid
/// limit.
pub fn check_softness(f: SoftnessFn) -> Report {
    let mut next = sequence(0x9e37_79b9_u64);
    let mut worst = 0.0_f64;
    for _ in 0..20 {
        let hertz = 1.0 + 60.0 * next().abs();
        let zeta = 10.0 * next().abs();
        let h = (1.0 + 15.0 * next().abs()) / 960.0;
        let coefficients = f(hertz, zeta, h);
        let (beta, sm, si) = coefficients;
        if ![beta, sm, si].iter().all(|x| x.is_finite()) {
            return Report::fail(format!(
                "for f = {hertz:.3} Hz, ζ = {zeta:.3}, h = {h:.5} s you returned \
                 ({beta}, {sm}, {si}): every coefficient must be finite"
            ));
        }
        if (sm + si - 1.0).abs() > 1e-12 {
            return Report::fail(format!(
                "σ_m + σ_λ = {:.6} for f = {hertz:.3} Hz, ζ = {zeta:.3}, h = {h:.5} s: the \
                 two scales share one impulse and must add to 1 (σ_m = a/(1 + a), \
                 σ_λ = 1/(1 + a))",
                sm + si
            ));
        }
        let (m, c, v) = (0.5 + next().abs(), 0.05 * next(), next());
        let soft = soft_velocity(coefficients, m, c, v);
        let implicit = implicit_velocity((hertz, zeta, h), m, c, v);
        let error = (soft - implicit).abs() / implicit.abs().max(1e-3);
        if error > 1e-9 {
            let omega = 2.0 * std::f64::consts::PI * hertz;
            let why = if (beta - omega / (2.0 * zeta)).abs() < 1e-9 * beta.abs() {
                "your bias rate is ω/(2ζ): the step's hω is missing from its denominator"
            } else if (beta - hertz / (2.0 * zeta + h * hertz)).abs()
                < 1e-9 * beta.abs()
            {
                "your bias rate uses the frequency in hertz where ω = 2π f belongs"
            } else {
                "compare each coefficient with the page's: a = hω(2ζ + hω)"
            };
            return Report::fail(format!(
                "a mass of {m:.3} kg at C = {c:.4} m moving at {v:.3} m/s on a {hertz:.3} Hz \
                 spring (ζ = {zeta:.3}, h = {h:.5} s): one soft update gives v = {soft:.6} \
                 m/s, implicit Euler {implicit:.6} m/s: {why}"
            ));
        }
        worst = worst.max(error);
    }
    // Stiff and undamped, the contact is rigid with full feedback.
    let (beta, sm, _) = f(1e9, 0.0, 0.01);
    if (beta * 0.01 - 1.0).abs() > 1e-6 || (sm - 1.0).abs() > 1e-6 {
        return Report::fail(format!(
            "at 10⁹ Hz and ζ = 0 a soft contact is a rigid one: β h should be 1 and σ_m 1, \
             you have β h = {:.6}, σ_m = {sm:.6}",
            beta * 0.01
        ));
    }
    Report::pass(vec![
        format!(
            "20 springs from 1 to 61 Hz: one soft update is implicit Euler to {worst:.0e}"
        ),
        "σ_m + σ_λ = 1 throughout; at 10⁹ Hz the contact is rigid, β = 1/h".into(),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    pbm_prelim::answers!(softness => check_softness(softness::soft_coefficients));

    #[test]
    fn the_chapters_softness_passes_its_check() {
        check_softness(|f, z, h| {
            let s = crate::soft::Softness::new(f, z, h)
                .unwrap_or(crate::soft::Softness::RIGID);
            (s.bias_rate, s.mass_scale, s.impulse_scale)
        })
        .assert_passed();
    }

    #[test]
    fn softness_mutants_fail_with_the_diagnosis_meant_for_them() {
        check_softness(|f, z, h| {
            let w = std::f64::consts::TAU * f;
            let a = h * w * (2.0 * z + h * w);
            (w / (2.0 * z), a / (1.0 + a), 1.0 / (1.0 + a))
        })
        .assert_fails_with("hω is missing");
        check_softness(|f, z, h| {
            let a = h * f * (2.0 * z + h * f);
            (f / (2.0 * z + h * f), a / (1.0 + a), 1.0 / (1.0 + a))
        })
        .assert_fails_with("in hertz");
        check_softness(|f, z, h| {
            let w = std::f64::consts::TAU * f;
            let a = h * w * (2.0 * z + h * w);
            (w / (2.0 * z + h * w), a, 1.0 / (1.0 + a))
        })
        .assert_fails_with("add to 1");
    }
}
