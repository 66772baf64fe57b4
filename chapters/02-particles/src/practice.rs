//! Practice for chapter 2: the reader writes the particle system's derivative, the
//! damped spring's force, the forces of a soft condition and the response to a
//! collision with a plane. The derivative is checked against forces with a closed
//! form, on free, fixed and scripted particles; the spring against the derivative of
//! its energy by central differences, on damping probed along and across a spring
//! that is not of unit length, and inside a simulation whose energy it must keep; the
//! condition's forces against central differences of its energy and of C along the
//! motion; the bounce against the parts of the velocity it must keep, reverse and
//! scale.

use crate::forces::Gravity;
use crate::particle::{Force, Motion, Particle, ParticleSystem, Vector};
use nalgebra::Vector2;
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::system::{OdeSystem, state_of};
use pbm_ode::tableau::RK4;
use pbm_prelim::PbmError;
use pbm_prelim::practice::{Listing, Report, Task, case, number, numbers, sequence};

/// A particle system's derivative the reader writes.
pub type DerivativeFn =
    fn(&mut ParticleSystem<2>, &mut [f64]) -> Result<(), PbmError>;

/// A spring force the reader writes (the signature of [`crate::spring::spring_force`]
/// in the plane).
pub type SpringFn = fn(
    (&Vector2<f64>, &Vector2<f64>),
    (&Vector2<f64>, &Vector2<f64>),
    (f64, f64, f64),
) -> Result<Vector2<f64>, PbmError>;

/// A soft condition's forces the reader writes: (C, J row after row, velocities,
/// (k_s, k_d)) → one force a particle.
pub type ConditionFn =
    fn(&[f64], &[Vector2<f64>], &[Vector2<f64>], (f64, f64)) -> Vec<Vector2<f64>>;

/// A collision response the reader writes.
pub type BounceFn = fn(&Vector2<f64>, &Vector2<f64>, f64) -> Vector2<f64>;

/// The chapter's tasks.
pub const TASKS: &[Task] = &[
    Task {
        id: "particles/derivative",
        title: "the particle system's derivative",
        section: "The two views of a particle system",
        page: "02-particles/index.md",
        equation: "phase-space",
        difficulty: 2,
        file: "derivative.rs",
        stub: include_str!("practice/derivative.rs"),
        check: "pbm_particles::practice::check_derivative(reader::derivative)",
        hints: &[
            "Three loops: clear every `p.f`, let every force in `system.forces` add \
             into the accumulators, then write each particle's four numbers.",
            "`force.apply(system.t, &mut system.particles)?` for each force; \
             `xdot.chunks_exact_mut(4)` zipped with the particles gives each one its \
             [v_x, v_y, a_x, a_y].",
            "Match on `p.motion`: Free gives (p.v, p.f / p.mass), Fixed gives zeros, \
             Scripted(script) gives script(system.t)'s velocity and acceleration.",
        ],
        solution: Listing {
            source: include_str!("practice/derivative_solution.rs"),
            anchor: "derivative",
        },
    },
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
            source: include_str!("practice/spring_solution.rs"),
            anchor: "spring_force",
        },
    },
    Task {
        id: "particles/condition-force",
        title: "the forces of a soft condition",
        section: "Condition functions: forces designed from what the particles want",
        page: "02-particles/forces.md",
        equation: "condition-force",
        difficulty: 2,
        file: "condition_force.rs",
        stub: include_str!("practice/condition_force.rs"),
        check: "pbm_particles::practice::check_condition_force(reader::condition_forces)",
        hints: &[
            "With n = v.len() particles, row r's gradients are the slice \
             j[r * n..(r + 1) * n], one per particle.",
            "For each row: Ċ_r = Σ_k ∂C_r/∂x_k · v_k, summed over every particle, then \
             the scale −k_s C_r − k_d Ċ_r.",
            "Add scale × ∂C_r/∂x_k into particle k's force, for every row r: the rows' \
             forces add up.",
        ],
        solution: Listing {
            source: include_str!("practice/condition_force_solution.rs"),
            anchor: "condition_forces",
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
            source: include_str!("practice/bounce_solution.rs"),
            anchor: "bounce",
        },
    },
];

/// A vector as a reader writes it: `[0.25, −1.5]`.
fn show(v: &Vector2<f64>) -> String {
    numbers(v.as_slice())
}

/// Whether `got` is `want` to a part in 10⁵ of its size (or of one).
fn near(got: &Vector2<f64>, want: &Vector2<f64>) -> bool {
    (got - want).norm() <= 1e-5 * (1.0 + want.norm())
}

/// A constant push on one particle.
struct Push {
    on: [usize; 1],
    f: Vector2<f64>,
}

impl Force<2> for Push {
    fn name(&self) -> &'static str {
        "a constant push"
    }
    fn apply(&self, _t: f64, particles: &mut [Particle<2>]) -> Result<(), PbmError> {
        particles[self.on[0]].f += self.f;
        Ok(())
    }
    fn particles(&self) -> &[usize] {
        &self.on
    }
}

/// A force that turns with the clock: (cos t, sin t) N on one particle.
struct Turning {
    on: [usize; 1],
}

impl Force<2> for Turning {
    fn name(&self) -> &'static str {
        "a turning force"
    }
    fn apply(&self, t: f64, particles: &mut [Particle<2>]) -> Result<(), PbmError> {
        particles[self.on[0]].f += Vector2::new(t.cos(), t.sin());
        Ok(())
    }
    fn particles(&self) -> &[usize] {
        &self.on
    }
}

/// A spring of rest length zero: −k (x_a − x_b) on a, the opposite on b.
struct Tie {
    ends: [usize; 2],
    k: f64,
}

impl Force<2> for Tie {
    fn name(&self) -> &'static str {
        "a zero-length spring"
    }
    fn apply(&self, _t: f64, particles: &mut [Particle<2>]) -> Result<(), PbmError> {
        let [a, b] = self.ends;
        let f = (particles[a].x - particles[b].x) * -self.k;
        particles[a].f += f;
        particles[b].f -= f;
        Ok(())
    }
    fn particles(&self) -> &[usize] {
        &self.ends
    }
}

/// A force that cannot be evaluated, as a spring whose ends meet.
struct Broken;

impl Force<2> for Broken {
    fn name(&self) -> &'static str {
        "a broken force"
    }
    fn apply(&self, _t: f64, _: &mut [Particle<2>]) -> Result<(), PbmError> {
        Err(PbmError::degenerate("the check's force", "it fails on purpose"))
    }
}

/// The scripted particle's motion: a circle of 0.2 m at 4 rad/s.
fn circle(t: f64) -> (Vector<2>, Vector<2>, Vector<2>) {
    let (s, c) = (4.0 * t).sin_cos();
    (
        Vector2::new(0.2 * c, 0.2 * s),
        Vector2::new(-0.8 * s, 0.8 * c),
        Vector2::new(-3.2 * c, -3.2 * s),
    )
}

const GRAVITY: [f64; 2] = [0.0, -9.81];
const PUSH: [f64; 2] = [1.2, -0.6];
/// Whatever the accumulators held before the call.
const JUNK: [f64; 2] = [100.0, -100.0];
/// The clock of the check's system.
const T: f64 = 0.7;

/// Five particles (free of 2, 0.5 and 1.5 kg, a fixed one, a scripted one) under
/// gravity, a push, two zero-length springs (one to the fixed particle) and a force
/// that turns with the clock, at t = 0.7 s, with junk in the accumulators.
fn derivative_scene() -> Result<ParticleSystem<2>, PbmError> {
    let v = Vector2::new;
    let particles = vec![
        Particle::new(2.0, v(0.0, 0.0), v(0.3, -0.4))?,
        Particle::new(0.5, v(1.0, 0.2), v(-0.1, 0.6))?,
        Particle::new(1.0, v(0.5, 1.0), v(0.0, 0.0))?.with_motion(Motion::Fixed),
        Particle::new(1.0, v(0.0, 0.0), v(0.0, 0.0))?
            .with_motion(Motion::Scripted(circle)),
        Particle::new(1.5, v(-0.4, 0.3), v(0.2, 0.1))?,
    ];
    let mut system = ParticleSystem::new(particles);
    system.add_force(Gravity { g: Vector2::from(GRAVITY) })?;
    system.add_force(Push { on: [0], f: Vector2::from(PUSH) })?;
    system.add_force(Tie { ends: [0, 1], k: 3.0 })?;
    system.add_force(Tie { ends: [1, 2], k: 2.0 })?;
    system.add_force(Turning { on: [4] })?;
    let x = state_of(&system);
    system.scatter_state(&x, T); // the script placed at t = 0.7
    for p in &mut system.particles {
        p.f = Vector2::from(JUNK);
    }
    Ok(system)
}

/// The forces of [`derivative_scene`] on its three free particles 0, 1, 4, from
/// their closed forms, with the turning force at time `t`.
fn scene_forces(system: &ParticleSystem<2>, t: f64) -> [Vector2<f64>; 3] {
    let p = &system.particles;
    let g = Vector2::from(GRAVITY);
    let tie01 = (p[0].x - p[1].x) * -3.0;
    let tie12 = (p[1].x - p[2].x) * -2.0;
    [
        g * p[0].mass + Vector2::from(PUSH) + tie01,
        g * p[1].mass - tie01 + tie12,
        g * p[4].mass + Vector2::new(t.cos(), t.sin()),
    ]
}

/// Checks a particle system's derivative: velocities where positions change, f/m
/// where velocities change, particle by particle, from forces with a closed form
/// (that finds a wrong layout, a missing division, accumulators never cleared, the
/// wrong clock); zero for a fixed particle and the script's for a scripted one; the
/// same on a second call; and a force's error passed on.
pub fn check_derivative(f: DerivativeFn) -> Report {
    let Ok(mut system) = derivative_scene() else {
        return Report::fail("the check's own system could not be built");
    };
    let n = system.particles.len();
    let mut xdot = vec![f64::NAN; 4 * n];
    case("five particles under gravity, a push, two springs and a turning force");
    if let Err(e) = f(&mut system, &mut xdot) {
        return Report::fail(format!("your derivative returned an error: {e}"));
    }
    let free = [0, 1, 4];
    let forces = scene_forces(&system, T);
    let mut want = vec![0.0; 4 * n];
    for (&i, force) in free.iter().zip(&forces) {
        let p = &system.particles[i];
        want[4 * i..4 * i + 2].copy_from_slice(p.v.as_slice());
        want[4 * i + 2..4 * i + 4].copy_from_slice((force / p.mass).as_slice());
    }
    let (_, v3, a3) = circle(T);
    want[12..14].copy_from_slice(v3.as_slice());
    want[14..16].copy_from_slice(a3.as_slice());
    let same = |a: &[f64], b: &[f64]| {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1e-9)
    };
    let mut lines = Vec::new();
    if let Some(i) = xdot.iter().position(|v| !v.is_finite()) {
        lines.push(format!(
            "xdot[{i}] is {}: your derivative left it unwritten or wrote a number that is \
             not finite; each of the {n} particles has four entries, {} in all",
            number(xdot[i]),
            4 * n
        ));
    } else if !same(&xdot, &want) {
        lines.extend(derivative_diagnosis(&system, &xdot, &want));
    }
    if lines.is_empty() {
        // Again, with the accumulators as the first call left them.
        let mut again = vec![f64::NAN; 4 * n];
        case("the same system, a second time");
        match f(&mut system, &mut again) {
            Err(e) => lines.push(format!("a second call returned an error: {e}")),
            Ok(()) if !same(&again, &want) => lines.push(
                "the first call was right but a second one at the same state gave other \
                 numbers: clear every accumulator at the start of each call, before the \
                 forces add into it"
                    .to_string(),
            ),
            Ok(()) => {}
        }
    }
    if let Ok(mut broken) = derivative_scene() {
        broken.forces.push(Box::new(Broken));
        case("a system with a force that fails");
        if f(&mut broken, &mut xdot).is_ok() {
            lines.push(
                "a system with a force whose `apply` returns an error got Ok from your \
                 derivative: pass the error on with `?`"
                    .to_string(),
            );
        }
    }
    if !lines.is_empty() {
        return Report::fail_all(lines);
    }
    Report::pass(vec![
        "(v, f/m) for three free particles of 0.5, 1.5 and 2 kg under five forces, \
         [v_x, v_y, a_x, a_y] particle after particle"
            .to_string(),
        "zero for a fixed particle, the script's velocity and acceleration for a \
         scripted one; the same again on a second call; a force's error passed on"
            .to_string(),
    ])
}

/// A free particle's acceleration from its index and the force on it.
type Acceleration<'a> = dyn Fn(usize, &Vector2<f64>) -> Vector2<f64> + 'a;

/// What a derivative that differs from `want` got wrong, found by its signature.
fn derivative_diagnosis(
    system: &ParticleSystem<2>,
    xdot: &[f64],
    want: &[f64],
) -> Vec<String> {
    let n = system.particles.len();
    let close =
        |a: &[f64], b: &[f64]| a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1e-9);
    // All velocities first, then all accelerations.
    let split: Vec<f64> = (0..n)
        .map(|i| &want[4 * i..4 * i + 2])
        .chain((0..n).map(|i| &want[4 * i + 2..4 * i + 4]))
        .flatten()
        .copied()
        .collect();
    if close(xdot, &split) {
        return vec![
            "you wrote every velocity first, then every acceleration: each particle's \
             four numbers sit together, [v_x, v_y, a_x, a_y], particle after particle, \
             as `gather_state` lays out [x, y, v_x, v_y]"
                .to_string(),
        ];
    }
    let swapped: Vec<f64> =
        want.chunks(4).flat_map(|c| [c[2], c[3], c[0], c[1]]).collect();
    if close(xdot, &swapped) {
        return vec![
            "you wrote f/m where the velocity goes: each particle's slot is [v, f/m], \
             the derivative of [x, v]"
                .to_string(),
        ];
    }
    let mut lines = Vec::new();
    let free = [0, 1, 4];
    let forces = scene_forces(system, T);
    let at_zero = scene_forces(system, 0.0);
    let slot = |i: usize| (&xdot[4 * i..4 * i + 2], &xdot[4 * i + 2..4 * i + 4]);
    let p = &system.particles;
    if free.iter().all(|&i| close(slot(i).0, p[i].x.as_slice())) {
        lines.push(
            "where the position's rate of change goes you wrote the position itself: \
             ẋ = v"
                .to_string(),
        );
    }
    // The free particles' accelerations against the likely slips.
    let accelerations = |a: &Acceleration<'_>, forces: &[Vector2<f64>; 3]| {
        free.iter()
            .zip(forces)
            .all(|(&i, force)| close(slot(i).1, a(i, force).as_slice()))
    };
    let junk = Vector2::from(JUNK);
    let slips: [(&str, &Acceleration<'_>); 4] = [
        (
            "your accelerations carry what the accumulators held before the call: clear \
             every `p.f` first, then let the forces add",
            &|i, f| (f + junk) / p[i].mass,
        ),
        ("your accelerations are the forces themselves: a = f/m", &|_, f| *f),
        ("your accelerations are f·m: divide by the mass, a = f/m", &|i, f| {
            f * p[i].mass
        }),
        ("your accelerations are f/m²: divide by the mass once", &|i, f| {
            f / (p[i].mass * p[i].mass)
        }),
    ];
    if let Some((say, _)) = slips.iter().find(|(_, a)| accelerations(a, &forces)) {
        lines.push(say.to_string());
    } else if accelerations(&|i, f| f / p[i].mass, &at_zero)
        && !accelerations(&|i, f| f / p[i].mass, &forces)
    {
        lines.push(format!(
            "your forces were applied at t = 0, not at the system's clock t = {}: \
             `apply(system.t, …)`; the turning force on particle 4 shows it",
            number(T)
        ));
    } else {
        for (&i, force) in free.iter().zip(&forces) {
            let (v, a) = slot(i);
            let a_want = force / p[i].mass;
            if !(close(v, p[i].v.as_slice()) && close(a, a_want.as_slice())) {
                lines.push(format!(
                    "free particle {i} of {} kg: (v, f/m) should be {} and {}, yours are \
                     {} and {}",
                    number(p[i].mass),
                    show(&p[i].v),
                    show(&a_want),
                    numbers(v),
                    numbers(a)
                ));
            }
        }
    }
    if !close(&xdot[8..12], &[0.0; 4]) {
        lines.push(format!(
            "particle 2 is fixed (`Motion::Fixed`), and yours moves it with {}: a nail's \
             derivative is zero, whatever forces act on it",
            numbers(&xdot[8..12])
        ));
    }
    if !close(&xdot[12..16], &want[12..16]) {
        lines.push(format!(
            "particle 3 is scripted: its (v, a) are what `script(system.t)` gives, {}, \
             whatever the forces; yours are {}",
            numbers(&want[12..16]),
            numbers(&xdot[12..16])
        ));
    }
    lines
}

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

/// What the reader's undamped force at `l` gets wrong against `want`, by its
/// signature.
fn stiffness_slip(
    got: &Vector2<f64>,
    want: &Vector2<f64>,
    l: &Vector2<f64>,
    k_s: f64,
) -> String {
    if near(got, &-want) {
        "it points the wrong way: a stretched spring (|l| > r) pulls a towards b, along \
         −l̂"
        .to_string()
    } else if near(got, &(want * l.norm())) {
        "it is |l| times too long: the direction is the unit vector l̂ = l/|l|, not l"
            .to_string()
    } else if near(got, &(-l.normalize() * k_s * l.norm())) {
        "it ignores the rest length: the stretch is |l| − r".to_string()
    } else {
        format!("it should be −k_s (|l| − r) l̂ = {}", show(want))
    }
}

/// What the reader's damping (k_s = 0) at `l`, `l_dot` = v_a − v_b gets wrong, by its
/// signature; `v_a` and `v_b` are the ends' velocities.
fn damping_slip(
    got: &Vector2<f64>,
    (l, v_a, v_b): (&Vector2<f64>, &Vector2<f64>, &Vector2<f64>),
    k_d: f64,
) -> Option<String> {
    let u = l.normalize();
    let along = |rate: f64| -u * (k_d * rate);
    let l_dot = v_a - v_b;
    let want = along(l_dot.dot(&u));
    if near(got, &want) {
        return None;
    }
    let length = l.norm();
    let why = if near(got, &(want * length)) {
        "your damping scales with |l|: a /|l| is missing, in the rate l̇·l/|l| or in \
         the direction l̂ = l/|l|; together they are (l̇·l̂) l̂"
            .to_string()
    } else if near(got, &(want / length)) {
        "your damping shrinks as 1/|l|: you divided by |l| once too often; \
         k_d (l̇·l)/|l| times l/|l| has |l| twice below and l twice above"
            .to_string()
    } else if near(got, &-want) {
        "your damping pushes the ends apart as they separate: it must oppose the rate, \
         −k_d (l̇·l̂) l̂ on a"
            .to_string()
    } else if near(got, &along(v_a.dot(&u))) {
        "your damping reads v_a alone: l̇ is the relative velocity v_a − v_b"
            .to_string()
    } else if near(got, &along((v_a + v_b).dot(&u))) {
        "your damping reads v_a + v_b: l̇ is the relative velocity v_a − v_b"
            .to_string()
    } else {
        format!("it should be −k_d (l̇·l̂) l̂ = {}", show(&want))
    };
    Some(format!(
        "with k_s = 0, ends at l = {} (|l| = {}) moving apart at l̇ = {} feel {} of \
         damping from your force: {why}",
        show(l),
        number(length),
        show(&l_dot),
        show(got)
    ))
}

/// Checks a spring force: against the energy's derivative at 12 states, its damping
/// along and across a spring of |l| ≠ 1 with both ends moving, a degenerate spring,
/// and energy kept in a simulation.
pub fn check_spring(f: SpringFn) -> Report {
    let mut lines = Vec::new();
    let (k_s, rest) = (30.0, 0.7);
    let zero = Vector2::zeros();
    let mut stiffness_right = true;
    for (i, [x_a, _, x_b, _]) in states().into_iter().enumerate() {
        let l = x_a - x_b;
        case(format!("state {} of 12, no damping, l = {}", i + 1, show(&l)));
        let why = match f((&x_a, &zero), (&x_b, &zero), (k_s, 0.0, rest)) {
            Err(e) => {
                Some(format!("your force returned an error at l = {}: {e}", show(&l)))
            }
            Ok(got) if !got.iter().all(|v| v.is_finite()) => {
                Some(format!("your force is {} at l = {}", show(&got), show(&l)))
            }
            Ok(got) => {
                let want = energy_force(&x_a, &x_b, k_s, rest);
                (!near(&got, &want)).then(|| {
                    format!(
                        "with no damping your force at l = {} is {}, which is not minus \
                         the derivative of the spring's energy k_s(|l| − r)²/2: {}",
                        show(&l),
                        show(&got),
                        stiffness_slip(&got, &want, &l, k_s)
                    )
                })
            }
        };
        if let Some(why) = why {
            lines.push(why);
            stiffness_right = false;
            break;
        }
    }
    // Damping, with k_s = 0 so that it is alone: ends sliding past each other at an
    // unchanging distance feel none; ends moving along and across a spring of
    // |l| ≈ 1.58, both ends moving, feel −k_d (l̇·l̂) l̂.
    let k_d = 2.0;
    let (x_a, x_b) = (Vector2::new(1.7, 0.4), Vector2::new(0.2, -0.1));
    let l = x_a - x_b;
    let across = Vector2::new(-l.y, l.x).normalize() * 1.5;
    let (v_a, v_b) = (Vector2::new(0.9, -0.2), Vector2::new(-0.3, 0.5));
    case("a sliding spring, k_s = 0");
    let sideways = f((&x_a, &across), (&x_b, &zero), (0.0, k_d, 1.0));
    case("a spring stretching and turning, k_s = 0");
    let moving = f((&x_a, &v_a), (&x_b, &v_b), (0.0, k_d, 1.0));
    match (sideways, moving) {
        (Ok(side), _) if side.norm() > 1e-12 => lines.push(format!(
            "your damping resists sideways motion (force {} when the ends slide past \
             each other at an unchanging distance): damp only the rate l̇·l/|l| at \
             which the length changes",
            show(&side)
        )),
        (Ok(_), Ok(got)) => lines.extend(damping_slip(&got, (&l, &v_a, &v_b), k_d)),
        (Err(e), _) | (_, Err(e)) => lines
            .push(format!("your force returned an error on a moving spring: {e}")),
    }
    let p = Vector2::new(0.3, 0.3);
    case("two ends at the same point");
    if let Ok(got) = f((&p, &p), (&p, &p), (1.0, 1.0, 1.0)) {
        lines.push(format!(
            "for two ends at the same point your force is {}: they give no direction, \
             so return an error (PbmError::degenerate), not a number",
            show(&got)
        ));
    }
    let drift = if stiffness_right {
        case("two particles on your spring, 5 s of RK4");
        match energy_drift(f) {
            Err(e) => {
                lines.push(format!("in a simulation your spring failed: {e}"));
                None
            }
            Ok(drift) if drift > 1e-6 => {
                lines.push(format!(
                    "the undamped spring's energy changed by {} of itself in 5 s of RK4",
                    number(drift)
                ));
                None
            }
            Ok(drift) => Some(drift),
        }
    } else {
        None
    };
    match drift {
        Some(drift) if lines.is_empty() => Report::pass(vec![
            "minus the derivative of k_s(|l| − r)²/2 at 12 states, by central differences"
                .to_string(),
            "damping −k_d (l̇·l̂) l̂ at |l| ≈ 1.58 with both ends moving, none for \
             sliding; coincident ends are an error"
                .to_string(),
            format!(
                "two particles on it for 5 s of RK4 keep their energy to {}",
                number(drift)
            ),
        ]),
        _ => Report::fail_all(lines),
    }
}

/// The check's condition on three particles, two rows: C₀ = |x₀ − x₁| − 0.8, a
/// distance, and C₁ = A(x₀, x₁, x₂) − 0.1, the triangle's signed area.
fn condition(x: &[Vector2<f64>]) -> [f64; 2] {
    let (a, b) = (x[1] - x[0], x[2] - x[0]);
    [(x[0] - x[1]).norm() - 0.8, 0.5 * (a.x * b.y - a.y * b.x) - 0.1]
}

/// ∂C_r/∂x_k of [`condition`], row after row: `[r * 3 + k]`.
fn condition_gradients(x: &[Vector2<f64>]) -> Vec<Vector2<f64>> {
    let u = (x[0] - x[1]).normalize();
    let (a, b) = (x[1] - x[0], x[2] - x[0]);
    let d1 = Vector2::new(b.y, -b.x) * 0.5;
    let d2 = Vector2::new(-a.y, a.x) * 0.5;
    vec![u, -u, Vector2::zeros(), -(d1 + d2), d1, d2]
}

/// By central differences of C alone: the forces −∂E/∂x_k of E = (k_s/2) |C|², and
/// the damping −k_d Σ_r Ċ_r ∂C_r/∂x_k with Ċ_r the rate of C_r along the velocities.
fn condition_reference(
    x: &[Vector2<f64>],
    v: &[Vector2<f64>],
    (k_s, k_d): (f64, f64),
) -> Vec<Vector2<f64>> {
    let d = 1e-6;
    let moved = |k: usize, by: Vector2<f64>| {
        let mut y = x.to_vec();
        y[k] += by;
        condition(&y)
    };
    let along = |s: f64| {
        let y: Vec<Vector2<f64>> = x.iter().zip(v).map(|(x, v)| x + v * s).collect();
        condition(&y)
    };
    let (ahead, behind) = (along(d), along(-d));
    let c = condition(x);
    let c_dot = [0, 1].map(|r| (ahead[r] - behind[r]) / (2.0 * d));
    (0..x.len())
        .map(|k| {
            let mut f = Vector2::zeros();
            for axis in 0..2 {
                let mut by = Vector2::zeros();
                by[axis] = d;
                let (plus, minus) = (moved(k, by), moved(k, -by));
                for r in 0..2 {
                    let gradient = (plus[r] - minus[r]) / (2.0 * d);
                    let energy_slope = k_s * c[r] * gradient;
                    f[axis] -= energy_slope + k_d * c_dot[r] * gradient;
                }
            }
            f
        })
        .collect()
}

/// Positions and velocities of a few particles.
type ParticleState = (Vec<Vector2<f64>>, Vec<Vector2<f64>>);

/// A few states of the condition's three particles.
fn condition_states() -> Vec<ParticleState> {
    let mut next = sequence(0x5eed_c0de_u64);
    (0..4)
        .map(|_| {
            let mut v = || Vector2::new(next(), next());
            let x = vec![v() * 2.0, v() * 2.0, v() * 2.0];
            (x, vec![v(), v(), v()])
        })
        .collect()
}

/// The one factor by which `got` differs from `want` everywhere, if there is one.
fn uniform_ratio(got: &[Vector2<f64>], want: &[Vector2<f64>]) -> Option<f64> {
    let dot: f64 = got.iter().zip(want).map(|(g, w)| g.dot(w)).sum();
    let ratio = dot / want.iter().map(|w| w.norm_squared()).sum::<f64>();
    let scaled = got.iter().zip(want).all(|(g, w)| near(g, &(w * ratio)));
    (ratio.is_finite() && scaled).then_some(ratio)
}

/// Checks a soft condition's forces against central differences of the condition
/// alone, on a two-row condition of three particles: the stiffness part against the
/// energy (k_s/2) |C|², the damping part against the rate of C along the motion,
/// then both together; a wrong form is named by its signature.
pub fn check_condition_force(f: ConditionFn) -> Report {
    let mut lines = Vec::new();
    let sum_of = |forces: &[Vector2<f64>], x: &[Vector2<f64>]| -> f64 {
        forces.iter().zip(x).map(|(f, v)| f.dot(v)).sum()
    };
    for (ks_kd, part) in
        [((40.0, 0.0), "stiffness"), ((0.0, 3.0), "damping"), ((40.0, 3.0), "both")]
    {
        for (i, (x, v)) in condition_states().into_iter().enumerate() {
            case(format!(
                "state {} of 4, (k_s, k_d) = {}",
                i + 1,
                numbers(&[ks_kd.0, ks_kd.1])
            ));
            let (c, j) = (condition(&x), condition_gradients(&x));
            let got = f(&c, &j, &v, ks_kd);
            if got.len() != x.len() {
                return Report::fail(format!(
                    "your function returned {} forces for {} particles: one for each \
                     velocity in v",
                    got.len(),
                    x.len()
                ));
            }
            let want = condition_reference(&x, &v, ks_kd);
            if got.iter().zip(&want).all(|(g, w)| near(g, w)) {
                continue;
            }
            // The likely slips, each a whole function of the same inputs.
            let (k_s, k_d) = ks_kd;
            let rows = c.len();
            let n = x.len();
            let grad = |r: usize, k: usize| j[r * n + k];
            let c_dot: Vec<f64> = (0..rows)
                .map(|r| (0..n).map(|k| grad(r, k).dot(&v[k])).sum())
                .collect();
            let slip = |scale: &dyn Fn(usize, usize) -> f64,
                        gradient: &dyn Fn(usize, usize) -> Vector2<f64>|
             -> bool {
                (0..n).all(|k| {
                    let f_k: Vector2<f64> =
                        (0..rows).map(|r| gradient(r, k) * scale(r, k)).sum();
                    near(&got[k], &f_k)
                })
            };
            let right = |r: usize, _: usize| -k_s * c[r] - k_d * c_dot[r];
            // j read column after column: j[k·rows + r] taken for ∂C_r/∂x_k.
            let transposed = |r: usize, k: usize| j[k * rows + r];
            let t_dot: Vec<f64> = (0..rows)
                .map(|r| (0..n).map(|k| transposed(r, k).dot(&v[k])).sum())
                .collect();
            let say = if slip(&|r, k| -right(r, k), &grad) {
                "every force points the wrong way: f_k = (−k_s C_r − k_d Ċ_r) ∂C_r/∂x_k, \
                 with both minus signs"
                    .to_string()
            } else if slip(&|r, _| -k_s * c[r] - k_d * t_dot[r], &transposed) {
                "you read ∂C_r/∂x_k at j[k·m + r]: the gradients come row after row, \
                 ∂C_r/∂x_k at j[r·n + k] with n particles"
                    .to_string()
            } else if (0..n).all(|k| near(&got[k], &(grad(0, k) * right(0, k)))) {
                "only the first row of C pulls: the force sums over every row r, \
                 (−k_s C_r − k_d Ċ_r) ∂C_r/∂x_k"
                    .to_string()
            } else if k_s == 0.0 && (0..n).all(|k| near(&got[k], &(v[k] * -k_d))) {
                "your damping is −k_d v_k, against each particle's whole velocity: damp \
                 only the rate Ċ at which C changes, along ∂C/∂x"
                    .to_string()
            } else if slip(&|r, k| -k_s * c[r] - k_d * grad(r, k).dot(&v[k]), &grad) {
                "your Ċ_r reads only particle k's own velocity: Ċ_r = Σ_k ∂C_r/∂x_k · v_k \
                 sums over every particle, and all of them share it"
                    .to_string()
            } else if slip(&|r, _| -k_s * c[r] - k_d * c[r], &grad) {
                "your damping multiplies C, not Ċ = Σ_k ∂C_r/∂x_k · v_k".to_string()
            } else if let Some(ratio) = uniform_ratio(&got, &want) {
                format!(
                    "your forces are {} times the right ones, all of them: look for a \
                     stray factor (the ½ of the energy (k_s/2) |C|² is gone once it is \
                     differentiated)",
                    number(ratio)
                )
            } else if k_s == 0.0 {
                let power = sum_of(&got, &v);
                let dissipated = -k_d * c_dot.iter().map(|d| d * d).sum::<f64>();
                format!(
                    "damping alone should take out power Σ f·v = −k_d Σ Ċ_r² = {}; \
                     yours gives {}",
                    number(dissipated),
                    number(power)
                )
            } else {
                let ours: Vec<f64> = want.iter().flat_map(|w| [w.x, w.y]).collect();
                let yours: Vec<f64> = got.iter().flat_map(|w| [w.x, w.y]).collect();
                format!(
                    "the forces should be {}, yours are {}",
                    numbers(&ours),
                    numbers(&yours)
                )
            };
            lines.push(format!(
                "with (k_s, k_d) = {} ({part}) on a distance and an area of three \
                 particles, C = {}: {say}",
                numbers(&[k_s, k_d]),
                numbers(&c)
            ));
            return Report::fail_all(lines);
        }
    }
    Report::pass(vec![
        "stiffness: −∂E/∂x_k of E = (k_s/2) |C|² by central differences, on a two-row \
         condition of three particles at four states"
            .to_string(),
        "damping: −k_d Σ_r Ċ_r ∂C_r/∂x_k with Ċ the rate of C along the motion; and both \
         together"
            .to_string(),
    ])
}

/// Checks a collision response: for normals at several angles and several
/// restitutions, the tangential part is kept and the normal part reversed and scaled.
pub fn check_bounce(f: BounceFn) -> Report {
    // e = 0.8 first: there e, e², 1 − e and 1 are four different answers.
    for (angle, e) in [(0.8_f64, 0.8), (0.3, 0.5), (1.9, 0.0), (-2.4, 1.0)] {
        let n = Vector2::new(angle.cos(), angle.sin());
        let t = Vector2::new(-n.y, n.x);
        let v = t * 0.7 - n * 1.3;
        case(format!("normal {}, restitution {}", show(&n), number(e)));
        let got = f(&n, &v, e);
        if !got.iter().all(|x| x.is_finite()) {
            return Report::fail(format!("your bounce gave {}", show(&got)));
        }
        let (normal, tangential) = (got.dot(&n), got.dot(&t));
        let mut why = Vec::new();
        if (tangential - 0.7).abs() > 1e-12 {
            why.push(format!(
                "the sliding part v − (n·v) n, 0.7 m/s along the plane, must be kept as \
                 it was; yours slides at {} m/s",
                number(tangential)
            ));
        }
        if normal < -1e-12 {
            why.push(format!(
                "the normal part must change sign: it arrived at 1.3 m/s into the plane \
                 and yours still moves {} m/s into it",
                number(-normal)
            ));
        } else if (normal - 1.3 * e).abs() > 1e-12 {
            let was = if (normal - 1.3).abs() < 1e-12 {
                "1.3 m/s, its arrival speed: it must be scaled by the restitution"
                    .to_string()
            } else if (normal - 1.3 * e * e).abs() < 1e-12 {
                format!(
                    "{} m/s, e² × 1.3: you applied the restitution twice",
                    number(normal)
                )
            } else if (normal - 1.3 * (1.0 - e)).abs() < 1e-12 {
                format!(
                    "{} m/s, (1 − e) × 1.3: the normal part comes back as −e v_N, so \
                     v′ = v − (1 + e)(n·v) n",
                    number(normal)
                )
            } else {
                format!(
                    "{} m/s, {} times its arrival speed",
                    number(normal),
                    number(normal / 1.3)
                )
            };
            why.push(format!(
                "the normal part should leave at e × 1.3 = {} m/s; yours leaves at {was}",
                number(1.3 * e)
            ));
        }
        if !why.is_empty() {
            return Report::fail_all(
                std::iter::once(format!(
                    "a particle arriving at {} at a plane with normal {} and restitution \
                     {} leaves at {}:",
                    show(&v),
                    show(&n),
                    number(e),
                    show(&got)
                ))
                .chain(why)
                .collect(),
            );
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
    #![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

    use super::*;
    use crate::collision::bounce;
    use crate::condition::{Evaluation, soft_forces};
    use crate::spring::spring_force;

    pbm_prelim::answers!(
        derivative => check_derivative(derivative::derivative),
        spring => check_spring(spring::spring_force),
        condition_force => check_condition_force(condition_force::condition_forces),
        bounce => check_bounce(bounce::bounce),
    );

    #[test]
    fn the_books_functions_pass_their_checks() {
        check_derivative(|s, xdot| s.derivative(xdot)).assert_passed();
        check_spring(spring_force::<2>).assert_passed();
        check_bounce(bounce::<2>).assert_passed();
        check_condition_force(|c, j, v, (k_s, k_d)| {
            let n = v.len();
            let c_dot = (0..c.len())
                .map(|r| (0..n).map(|k| j[r * n + k].dot(&v[k])).sum())
                .collect();
            let eval = Evaluation {
                c: c.to_vec(),
                j: j.to_vec(),
                c_dot,
                v: v.to_vec(),
                x: vec![Vector2::zeros(); n],
                ..Evaluation::default()
            };
            let mut forces = vec![Vector2::zeros(); n];
            soft_forces(&eval, k_s, k_d, &mut forces);
            forces
        })
        .assert_passed();
    }

    #[test]
    fn the_conditions_gradients_are_its_central_differences() {
        for (x, _) in condition_states() {
            let j = condition_gradients(&x);
            for k in 0..3 {
                for axis in 0..2 {
                    let mut by = Vector2::zeros();
                    by[axis] = 1e-6;
                    let (mut plus, mut minus) = (x.clone(), x.clone());
                    plus[k] += by;
                    minus[k] -= by;
                    let (p, m) = (condition(&plus), condition(&minus));
                    for r in 0..2 {
                        let fd = (p[r] - m[r]) / 2e-6;
                        assert!(
                            (fd - j[r * 3 + k][axis]).abs() < 1e-7,
                            "{r} {k} {axis}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn derivative_mutants_fail_with_the_diagnosis_meant_for_them() {
        // The chapter's two halves, called in turn, pass.
        check_derivative(|s, xdot| {
            s.accumulate_forces()?;
            s.write_derivative(xdot);
            Ok(())
        })
        .assert_passed();
        let failing = |f: DerivativeFn, expect: &str| {
            check_derivative(f).assert_fails_with(expect)
        };
        // Accumulators never cleared.
        failing(
            |s, xdot| {
                for force in &s.forces {
                    force.apply(s.t, &mut s.particles)?;
                }
                s.write_derivative(xdot);
                Ok(())
            },
            "clear every `p.f` first",
        );
        // Forces not divided by the mass.
        failing(
            |s, xdot| {
                s.accumulate_forces()?;
                for p in &mut s.particles {
                    p.f *= p.mass;
                }
                s.write_derivative(xdot);
                Ok(())
            },
            "the forces themselves",
        );
        // Velocities first, then accelerations.
        failing(
            |s, xdot| {
                let mut right = vec![0.0; xdot.len()];
                s.derivative(&mut right)?;
                let n = s.particles.len();
                for i in 0..n {
                    xdot[2 * i..2 * i + 2].copy_from_slice(&right[4 * i..4 * i + 2]);
                    xdot[2 * n + 2 * i..2 * n + 2 * i + 2]
                        .copy_from_slice(&right[4 * i + 2..4 * i + 4]);
                }
                Ok(())
            },
            "every velocity first",
        );
        // Every particle treated as free.
        failing(
            |s, xdot| {
                s.accumulate_forces()?;
                for p in &mut s.particles {
                    p.motion = Motion::Free;
                }
                s.write_derivative(xdot);
                Ok(())
            },
            "a nail's derivative is zero",
        );
        // The clock left at zero.
        failing(
            |s, xdot| {
                let t = s.t;
                s.t = 0.0;
                s.accumulate_forces()?;
                s.t = t;
                s.write_derivative(xdot);
                Ok(())
            },
            "applied at t = 0",
        );
        // A force's error dropped.
        failing(
            |s, xdot| {
                let _ = s.accumulate_forces();
                s.write_derivative(xdot);
                Ok(())
            },
            "pass the error on",
        );
    }

    /// The book's spring with its damping term replaced by `damping(l, l̇) → f_a`.
    fn with_damping(
        (x_a, v_a): (&Vector2<f64>, &Vector2<f64>),
        (x_b, v_b): (&Vector2<f64>, &Vector2<f64>),
        (k_s, k_d, r): (f64, f64, f64),
        damping: fn(Vector2<f64>, Vector2<f64>, f64) -> Vector2<f64>,
    ) -> Result<Vector2<f64>, PbmError> {
        let stiff = spring_force::<2>((x_a, v_a), (x_b, v_b), (k_s, 0.0, r))?;
        Ok(stiff + damping(x_a - x_b, v_a - v_b, k_d))
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
        // The review's two damping forms that passed when damping was probed only
        // at |l| = 1: −k_d (l̇·l) l̂, the /|l| dropped, and −k_d (l̇·l̂) l.
        let missing_divide = |a: (&Vector2<f64>, &Vector2<f64>),
                              b: (&Vector2<f64>, &Vector2<f64>),
                              c| {
            with_damping(a, b, c, |l, l_dot, k_d| {
                -l.normalize() * (k_d * l_dot.dot(&l))
            })
        };
        failing(missing_divide, "your damping scales with |l|");
        let along_l = |a: (&Vector2<f64>, &Vector2<f64>),
                       b: (&Vector2<f64>, &Vector2<f64>),
                       c| {
            with_damping(a, b, c, |l, l_dot, k_d| {
                -l * (k_d * l_dot.dot(&l.normalize()))
            })
        };
        failing(along_l, "your damping scales with |l|");
        // Divided twice.
        failing(
            |a, b, c| {
                with_damping(a, b, c, |l, l_dot, k_d| {
                    -l.normalize() * (k_d * l_dot.dot(&l) / l.norm_squared())
                })
            },
            "once too often",
        );
        // l̇ taken as v_a alone.
        failing(
            |(xa, va), (xb, _), c| {
                spring_force::<2>((xa, va), (xb, &Vector2::zeros()), c)
            },
            "v_a alone",
        );
    }

    #[test]
    fn condition_mutants_fail_with_the_diagnosis_meant_for_them() {
        // Written another way: the force as −Jᵀ (k_s C + k_d J v) with J as rows.
        check_condition_force(|c, j, v, (k_s, k_d)| {
            let n = v.len();
            (0..n)
                .map(|k| {
                    c.iter()
                        .enumerate()
                        .map(|(r, c_r)| {
                            let row = &j[r * n..(r + 1) * n];
                            let c_dot: f64 =
                                row.iter().zip(v).map(|(g, v)| g.dot(v)).sum();
                            row[k] * -(k_s * c_r + k_d * c_dot)
                        })
                        .sum()
                })
                .collect()
        })
        .assert_passed();
        let failing = |f: ConditionFn, expect: &str| {
            check_condition_force(f).assert_fails_with(expect)
        };
        /// What a slip computes for Ċ_r: (row r's gradients, v, k, C_r) → Ċ_r.
        type Rate = fn(&[Vector2<f64>], &[Vector2<f64>], usize, f64) -> f64;
        /// The forces with J read `transposed` or not, and Ċ_r as `c_dot_of` says.
        fn general(
            (c, j, v): (&[f64], &[Vector2<f64>], &[Vector2<f64>]),
            (k_s, k_d): (f64, f64),
            transposed: bool,
            c_dot_of: Rate,
        ) -> Vec<Vector2<f64>> {
            let (n, m) = (v.len(), c.len());
            let grad = |r: usize, k: usize| {
                if transposed { j[k * m + r] } else { j[r * n + k] }
            };
            (0..n)
                .map(|k| {
                    (0..m)
                        .map(|r| {
                            let row: Vec<Vector2<f64>> =
                                (0..n).map(|k| grad(r, k)).collect();
                            grad(r, k)
                                * (-k_s * c[r] - k_d * c_dot_of(&row, v, k, c[r]))
                        })
                        .sum()
                })
                .collect()
        }
        /// Ċ_r = Σ_k ∂C_r/∂x_k · v_k, right.
        fn all(row: &[Vector2<f64>], v: &[Vector2<f64>], _: usize, _: f64) -> f64 {
            row.iter().zip(v).map(|(g, v)| g.dot(v)).sum()
        }
        failing(
            |c, j, v, k| {
                general((c, j, v), k, false, all).iter().map(|f| -f).collect()
            },
            "wrong way",
        );
        failing(|c, j, v, k| general((c, j, v), k, true, all), "row after row");
        failing(
            |c, j, v, k| {
                general((c, j, v), k, false, |row, v, k, _| row[k].dot(&v[k]))
            },
            "only particle k's own velocity",
        );
        failing(
            |c, j, v, k| general((c, j, v), k, false, |_, _, _, c_r| c_r),
            "multiplies C",
        );
        failing(
            |c, j, v, (k_s, k_d)| {
                let stiff = general((c, j, v), (k_s, 0.0), false, |_, _, _, _| 0.0);
                stiff.iter().zip(v).map(|(f, v)| f - v * k_d).collect()
            },
            "whole velocity",
        );
        // Every force halved.
        failing(
            |c, j, v, k| {
                let right = condition_force::condition_forces(c, j, v, k);
                right.iter().map(|f| f * 0.5).collect()
            },
            "0.5 times the right ones",
        );
        failing(
            |c, j, v, k| general((&c[..1], &j[..v.len()], v), k, false, all),
            "only the first row",
        );
    }

    #[test]
    fn bounce_mutants_fail_with_the_diagnosis_meant_for_them() {
        let failing =
            |f: BounceFn, expect: &str| check_bounce(f).assert_fails_with(expect);
        failing(|_, v, e| -v * e, "sliding part");
        failing(|n, v, _| v - n * (2.0 * n.dot(v)), "scaled by the restitution");
        failing(|n, v, e| v - n * n.dot(v) + n * n.dot(v) * e, "change sign");
        // The review's case: e applied twice, now told what the reader's value is.
        failing(
            |n, v, e| v - n * n.dot(v) * (1.0 + e * e),
            "you applied the restitution twice",
        );
        failing(|n, v, e| v - n * n.dot(v) * (2.0 - e), "(1 − e) × 1.3");
        // Written as v − (1 + e)(n·v) n, the usual impulse form, it passes.
        check_bounce(|n, v, e| v - n * ((1.0 + e) * n.dot(v))).assert_passed();
    }
}
