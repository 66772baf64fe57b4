//! The chapter's small scene: a mass swinging on an undamped spring, on which the
//! three Euler variants of the chapter (explicit, backward, symplectic) are compared
//! by their energy.

use crate::backward_euler::implicit_midpoint_step;
use crate::mass_spring::MassSpring;
use crate::stiff::Differenced;
use nalgebra::Vector2;
use pbm_ode::runge_kutta::{RungeKutta, step_count};
use pbm_ode::tableau::EULER;
use pbm_particles::forces::G;
use pbm_particles::particle::{Motion, Particle};
use pbm_particles::spring::DampedSpring;
use pbm_prelim::PbmError;

/// A 1 kg mass on an undamped spring (100 N/m, rest 1 m) from a nail, swinging under
/// gravity: a conservative system whose energy should stay constant.
pub fn spring_pendulum() -> Result<MassSpring<2>, PbmError> {
    let nail = Particle::new(1.0, Vector2::zeros(), Vector2::zeros())?
        .with_motion(Motion::Fixed);
    let bob = Particle::new(1.0, Vector2::new(1.2, 0.0), Vector2::zeros())?;
    let spring = DampedSpring::new(0, 1, 100.0, 0.0, 1.0)?;
    MassSpring::new(vec![nail, bob], vec![spring], Vector2::new(0.0, -G))
}

/// A 1 kg bob on a spring of stiffness `k_s` (N/m, rest 1 m, damping `k_d`) from a
/// nail at the origin, starting 0.3 m to the side and `below` m down, moving at
/// `vy` m/s upward, under gravity: the minimization page's one-step problem.
pub fn nailed_bob(
    below: f64,
    vy: f64,
    k_s: f64,
    k_d: f64,
) -> Result<MassSpring<2>, PbmError> {
    let nail = Particle::new(1.0, Vector2::zeros(), Vector2::zeros())?
        .with_motion(Motion::Fixed);
    let bob = Particle::new(1.0, Vector2::new(0.3, -below), Vector2::new(0.0, vy))?;
    let spring = DampedSpring::new(0, 1, k_s, k_d, 1.0)?;
    MassSpring::new(vec![nail, bob], vec![spring], Vector2::new(0.0, -G))
}

/// The lowest energy the spring pendulum can have (J): the mass hanging still below
/// the nail, the spring stretched by m g / k_s. Backward Euler's numerical damping
/// drains the swing towards it.
pub fn spring_pendulum_rest_energy() -> Result<f64, PbmError> {
    let mut model = spring_pendulum()?;
    let p = &model.system.particles[1];
    let stretch = p.mass * G / 100.0;
    let hanging = Vector2::new(0.0, -(1.0 + stretch));
    model.system.particles[1].x = hanging;
    model.system.particles[1].v = Vector2::zeros();
    Ok(model.system.energy())
}

/// The three Euler steps of the chapter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EulerVariant {
    /// Explicit (forward) Euler: the slope where the step starts.
    Explicit,
    /// Linearized backward Euler: the slope where the step lands.
    Backward,
    /// Symplectic Euler: new velocity from old positions, new positions from new
    /// velocity.
    Symplectic,
    /// Not an Euler method but the damping-free implicit one beside them: implicit
    /// midpoint, Newton-solved, its Jacobian by central differences.
    ImplicitMidpoint,
}

/// Energy of the spring pendulum over `t_end` seconds under one Euler variant: (t,
/// E).
pub fn energy_track(
    variant: EulerVariant,
    h: f64,
    t_end: f64,
) -> Result<Vec<(f64, f64)>, PbmError> {
    let mut model = spring_pendulum()?;
    let mut euler = RungeKutta::new(EULER);
    let mut out = vec![(0.0, model.system.energy())];
    for _ in 0..step_count(h, t_end)? {
        match variant {
            EulerVariant::Explicit => euler.step(&mut model.system, h).map(|_| ())?,
            EulerVariant::Backward => model.backward_euler_step(h).map(|_| ())?,
            EulerVariant::Symplectic => model.symplectic_euler_step(h)?,
            EulerVariant::ImplicitMidpoint => {
                let mut system = Differenced { system: &mut model.system };
                implicit_midpoint_step(&mut system, h).map(|_| ())?
            }
        }
        out.push((model.system.t, model.system.energy()));
    }
    Ok(out)
}
