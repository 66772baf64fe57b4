//! A stiff spring two ways: as a force in the prediction and as an XPBD constraint.

use crate::particles::PbdSystem;
use crate::projection::Stiffness;
use nalgebra::Vector2;
use pbm_particles::condition::Distance;
use pbm_particles::particle::{Motion, Particle};
use pbm_particles::spring::DampedSpring;
use pbm_prelim::PbmError;

/// How a spring run went: the largest |C| relative to the start, and the step at
/// which the state stopped being finite, if it did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpringRun {
    /// max |C| / |C₀| over the run (up to the divergence).
    pub growth: f64,
    /// The step at which the run broke down: a state no longer finite, or the
    /// particle thrown onto the anchor so that the spring has no direction.
    pub diverged_at: Option<usize>,
}

/// A 1 kg particle on a spring of stiffness k (N/m) from a fixed point, started
/// 10 % stretched, stepped `steps` times at h with no gravity: the spring either
/// as an applied force in the prediction (`in_prediction`) or as an XPBD
/// constraint of compliance 1/k.
pub fn spring_both_ways(
    k: f64,
    h: f64,
    steps: usize,
    in_prediction: bool,
) -> Result<SpringRun, PbmError> {
    let rest = 1.0;
    let anchor = Particle::new(1.0, Vector2::zeros(), Vector2::zeros())?
        .with_motion(Motion::Fixed);
    let bob = Particle::new(1.0, Vector2::new(1.1 * rest, 0.0), Vector2::zeros())?;
    let mut system = PbdSystem::new(vec![anchor, bob]);
    if in_prediction {
        system.add_force(DampedSpring::new(0, 1, k, 0.0, rest)?)?;
    } else {
        system
            .add_constraint(Distance::new(0, 1, rest)?, Stiffness::xpbd(1.0 / k)?)?;
    }
    let c0 = 0.1 * rest;
    let mut run = SpringRun { growth: 1.0, diverged_at: None };
    for s in 0..steps {
        if system.step(h, 1).is_err() {
            run.diverged_at = Some(s);
            break;
        }
        let c = system.particles.particles[1].x.norm() - rest;
        run.growth = run.growth.max(c.abs() / c0);
    }
    Ok(run)
}
