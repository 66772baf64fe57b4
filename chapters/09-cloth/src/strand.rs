//! A hair as a chain of particles in the plane: springs along it resist stretch,
//! angular springs at its joints give it body (Kass's hair model). The stiffnesses
//! are set per unit length, so that the energy of a shape, and therefore the shape
//! the strand settles into, does not depend on how finely it is sampled.

use pbm_implicit::mass_spring::MassSpring;
use pbm_implicit::minimization::minimization_step;
use pbm_particles::condition::{Condition, Distance, SoftCondition};
use pbm_particles::forces::Gravity;
use pbm_particles::particle::{Motion, Particle, ParticleSystem, Vector};
use pbm_prelim::PbmError;
use pbm_prelim::validate::positive;

type V2 = Vector<2>;

/// v turned a quarter turn counter-clockwise.
fn perp(v: V2) -> V2 {
    V2::new(-v.y, v.x)
}

// ANCHOR: joint_angle
/// C = θ − θ₀ at the joint b of particles a, b, c in the plane: θ is the signed
/// angle from u = x_b − x_a to w = x_c − x_b, θ = atan2(u × w, u · w), zero when the
/// chain runs straight on. Turning u a little counter-clockwise lowers θ by as much,
/// and stretching u leaves it alone, so ∂θ/∂u = −u⊥/|u|²; likewise ∂θ/∂w = w⊥/|w|².
/// With u = x_b − x_a and w = x_c − x_b:
///
/// ∂θ/∂x_a = u⊥/|u|², ∂θ/∂x_c = w⊥/|w|², ∂θ/∂x_b = −(both),
///
/// and each term's rate is d(v⊥/|v|²)/dt = v̇⊥/|v|² − 2 v⊥ (v · v̇)/|v|⁴.
#[derive(Debug, Clone)]
pub struct JointAngle {
    joint: [usize; 3],
    rest: f64,
}
// ANCHOR_END: joint_angle

impl Condition<2> for JointAngle {
    // ANCHOR: joint_angle_condition
    fn position(
        &self,
        x: &[V2],
        c: &mut [f64],
        j: &mut [V2],
    ) -> Result<(), PbmError> {
        let (u, w) = (x[1] - x[0], x[2] - x[1]);
        let (uu, ww) = (u.norm_squared(), w.norm_squared());
        if uu == 0.0 || ww == 0.0 {
            let why = "two neighbouring particles coincide: the angle is undefined";
            return Err(PbmError::degenerate("joint angle", why));
        }
        c[0] = f64::atan2(u.perp(&w), u.dot(&w)) - self.rest;
        (j[0], j[2]) = (perp(u) / uu, perp(w) / ww);
        j[1] = -(j[0] + j[2]);
        Ok(())
    }
    fn jacobian_dot(&self, x: &[V2], v: &[V2], j_dot: &mut [V2]) {
        let rate = |d: V2, d_dot: V2| {
            let dd = d.norm_squared();
            if dd == 0.0 {
                return V2::zeros();
            }
            perp(d_dot) / dd - perp(d) * (2.0 * d.dot(&d_dot) / (dd * dd))
        };
        j_dot[0] = rate(x[1] - x[0], v[1] - v[0]);
        j_dot[2] = rate(x[2] - x[1], v[2] - v[1]);
        j_dot[1] = -(j_dot[0] + j_dot[2]);
    }
    // ANCHOR_END: joint_angle_condition
    fn name(&self) -> &'static str {
        "joint angle"
    }
    fn particles(&self) -> &[usize] {
        &self.joint
    }
    fn rows(&self) -> usize {
        1
    }
    fn check(&self, x: &[V2]) -> Result<(), PbmError> {
        self.position(x, &mut [0.0], &mut [V2::zeros(); 3])
    }
}

impl JointAngle {
    /// The joint at `b` between particles `a`, `b`, `c` (all different), wanting the
    /// signed angle `rest` (rad, in (−π, π]).
    pub fn new(a: usize, b: usize, c: usize, rest: f64) -> Result<Self, PbmError> {
        if a == b || b == c || a == c {
            let why = format!("the particles {a}, {b}, {c} must all differ");
            return Err(PbmError::invalid("joint angle", why));
        }
        if rest.is_nan() || rest.abs() > std::f64::consts::PI {
            let why = format!("rest angle {rest} rad is not in [−π, π]");
            return Err(PbmError::invalid("joint angle", why));
        }
        Ok(JointAngle { joint: [a, b, c], rest })
    }
}

/// A strand's material, per unit length, and its length.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Material {
    /// Length (m).
    pub length: f64,
    /// Mass per unit length (kg/m).
    pub density: f64,
    /// Stretch stiffness K (N): a piece of any length l stretched by δ pulls with
    /// K δ / l.
    pub stretch: f64,
    /// Bending stiffness B (N m²): a bend of curvature κ stores ½ B κ² per metre.
    pub bend: f64,
}

impl Material {
    /// Checks that every property is positive and finite.
    pub fn checked(self) -> Result<Self, PbmError> {
        positive("strand", "length", self.length)?;
        positive("strand", "density", self.density)?;
        positive("strand", "stretch stiffness", self.stretch)?;
        positive("strand", "bending stiffness", self.bend)?;
        Ok(self)
    }
}

/// How the spring constants follow the sampling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scaling {
    /// k = K/l and k = B/l for segments of length l: the same material at any
    /// resolution.
    PerLength,
    /// The constants of a strand of `segments` segments, kept whatever the
    /// resolution: the mistake the discretization argument warns against.
    FixedAt(usize),
}

// ANCHOR: stiffness
/// The spring constants for segments of length `l`. Stretching a segment by δ stores
/// ½ (K/l) δ², so that a strand stretched by a fraction s stores ½ K s² L at any
/// sampling; bending a joint by θ over a segment l, a curvature κ = θ/l, stores
/// ½ B κ² l = ½ (B/l) θ². Both constants go as 1/l.
pub fn stiffness(material: &Material, l: f64) -> (f64, f64) {
    (material.stretch / l, material.bend / l)
}
// ANCHOR_END: stiffness

// ANCHOR: cantilever
/// A straight strand of `segments` segments sticking out along +x from the origin,
/// clamped at its root (its first two particles fixed), under gravity `g` (m/s²)
/// along −y. Each particle carries the mass of the strand within half a segment of
/// it.
pub fn cantilever(
    material: &Material,
    segments: usize,
    scaling: Scaling,
    g: f64,
) -> Result<MassSpring<2>, PbmError> {
    let material = material.checked()?;
    if segments < 2 {
        let why =
            format!("{segments} segments: the clamp needs one and the strand more");
        return Err(PbmError::invalid("strand", why));
    }
    let l = material.length / segments as f64;
    let (k_stretch, k_bend) = scaled_stiffness(&material, l, scaling)?;
    let mut system = ParticleSystem::new(clamped_particles(&material, segments)?);
    for i in 0..segments {
        system.add_force(SoftCondition::new(
            Distance::new(i, i + 1, l)?,
            k_stretch,
            0.0,
        )?)?;
    }
    for i in 1..segments {
        system.add_force(SoftCondition::new(
            JointAngle::new(i - 1, i, i + 1, 0.0)?,
            k_bend,
            0.0,
        )?)?;
    }
    system.add_force(Gravity { g: V2::new(0.0, -g) })?;
    Ok(MassSpring::from_system(system))
}
// ANCHOR_END: cantilever

// ANCHOR: clamped_particles
/// The stretch and bend stiffness of segments of length `l`, or, with the
/// scaling switched off, of the segments of a strand cut into `n` pieces.
fn scaled_stiffness(
    material: &Material,
    l: f64,
    scaling: Scaling,
) -> Result<(f64, f64), PbmError> {
    match scaling {
        Scaling::PerLength => Ok(stiffness(material, l)),
        Scaling::FixedAt(n) if n > 0 => {
            Ok(stiffness(material, material.length / n as f64))
        }
        Scaling::FixedAt(_) => {
            Err(PbmError::invalid("strand", "stiffness fixed at zero segments"))
        }
    }
}

/// The particles of a straight strand of `segments` segments along +x from the
/// origin, each of the mass within half a segment of it, the first two fixed.
fn clamped_particles(
    material: &Material,
    segments: usize,
) -> Result<Vec<Particle<2>>, PbmError> {
    let l = material.length / segments as f64;
    let mut particles = Vec::with_capacity(segments + 1);
    for i in 0..=segments {
        let share = if i == segments { 0.5 } else { 1.0 };
        let p = Particle::new(
            material.density * l * share,
            V2::new(l * i as f64, 0.0),
            V2::zeros(),
        )?;
        particles.push(if i < 2 { p.with_motion(Motion::Fixed) } else { p });
    }
    Ok(particles)
}
// ANCHOR_END: clamped_particles

// ANCHOR: settle
/// The strand at rest: the minimum of its potential energy, found as one backward
/// Euler step so long (10⁴ s) that inertia no longer matters, by chapter 3's Newton
/// minimization. Returns the tip's position.
pub fn settle(model: &mut MassSpring<2>) -> Result<V2, PbmError> {
    for p in &mut model.system.particles {
        p.v = V2::zeros();
    }
    let report = minimization_step(model, 1e4, 1e-9, 200)?;
    if !report.gradient_norm.is_finite() || report.gradient_norm > 1e-6 {
        let why = format!(
            "Newton stopped with ‖∇E‖ = {:.2e} N after {} iterations",
            report.gradient_norm, report.iterations
        );
        return Err(PbmError::degenerate("strand at rest", why));
    }
    model
        .system
        .particles
        .last()
        .map(|p| p.x)
        .ok_or_else(|| PbmError::invalid("strand", "no particles"))
}
// ANCHOR_END: settle

/// The tip's sag of a cantilever of weight w per metre, length L and bending
/// stiffness B, for small deflections (Euler–Bernoulli): w L⁴ / (8 B).
pub fn small_sag(material: &Material, g: f64) -> f64 {
    material.density * g * material.length.powi(4) / (8.0 * material.bend)
}

/// The angle between the segments u = x_b − x_a and w = x_c − x_b of a joint in
/// space, θ = arccos(û·ŵ) ∈ [0, π], computed as atan2(|u × w|, u · w), which keeps
/// its digits near straight where arccos loses them. It has no sign: bent by θ in
/// any direction, the joint reads θ.
pub fn space_angle([a, b, c]: &[Vector<3>; 3]) -> f64 {
    let (u, w) = (b - a, c - b);
    f64::atan2(u.cross(&w).norm(), u.dot(&w))
}

/// The Hessian of ½ (θ − θ₀)² (k = 1) over the joint's nine coordinates at `x`,
/// by central second differences of the energy with step `e` (m): nothing but
/// the angle itself is differentiated.
pub fn space_joint_hessian(x: &[Vector<3>; 3], rest: f64, e: f64) -> [[f64; 9]; 9] {
    let energy = |moves: &[(usize, f64)]| {
        let mut y = *x;
        for &(i, d) in moves {
            y[i / 3][i % 3] += d;
        }
        0.5 * (space_angle(&y) - rest).powi(2)
    };
    std::array::from_fn(|i| {
        std::array::from_fn(|j| {
            let corner = |si: f64, sj: f64| energy(&[(i, si * e), (j, sj * e)]);
            (corner(1.0, 1.0) - corner(1.0, -1.0) - corner(-1.0, 1.0)
                + corner(-1.0, -1.0))
                / (4.0 * e * e)
        })
    })
}
