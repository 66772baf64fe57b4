//! A mass hanging from a compliant constraint: where it comes to rest, the
//! closed forms for that, and the stiffness study over substeps and passes.

use super::shared::FRAME;
use crate::particles::PbdSystem;
use crate::projection::Stiffness;
use nalgebra::Vector2;
use pbm_particles::condition::Distance;
use pbm_particles::forces::{G, Gravity};
use pbm_particles::particle::{Motion, Particle};
use pbm_prelim::PbmError;
use pbm_prelim::parallel::map_range;

/// A particle of `mass` hanging under gravity from a fixed point by a distance
/// constraint of length `rest`, released at rest with the constraint unstretched.
pub fn hanging_mass(
    mass: f64,
    rest: f64,
    stiffness: Stiffness,
) -> Result<PbdSystem<2>, PbmError> {
    let anchor = Particle::new(1.0, Vector2::zeros(), Vector2::zeros())?;
    let bob = Particle::new(mass, Vector2::new(0.0, -rest), Vector2::zeros())?;
    let mut system = PbdSystem::new(vec![anchor.with_motion(Motion::Fixed), bob]);
    system.add_force(Gravity { g: Vector2::new(0.0, -G) })?;
    system.add_constraint(Distance::new(0, 1, rest)?, stiffness)?;
    Ok(system)
}

/// Rest length of the hanging mass's constraint (m).
pub const HANGING_REST: f64 = 1.0;

/// Where a hanging mass came to rest.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settled {
    /// Stretch of the constraint at rest (m).
    pub extension: f64,
    /// Steps it took to come to rest.
    pub steps: usize,
}

/// The speed (m/s) and the acceleration (m/s²) below which the hanging mass counts
/// as at rest. Both are needed: at the turning points of its oscillation the speed
/// is zero, but the acceleration ω²A is not. With the book's ω ≈ 31 rad/s the
/// amplitude left is then below 10⁻⁸ m, far inside what the extension is read to.
pub const AT_REST: f64 = 1e-6;

/// The most steps a hanging mass is given to come to rest.
pub const MOST_STEPS: usize = 4_000_000;

/// Hangs `mass` on a constraint of `stiffness` and steps at h with `iterations`
/// passes until its speed and acceleration are below [`AT_REST`]; returns the
/// stretch there.
pub fn static_extension(
    mass: f64,
    stiffness: Stiffness,
    h: f64,
    iterations: usize,
) -> Result<Settled, PbmError> {
    let mut system = hanging_mass(mass, HANGING_REST, stiffness)?;
    let mut v = system.particles.particles[1].v;
    for steps in 1..=MOST_STEPS {
        system.step(h, iterations)?;
        let bob = &system.particles.particles[1];
        let acceleration = (bob.v - v).norm() / h;
        v = bob.v;
        if v.norm() < AT_REST && acceleration < AT_REST {
            return Ok(Settled { extension: bob.x.norm() - HANGING_REST, steps });
        }
    }
    Err(PbmError::Solver {
        solver: "hanging mass",
        iterations: MOST_STEPS,
        residual: system.particles.particles[1].v.norm(),
        why: "did not come to rest".into(),
    })
}

// ANCHOR: predicted_extension
/// The extension at which one step maps the resting mass to itself. The
/// prediction lowers it by h²g; each pass multiplies C by r = 1 − s (PBD) or by
/// ρ = α̃/(w + α̃) (the slides' XPBD update); after n passes C = rⁿ(C + h²g), so
/// C = rⁿh²g/(1 − rⁿ). XPBD's accumulated update lands on C = −α̃λ after the
/// first pass whatever n is, and the fixed point is C = α m g.
pub fn predicted_extension(
    mass: f64,
    stiffness: Stiffness,
    h: f64,
    iterations: usize,
) -> f64 {
    let fixed_point = |r: f64| {
        let rn = r.powi(iterations as i32);
        rn * h * h * G / (1.0 - rn)
    };
    match stiffness {
        Stiffness::Pbd(s) => fixed_point(1.0 - s),
        Stiffness::Xpbd(alpha) => alpha * mass * G,
        Stiffness::XpbdFirstIterationOnly(alpha) => {
            let alpha_tilde = alpha / (h * h);
            fixed_point(alpha_tilde / (1.0 / mass + alpha_tilde))
        }
    }
}
// ANCHOR_END: predicted_extension

/// The stiffness a reader would measure: m g over the static extension (N/m).
pub fn effective_stiffness(mass: f64, extension: f64) -> f64 {
    mass * G / extension
}

/// PBD's s that gives stiffness k (N/m) to a mass m at one step of h and one pass:
/// from m g/C = k with C = (1 − s)h²g/s, s = k h²/(m + k h²).
pub fn matching_pbd_stiffness(mass: f64, k: f64, h: f64) -> f64 {
    k * h * h / (mass + k * h * h)
}

// ANCHOR: stiffness_per_pass
/// Müller et al. (2007)'s correction: the factor s′ whose `passes` passes leave
/// the error one pass of `s` leaves, (1 − s′)ⁿ = 1 − s.
pub fn stiffness_per_pass(s: f64, passes: usize) -> f64 {
    1.0 - (1.0 - s).powf(1.0 / passes as f64)
}
// ANCHOR_END: stiffness_per_pass

/// Passes per step swept by the stiffness study.
pub const ITERATIONS: [usize; 3] = [1, 4, 16];

/// One cell of the stiffness study: static extensions (m) at a substep count and
/// an iteration count.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cell {
    /// Steps per 60 Hz frame.
    pub substeps: usize,
    /// Passes per step.
    pub iterations: usize,
    /// XPBD's extension.
    pub xpbd: f64,
    /// PBD's extension (s matched at one step of one pass).
    pub pbd: f64,
    /// PBD's closed form.
    pub pbd_predicted: f64,
    /// PBD with s′ = [`stiffness_per_pass`]`(s, iterations)` in place of s.
    pub pbd_per_pass: f64,
    /// The slides' XPBD update.
    pub slides: f64,
}

/// The stiffness study: every substep count of [`SUBSTEPS`] with every iteration
/// count of [`ITERATIONS`], for XPBD with compliance α, for PBD with the s that
/// matches 1/α at one step of one pass (and with that s corrected for the pass
/// count), and for the slides' update.
pub fn stiffness_grid(
    compliance: f64,
    mass: f64,
) -> Result<(f64, Vec<Cell>), PbmError> {
    let s = matching_pbd_stiffness(mass, 1.0 / compliance, FRAME);
    let cases: Vec<(usize, usize)> = SUBSTEPS
        .iter()
        .flat_map(|&n| ITERATIONS.iter().map(move |&i| (n, i)))
        .collect();
    let cells = map_range(cases.len(), |k| {
        let (substeps, iterations) = cases[k];
        let h = FRAME / substeps as f64;
        let rest = |stiffness| static_extension(mass, stiffness, h, iterations);
        Ok(Cell {
            substeps,
            iterations,
            xpbd: rest(Stiffness::Xpbd(compliance))?.extension,
            pbd: rest(Stiffness::Pbd(s))?.extension,
            pbd_predicted: predicted_extension(
                mass,
                Stiffness::Pbd(s),
                h,
                iterations,
            ),
            pbd_per_pass: rest(Stiffness::Pbd(stiffness_per_pass(s, iterations)))?
                .extension,
            slides: rest(Stiffness::XpbdFirstIterationOnly(compliance))?.extension,
        })
    })
    .into_iter()
    .collect::<Result<Vec<_>, PbmError>>()?;
    Ok((s, cells))
}

/// Substeps per 60 Hz frame swept by the stiffness study.
pub const SUBSTEPS: [usize; 6] = [1, 2, 4, 8, 16, 32];
