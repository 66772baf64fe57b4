//! Chapter 4's chain held by projection, beside the same chain by Lagrange
//! multipliers as the reference.

use super::shared::FRAME;
use crate::particles::PbdSystem;
use crate::projection::Stiffness;
use nalgebra::Vector2;
use pbm_constraints::constraint::{Nail, Rod};
use pbm_constraints::scenes::Chain;
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::system::OdeSystem;
use pbm_ode::tableau::RK4;
use pbm_particles::forces::{G, Gravity};
use pbm_prelim::PbmError;

// ANCHOR: projected_chain
/// Chapter 4's chain (its particles, its nail, its rods, its gravity), held by
/// projection instead of by constraint forces.
pub fn projected_chain(
    chain: Chain,
    stiffness: Stiffness,
) -> Result<PbdSystem<2>, PbmError> {
    let mut system = PbdSystem::new(chain.particles()?);
    system.add_force(Gravity { g: Vector2::new(0.0, -G) })?;
    system.add_constraint(Nail::new(0, Vector2::zeros())?, stiffness)?;
    for i in 0..chain.links {
        system.add_constraint(Rod::new(i, i + 1, chain.length)?, stiffness)?;
    }
    Ok(system)
}
// ANCHOR_END: projected_chain

/// One state of a chain run: time, largest relative link error, energy.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChainSample {
    /// Time (s).
    pub t: f64,
    /// max |ℓ − L|/L over the links.
    pub length_error: f64,
    /// Kinetic plus gravitational energy (J).
    pub energy: f64,
}

/// A chain run: a sample per frame, and the particles' positions at each.
pub type ChainRun = (Vec<ChainSample>, Vec<Vec<Vector2<f64>>>);

/// Chapter 4's chain by RK4 and Lagrange multipliers at step `h`, sampled every
/// `every` steps, with the particles at each sample.
pub fn lagrange_chain(
    chain: Chain,
    h: f64,
    samples: usize,
    every: usize,
) -> Result<ChainRun, PbmError> {
    let mut system = chain.with_rods()?;
    let mut stepper = RungeKutta::new(RK4);
    let mut track = Vec::with_capacity(samples + 1);
    let mut positions = Vec::with_capacity(samples + 1);
    let mut record = |system: &pbm_constraints::system::ConstrainedSystem<2>| {
        let particles = &system.particles.particles;
        track.push(ChainSample {
            t: system.time(),
            length_error: chain.length_error(particles),
            energy: system.particles.energy(),
        });
        positions.push(particles.iter().map(|p| p.x).collect());
    };
    record(&system);
    for s in 0..samples * every {
        stepper.step(&mut system, h).map_err(|e| e.at_step(s, system.time()))?;
        if (s + 1) % every == 0 {
            record(&system);
        }
    }
    Ok((track, positions))
}

/// The same chain held by projection with `stiffness`: `frames` frames of 1/60 s,
/// each `substeps` steps of `iterations` passes, sampled once per frame.
pub fn projected_chain_run(
    chain: Chain,
    stiffness: Stiffness,
    frames: usize,
    substeps: usize,
    iterations: usize,
) -> Result<ChainRun, PbmError> {
    let mut system = projected_chain(chain, stiffness)?;
    let mut track = Vec::with_capacity(frames + 1);
    let mut positions = Vec::with_capacity(frames + 1);
    let mut record = |system: &PbdSystem<2>| {
        let particles = &system.particles.particles;
        track.push(ChainSample {
            t: system.particles.t,
            length_error: chain.length_error(particles),
            energy: system.particles.energy(),
        });
        positions.push(particles.iter().map(|p| p.x).collect());
    };
    record(&system);
    for _ in 0..frames {
        system.frame(FRAME, substeps, iterations)?;
        record(&system);
    }
    Ok((track, positions))
}

/// Steps of the reference solution per frame: RK4 at 1/12000 s.
pub const REFERENCE_STEPS_PER_FRAME: usize = 200;

/// The largest distance between matching particles of two runs sampled at the
/// same times, over the samples up to and including `samples`.
pub fn max_position_difference(
    a: &[Vec<Vector2<f64>>],
    b: &[Vec<Vector2<f64>>],
    samples: usize,
) -> f64 {
    a.iter()
        .zip(b)
        .take(samples + 1)
        .flat_map(|(pa, pb)| pa.iter().zip(pb).map(|(x, y)| (x - y).norm()))
        .fold(0.0, f64::max)
}
