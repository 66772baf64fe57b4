//! Practice for chapter 12. First a soft contact's three coefficients, checked by
//! what they must do: one soft update of a spring and damper must be the implicit
//! Euler step of it, the two scales must share the impulse, and a stiff enough
//! contact must become the rigid one. Then one point's update in a pass of soft
//! step, checked by what each kind of pass must leave: the relax pass a rigid
//! contact's complementarity, a point still apart a closing of its gap and no more,
//! the soft pass implicit Euler, a capped push-out and a share of the last impulse
//! taken back.

use pbm_prelim::practice::{Listing, Report, sequence};

/// The reader's coefficients: (hertz, ζ, h) → (bias rate, mass scale, impulse scale).
pub type SoftnessFn = fn(f64, f64, f64) -> (f64, f64, f64);

/// The reader's soft-step update: (v_n, gap, (m, λ₀), (β, σ_m, σ_λ), (h, v_max,
/// relax)) → the new accumulated impulse.
pub type SoftStepFn =
    fn(f64, f64, (f64, f64), (f64, f64, f64), (f64, f64, bool)) -> f64;

/// The chapter's tasks.
pub const TASKS: &[Task] = &[
    Task {
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
    },
    Task {
        id: "solvers/relax",
        title: "one point's impulse in a pass of soft step, soft or relaxed",
        section: "Substeps instead of iterations",
        page: "12-solvers/index.md",
        equation: "solvers-soft-update",
        difficulty: 2,
        file: "relax.rs",
        stub: include_str!("practice/relax.rs"),
        check: "pbm_solvers::practice::check_relax(reader::soft_step_impulse)",
        hints: &[
            "First choose what the pass feeds back: a point apart (gap > 0) gets gap/h, \
         rigidly; the relax pass gets nothing, rigidly; the soft pass gets β C, capped \
         at −max_speed, with the contact's softness. Rigid is σ_m = 1, σ_λ = 0.",
            "Δλ = −m σ_m (v + b) − σ_λ λ₀, where λ₀ is the total so far.",
            "Clamp the new total, λ₀ + Δλ, at zero, not the change Δλ: a pass may take back \
         impulse an earlier one applied, as long as the total still pushes.",
        ],
        solution: Listing {
            source: include_str!("practice/relax_solution.rs"),
            anchor: "soft_step_impulse",
        },
    },
];

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

/// The velocity after an update from `vn` that took the total from `before` to
/// `after`, on effective mass `m`.
fn after(vn: f64, m: f64, (before, after): (f64, f64)) -> f64 {
    vn + (after - before) / m
}

/// A random point and contact for the relax check: m, λ₀, v_n, and the softness.
struct Case {
    m: f64,
    total: f64,
    vn: f64,
    soft: crate::soft::Softness,
}

impl Case {
    fn coefficients(&self) -> (f64, f64, f64) {
        (self.soft.bias_rate, self.soft.mass_scale, self.soft.impulse_scale)
    }

    fn said(&self) -> String {
        format!(
            "m = {:.3} kg, λ₀ = {:.3} N s, v = {:.3} m/s",
            self.m, self.total, self.vn
        )
    }
}

/// Checks one point's soft-step update by what each pass must leave behind: the
/// relax pass first (over every case), then points apart, then the soft pass.
pub fn check_relax(f: SoftStepFn) -> Report {
    let mut next = sequence(0x005e_ed12_u64);
    let (h, max_speed) = (1.0 / 240.0, 2.0);
    let cases: Vec<Case> = (0..40)
        .map(|_| {
            let (hertz, zeta) = (1.0 + 60.0 * next().abs(), 10.0 * next().abs());
            Case {
                m: 0.5 + next().abs(),
                total: if next() > 0.0 { next().abs() } else { 0.0 },
                vn: 2.0 * next(),
                soft: crate::soft::Softness::new(hertz, zeta, h)
                    .unwrap_or(crate::soft::Softness::RIGID),
            }
        })
        .collect();
    // The relax pass: a rigid contact, λ ≥ 0, v ≥ 0, λ v = 0.
    for c in &cases {
        let gap = -0.01 * next().abs();
        let l = f(c.vn, gap, (c.m, c.total), c.coefficients(), (h, max_speed, true));
        let v = after(c.vn, c.m, (c.total, l));
        if l.is_nan() || l < 0.0 {
            return Report::fail(format!(
                "relax pass, {}: your total is {l:.4} N s; a contact pushes and never \
                 pulls, so the total is clamped at zero",
                c.said()
            ));
        }
        if v < -1e-9 || (l * v).abs() > 1e-9 {
            let why = if v > 1e-9 && l > 0.0 {
                "it still pushes while the bodies separate: clamp the new total \
                 λ₀ + Δλ at zero, not the change Δλ"
            } else {
                "the relax pass is rigid with no feedback: b = 0, σ_m = 1, σ_λ = 0"
            };
            return Report::fail(format!(
                "relax pass, overlap {:.4} m, {}: after it the point moves at {v:.5} m/s \
                 with a total of {l:.4} N s; a rigid contact ends with v ≥ 0, λ ≥ 0 and \
                 λ v = 0: {why}",
                -gap,
                c.said()
            ));
        }
    }
    // A point still apart closes by its gap in the substep, and no more.
    for c in &cases {
        let apart = 0.02 * next().abs() + 1e-4;
        for relax in [false, true] {
            let l = f(
                c.vn,
                apart,
                (c.m, c.total),
                c.coefficients(),
                (h, max_speed, relax),
            );
            let v = after(c.vn, c.m, (c.total, l));
            let limit = -apart / h;
            if v < limit - 1e-9 || (l > 1e-12 && (v - limit).abs() > 1e-9) {
                return Report::fail(format!(
                    "a point {apart:.4} m apart, {}, in the {} pass: after it v = {v:.5} \
                     m/s with a total of {l:.4} N s; it may close at up to gap/h = {:.5} \
                     m/s and must be held to exactly that if it pushes (bias gap/h, rigid)",
                    c.said(),
                    if relax { "relax" } else { "soft" },
                    -limit
                ));
            }
        }
    }
    for c in &cases {
        let soft = c.coefficients();
        // From no impulse, on a small overlap: implicit Euler of the spring.
        let (gap, v0) = (-0.002 * next().abs(), -next().abs());
        let l = f(v0, gap, (c.m, 0.0), soft, (h, max_speed, false));
        let v = after(v0, c.m, (0.0, l));
        let expected = soft_velocity(soft, c.m, gap, v0).max(v0);
        if (v - expected).abs() > 1e-9 * (1.0 + expected.abs()) {
            return Report::fail(format!(
                "soft pass from rest of impulse, overlap {:.5} m, approaching at {:.4} \
                 m/s: after it v = {v:.6} m/s, the soft update {expected:.6}: \
                 Δλ = −m σ_m (v + β C) with the contact's coefficients",
                -gap, -v0
            ));
        }
        // A share σ_λ of the impulse so far is taken back.
        let l = f(0.0, 0.0, (c.m, c.total), soft, (h, max_speed, false));
        let kept = c.soft.mass_scale * c.total;
        if (l - kept).abs() > 1e-9 * (1.0 + c.total) {
            return Report::fail(format!(
                "soft pass, no gap and no motion, λ₀ = {:.4} N s: your total is {l:.6} N s, \
                 the soft update's σ_m λ₀ = {kept:.6}: the term −σ_λ λ₀ takes back a \
                 share of the impulse already applied",
                c.total
            ));
        }
        // An overlap deep enough that β C passes −max_speed is pushed out at max_speed.
        let deep = -2.0 * max_speed / c.soft.bias_rate - 0.01;
        let l = f(0.0, deep, (c.m, 0.0), soft, (h, max_speed, false));
        let pushed = c.m * c.soft.mass_scale * max_speed;
        if (l - pushed).abs() > 1e-9 * pushed {
            return Report::fail(format!(
                "soft pass at rest, {:.3} m deep (β C = {:.3} m/s): your total is {l:.4} \
                 N s; a push-out capped at {max_speed} m/s gives m σ_m v_max = \
                 {pushed:.4}: b = max(β C, −max_speed)",
                -deep,
                c.soft.bias_rate * deep
            ));
        }
    }
    Report::pass(vec![
        "40 points: the relax pass leaves v ≥ 0, λ ≥ 0, λ v = 0 to 1e-9".into(),
        "points apart close by their gap and no more; the soft pass is implicit Euler, \
         takes back σ_λ λ₀ and caps the push-out"
            .into(),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    pbm_prelim::answers!(
        softness => check_softness(softness::soft_coefficients),
        relax => check_relax(relax::soft_step_impulse),
    );

    #[test]
    fn the_chapters_pass_passes_the_relax_check() {
        use crate::contact::{Feedback, accumulate, bias};
        check_relax(|vn, gap, (m, total), (b, sm, si), (h, max_speed, relax)| {
            let soft = crate::soft::Softness {
                bias_rate: b,
                mass_scale: sm,
                impulse_scale: si,
            };
            let feedback =
                if relax { Feedback::Relax } else { Feedback::Soft { max_speed } };
            bias(feedback, gap, h, soft)
                .map_or(0.0, |b| accumulate(vn, b, (m, total)))
        })
        .assert_passed();
    }

    /// The book's answer with one slip.
    fn slipped(
        vn: f64,
        gap: f64,
        (m, total): (f64, f64),
        (b, sm, si): (f64, f64, f64),
        (h, max_speed, relax): (f64, f64, bool),
        slip: usize,
    ) -> f64 {
        let rigid = (1.0, 0.0);
        let (bias, (ms, is)) = if gap > 0.0 && slip != 2 {
            (gap / h, rigid)
        } else if relax && slip != 1 {
            (0.0, rigid)
        } else if slip == 3 {
            (b * gap, (sm, si))
        } else {
            ((b * gap).max(-max_speed), (sm, si))
        };
        let is = if slip == 4 { 0.0 } else { is };
        let delta = -m * ms * (vn + bias) - is * total;
        if slip == 0 { total + delta.max(0.0) } else { (total + delta).max(0.0) }
    }

    #[test]
    fn relax_mutants_fail_with_the_diagnosis_meant_for_them() {
        let with = |slip| -> Report {
            match slip {
                0 => check_relax(|v, g, a, s, p| slipped(v, g, a, s, p, 0)),
                1 => check_relax(|v, g, a, s, p| slipped(v, g, a, s, p, 1)),
                2 => check_relax(|v, g, a, s, p| slipped(v, g, a, s, p, 2)),
                3 => check_relax(|v, g, a, s, p| slipped(v, g, a, s, p, 3)),
                _ => check_relax(|v, g, a, s, p| slipped(v, g, a, s, p, 4)),
            }
        };
        with(0).assert_fails_with("not the change");
        with(1).assert_fails_with("rigid with no feedback");
        with(2).assert_fails_with("gap/h");
        with(3).assert_fails_with("max(β C");
        with(4).assert_fails_with("takes back");
    }

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
