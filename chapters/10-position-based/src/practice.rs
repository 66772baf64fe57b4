//! Practice for chapter 10: the reader writes one XPBD projection of a distance
//! constraint, the ground's position pass with static friction, the generalized
//! inverse mass of a rigid body, and the angular velocity read off a body's turn.
//! The projection is checked by what it must do: close a rigid constraint in one
//! visit, keep momentum, leave a nailed particle where it is, stop at XPBD's fixed
//! point C + α̃λ = 0 and hang a mass at Hooke's α m g whatever the step; the ground
//! pass by where a particle ends on a tilted ground, with and without a slide that
//! static friction can hold; the inverse mass by how far a corner of a turned brick
//! really moves when the chapter's correction pushes it; the angular velocity on
//! turns built from a known ω.

use crate::contact::{Ground, Touch};
use crate::rigid::Body;
use nalgebra::{Matrix3, Vector3};
use pbm_prelim::practice::{Listing, Report, Task, case, number, numbers, sequence};
use pbm_rigid::mass::MassProperties;
use pbm_rigid::rotation::{Quat, quat_from_axis_angle, quat_mul, quat_to_matrix};

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

/// The ground's position pass the reader writes.
pub type GroundFn =
    fn(&Ground<3>, &mut Vector3<f64>, &Vector3<f64>, &Vector3<f64>) -> Touch;

/// A generalized inverse mass the reader writes.
pub type InverseMassFn = fn(&Body, &Vector3<f64>, &Vector3<f64>) -> f64;

/// An angular velocity readout the reader writes: (q_prev, q, h) → ω.
pub type AngularVelocityFn = fn(&Quat, &Quat, f64) -> Vector3<f64>;

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
        id: "pbd/ground",
        title: "the ground's position pass, with static friction",
        section: "Projecting constraints: PBD and XPBD",
        page: "10-position-based/projection.md",
        equation: "pbd-ground",
        difficulty: 2,
        file: "ground.rs",
        stub: include_str!("practice/ground.rs"),
        check: "pbm_pbd::practice::check_ground(reader::project_ground)",
        hints: &[
            "C = x·n − d with n = `ground.normal` and d = `ground.height`; a particle with \
             C ≥ 0 is not touched at all.",
            "The push is along the normal, whichever way it points: `*x -= n * c` lifts \
             the particle by −C, onto the surface.",
            "The sliding is what is left of x − previous after taking out its part along \
             n: `moved - n * moved.dot(&n)`. Subtract it from x when its length is below \
             μ_s (−C), and return `Touch { push: -c, approach: v.dot(&n) }`.",
        ],
        solution: Listing {
            source: include_str!("practice/ground_solution.rs"),
            anchor: "project_ground",
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
    Task {
        id: "pbd/angular-velocity",
        title: "the angular velocity read off a body's turn",
        section: "Rigid bodies by positions",
        page: "10-position-based/rigid.md",
        equation: "pbd-angular-velocity",
        difficulty: 1,
        file: "angular_velocity.rs",
        stub: include_str!("practice/angular_velocity.rs"),
        check: "pbm_pbd::practice::check_angular_velocity(reader::angular_velocity)",
        hints: &[
            "The conjugate of `from` is `Quat::new(from[0], -from[1], -from[2], \
             -from[3])`, and the turn is `quat_mul(to, &conjugate)`: the newer \
             orientation on the left.",
            "Δq = [cos θ/2, sin θ/2 û]: its vector part, `dq[1]`, `dq[2]`, `dq[3]`, is \
             about θ/2 along the axis, so ω = 2 (Δq_x, Δq_y, Δq_z)/h.",
            "If `dq[0] < 0.0`, Δq is the same turn written the long way round: negate ω.",
        ],
        solution: Listing {
            source: include_str!("practice/angular_velocity_solution.rs"),
            anchor: "angular_velocity",
        },
    },
];

/// A vector for a message: `[0.25, −1.5, 3]`.
fn show(v: &Vector3<f64>) -> String {
    numbers(v.as_slice())
}

// ---------------------------------------------------------------------------------
// pbd/distance

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
) -> Result<(Vector3<f64>, Vector3<f64>, f64), String> {
    let (d1, d2, dl) = f((x1, w1), (x2, w2), rest, alpha, lambda, h);
    if finite(&d1) && finite(&d2) && dl.is_finite() {
        Ok((d1, d2, dl))
    } else {
        Err(format!(
            "with w₁ = {}, w₂ = {}, l₀ = {}, α = {}, λ = {}, h = {} your projection gave \
             Δx₁ = {}, Δx₂ = {}, Δλ = {}: every number must be finite",
            number(w1),
            number(w2),
            number(rest),
            number(alpha),
            number(lambda),
            number(h),
            show(&d1),
            show(&d2),
            number(dl)
        ))
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
) -> Result<f64, String> {
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
            return Err(format!(
                "a {mass} kg mass hung on your compliant link (α = {alpha} m/N, h = {} s) \
                 flew off to {}",
                number(h),
                show(&x)
            ));
        }
    }
    Ok(x.norm() - rest)
}

/// A rigid link closed in one visit, keeping momentum, for 8 pairs and masses.
fn distance_rigid(f: DistanceFn, h: f64) -> Result<(), String> {
    for (k, (x1, x2)) in pairs().into_iter().enumerate() {
        let (w1, w2, rest) = (0.5 + k as f64 * 0.25, 2.0 - k as f64 * 0.2, 0.7);
        let (w1_text, w2_text) = (number(w1), number(w2));
        case(format!(
            "a rigid link (α = 0) between w₁ = {w1_text} and w₂ = {w2_text}"
        ));
        let (d1, d2, _) = project(f, (&x1, w1), (&x2, w2), (rest, 0.0, 0.0, h))?;
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
                    "the distance is still {} from l₀. Both ends move along the link, x₁ \
                     by w₁ n Δλ and x₂ by −w₂ n Δλ, so the distance changes by \
                     (w₁ + w₂) Δλ, which must be −C",
                    number(after)
                )
            };
            return Err(format!(
                "with α = 0 one projection must close the constraint exactly, but from \
                 C = {} (w₁ = {w1_text}, w₂ = {w2_text}) {why}",
                number(c)
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
            return Err(format!(
                "your projection closed the constraint but pushed the pair: Σ m Δx = {} \
                 with w₁ = {w1_text}, w₂ = {w2_text}. A distance does not care where the \
                 pair is, so its projection must not change their momentum: {why}",
                show(&momentum)
            ));
        }
    }
    Ok(())
}

/// A nail (w = 0) stays put; two nails and no compliance: nothing can move.
fn distance_nails(f: DistanceFn, h: f64) -> Result<(), String> {
    let (x1, x2) = (Vector3::new(0.0, 0.0, 0.0), Vector3::new(0.3, -1.2, 0.4));
    case("a nailed particle (w₁ = 0) on a rigid link to a free one");
    let (d1, d2, _) = project(f, (&x1, 0.0), (&x2, 2.0), (1.0, 0.0, 0.0, h))?;
    let gap = (x2 + d2).norm() - 1.0;
    if d1 != Vector3::zeros() {
        return Err(format!(
            "a particle nailed down (w₁ = 0) on a link to a free one moved by {}: the nail \
             takes w₁ = 0 of the correction, Δx₁ = w₁ n Δλ = 0, and the free particle all \
             of it",
            show(&d1)
        ));
    }
    if gap.abs() > 1e-9 {
        return Err(format!(
            "a particle nailed down (w₁ = 0) stayed put, but the free one on its link \
             ended {} m from l₀: with w₁ = 0 the free end takes the whole correction, \
             Δx₂ = −w₂ n Δλ with Δλ = −C/w₂",
            number(gap)
        ));
    }
    case("two nailed particles (w₁ = w₂ = 0) on a rigid link");
    if let Err(line) = project(f, (&x1, 0.0), (&x2, 0.0), (1.0, 0.0, 0.0, h)) {
        return Err(format!(
            "{line}. Both ends are nailed and α = 0, so w₁ + w₂ + α̃ = 0 and nothing can \
             move: return zeros, not 0/0"
        ));
    }
    Ok(())
}

/// Compliant: one visit from λ = 0 lands where C + α̃ λ = 0, and a second visit in
/// the same step, with the λ accumulated, changes nothing.
fn distance_compliant(f: DistanceFn, h: f64) -> Result<(), String> {
    let (alpha, w1, w2) = (2e-4, 1.0, 0.5);
    let alpha_tilde = alpha / (h * h);
    let (x1, x2) = (Vector3::new(0.1, 0.9, 0.0), Vector3::new(-0.2, -0.5, 0.3));
    let rest = 1.0;
    let c0 = (x1 - x2).norm() - rest;
    case(format!(
        "a compliant link (α = {alpha} m/N), its first projection in a step"
    ));
    let (d1, d2, dl) = project(f, (&x1, w1), (&x2, w2), (rest, alpha, 0.0, h))?;
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
                "it should leave C = C₀ α̃/(w₁ + w₂ + α̃) = {}, where the spring's force \
                 −C/α̃ balances the multiplier: C + α̃ λ = 0",
                number(want)
            )
        };
        return Err(format!(
            "with compliance α = {alpha} m/N at h = {} s (α̃ = {}), one projection took C \
             from {} to {} with Δλ = {}: {why}",
            number(h),
            number(alpha_tilde),
            number(c0),
            number(c1),
            number(dl)
        ));
    }
    case(format!(
        "a compliant link (α = {alpha} m/N), a second projection in the step"
    ));
    let (e1, e2, dl2) = project(f, (&y1, w1), (&y2, w2), (rest, alpha, dl, h))?;
    if dl2.abs() > 1e-9 || (e1 - e2).norm() > 1e-9 {
        let why = if (dl2 - dl).abs() < 1e-9 {
            format!(
                "that is the λ = {} you were given, plus a change of zero: return the \
                 change Δλ alone, which the caller adds to λ, not the new total",
                number(dl)
            )
        } else if (dl2 + c1 / (w1 + w2 + alpha_tilde)).abs() < 1e-9 {
            "that is −C/(w₁ + w₂ + α̃), the slides' update: it forgets the multiplier \
             already accumulated in this step, removes the same fraction of the error on \
             every pass, and the constraint gets stiffer with each iteration. The \
             numerator is −C − α̃ λ"
                .to_string()
        } else {
            "the numerator is −C − α̃ λ, which is zero at the fixed point".to_string()
        };
        return Err(format!(
            "a second projection in the same step, given the λ = {} the first one \
             accumulated, should change nothing (C + α̃ λ = 0 already), but your Δλ is \
             {}: {why}",
            number(dl),
            number(dl2)
        ));
    }
    Ok(())
}

/// Hooke's law: a hanging mass rests at α m g whatever the step; the measurements.
fn distance_hooke(f: DistanceFn) -> Result<Vec<String>, String> {
    let (mass, alpha) = (2.0, 1e-3);
    let want = alpha * mass * 9.81;
    let mut measured = Vec::new();
    for (h, iterations) in [(1.0 / 60.0, 1), (1.0 / 240.0, 4)] {
        case(format!(
            "a {mass} kg mass hung on α = {alpha} m/N, h = {} s, {iterations} passes",
            number(h)
        ));
        let extension = hanging_extension(f, (mass, alpha), h, iterations)?;
        if (extension / want - 1.0).abs() > 1e-4 {
            return Err(format!(
                "a {mass} kg mass hung on your link with α = {alpha} m/N came to rest {} mm \
                 below l₀ (h = {} s, {iterations} passes), where Hooke's law with \
                 stiffness 1/α puts it at α m g = {} mm",
                number(extension * 1e3),
                number(h),
                number(want * 1e3)
            ));
        }
        measured.push(format!(
            "a {mass} kg mass hung on α = {alpha} m/N rests at {} mm (α m g = {} mm) at \
             h = {} s with {iterations} pass(es)",
            number(extension * 1e3),
            number(want * 1e3),
            number(h)
        ));
    }
    Ok(measured)
}

/// Checks an XPBD distance projection: a rigid constraint closed in one visit,
/// momentum kept, a nail left alone, XPBD's fixed point, and Hooke's law at rest.
pub fn check_distance(f: DistanceFn) -> Report {
    let h = 1.0 / 60.0;
    let mut failures: Vec<String> =
        [distance_rigid(f, h), distance_nails(f, h), distance_compliant(f, h)]
            .into_iter()
            .filter_map(Result::err)
            .collect();
    match distance_hooke(f) {
        Ok(measured) if failures.is_empty() => {
            let mut lines = vec![
                "α = 0 closes the constraint in one projection, for 8 pairs and masses, \
                 keeping Σ m Δx = 0; a nail stays put; two nails give zeros"
                    .to_string(),
                "α = 2e−4 m/N: one projection leaves C = C₀ α̃/(w₁ + w₂ + α̃), and a second \
                 with the accumulated λ changes nothing"
                    .to_string(),
            ];
            lines.extend(measured);
            Report::pass(lines)
        }
        Ok(_) => Report::fail_all(failures),
        Err(why) => {
            failures.push(why);
            Report::fail_all(failures)
        }
    }
}

// ---------------------------------------------------------------------------------
// pbd/ground

/// A point of the tilted ground's frame: `s` metres out along the normal from the
/// surface, `a` and `b` metres along two directions in it.
struct GroundFrame {
    ground: Ground<3>,
    across: [Vector3<f64>; 2],
}

impl GroundFrame {
    /// The ground x·n ≥ 0.4 with n along (0.3, 1, −0.2), static friction `mu`.
    fn new(mu: f64) -> Option<Self> {
        let ground = Ground {
            normal: Vector3::new(0.3, 1.0, -0.2),
            height: 0.4,
            static_friction: mu,
            dynamic_friction: 0.0,
            restitution: 0.0,
        }
        .checked()
        .ok()?;
        let first = ground.normal.cross(&Vector3::x()).normalize();
        Some(GroundFrame { across: [first, ground.normal.cross(&first)], ground })
    }

    fn at(&self, s: f64, a: f64, b: f64) -> Vector3<f64> {
        self.ground.normal * (self.ground.height + s)
            + self.across[0] * a
            + self.across[1] * b
    }
}

fn near(p: &Vector3<f64>, q: &Vector3<f64>) -> bool {
    (p - q).norm() <= 1e-12
}

/// Where the reader's pass puts a particle 3 cm deep with no friction, against where
/// it belongs; a failure as a line.
fn ground_push(f: GroundFn) -> Result<(), String> {
    let Some(frame) = GroundFrame::new(0.0) else {
        return Err("the check's ground could not be built".to_string());
    };
    let n = frame.ground.normal;
    let (x0, previous) = (frame.at(-0.03, 0.2, -0.1), frame.at(0.02, 0.15, -0.12));
    let v = Vector3::new(0.5, -2.0, 0.3);
    case("a particle 3 cm into a tilted ground, no friction");
    let mut x = x0;
    let touch = f(&frame.ground, &mut x, &previous, &v);
    let want = frame.at(0.0, 0.2, -0.1);
    let mut lines = Vec::new();
    if !near(&x, &want) {
        let moved = x - x0;
        let why = if near(&x, &x0) {
            format!(
                "it left the particle in the ground. The surface is x·n = d with d = \
                 `ground.height` = 0.4 m, so C = x·n − d = −0.03 m, `ground.height` \
                 included (x·n alone is {} m, above zero); push it out by Δx = −C n",
                number(x0.dot(&n))
            )
        } else if moved.cross(&Vector3::y()).norm() < 1e-12 {
            "it moved the particle straight up, along y, where the push is along the \
             ground's normal n, whichever way that points: Δx = −C n"
                .to_string()
        } else if near(&x, &(x0 - n * x0.dot(&n))) {
            "it put the particle on the plane x·n = 0: the surface is at x·n = d, \
             `ground.height`, so C = x·n − d"
                .to_string()
        } else if near(&x, &(x0 - n * 0.03)) {
            "it pushed the particle deeper: C < 0 in the ground, and Δx = −C n moves it \
             out, along +n"
                .to_string()
        } else if near(&x, &(previous - n * (previous.dot(&n) - 0.4))) {
            "it ended straight out from where the step started: with μ_s = 0 static \
             friction held a slide longer than μ_s times the push. Only a slide shorter \
             than μ_s × push is undone, and with μ_s = 0 none"
                .to_string()
        } else if (x.dot(&n) - 0.4).abs() < 1e-12 {
            "it ended on the surface, but moved across the normal too: Δx = −C n is \
             along n alone"
                .to_string()
        } else {
            format!("C after your pass is {} m, not zero", number(x.dot(&n) - 0.4))
        };
        lines.push(format!(
            "a particle 3 cm into a ground tilted to the normal n = {} (no friction) \
             should end straight out from where it was, at {}, but your pass left it at \
             {}: {why}",
            show(&n),
            show(&want),
            show(&x)
        ));
    }
    if (touch.push - 0.03).abs() > 1e-12 {
        let why = if (touch.push + 0.03).abs() < 1e-12 {
            "it is the depth the particle was pushed out by, −C, a positive number"
        } else {
            "it is −C, the depth the particle was pushed out by"
        };
        lines.push(format!(
            "for a particle 3 cm into the ground your Touch has push = {} m, not 0.03 m: \
             {why}; the velocity pass reads the normal force from it",
            number(touch.push)
        ));
    }
    if (touch.approach - v.dot(&n)).abs() > 1e-12 {
        lines.push(format!(
            "your Touch has approach = {} m/s where the particle's velocity v = {} has \
             v·n = {} m/s along the normal: the velocity pass bounces it at e times that",
            number(touch.approach),
            show(&v),
            number(v.dot(&n))
        ));
    }
    if lines.is_empty() { Ok(()) } else { Err(lines.join("; and ")) }
}

/// A particle above the ground is left alone; a failure as a line.
fn ground_above(f: GroundFn) -> Result<(), String> {
    let Some(frame) = GroundFrame::new(0.5) else {
        return Err("the check's ground could not be built".to_string());
    };
    case("a particle 5 cm above the ground");
    let (x0, previous) = (frame.at(0.05, 0.2, -0.1), frame.at(0.1, 0.25, -0.1));
    let mut x = x0;
    let touch = f(&frame.ground, &mut x, &previous, &Vector3::new(0.0, -1.0, 0.0));
    if !near(&x, &x0) || touch.push != 0.0 {
        return Err(format!(
            "a particle 5 cm above the ground was moved from {} to {} (push {} m): the \
             ground is an inequality, C ≥ 0; leave a particle with C ≥ 0 where it is and \
             return Touch::default()",
            show(&x0),
            show(&x),
            number(touch.push)
        ));
    }
    Ok(())
}

/// Static friction on a particle 3 cm deep with μ_s = 0.5: a slide of 1 cm, under
/// μ_s × push = 1.5 cm, undone; one of 2.2 cm kept. A failure as a line.
fn ground_friction(f: GroundFn) -> Result<(), String> {
    let Some(frame) = GroundFrame::new(0.5) else {
        return Err("the check's ground could not be built".to_string());
    };
    let x0 = frame.at(-0.03, 0.2, -0.1);
    let v = Vector3::new(0.5, -2.0, 0.3);
    let out = frame.at(0.0, 0.2, -0.1);
    // Short: 1 cm across the normal.
    case("a particle 3 cm deep that slid 1 cm, μ_s = 0.5");
    let previous = frame.at(0.02, 0.19, -0.1);
    let mut x = x0;
    f(&frame.ground, &mut x, &previous, &v);
    let held = frame.at(0.0, 0.19, -0.1);
    if !near(&x, &held) {
        let why = if near(&x, &out) {
            "static friction did not hold it (the slide is the part of x − previous \
             across n, 1 cm here: the part along n is the push's doing)"
        } else if near(&x, &previous) {
            "it undid the whole move, the push with it, and left the particle above the \
             surface: subtract only the sliding, the part of x − previous across n"
        } else {
            "static friction subtracts the whole sliding, the part of x − previous across \
             n, from x"
        };
        return Err(format!(
            "a particle pushed 3 cm out of the ground after sliding 1 cm, under μ_s × \
             push = 0.5 × 3 cm, should end on the surface straight out from where the \
             step started, at {}, but your pass left it at {}: {why}",
            show(&held),
            show(&x)
        ));
    }
    // Long: 2.2 cm across the normal.
    case("a particle 3 cm deep that slid 2.2 cm, μ_s = 0.5");
    let previous = frame.at(0.02, 0.18, -0.09);
    let mut x = x0;
    f(&frame.ground, &mut x, &previous, &v);
    if !near(&x, &out) {
        let why = if near(&x, &frame.at(0.0, 0.18, -0.09)) {
            "static friction held a slide longer than μ_s times the push: only a shorter \
             one is undone; a longer one is left to the velocity pass's dynamic friction"
        } else {
            "a slide longer than μ_s times the push is left as it is"
        };
        return Err(format!(
            "a particle pushed 3 cm out of the ground after sliding 2.2 cm, over μ_s × \
             push = 1.5 cm, should keep its slide and end at {}, but your pass left it at \
             {}: {why}",
            show(&out),
            show(&x)
        ));
    }
    Ok(())
}

/// Checks the ground's position pass on a tilted ground: a particle above it left
/// alone, one in it pushed out along the normal with its depth and approach speed
/// reported, and static friction that holds a slide shorter than μ_s times the push
/// and only such a slide.
pub fn check_ground(f: GroundFn) -> Report {
    let push = ground_push(f);
    let mut failures: Vec<String> =
        [ground_above(f), push.clone()].into_iter().filter_map(Result::err).collect();
    // Friction is measured from where the push puts the particle.
    if push.is_ok() {
        failures.extend(ground_friction(f).err());
    }
    if !failures.is_empty() {
        return Report::fail_all(failures);
    }
    Report::pass(vec![
        "on a ground tilted to the normal (0.3, 1, −0.2)/|…|: a particle above it is left \
         alone; one 3 cm in ends on the surface straight out along n, with push 3 cm and \
         its approach speed v·n"
            .to_string(),
        "with μ_s = 0.5, a 1 cm slide (under μ_s × push = 1.5 cm) is undone and a 2.2 cm \
         one is kept"
            .to_string(),
    ])
}

// ---------------------------------------------------------------------------------
// pbd/inverse-mass

/// The brick of the chapter's test: 10 × 40 × 20 cm, 2 kg, turned and away from the
/// origin.
fn brick() -> Result<Body, String> {
    let props = MassProperties::block(Vector3::new(0.1, 0.4, 0.2), 2.0)
        .map_err(|e| e.to_string())?;
    let q = quat_from_axis_angle(&Vector3::new(1.0, 2.0, 3.0), 0.7);
    Body::new(&props, Vector3::new(0.3, -0.2, 0.1), q).map_err(|e| e.to_string())
}

/// Checks a generalized inverse mass against how far a corner of a turned brick
/// moves along n per unit of impulse, pushed through the chapter's correction, and
/// w = 0 for a fixed body.
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
        ("x", Vector3::x()),
        ("a skew direction", Vector3::new(1.0, -2.0, 0.5).normalize()),
        ("z", Vector3::z()),
        ("the centre of mass", (p - body.x).normalize()), // no turn
    ];
    let mut failures = Vec::new();
    let mut worst = 0.0_f64;
    for (towards, n) in directions {
        // Push with ±ε n at the corner, through the chapter's own correction, and see
        // how far the corner itself moves along n: a central difference, O(ε²).
        let eps = 1e-6;
        let moved = |sign: f64| {
            let mut pushed = body.clone();
            pushed.apply_correction(&p, &(n * (sign * eps)));
            (pushed.world_point(&local) - p).dot(&n)
        };
        let measured = (moved(1.0) - moved(-1.0)) / (2.0 * eps);
        case(format!("a turned brick pushed at a corner along {towards}"));
        let got = f(&body, &p, &n);
        if !got.is_finite() {
            failures.push(format!(
                "pushed at a corner along n = {}, your w is {}: it must be a finite \
                 number",
                show(&n),
                number(got)
            ));
            break;
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
        failures.push(format!(
            "pushed at the corner {} along n = {}, the brick's corner moves {} m per unit \
             of positional impulse, but your w is {}: {why}",
            show(&p),
            show(&n),
            number(measured),
            number(got)
        ));
        break;
    }
    let anchor = match Body::fixed(Vector3::new(1.0, 0.0, 0.0), body.orientation()) {
        Ok(b) => b,
        Err(e) => {
            return Report::fail(format!("the test anchor could not be made: {e}"));
        }
    };
    case("a fixed body (inverse mass 0, inverse inertia 0)");
    let fixed = f(&anchor, &p, &Vector3::x());
    if fixed != 0.0 {
        failures.push(format!(
            "a fixed body (inverse mass 0, inverse inertia 0) must give w = 0, nothing \
             moves it; yours gives {}",
            number(fixed)
        ));
    }
    if !failures.is_empty() {
        return Report::fail_all(failures);
    }
    Report::pass(vec![
        format!(
            "w matches how far a corner of a turned brick moves per unit impulse, pushed \
             through the chapter's correction, to {} in four directions",
            number(worst.max(1e-17))
        ),
        "a fixed body gives w = 0".to_string(),
    ])
}

// ---------------------------------------------------------------------------------
// pbd/angular-velocity

/// The orientation `from` turned by ω over h about a fixed axis in the world:
/// exp(h ω) · from.
fn turned(from: &Quat, omega: &Vector3<f64>, h: f64) -> Quat {
    quat_mul(&quat_from_axis_angle(omega, omega.norm() * h), from)
}

/// What a readout `got` that should be `want` (from `from` turned over `h`) most
/// likely has wrong.
fn diagnose_readout(
    got: &Vector3<f64>,
    want: &Vector3<f64>,
    from: &Quat,
    h: f64,
) -> String {
    let close = |v: Vector3<f64>| (got - v).norm() <= 1e-3 * want.norm();
    let body = quat_to_matrix(from).transpose() * want;
    let ratio = got.dot(want) / want.norm_squared();
    let turn = quat_from_axis_angle(want, want.norm() * h);
    if close(-want) {
        "it turns the wrong way: the step's turn is Δq = q · q_prev⁻¹, `to` times the \
         conjugate of `from`; q_prev · q⁻¹ is the turn back"
            .to_string()
    } else if close(body) {
        "it is the right turn in the body's own axes: q_prev⁻¹ · q measures it there. \
         The world's ω comes from q · q_prev⁻¹, with q_prev⁻¹ on the right"
            .to_string()
    } else if close(-body) {
        "it is the turn back, in the body's own axes: the world's ω comes from \
         Δq = q · q_prev⁻¹, `to` on the left"
            .to_string()
    } else if close(Vector3::new(turn[0], turn[1], turn[2]) * (2.0 / h)) {
        "it reads the real part as x: a quaternion here is [s, x, y, z], so Δq's vector \
         part is dq[1], dq[2], dq[3]"
            .to_string()
    } else if close(want * ratio) {
        let near = |x: f64| (ratio - x).abs() <= 1e-3 * x;
        let why = if near(0.5) {
            "the factor 2 is missing: Δq's vector part is sin(θ/2) û, half the angle"
        } else if near(2.0) {
            "Δq's vector part is θ/2 about the axis, so ω = 2 (Δq_x, Δq_y, Δq_z)/h: \
             twice, not four times"
        } else if near(h) {
            "it is not divided by the step: ω = 2 (Δq_x, Δq_y, Δq_z)/h"
        } else if near(h * h) {
            "it is multiplied by the step where it should be divided: \
             ω = 2 (Δq_x, Δq_y, Δq_z)/h"
        } else {
            "the direction is right and the size is not: ω = 2 (Δq_x, Δq_y, Δq_z)/h"
        };
        format!("it is {} times the right ω: {why}", number(ratio))
    } else {
        "ω = 2 (Δq_x, Δq_y, Δq_z)/h with Δq = to · from⁻¹".to_string()
    }
}

/// Checks an angular velocity readout on turns built from a known ω: from a turned
/// orientation, with `to` and with `from` written as −q, at two step sizes, and for
/// no turn at all.
pub fn check_angular_velocity(f: AngularVelocityFn) -> Report {
    let q0 = quat_from_axis_angle(&Vector3::new(1.0, 2.0, 3.0), 0.7);
    let q1 = quat_from_axis_angle(&Vector3::new(-2.0, 1.0, 0.5), 2.2);
    let (omega, h) = (Vector3::new(1.5, -2.0, 0.8), 0.01);
    let other = (Vector3::new(-0.3, 0.9, 2.2), 0.002);
    let cases = [
        ("a brick turned at ω over h = 0.01 s", q0, turned(&q0, &omega, h), omega, h),
        (
            "the same turn with the newer orientation written as −q",
            q0,
            -turned(&q0, &omega, h),
            omega,
            h,
        ),
        (
            "the same turn with the older orientation written as −q",
            -q0,
            turned(&q0, &omega, h),
            omega,
            h,
        ),
        (
            "another orientation turned at another ω over h = 0.002 s",
            q1,
            turned(&q1, &other.0, other.1),
            other.0,
            other.1,
        ),
    ];
    let mut failures = Vec::new();
    let mut worst = 0.0_f64;
    for (k, (what, from, to, want, h)) in cases.into_iter().enumerate() {
        case(what);
        let got = f(&from, &to, h);
        let error = (got - want).norm() / want.norm();
        if error.is_finite() && error <= 1e-3 {
            worst = worst.max(error);
            continue;
        }
        let why = if !got.iter().all(|v| v.is_finite()) {
            "every component must be a finite number".to_string()
        } else if (1..3).contains(&k) && (got + want).norm() <= 1e-3 * want.norm() {
            "q and −q are the same orientation, and the turn between them the same: \
             when Δq's real part is negative, Δq is that turn written the long way \
             round, so negate ω"
                .to_string()
        } else {
            diagnose_readout(&got, &want, &from, h)
        };
        failures.push(format!(
            "for {what} (ω = {} rad/s) your readout gives {}: {why}",
            numbers(want.as_slice()),
            show(&got)
        ));
        break;
    }
    case("no turn at all");
    let still = f(&q0, &q0, h);
    if !still.iter().all(|v| v.abs() <= 1e-12) {
        failures.push(format!(
            "with no turn at all (the same orientation at both ends) your readout gives \
             {}: Δq is then [1, 0, 0, 0], whose vector part is zero",
            show(&still)
        ));
    }
    if !failures.is_empty() {
        return Report::fail_all(failures);
    }
    Report::pass(vec![
        format!(
            "turns built from a known ω read back within {} of it (the readout's \
             2 sin(θ/2)/h is θ/h to second order), at two step sizes and from two \
             orientations",
            number(worst.max(1e-17))
        ),
        "the same with either orientation written as −q; no turn reads as zero"
            .to_string(),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    pbm_prelim::answers! {
        distance => check_distance(distance::distance_projection),
        ground => check_ground(ground::project_ground),
        inverse_mass => check_inverse_mass(inverse_mass::generalized_inverse_mass),
        angular_velocity => check_angular_velocity(angular_velocity::angular_velocity),
    }

    #[test]
    fn the_chapters_own_methods_pass_their_checks() {
        check_inverse_mass(|b, p, n| b.generalized_inverse_mass(p, n))
            .assert_passed();
        check_ground(crate::contact::project_ground).assert_passed();
        check_angular_velocity(crate::rigid::angular_velocity).assert_passed();
    }

    fn failing_distance(f: DistanceFn, expect: &str) {
        check_distance(f).assert_fails_with(expect);
    }

    #[test]
    fn distance_mutants_fail_with_the_diagnosis_meant_for_them() {
        // Another right answer: the general update with w_k |∇_k C|² summed.
        check_distance(|(x1, w1), (x2, w2), rest, alpha, lambda, h| {
            let d = x1 - x2;
            let gradients = [d / d.norm(), -d / d.norm()];
            let sum =
                w1 * gradients[0].norm_squared() + w2 * gradients[1].norm_squared();
            let alpha_tilde = alpha / h.powi(2);
            if sum + alpha_tilde == 0.0 {
                return (Vector3::zeros(), Vector3::zeros(), 0.0);
            }
            let dl = (rest - d.norm() - alpha_tilde * lambda) / (sum + alpha_tilde);
            (gradients[0] * (w1 * dl), gradients[1] * (w2 * dl), dl)
        })
        .assert_passed();
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
        // The new total λ + Δλ returned in place of the change.
        failing_distance(
            |a, b, r, al, l, h| {
                let (d1, d2, dl) = distance::distance_projection(a, b, r, al, l, h);
                (d1, d2, l + dl)
            },
            "return the change Δλ alone",
        );
    }

    #[test]
    fn inverse_mass_mutants_fail_with_the_diagnosis_meant_for_them() {
        let failing = |f: InverseMassFn, expect: &str| {
            check_inverse_mass(f).assert_fails_with(expect)
        };
        // Another right answer: the point's motion along n from the two parts.
        check_inverse_mass(|b, p, n| {
            let r = p - b.x;
            let turn = b.inverse_inertia() * r.cross(n);
            b.inverse_mass() * n.norm_squared() + n.dot(&turn.cross(&r))
        })
        .assert_passed();
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
        failing(
            |b, p, n| {
                let w = inverse_mass::generalized_inverse_mass(b, p, n);
                if w == 0.0 { 1.0 } else { w }
            },
            "fixed body",
        );
        // Inverting the inertia panics on the fixed body: the case names it.
        let unwrapped = std::panic::catch_unwind(|| {
            check_inverse_mass(|b, p, n| {
                let inverse = b.inertia().try_inverse().unwrap_or_else(|| panic!());
                let rn = (p - b.x).cross(n);
                b.inverse_mass() + rn.dot(&(inverse * rn))
            })
        });
        assert!(unwrapped.is_err());
        let said = pbm_prelim::practice::current_case().unwrap_or_default();
        assert!(said.contains("a fixed body"), "{said}");
    }

    /// The chapter's ground pass with one of its pieces changed.
    fn ground_with(
        (g, x, previous, v): (
            &Ground<3>,
            &mut Vector3<f64>,
            &Vector3<f64>,
            &Vector3<f64>,
        ),
        push_along: Option<Vector3<f64>>,
        friction: fn(f64, f64) -> bool,
        undo_all: bool,
    ) -> Touch {
        let n = g.normal;
        let c = x.dot(&n) - g.height;
        if c >= 0.0 {
            return Touch::default();
        }
        match push_along {
            Some(direction) => *x -= direction * (c / direction.dot(&n)),
            None => *x -= n * c,
        }
        let moved = *x - previous;
        let sliding = moved - n * moved.dot(&n);
        if friction(sliding.norm(), g.static_friction * -c) {
            *x -= if undo_all { moved } else { sliding };
        }
        Touch { push: -c, approach: v.dot(&n) }
    }

    #[test]
    fn ground_mutants_fail_with_the_diagnosis_meant_for_them() {
        let failing =
            |f: GroundFn, expect: &str| check_ground(f).assert_fails_with(expect);
        // Another right answer: the slide taken out with cross products.
        check_ground(|g, x, previous, v| {
            let n = g.normal;
            let depth = g.height - x.dot(&n);
            if depth <= 0.0 {
                return Touch::default();
            }
            *x += n * depth;
            let sliding = n.cross(&(*x - previous).cross(&n));
            if sliding.norm() < g.static_friction * depth {
                *x -= sliding;
            }
            Touch { push: depth, approach: n.dot(v) }
        })
        .assert_passed();
        check_ground(|g, x, p, v| {
            ground_with((g, x, p, v), None, |s, m| s < m, false)
        })
        .assert_passed();
        failing(
            |g, x, p, v| {
                ground_with((g, x, p, v), Some(Vector3::y()), |s, m| s < m, false)
            },
            "straight up, along y",
        );
        failing(
            |g, x, p, v| {
                let level = Ground { height: 0.0, ..*g };
                crate::contact::project_ground(&level, x, p, v)
            },
            "`ground.height` included",
        );
        failing(
            |g, x, _, v| {
                let c = x.dot(&g.normal) - g.height;
                if c >= 0.0 {
                    return Touch::default();
                }
                *x += g.normal * c;
                Touch { push: -c, approach: v.dot(&g.normal) }
            },
            "deeper",
        );
        failing(
            |g, x, p, v| {
                let c = x.dot(&g.normal) - g.height;
                *x -= g.normal * c;
                let touch = crate::contact::project_ground(g, x, p, v);
                Touch { push: (-c).max(touch.push), approach: v.dot(&g.normal) }
            },
            "inequality",
        );
        failing(
            |g, x, p, v| ground_with((g, x, p, v), None, |s, m| s < m, true),
            "the push with it",
        );
        failing(
            |g, x, p, v| ground_with((g, x, p, v), None, |_, _| false, false),
            "did not hold",
        );
        failing(
            |g, x, p, v| ground_with((g, x, p, v), None, |_, _| true, false),
            "held a slide longer",
        );
        failing(
            |g, x, p, v| {
                let touch = crate::contact::project_ground(g, x, p, v);
                Touch { push: -touch.push, ..touch }
            },
            "a positive number",
        );
        failing(
            |g, x, p, v| {
                let touch = crate::contact::project_ground(g, x, p, v);
                Touch { approach: 0.0, ..touch }
            },
            "approach =",
        );
    }

    /// The chapter's readout with its pieces changed: Δq from `order`, the flip or
    /// not, the vector part from `part`, and the factor `scale(h)`.
    fn readout_with(
        (from, to, h): (&Quat, &Quat, f64),
        order: fn(&Quat, &Quat) -> Quat,
        flip: bool,
        part: [usize; 3],
        scale: fn(f64) -> f64,
    ) -> Vector3<f64> {
        let dq = order(from, to);
        let sign = if flip && dq[0] < 0.0 { -1.0 } else { 1.0 };
        Vector3::new(dq[part[0]], dq[part[1]], dq[part[2]]) * (sign * scale(h))
    }

    fn conjugate(q: &Quat) -> Quat {
        Quat::new(q[0], -q[1], -q[2], -q[3])
    }

    #[test]
    fn angular_velocity_mutants_fail_with_the_diagnosis_meant_for_them() {
        let failing = |f: AngularVelocityFn, expect: &str| {
            check_angular_velocity(f).assert_fails_with(expect)
        };
        fn world(from: &Quat, to: &Quat) -> Quat {
            quat_mul(to, &conjugate(from))
        }
        fn two_over(h: f64) -> f64 {
            2.0 / h
        }
        // Another right answer: the exact angle of the turn, 2 atan2(|v|, s), over h.
        check_angular_velocity(|from, to, h| {
            let dq = world(from, to);
            let dq = if dq[0] < 0.0 { -dq } else { dq };
            let v = Vector3::new(dq[1], dq[2], dq[3]);
            if v.norm() == 0.0 {
                return Vector3::zeros();
            }
            v.normalize() * (2.0 * v.norm().atan2(dq[0]) / h)
        })
        .assert_passed();
        check_angular_velocity(|f, t, h| {
            readout_with((f, t, h), world, true, [1, 2, 3], two_over)
        })
        .assert_passed();
        failing(
            |f, t, h| readout_with((f, t, h), world, false, [1, 2, 3], two_over),
            "the long way",
        );
        failing(
            |f, t, h| {
                readout_with(
                    (f, t, h),
                    |from, to| quat_mul(from, &conjugate(to)),
                    true,
                    [1, 2, 3],
                    two_over,
                )
            },
            "wrong way",
        );
        failing(
            |f, t, h| {
                readout_with(
                    (f, t, h),
                    |from, to| quat_mul(&conjugate(from), to),
                    true,
                    [1, 2, 3],
                    two_over,
                )
            },
            "body's own axes",
        );
        failing(
            |f, t, h| readout_with((f, t, h), world, true, [1, 2, 3], |h| 1.0 / h),
            "factor 2",
        );
        failing(
            |f, t, h| readout_with((f, t, h), world, true, [1, 2, 3], |_| 2.0),
            "not divided",
        );
        failing(
            |f, t, h| readout_with((f, t, h), world, true, [0, 1, 2], two_over),
            "real part as x",
        );
    }
}
