//! Practice for chapter 10: the reader writes one XPBD projection of a distance
//! constraint and the generalized inverse mass of a rigid body. The projection is
//! checked by what it must do: close a rigid constraint in one visit, keep momentum,
//! leave a nailed particle where it is, stop at XPBD's fixed point C + α̃λ = 0 and
//! hang a mass at Hooke's α m g whatever the step; the inverse mass by how far a
//! corner of a turned brick really moves when the chapter's correction pushes it.

use crate::rigid::Body;
use nalgebra::{Matrix3, Vector3};
use pbm_prelim::practice::{Listing, Report, Task, sequence};
use pbm_rigid::mass::MassProperties;
use pbm_rigid::rotation::quat_from_axis_angle;

/// A distance projection the reader writes: ((x₁, w₁), (x₂, w₂), l₀, α, λ, h) →
/// (Δx₁, Δx₂, Δλ).
pub type DistanceFn = fn(
    (&Vector3<f64>, f64),
    (&Vector3<f64>, f64),
    f64,
    f64,
    f64,
    f64,
) -> (Vector3<f64>, Vector3<f64>, f64);

/// A generalized inverse mass the reader writes.
pub type InverseMassFn = fn(&Body, &Vector3<f64>, &Vector3<f64>) -> f64;

/// The chapter's tasks.
pub const TASKS: &[Task] = &[
    Task {
        id: "pbd/distance",
        title: "one XPBD projection of a distance constraint",
        section: "Projecting constraints: PBD and XPBD",
        page: "10-position-based/projection.md",
        equation: "xpbd-update",
        difficulty: 2,
        file: "distance.rs",
        stub: include_str!("practice/distance.rs"),
        check: "pbm_pbd::practice::check_distance(reader::distance_projection)",
        hints: &[
            "C = |x₁ − x₂| − l₀, and its gradients are the unit vector n = (x₁ − x₂)/|x₁ − x₂| \
             for x₁ and −n for x₂.",
            "Δλ = (−C − α̃ λ)/(w₁ + w₂ + α̃) with α̃ = α/h². Keep the α̃ λ term: it is what \
             makes a second pass in the same step leave a compliant constraint alone.",
            "Each end moves along its own gradient times its inverse mass: Δx₁ = w₁ n Δλ, \
             Δx₂ = −w₂ n Δλ. Return zeros when w₁ + w₂ + α̃ = 0.",
        ],
        solution: Listing {
            source: include_str!("practice/distance_solution.rs"),
            anchor: "distance_projection",
        },
    },
    Task {
        id: "pbd/inverse-mass",
        title: "the generalized inverse mass of a rigid body",
        section: "Rigid bodies by positions",
        page: "10-position-based/rigid.md",
        equation: "pbd-generalized-inverse-mass",
        difficulty: 1,
        file: "inverse_mass.rs",
        stub: include_str!("practice/inverse_mass.rs"),
        check: "pbm_pbd::practice::check_inverse_mass(reader::generalized_inverse_mass)",
        hints: &[
            "The lever is r = p − x, from the centre of mass to the pushed point.",
            "w = 1/m + (r × n)ᵀ I⁻¹ (r × n): `body.inverse_mass()` for the first part, \
             `(p - body.x).cross(n)` and `body.inverse_inertia()` for the second.",
        ],
        solution: Listing {
            source: include_str!("practice/inverse_mass_solution.rs"),
            anchor: "generalized_inverse_mass",
        },
    },
];

/// Pairs of positions (x₁, x₂), from a fixed sequence, none closer than 0.2 m.
fn pairs() -> Vec<(Vector3<f64>, Vector3<f64>)> {
    let mut next = sequence(0x5851_f42d_u64);
    let mut out = Vec::new();
    while out.len() < 8 {
        let a = Vector3::new(next(), next(), next());
        let b = Vector3::new(next(), next(), next());
        if (a - b).norm() > 0.2 {
            out.push((a, b));
        }
    }
    out
}

fn finite(v: &Vector3<f64>) -> bool {
    v.iter().all(|c| c.is_finite())
}

/// The reader's projection, or a line saying it gave something not finite.
fn project(
    f: DistanceFn,
    (x1, w1): (&Vector3<f64>, f64),
    (x2, w2): (&Vector3<f64>, f64),
    (rest, alpha, lambda, h): (f64, f64, f64, f64),
) -> Result<(Vector3<f64>, Vector3<f64>, f64), Report> {
    let (d1, d2, dl) = f((x1, w1), (x2, w2), rest, alpha, lambda, h);
    if finite(&d1) && finite(&d2) && dl.is_finite() {
        Ok((d1, d2, dl))
    } else {
        Err(Report::fail(format!(
            "with w₁ = {w1}, w₂ = {w2}, l₀ = {rest}, α = {alpha}, λ = {lambda}, h = {h} your \
             projection gave Δx₁ = {d1:?}, Δx₂ = {d2:?}, Δλ = {dl}: every number must be \
             finite"
        )))
    }
}

/// A particle of mass m hung from a nail on the reader's compliant distance, stepped
/// by the chapter's loop (predict, `iterations` projections with λ accumulated from
/// zero, v = (x − p)/h) until it is still: the extension it rests at.
fn hanging_extension(
    f: DistanceFn,
    (mass, alpha): (f64, f64),
    h: f64,
    iterations: usize,
) -> Result<f64, Report> {
    let (nail, rest, g) = (Vector3::zeros(), 1.0, Vector3::new(0.0, -9.81, 0.0));
    let (mut x, mut v) = (Vector3::new(0.0, -rest, 0.0), Vector3::zeros());
    let steps = (12.0 / h) as usize; // 12 s: implicit Euler's damping stills it
    for _ in 0..steps {
        v += g * h;
        let mut predicted = x + v * h;
        let mut lambda = 0.0;
        for _ in 0..iterations {
            let (_, d2, dl) = project(
                f,
                (&nail, 0.0),
                (&predicted, 1.0 / mass),
                (rest, alpha, lambda, h),
            )?;
            predicted += d2;
            lambda += dl;
        }
        v = (predicted - x) / h;
        x = predicted;
        if !finite(&x) || x.norm() > 1e6 {
            return Err(Report::fail(format!(
                "a {mass} kg mass hung on your compliant link (α = {alpha} m/N, h = {h} s) \
                 flew off to {x:?}"
            )));
        }
    }
    Ok(x.norm() - rest)
}

/// Checks an XPBD distance projection: a rigid constraint closed in one visit,
/// momentum kept, a nail left alone, XPBD's fixed point, and Hooke's law at rest.
pub fn check_distance(f: DistanceFn) -> Report {
    let h = 1.0 / 60.0;
    // Rigid: one visit closes it, whatever the masses.
    for (k, (x1, x2)) in pairs().into_iter().enumerate() {
        let (w1, w2, rest) = (0.5 + k as f64 * 0.25, 2.0 - k as f64 * 0.2, 0.7);
        let (d1, d2, _) = match project(f, (&x1, w1), (&x2, w2), (rest, 0.0, 0.0, h))
        {
            Ok(r) => r,
            Err(report) => return report,
        };
        let c = (x1 - x2).norm() - rest;
        let after = (x1 + d1 - x2 - d2).norm() - rest;
        if after.abs() > 1e-9 {
            // Along the link, signed: a move the wrong way may pass through zero.
            let along = (x1 + d1 - x2 - d2).dot(&(x1 - x2).normalize()) - rest;
            let why = if (along - 2.0 * c).abs() < 1e-9 {
                "it moved the ends the wrong way and doubled the error: Δλ = −C/(w₁ + w₂) \
                 has a minus sign, and x₁ moves along +n Δλ"
                    .to_string()
            } else if (along - c).abs() < 1e-9 {
                "it did not change the distance at all: do both ends move along the same \
                 direction? The gradient for x₂ is −n, so Δx₂ = −w₂ n Δλ"
                    .to_string()
            } else {
                format!(
                    "the distance is still {after:.3e} from l₀. Both ends move along the \
                     link, x₁ by w₁ n Δλ and x₂ by −w₂ n Δλ, so the distance changes by \
                     (w₁ + w₂) Δλ, which must be −C"
                )
            };
            return Report::fail(format!(
                "with α = 0 one projection must close the constraint exactly, but from \
                 C = {c:.3} (w₁ = {w1}, w₂ = {w2}) {why}"
            ));
        }
        // Momentum: Σ m Δx = Δx₁/w₁ + Δx₂/w₂ = 0.
        let momentum = d1 / w1 + d2 / w2;
        if momentum.norm() > 1e-9 * (1.0 + c.abs() / w1.min(w2)) {
            let swapped = (d1.norm() - w2 / (w1 + w2) * c.abs()).abs() < 1e-9;
            let why = if swapped {
                "each end moved by the other's share: the light end (large w) must move \
                 more, Δx₁ = w₁ n Δλ, Δx₂ = −w₂ n Δλ"
            } else {
                "the moves must be w_k ∇_k C Δλ, so that m₁Δx₁ + m₂Δx₂ = Δλ (n − n) = 0"
            };
            return Report::fail(format!(
                "your projection closed the constraint but pushed the pair: Σ m Δx = \
                 {momentum:?} with w₁ = {w1}, w₂ = {w2}. A distance does not care where \
                 the pair is, so its projection must not change their momentum: {why}"
            ));
        }
    }
    // A nail (w = 0) stays put; two nails and no compliance: nothing can move.
    let (x1, x2) = (Vector3::new(0.0, 0.0, 0.0), Vector3::new(0.3, -1.2, 0.4));
    let (d1, d2, _) = match project(f, (&x1, 0.0), (&x2, 2.0), (1.0, 0.0, 0.0, h)) {
        Ok(r) => r,
        Err(report) => return report,
    };
    if d1 != Vector3::zeros() || ((x2 + d2).norm() - 1.0).abs() > 1e-9 {
        return Report::fail(format!(
            "a particle nailed down (w₁ = 0) on a link to a free one moved by {d1:?}, and \
             the free one ended {:.3e} from l₀: the nail takes w₁ = 0 of the correction, \
             the free particle all of it",
            (x2 + d2).norm() - 1.0
        ));
    }
    if let Err(report) = project(f, (&x1, 0.0), (&x2, 0.0), (1.0, 0.0, 0.0, h)) {
        let line = &report.lines[0];
        return Report::fail(format!(
            "{line}. Both ends are nailed and α = 0, so w₁ + w₂ + α̃ = 0 and nothing can \
             move: return zeros, not 0/0"
        ));
    }
    // Compliant: one visit from λ = 0 lands where C + α̃ λ = 0, and a second visit in
    // the same step, with the λ accumulated, changes nothing.
    let (alpha, w1, w2) = (2e-4, 1.0, 0.5);
    let alpha_tilde = alpha / (h * h);
    let (x1, x2) = (Vector3::new(0.1, 0.9, 0.0), Vector3::new(-0.2, -0.5, 0.3));
    let rest = 1.0;
    let c0 = (x1 - x2).norm() - rest;
    let (d1, d2, dl) = match project(f, (&x1, w1), (&x2, w2), (rest, alpha, 0.0, h)) {
        Ok(r) => r,
        Err(report) => return report,
    };
    let (y1, y2) = (x1 + d1, x2 + d2);
    let c1 = (y1 - y2).norm() - rest;
    let want = c0 * alpha_tilde / (w1 + w2 + alpha_tilde);
    if (c1 - want).abs() > 1e-9 || (c1 + alpha_tilde * dl).abs() > 1e-9 {
        let implied = -c0 / dl - w1 - w2; // the α̃ the reader used
        let why = if (implied - alpha / h).abs() < 1e-6 * alpha / h {
            "you used α/h; XPBD's α̃ is α/h², the compliance over the step squared"
                .to_string()
        } else if (implied).abs() < 1e-9 {
            "your projection ignored the compliance: α̃ = α/h² belongs in the denominator"
                .to_string()
        } else {
            format!(
                "it should leave C = C₀ α̃/(w₁ + w₂ + α̃) = {want:.6}, where the spring's \
                 force −C/α̃ balances the multiplier: C + α̃ λ = 0"
            )
        };
        return Report::fail(format!(
            "with compliance α = {alpha} m/N at h = {h:.4} s (α̃ = {alpha_tilde:.3}), one \
             projection took C from {c0:.6} to {c1:.6} with Δλ = {dl:.6}: {why}"
        ));
    }
    let (e1, e2, dl2) = match project(f, (&y1, w1), (&y2, w2), (rest, alpha, dl, h)) {
        Ok(r) => r,
        Err(report) => return report,
    };
    if dl2.abs() > 1e-9 || (e1 - e2).norm() > 1e-9 {
        let why = if (dl2 + c1 / (w1 + w2 + alpha_tilde)).abs() < 1e-9 {
            "that is −C/(w₁ + w₂ + α̃), the slides' update: it forgets the multiplier \
             already accumulated in this step, removes the same fraction of the error on \
             every pass, and the constraint gets stiffer with each iteration. The \
             numerator is −C − α̃ λ"
                .to_string()
        } else {
            "the numerator is −C − α̃ λ, which is zero at the fixed point".to_string()
        };
        return Report::fail(format!(
            "a second projection in the same step, given the λ = {dl:.6} the first one \
             accumulated, should change nothing (C + α̃ λ = 0 already), but your Δλ is \
             {dl2:.3e}: {why}"
        ));
    }
    // Hooke's law: a hanging mass rests at α m g whatever the step.
    let (mass, alpha) = (2.0, 1e-3);
    let want = alpha * mass * 9.81;
    let mut measured = Vec::new();
    for (h, iterations) in [(1.0 / 60.0, 1), (1.0 / 240.0, 4)] {
        match hanging_extension(f, (mass, alpha), h, iterations) {
            Ok(extension) => {
                if (extension / want - 1.0).abs() > 1e-4 {
                    return Report::fail(format!(
                        "a {mass} kg mass hung on your link with α = {alpha} m/N came to \
                         rest {:.4} mm below l₀ (h = {h:.4} s, {iterations} passes), \
                         where Hooke's law with stiffness 1/α puts it at α m g = {:.4} mm",
                        extension * 1e3,
                        want * 1e3
                    ));
                }
                measured.push(format!(
                    "a {mass} kg mass hung on α = {alpha} m/N rests at {:.4} mm (α m g = \
                     {:.4} mm) at h = {h:.4} s with {iterations} pass(es)",
                    extension * 1e3,
                    want * 1e3
                ));
            }
            Err(report) => return report,
        }
    }
    let mut lines = vec![
        "α = 0 closes the constraint in one projection, for 8 pairs and masses, keeping \
         Σ m Δx = 0; a nail stays put; two nails give zeros"
            .to_string(),
        format!(
            "α = {:.0e} m/N: one projection leaves C = C₀ α̃/(w₁ + w₂ + α̃), and a second \
             with the accumulated λ changes nothing",
            2e-4
        ),
    ];
    lines.extend(measured);
    Report::pass(lines)
}

/// The brick of the chapter's test: 10 × 40 × 20 cm, 2 kg, turned and away from the
/// origin.
fn brick() -> Result<Body, String> {
    let props = MassProperties::block(Vector3::new(0.1, 0.4, 0.2), 2.0)
        .map_err(|e| e.to_string())?;
    let q = quat_from_axis_angle(&Vector3::new(1.0, 2.0, 3.0), 0.7);
    Body::new(&props, Vector3::new(0.3, -0.2, 0.1), q).map_err(|e| e.to_string())
}

/// Checks a generalized inverse mass against how far a corner of a turned brick
/// moves along n per unit of impulse, pushed through the chapter's correction.
pub fn check_inverse_mass(f: InverseMassFn) -> Report {
    let body = match brick() {
        Ok(body) => body,
        Err(e) => {
            return Report::fail(format!("the test brick could not be made: {e}"));
        }
    };
    let local = Vector3::new(0.05, -0.2, 0.1); // a corner
    let p = body.world_point(&local);
    let directions = [
        Vector3::x(),
        Vector3::new(1.0, -2.0, 0.5).normalize(),
        Vector3::z(),
        (p - body.x).normalize(), // straight at the centre: no turn
    ];
    let mut worst = 0.0_f64;
    for n in directions {
        // Push with ±ε n at the corner, through the chapter's own correction, and see
        // how far the corner itself moves along n: a central difference, O(ε²).
        let eps = 1e-6;
        let moved = |sign: f64| {
            let mut pushed = body.clone();
            pushed.apply_correction(&p, &(n * (sign * eps)));
            (pushed.world_point(&local) - p).dot(&n)
        };
        let measured = (moved(1.0) - moved(-1.0)) / (2.0 * eps);
        let got = f(&body, &p, &n);
        if !got.is_finite() {
            return Report::fail(format!(
                "your w at the corner along {n:?} is {got}"
            ));
        }
        let relative = (got / measured - 1.0).abs();
        worst = worst.max(relative);
        if relative <= 1e-6 {
            continue;
        }
        let close = |x: f64| (got - x).abs() <= 1e-6 * measured;
        let m_inv = body.inverse_mass();
        let quadratic =
            |r: Vector3<f64>, i: Matrix3<f64>| r.cross(&n).dot(&(i * r.cross(&n)));
        let why = if close(m_inv) {
            "that is 1/m alone: the body also turns, and the corner's share of the turn \
             along n is (r × n)ᵀ I⁻¹ (r × n)"
        } else if close(measured - m_inv) {
            "the centre of mass moves too: add 1/m, `body.inverse_mass()`"
        } else if close(m_inv + quadratic(p, body.inverse_inertia())) {
            "the lever is r = p − x, from the centre of mass to the point, not the point's \
             position p"
        } else if close(m_inv + quadratic(p - body.x, body.inertia())) {
            "you used the inertia I; the turn is I⁻¹ times the angular impulse, \
             `body.inverse_inertia()`"
        } else {
            "w = 1/m + (r × n)ᵀ I⁻¹ (r × n), with r = p − x and the world inverse inertia"
        };
        return Report::fail(format!(
            "pushed at the corner {p:.3?} along n = {n:.3?}, the brick's corner moves \
             {measured:.5} m per unit of positional impulse, but your w is {got:.5}: {why}"
        ));
    }
    let anchor = match Body::fixed(Vector3::new(1.0, 0.0, 0.0), body.orientation()) {
        Ok(b) => b,
        Err(e) => {
            return Report::fail(format!("the test anchor could not be made: {e}"));
        }
    };
    let fixed = f(&anchor, &p, &Vector3::x());
    if fixed != 0.0 {
        return Report::fail(format!(
            "a fixed body (inverse mass 0, inverse inertia 0) must give w = 0, nothing \
             moves it; yours gives {fixed}"
        ));
    }
    Report::pass(vec![
        format!(
            "w matches how far a corner of a turned brick moves per unit impulse, pushed \
             through the chapter's correction, to {worst:.0e} in four directions"
        ),
        "a fixed body gives w = 0".to_string(),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    pbm_prelim::answers! {
        distance => check_distance(distance::distance_projection),
        inverse_mass => check_inverse_mass(inverse_mass::generalized_inverse_mass),
    }

    #[test]
    fn the_chapters_own_method_passes_the_inverse_mass_check() {
        check_inverse_mass(|b, p, n| b.generalized_inverse_mass(p, n))
            .assert_passed();
    }

    fn failing_distance(f: DistanceFn, expect: &str) {
        check_distance(f).assert_fails_with(expect);
    }

    #[test]
    fn distance_mutants_fail_with_the_diagnosis_meant_for_them() {
        // Δλ with the wrong sign.
        failing_distance(
            |a, b, r, al, l, h| {
                let (d1, d2, dl) = distance::distance_projection(a, b, r, al, l, h);
                (-d1, -d2, -dl)
            },
            "wrong way",
        );
        // Both ends moved along +n.
        failing_distance(
            |a, b, r, al, l, h| {
                let (d1, d2, dl) = distance::distance_projection(a, b, r, al, l, h);
                (d1, -d2, dl)
            },
            "−w₂ n Δλ",
        );
        // Each end moved by the other's inverse mass.
        failing_distance(
            |(x1, w1), (x2, w2), r, al, l, h| {
                let (d1, d2, dl) =
                    distance::distance_projection((x1, w2), (x2, w1), r, al, l, h);
                (d1, d2, dl)
            },
            "other's share",
        );
        // 0/0 when both ends are nailed.
        failing_distance(
            |(x1, w1), (x2, w2), rest, alpha, lambda, h| {
                let d = x1 - x2;
                let n = d / d.norm();
                let at = alpha / (h * h);
                let dl = (-(d.norm() - rest) - at * lambda) / (w1 + w2 + at);
                (n * (w1 * dl), -n * (w2 * dl), dl)
            },
            "not 0/0",
        );
        // α̃ = α/h.
        failing_distance(
            |a, b, r, al, l, h| distance::distance_projection(a, b, r, al * h, l, h),
            "α/h²",
        );
        // The slides' update: λ forgotten.
        failing_distance(
            |a, b, r, al, _, h| distance::distance_projection(a, b, r, al, 0.0, h),
            "slides' update",
        );
    }

    #[test]
    fn inverse_mass_mutants_fail_with_the_diagnosis_meant_for_them() {
        let failing = |f: InverseMassFn, expect: &str| {
            check_inverse_mass(f).assert_fails_with(expect)
        };
        failing(|b, _, _| b.inverse_mass(), "1/m alone");
        failing(
            |b, p, n| {
                let rn = p.cross(n);
                b.inverse_mass() + rn.dot(&(b.inverse_inertia() * rn))
            },
            "not the point's position",
        );
        failing(
            |b, p, n| {
                let rn = (p - b.x).cross(n);
                b.inverse_mass() + rn.dot(&(b.inertia() * rn))
            },
            "inverse_inertia",
        );
        failing(
            |b, p, n| {
                let rn = (p - b.x).cross(n);
                rn.dot(&(b.inverse_inertia() * rn))
            },
            "add 1/m",
        );
    }
}
