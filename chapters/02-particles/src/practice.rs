//! Practice for chapter 2: the reader writes the damped spring's force and the
//! response to a collision with a plane. The spring is checked against the
//! derivative of its energy by central differences, on damping that must ignore
//! sideways motion, and inside a simulation whose energy it must keep; the bounce
//! against the parts of the velocity it must keep, reverse and scale.

use crate::particle::{Force, Particle, ParticleSystem, Vector};
use nalgebra::Vector2;
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::tableau::RK4;
use pbm_prelim::PbmError;
use pbm_prelim::practice::{Listing, Report, Task, sequence};

/// A spring force the reader writes (the signature of [`crate::spring::spring_force`]
/// in the plane).
pub type SpringFn = fn(
    (&Vector2<f64>, &Vector2<f64>),
    (&Vector2<f64>, &Vector2<f64>),
    (f64, f64, f64),
) -> Result<Vector2<f64>, PbmError>;

/// A collision response the reader writes.
pub type BounceFn = fn(&Vector2<f64>, &Vector2<f64>, f64) -> Vector2<f64>;

/// The chapter's tasks.
pub const TASKS: &[Task] = &[
    Task {
        id: "particles/spring",
        title: "the damped spring's force",
        section: "Forces and energy functions",
        page: "02-particles/forces.md",
        equation: "damped-spring",
        difficulty: 1,
        file: "spring.rs",
        stub: include_str!("practice/spring.rs"),
        check: "pbm_particles::practice::check_spring(reader::spring_force)",
        hints: &[
            "l = x_a − x_b and l̇ = v_a − v_b; |l| is `l.norm()`. Return the error first \
             when |l| = 0.",
            "The magnitude is k_s (|l| − r) + k_d (l̇·l)/|l|: the stretch beyond the rest \
             length, and the rate at which the length changes.",
            "The force points along −l̂ = −l/|l| times that magnitude: a stretched spring \
             pulls a towards b.",
        ],
        solution: Listing {
            source: include_str!("spring.rs"),
            anchor: "spring_force",
        },
    },
    Task {
        id: "particles/bounce",
        title: "collision response at a plane",
        section: "Collisions and contact with planes",
        page: "02-particles/collisions.md",
        equation: "collision-response",
        difficulty: 1,
        file: "bounce.rs",
        stub: include_str!("practice/bounce.rs"),
        check: "pbm_particles::practice::check_bounce(reader::bounce)",
        hints: &[
            "Split v into its normal part (n·v) n and its tangential part v − (n·v) n.",
            "Keep the tangential part; the normal part comes back with its sign \
             reversed and scaled by the restitution.",
        ],
        solution: Listing {
            source: include_str!("collision.rs"),
            anchor: "response",
        },
    },
];

/// A few states a spring can be in: (x_a, v_a, x_b, v_b), from a fixed sequence.
fn states() -> Vec<[Vector2<f64>; 4]> {
    let mut next = sequence(0x2545_f491_u64);
    (0..12)
        .map(|_| {
            let v = |next: &mut dyn FnMut() -> f64| Vector2::new(next(), next());
            [v(&mut next), v(&mut next), v(&mut next), v(&mut next)]
        })
        .collect()
}

/// −∂E/∂x_a by central differences, E = k_s/2 (|l| − r)².
fn energy_force(
    x_a: &Vector2<f64>,
    x_b: &Vector2<f64>,
    k_s: f64,
    rest: f64,
) -> Vector2<f64> {
    let energy = |x: Vector2<f64>| 0.5 * k_s * ((x - x_b).norm() - rest).powi(2);
    let d = 1e-6;
    let dx = Vector2::new(d, 0.0);
    let dy = Vector2::new(0.0, d);
    -Vector2::new(
        (energy(x_a + dx) - energy(x_a - dx)) / (2.0 * d),
        (energy(x_a + dy) - energy(x_a - dy)) / (2.0 * d),
    )
}

/// The reader's spring as a force object in the chapter's particle system.
struct ReaderSpring {
    f: SpringFn,
    constants: (f64, f64, f64),
}

impl Force<2> for ReaderSpring {
    fn name(&self) -> &'static str {
        "your spring"
    }
    fn apply(&self, _t: f64, particles: &mut [Particle<2>]) -> Result<(), PbmError> {
        let (a, b) = (&particles[0], &particles[1]);
        let f = (self.f)((&a.x, &a.v), (&b.x, &b.v), self.constants)?;
        particles[0].f += f;
        particles[1].f -= f;
        Ok(())
    }
    fn particles(&self) -> &[usize] {
        &[0, 1]
    }
    fn potential_energy(&self, particles: &[Particle<2>]) -> f64 {
        let (k_s, _, rest) = self.constants;
        0.5 * k_s * ((particles[0].x - particles[1].x).norm() - rest).powi(2)
    }
}

/// Two 1 kg particles on the reader's undamped spring, 5 s of RK4 at 1 ms: the
/// largest relative change of energy.
fn energy_drift(f: SpringFn) -> Result<f64, PbmError> {
    let particles = vec![
        Particle::new(1.0, Vector::<2>::new(0.0, 0.0), Vector::<2>::new(0.0, 0.3))?,
        Particle::new(1.0, Vector::<2>::new(1.4, 0.2), Vector::<2>::new(0.0, -0.3))?,
    ];
    let mut system = ParticleSystem::new(particles);
    system.add_force(ReaderSpring { f, constants: (20.0, 0.0, 1.0) })?;
    let e0 = system.energy();
    let mut rk4 = RungeKutta::new(RK4);
    let mut worst = 0.0_f64;
    for _ in 0..5000 {
        rk4.step(&mut system, 1e-3)?;
        worst = worst.max((system.energy() - e0).abs() / e0);
    }
    Ok(worst)
}

/// Checks a spring force: against the energy's derivative, its damping, a degenerate
/// spring, and energy kept in a simulation.
pub fn check_spring(f: SpringFn) -> Report {
    let (k_s, rest) = (30.0, 0.7);
    for [x_a, _, x_b, _] in states() {
        let zero = Vector2::zeros();
        let got = match f((&x_a, &zero), (&x_b, &zero), (k_s, 0.0, rest)) {
            Ok(got) => got,
            Err(e) => {
                return Report::fail(format!("your force returned an error: {e}"));
            }
        };
        let want = energy_force(&x_a, &x_b, k_s, rest);
        if !got.iter().all(|v| v.is_finite()) {
            return Report::fail(format!(
                "your force is {got:?} at l = {:?}",
                x_a - x_b
            ));
        }
        if (got - want).norm() <= 1e-5 * (1.0 + want.norm()) {
            continue;
        }
        let l = x_a - x_b;
        let why = if (got + want).norm() <= 1e-5 * (1.0 + want.norm()) {
            "it points the wrong way: a stretched spring (|l| > r) pulls a towards b, \
             along −l̂"
                .to_string()
        } else if (got - want * l.norm()).norm() <= 1e-5 * (1.0 + want.norm()) {
            "it is |l| times too long: the direction is the unit vector l̂ = l/|l|, \
             not l"
                .to_string()
        } else if (got + l.normalize() * k_s * l.norm()).norm()
            <= 1e-5 * (1.0 + want.norm())
        {
            "it ignores the rest length: the stretch is |l| − r".to_string()
        } else {
            format!("it should be −k_s (|l| − r) l̂ = {want:?}")
        };
        return Report::fail(format!(
            "with no damping your force at l = {l:?} is {got:?}, which is not minus the \
             derivative of the spring's energy k_s(|l| − r)²/2: {why}"
        ));
    }
    // Damping: sideways relative motion is not damped; separating motion is.
    let (x_a, x_b) = (Vector2::new(1.0, 0.0), Vector2::zeros());
    let k_d = 2.0;
    let sideways = f(
        (&x_a, &Vector2::new(0.0, 1.5)),
        (&x_b, &Vector2::zeros()),
        (0.0, k_d, 1.0),
    );
    let apart = f(
        (&x_a, &Vector2::new(0.5, 0.0)),
        (&x_b, &Vector2::zeros()),
        (0.0, k_d, 1.0),
    );
    match (sideways, apart) {
        (Ok(side), Ok(apart)) => {
            if side.norm() > 1e-12 {
                return Report::fail(format!(
                    "your damping resists sideways motion (force {side:?} when the ends \
                     slide past each other at an unchanging distance): damp only the rate \
                     l̇·l/|l| at which the length changes"
                ));
            }
            let want = Vector2::new(-k_d * 0.5, 0.0);
            if (apart - want).norm() > 1e-12 {
                return Report::fail(format!(
                    "ends separating at 0.5 m/s along l should feel {want:?} of damping \
                     (−k_d (l̇·l̂) l̂), not {apart:?}"
                ));
            }
        }
        (Err(e), _) | (_, Err(e)) => {
            return Report::fail(format!("your force returned an error: {e}"));
        }
    }
    let p = Vector2::new(0.3, 0.3);
    if let Ok(got) = f((&p, &p), (&p, &p), (1.0, 1.0, 1.0)) {
        return Report::fail(format!(
            "for two ends at the same point your force is {got:?}: they give no \
             direction, so return an error (PbmError::degenerate), not a number"
        ));
    }
    match energy_drift(f) {
        Err(e) => Report::fail(format!("in a simulation your spring failed: {e}")),
        Ok(drift) if drift > 1e-6 => Report::fail(format!(
            "the undamped spring's energy changed by {drift:.1e} of itself in 5 s of RK4"
        )),
        Ok(drift) => Report::pass(vec![
            "minus the derivative of k_s(|l| − r)²/2 at 12 states, by central differences"
                .to_string(),
            "damping along l only; coincident ends are an error".to_string(),
            format!("two particles on it for 5 s of RK4 keep their energy to {drift:.1e}"),
        ]),
    }
}

/// Checks a collision response: for normals at several angles and several
/// restitutions, the tangential part is kept and the normal part reversed and scaled.
pub fn check_bounce(f: BounceFn) -> Report {
    for (angle, e) in [(0.3_f64, 0.5), (1.9, 0.0), (-2.4, 1.0), (0.8, 0.8)] {
        let n = Vector2::new(angle.cos(), angle.sin());
        let t = Vector2::new(-n.y, n.x);
        let v = t * 0.7 - n * 1.3;
        let got = f(&n, &v, e);
        if !got.iter().all(|x| x.is_finite()) {
            return Report::fail(format!("your bounce gave {got:?}"));
        }
        let (normal, tangential) = (got.dot(&n), got.dot(&t));
        let say = |why: &str| {
            Report::fail(format!(
                "a particle arriving at {v:?} at a plane with normal {n:?} and restitution \
                 {e} leaves at {got:?}: {why}"
            ))
        };
        if (tangential - 0.7).abs() > 1e-12 {
            return say("the sliding part v − (n·v) n must be kept as it was");
        }
        if normal < -1e-12 {
            return say(
                "the normal part must change sign: it comes back off the plane",
            );
        }
        if (normal - 1.3).abs() < 1e-12 && e != 1.0 {
            return say("the normal part must be scaled by the restitution");
        }
        if (normal - 1.3 * e).abs() > 1e-12 {
            return say(&format!(
                "the normal part should leave at e·1.3 = {} m/s",
                1.3 * e
            ));
        }
    }
    Report::pass(vec![
        "tangential part kept, normal part reversed and scaled by e, for four normals and \
         e = 0, 0.5, 0.8, 1"
            .to_string(),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collision::bounce;
    use crate::spring::spring_force;

    #[test]
    fn the_books_functions_pass_their_checks() {
        check_spring(spring_force::<2>).assert_passed();
        check_bounce(bounce::<2>).assert_passed();
    }

    #[test]
    fn spring_mutants_fail_with_the_diagnosis_meant_for_them() {
        let failing =
            |f: SpringFn, expect: &str| check_spring(f).assert_fails_with(expect);
        failing(|a, b, c| spring_force::<2>(a, b, c).map(|f| -f), "wrong way");
        failing(
            |(xa, _), (xb, _), (k, _, r)| {
                let l = xa - xb;
                Ok(-l * k * (l.norm() - r))
            },
            "too long",
        );
        failing(
            |(xa, _), (xb, _), (k, _, _)| {
                let l = xa - xb;
                Ok(-l.normalize() * k * l.norm())
            },
            "rest length",
        );
        failing(
            |(xa, va), (xb, vb), (k, d, r)| {
                let l = xa - xb;
                Ok(-l.normalize() * k * (l.norm() - r) - (va - vb) * d)
            },
            "sideways",
        );
        failing(
            |(xa, va), (xb, vb), (k, d, r)| {
                let l = xa - xb;
                let n = l / l.norm();
                Ok(-n * (k * (l.norm() - r) + d * (va - vb).dot(&n)))
            },
            "give no direction",
        );
    }

    #[test]
    fn bounce_mutants_fail_with_the_diagnosis_meant_for_them() {
        let failing =
            |f: BounceFn, expect: &str| check_bounce(f).assert_fails_with(expect);
        failing(|_, v, e| -v * e, "sliding part");
        failing(|n, v, _| v - n * (2.0 * n.dot(v)), "scaled by the restitution");
        failing(|n, v, e| v - n * n.dot(v) + n * n.dot(v) * e, "change sign");
    }
}
