//! The chapter's scenes, shared by its exercises, figures and demos: the notes'
//! worked examples (section 5) and torque-free motion: forces that push without
//! turning, forces that turn without pushing, the force-versus-torque puzzle,
//! orientation drift, the instability of spin about the intermediate axis, and the
//! gyroscopic term stepped explicitly and implicitly at a large step.

use crate::body::{
    Body, PointForce, Representation, RigidBody, RigidBodyDef, RigidSystem,
};
use crate::gyroscopic::BodySpin;
use crate::mass::MassProperties;
use nalgebra::{Matrix3, Vector3};
use pbm_ode::runge_kutta::{RungeKutta, step_count};
use pbm_ode::tableau::RK4;
use pbm_prelim::PbmError;

/// A body at rest at the origin, unrotated, with the given mass properties.
pub fn body_at_rest(
    props: &MassProperties,
    representation: Representation,
) -> Result<RigidBody, PbmError> {
    RigidBody::new(RigidBodyDef { representation, ..RigidBodyDef::of(props) })
}

// ANCHOR: net
/// Total force and torque of forces `f` acting at offsets `r` from the centre of mass
/// of a body at `x`: what `apply_force_at` accumulates.
pub fn net_force_and_torque(
    x: Vector3<f64>,
    forces: &[(Vector3<f64>, Vector3<f64>)],
) -> Result<(Vector3<f64>, Vector3<f64>), PbmError> {
    let block = MassProperties::block(Vector3::new(6.0, 1.0, 4.0), 1.0)?;
    let mut body =
        RigidBody::new(RigidBodyDef { position: x, ..RigidBodyDef::of(&block) })?;
    for (r, f) in forces {
        body.apply_force_at(&(x + r), f);
    }
    Ok((body.force(), body.torque()))
}
// ANCHOR_END: net

/// Section 5.4: (0, 0, f) at x + (−3, 0, −2) and (0, 0, −f) at x + (3, 0, 2).
pub fn translation_free(f: f64) -> Result<(Vector3<f64>, Vector3<f64>), PbmError> {
    net_force_and_torque(
        Vector3::new(1.0, 2.0, 3.0),
        &[
            (Vector3::new(-3.0, 0.0, -2.0), Vector3::new(0.0, 0.0, f)),
            (Vector3::new(3.0, 0.0, 2.0), Vector3::new(0.0, 0.0, -f)),
        ],
    )
}

/// Section 5.3: (0, 0, f) at both x + (−3, 0, −2) and x + (3, 0, −2).
pub fn rotation_free(f: f64) -> Result<(Vector3<f64>, Vector3<f64>), PbmError> {
    net_force_and_torque(
        Vector3::new(1.0, 2.0, 3.0),
        &[
            (Vector3::new(-3.0, 0.0, -2.0), Vector3::new(0.0, 0.0, f)),
            (Vector3::new(3.0, 0.0, -2.0), Vector3::new(0.0, 0.0, f)),
        ],
    )
}

/// The outcome of pushing a body for a while with one force at one body point.
#[derive(Debug, Clone, PartialEq)]
pub struct Push {
    /// Kinetic energy at the end (J).
    pub kinetic_energy: f64,
    /// Work done: Σ F · Δp along the path of the point of application (J).
    pub work: f64,
    /// Speed of the centre of mass at the end (m/s).
    pub speed: f64,
    /// After every step: the point of application, the centre of mass and the
    /// orientation, in the world (for drawing).
    pub path: Vec<(Vector3<f64>, Vector3<f64>, Matrix3<f64>)>,
}

// ANCHOR: puzzle
/// Section 5.5: a 4 × 0.5 × 0.5 m, 1 kg block at rest is pushed for `duration`
/// seconds by a constant 1 N force along y at the body point `point` (body
/// coordinates). The work is summed along the path the point of application actually
/// travels.
pub fn push(point: Vector3<f64>, duration: f64, h: f64) -> Result<Push, PbmError> {
    let block = MassProperties::block(Vector3::new(4.0, 0.5, 0.5), 1.0)?;
    let mut system =
        RigidSystem::new(vec![body_at_rest(&block, Representation::Quaternion)?])?;
    let force = Vector3::new(0.0, 1.0, 0.0);
    system.add_force(PointForce { body: [0], point, force, until: f64::INFINITY })?;
    let mut rk4 = RungeKutta::new(RK4);
    let mut at = system.bodies[0].world_point(&point);
    let mut work = 0.0;
    let record = |b: &RigidBody| (b.world_point(&point), b.position(), b.rotation());
    let mut path = vec![record(&system.bodies[0])];
    for _ in 0..step_count(h, duration)? {
        rk4.step(&mut system, h)?;
        system.renormalize();
        let next = system.bodies[0].world_point(&point);
        work += force.dot(&(next - at));
        at = next;
        path.push(record(&system.bodies[0]));
    }
    let body = &system.bodies[0];
    Ok(Push {
        kinetic_energy: body.kinetic_energy(),
        work,
        speed: body.velocity().norm(),
        path,
    })
}
// ANCHOR_END: puzzle

/// Side lengths of the tumbling block (m).
pub const TUMBLING_BLOCK_SIZE: Vector3<f64> = Vector3::new(1.0, 2.0, 3.0);

/// The body of the torque-free experiments: a 1 × 2 × 3 m block of 1 kg, whose
/// principal moments 13/12, 10/12 and 5/12 kg m² are all different; y is the
/// intermediate axis.
pub fn tumbling_block() -> Result<MassProperties, PbmError> {
    MassProperties::block(TUMBLING_BLOCK_SIZE, 1.0)
}

/// One sample of a torque-free run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// Time (s).
    pub t: f64,
    /// ω in body coordinates (rad/s).
    pub body_omega: Vector3<f64>,
    /// The rotation R used at this time.
    pub r: Matrix3<f64>,
    /// How far the stored orientation is from a rotation.
    pub orientation_error: f64,
    /// Kinetic energy (J).
    pub energy: f64,
    /// Angular momentum (kg m²/s).
    pub l: Vector3<f64>,
}

impl Sample {
    /// What a torque-free run records of `body` at time `t`.
    fn of(body: &RigidBody, t: f64) -> Self {
        Sample {
            t,
            body_omega: body.body_omega(),
            r: body.rotation(),
            orientation_error: body.orientation_error(),
            energy: body.kinetic_energy(),
            l: body.angular_momentum(),
        }
    }
}

impl Sample {
    /// The angular momentum in body coordinates, L_b = Rᵀ L: the point that traces
    /// the polhode.
    pub fn body_momentum(&self) -> Vector3<f64> {
        self.r.transpose() * self.l
    }
}

/// The body-frame angular momentum of the tumbling block over `t_end` seconds from
/// `l_body` (body = world at t = 0), every 10 ms: one polhode.
pub fn polhode(
    l_body: Vector3<f64>,
    t_end: f64,
) -> Result<Vec<Vector3<f64>>, PbmError> {
    let inverse = tumbling_block()?.inertia.try_inverse().ok_or_else(|| {
        PbmError::degenerate("tumbling block", "singular inertia tensor")
    })?;
    let run = torque_free(
        inverse * l_body,
        Representation::Quaternion,
        true,
        1e-3,
        t_end,
        10,
    )?;
    Ok(run.iter().map(Sample::body_momentum).collect())
}

// ANCHOR: torque_free
/// Torque-free motion of the tumbling block from angular velocity `omega` (body =
/// world at t = 0), RK4 at step h, renormalizing the orientation after every step if
/// asked.
pub fn torque_free(
    omega: Vector3<f64>,
    representation: Representation,
    renormalize: bool,
    h: f64,
    t_end: f64,
    every: usize,
) -> Result<Vec<Sample>, PbmError> {
    let props = tumbling_block()?;
    let body = RigidBody::new(RigidBodyDef {
        angular_velocity: omega,
        representation,
        ..RigidBodyDef::of(&props)
    })?;
    let mut system = RigidSystem::new(vec![body])?;
    let mut rk4 = RungeKutta::new(RK4);
    let mut out = Vec::new();
    for n in 0..=step_count(h, t_end)? {
        if n > 0 {
            rk4.step(&mut system, h)?;
            if renormalize {
                system.renormalize();
            }
        }
        if n % every.max(1) == 0 {
            out.push(Sample::of(&system.bodies[0], n as f64 * h));
        }
    }
    Ok(out)
}
// ANCHOR_END: torque_free

/// The Dzhanibekov spin: 5 rad/s about the intermediate (y) axis, disturbed by 0.01
/// rad/s about the others.
pub const DZHANIBEKOV_OMEGA: Vector3<f64> = Vector3::new(0.01, 5.0, 0.01);

/// The step of the book's Dzhanibekov run (s).
pub const DZHANIBEKOV_STEP: f64 = 1e-3;

/// How long the book's Dzhanibekov run lasts (s): long enough for several flips.
pub const DZHANIBEKOV_T_END: f64 = 30.0;

/// The book's Dzhanibekov run: the tumbling block spun at [`DZHANIBEKOV_OMEGA`],
/// stored as a renormalized quaternion, stepped at [`DZHANIBEKOV_STEP`] for `t_end`
/// seconds and sampled every tenth step.
pub fn dzhanibekov_run(t_end: f64) -> Result<Vec<Sample>, PbmError> {
    let (omega, h) = (DZHANIBEKOV_OMEGA, DZHANIBEKOV_STEP);
    torque_free(omega, Representation::Quaternion, true, h, t_end, 10)
}

/// How many times the body-frame component `axis` of ω changes sign.
pub fn sign_changes(samples: &[Sample], axis: usize) -> usize {
    samples
        .windows(2)
        .filter(|w| w[0].body_omega[axis] * w[1].body_omega[axis] < 0.0)
        .count()
}

/// `n` blocks of 1 × 2 × 3 m and 1 kg, stored with quaternions, scattered through a
/// cube of side 2 `spread` (m) with turned orientations and velocities up to 1 m/s
/// and 3 rad/s, all from the fixed sample sequence: the many-body system the
/// chapter times and runs on one thread and on two.
pub fn scattered_blocks(n: u64, spread: f64) -> Result<Vec<RigidBody>, PbmError> {
    use nalgebra::{Quaternion, UnitQuaternion};
    use pbm_prelim::sampling::sample;
    let props = MassProperties::block(Vector3::new(1.0, 2.0, 3.0), 1.0)?;
    (0..n)
        .map(|i| {
            let s = |k| sample(10 * i + k);
            let turn = Quaternion::new(s(3), s(4), s(5), s(6));
            RigidBody::new(RigidBodyDef {
                mass: 1.0,
                inertia: props.inertia,
                position: Vector3::new(s(0), s(1), s(2)) * spread,
                orientation: UnitQuaternion::from_quaternion(turn),
                velocity: Vector3::new(s(7), s(8), s(9)),
                angular_velocity: Vector3::new(s(2), s(5), s(8)) * 3.0,
                representation: Representation::Quaternion,
            })
        })
        .collect()
}

/// The brick of the gyroscopic experiment: 10 × 40 × 20 cm, 2 kg (chapter 10's).
pub fn brick() -> Result<MassProperties, PbmError> {
    MassProperties::block(Vector3::new(0.1, 0.4, 0.2), 2.0)
}

/// The skew axis the brick is spun about, in body coordinates (not a unit vector).
pub const SKEW_AXIS: Vector3<f64> = Vector3::new(2.0, 1.0, -1.5);

/// The setup of `rigid/gyroscopic` at its defaults, which its figure draws.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GyroscopicSetup {
    /// Spin about the skew axis at the start (rad/s).
    pub spin: f64,
    /// Step (s): a 60 Hz frame.
    pub h: f64,
    /// Simulated time (s).
    pub t_end: f64,
    /// Newton steps per backward-Euler step: one, as Catto takes.
    pub newton: usize,
}

/// The page's run: 10 rad/s, one step per 60 Hz frame, for 3 s, one Newton step.
pub const GYROSCOPIC: GyroscopicSetup =
    GyroscopicSetup { spin: 10.0, h: 1.0 / 60.0, t_end: 3.0, newton: 1 };

/// An explicit run is stopped once its energy exceeds this many times the start.
pub const RUNAWAY: f64 = 1e3;

/// One sample of the gyroscopic experiment: energy and |L| of both integrators.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpinSample {
    /// Time (s).
    pub t: f64,
    /// Kinetic energy of the explicit run (J); `None` once it ran away.
    pub energy_explicit: Option<f64>,
    /// Kinetic energy of the implicit run (J).
    pub energy_implicit: f64,
    /// |L| of the explicit run (kg m²/s); `None` once it ran away.
    pub momentum_explicit: Option<f64>,
    /// |L| of the implicit run (kg m²/s).
    pub momentum_implicit: f64,
}

/// The brick spun at `spin` rad/s about [`SKEW_AXIS`] with no torque, its body-frame
/// ω stepped at h by forward Euler and by backward Euler (`newton` Newton steps);
/// the explicit run stops when its energy passes [`RUNAWAY`] times the start.
pub fn gyroscopic_run(
    spin: f64,
    h: f64,
    t_end: f64,
    newton: usize,
) -> Result<Vec<SpinSample>, PbmError> {
    let body = BodySpin::new(brick()?.inertia)?;
    let start = SKEW_AXIS.normalize() * spin;
    let (mut explicit, mut implicit) = (Some(start), start);
    let limit = RUNAWAY * body.energy(&start);
    let mut out = Vec::new();
    for n in 0..=step_count(h, t_end)? {
        if n > 0 {
            explicit = explicit
                .map(|w| body.explicit_step(&w, h))
                .filter(|w| body.energy(w) <= limit);
            implicit = body.implicit_step(&implicit, h, newton)?;
        }
        out.push(SpinSample {
            t: n as f64 * h,
            energy_explicit: explicit.map(|w| body.energy(&w)),
            energy_implicit: body.energy(&implicit),
            momentum_explicit: explicit.map(|w| body.momentum(&w).norm()),
            momentum_implicit: body.momentum(&implicit).norm(),
        });
    }
    Ok(out)
}
