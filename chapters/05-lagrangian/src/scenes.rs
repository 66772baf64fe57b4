//! The same double pendulum two ways: chapter 4's particles held by constraint
//! forces, and this chapter's two angles. Both are exact models of the same physics;
//! their numerical solutions agree closely while the motion is regular and then part,
//! because the motion is chaotic and amplifies the tiny differences between the two
//! discretisations.

use crate::models::{DoublePendulum, EllipseBead};
use crate::parametric::LagrangianSystem;
use pbm_constraints::scenes::{DOUBLE_PENDULUM_ANGLES, double_pendulum};
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::tableau::RK4;
use pbm_particles::forces::G;
use pbm_prelim::PbmError;

/// The book's double pendulum in angles: 1 kg bobs, 1 m links, released at rest from
/// the same angles as chapter 4's.
pub fn angular_double_pendulum() -> Result<LagrangianSystem<DoublePendulum>, PbmError>
{
    let model = DoublePendulum::new([1.0, 1.0], [1.0, 1.0], G)?;
    LagrangianSystem::new(model, DOUBLE_PENDULUM_ANGLES.to_vec(), vec![0.0, 0.0])
}

/// The page's bead on an ellipse: half-axes a and b (m) of the wire, and the state
/// (θ, θ̇) it is looked at in, in rad and rad/s.
pub const ELLIPSE_BEAD: ([f64; 2], [f64; 2]) = ([1.5, 0.5], [0.3, 2.0]);

/// A 1 kg bead on the page's ellipse, under gravity.
pub fn ellipse_bead() -> Result<EllipseBead, PbmError> {
    let [a, b] = ELLIPSE_BEAD.0;
    EllipseBead::new(1.0, a, b, G)
}

/// One sample of the comparison.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// Time (s).
    pub t: f64,
    /// Lower bob, constraint forces (m).
    pub constrained: [f64; 2],
    /// Lower bob, angles (m).
    pub lagrangian: [f64; 2],
    /// Distance between the two lower bobs (m).
    pub distance: f64,
}

// ANCHOR: compare
/// Runs both models with RK4 at step h to t_end, sampling every `every` steps.
pub fn compare(h: f64, t_end: f64, every: usize) -> Result<Vec<Sample>, PbmError> {
    let steps = pbm_ode::runge_kutta::step_count(h, t_end)?;
    let mut constrained = double_pendulum()?;
    let mut angles = angular_double_pendulum()?;
    let (mut rk_a, mut rk_b) = (RungeKutta::new(RK4), RungeKutta::new(RK4));
    let mut out = Vec::new();
    for n in 0..=steps {
        if n > 0 {
            rk_a.step(&mut constrained, h)?;
            rk_b.step(&mut angles, h)?;
        }
        if n % every.max(1) == 0 {
            let a = constrained.particles.particles[1].x;
            let q = angles.positions();
            let distance = ((a[0] - q[2]).powi(2) + (a[1] - q[3]).powi(2)).sqrt();
            out.push(Sample {
                t: n as f64 * h,
                constrained: [a[0], a[1]],
                lagrangian: [q[2], q[3]],
                distance,
            });
        }
    }
    Ok(out)
}
// ANCHOR_END: compare

/// The first sampled time at which the two lower bobs are more than `threshold`
/// apart.
pub fn separation_time(samples: &[Sample], threshold: f64) -> Option<f64> {
    samples.iter().find(|s| s.distance > threshold).map(|s| s.t)
}
