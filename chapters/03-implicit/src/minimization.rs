//! Implicit Euler as minimization (after the reader's summary of the course notes):
//! for forces with a potential E, the backward Euler step x₁ is the minimizer of Φ(x)
//! = ‖x − s‖²_M / (2h²) + E(x), with s = x₀ + h v₀ the inertial guess. ∇Φ = 0 is
//! exactly M (x₁ − x₀ − h v₀)/h² = f(x₁), the backward Euler equations. Newton's
//! method minimizes Φ; its first iteration from x₀ is the linearized step.

use crate::cg::solve_pcg;
use crate::mass_spring::MassSpring;
use nalgebra::SVector;
use pbm_ode::runge_kutta::check_step_size;
use pbm_particles::particle::{Motion, Vector};
use pbm_prelim::PbmError;

/// How Newton's method went.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NewtonReport {
    /// Newton iterations taken.
    pub iterations: usize,
    /// ‖∇Φ‖ at the end (N).
    pub gradient_norm: f64,
    /// Iterations whose Newton step the line search shortened (α < 1).
    pub shortened: usize,
}

fn positions<const D: usize>(model: &MassSpring<D>) -> Vec<Vector<D>> {
    model.system.particles.iter().map(|p| p.x).collect()
}

fn set_positions<const D: usize>(model: &mut MassSpring<D>, x: &[Vector<D>]) {
    for (p, xi) in model.system.particles.iter_mut().zip(x) {
        p.x = *xi;
    }
}

/// Φ at the current positions, and the sum of the sizes of its terms: Φ is known
/// to about machine ε times that, however small Φ's changes are.
fn objective<const D: usize>(
    model: &MassSpring<D>,
    s: &[Vector<D>],
    h: f64,
) -> (f64, f64) {
    let inertia: f64 = model
        .system
        .particles
        .iter()
        .zip(s)
        .filter(|(p, _)| matches!(p.motion, Motion::Free))
        .map(|(p, si)| p.mass * (p.x - si).norm_squared())
        .sum::<f64>()
        / (2.0 * h * h);
    let (mut value, mut size) = (inertia, inertia);
    for force in &model.system.forces {
        let e = force.potential_energy(&model.system.particles);
        value += e;
        size += e.abs();
    }
    (value, size)
}

/// Φ at the model's current positions, for inertial guesses `s` (each particle's
/// x₀ + h v₀): the function [`minimization_step`] minimizes, here for figures.
pub fn phi<const D: usize>(model: &MassSpring<D>, s: &[Vector<D>], h: f64) -> f64 {
    objective(model, s, h).0
}

fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// ∇Φ = M (x − s)/h² − f(x), zero for nailed particles, as a flat vector.
fn gradient<const D: usize>(
    model: &mut MassSpring<D>,
    s: &[Vector<D>],
    h: f64,
) -> Result<Vec<f64>, PbmError> {
    model.system.accumulate_forces()?;
    let mut g = vec![0.0; D * s.len()];
    for (i, p) in model.system.particles.iter().enumerate() {
        if matches!(p.motion, Motion::Free) {
            let gi = (p.x - s[i]) * (p.mass / (h * h)) - p.f;
            g[D * i..D * i + D].copy_from_slice(gi.as_slice());
        }
    }
    Ok(g)
}

// ANCHOR: newton_step
/// One backward Euler step of a mass–spring model whose forces all have a potential
/// (undamped springs, gravity), by minimizing Φ with Newton's method and a
/// backtracking line search. Stops when ‖∇Φ‖ ≤ tol or after `max_iterations`.
/// Fails, with the model back where the step began, if a force has no potential or
/// if no step along a Newton direction lowers Φ.
pub fn minimization_step<const D: usize>(
    model: &mut MassSpring<D>,
    h: f64,
    tol: f64,
    max_iterations: usize,
) -> Result<NewtonReport, PbmError> {
    check_step_size(h)?;
    require_potentials(model)?;
    let x0 = positions(model);
    let s: Vec<Vector<D>> =
        model.system.particles.iter().map(|p| p.x + p.v * h).collect();
    let mut g = gradient(model, &s, h)?;
    let mut report =
        NewtonReport { iterations: 0, gradient_norm: norm(&g), shortened: 0 };
    while report.gradient_norm > tol && report.iterations < max_iterations {
        let direction = newton_direction(model, &g, h)?;
        let alpha;
        (g, alpha) = line_search(model, &s, h, &g, &direction, &x0, &report)?;
        report = NewtonReport {
            iterations: report.iterations + 1,
            gradient_norm: norm(&g),
            shortened: report.shortened + usize::from(alpha < 1.0),
        };
    }
    for (p, x_start) in model.system.particles.iter_mut().zip(&x0) {
        if matches!(p.motion, Motion::Free) {
            p.v = (p.x - x_start) / h; // x₁ = x₀ + h v₁
        }
    }
    model.system.t += h;
    Ok(report)
}
// ANCHOR_END: newton_step

/// Fails unless every force is −∇ of a potential, the only forces Φ can hold.
fn require_potentials<const D: usize>(model: &MassSpring<D>) -> Result<(), PbmError> {
    if let Some(f) = model.system.forces.iter().find(|f| !f.is_conservative()) {
        let why = format!(
            "the {} is not −∇ of a potential (it is damped, or depends \
             on velocity), so Φ has no term for it: set its damping to 0, \
             or use backward_euler_step",
            f.name()
        );
        return Err(PbmError::invalid("minimization step", why));
    }
    Ok(())
}

// ANCHOR: newton_direction
/// The Newton direction Δ, from ∇²Φ Δ = −∇Φ multiplied through by h².
fn newton_direction<const D: usize>(
    model: &MassSpring<D>,
    g: &[f64],
    h: f64,
) -> Result<Vec<f64>, PbmError> {
    // The Hessian times h²: M + h² K, the same matrix as the linearized step's.
    let (hessian_h2, _) = model.system_matrices(h, None)?;
    let rhs: Vec<f64> = g.iter().map(|gi| -h * h * gi).collect();
    let mut direction = vec![0.0; rhs.len()];
    solve_pcg(&hessian_h2, &rhs, &mut direction, 1e-12, 10 * rhs.len() + 100)?;
    Ok(direction)
}
// ANCHOR_END: newton_direction

// ANCHOR: line_search
/// Moves the model from its positions along `direction` by α = 1, 1/2, 1/4, … until
/// Φ falls enough, and returns ∇Φ there and α. Fails, with the model back at `x0`,
/// when α falls below 10⁻¹⁰.
fn line_search<const D: usize>(
    model: &mut MassSpring<D>,
    s: &[Vector<D>],
    h: f64,
    g: &[f64],
    direction: &[f64],
    x0: &[Vector<D>],
    report: &NewtonReport,
) -> Result<(Vec<f64>, f64), PbmError> {
    let slope: f64 = g.iter().zip(direction).map(|(a, b)| a * b).sum();
    let start = positions(model);
    let (phi, size) = objective(model, s, h);
    let mut alpha = 1.0;
    loop {
        set_positions(model, &moved_along(&start, direction, alpha));
        let g_trial = gradient(model, s, h)?;
        // Armijo: Φ must fall by a fraction of what the slope promises. Near the
        // minimum that promise is below Φ's rounding (ε times its terms' size) and
        // values of Φ decide nothing; there the accurate gradient must shrink.
        let promised = -alpha * slope;
        let lower = objective(model, s, h).0 <= phi - 1e-4 * promised;
        let unreadable = promised <= 16.0 * f64::EPSILON * size;
        if lower || (unreadable && norm(&g_trial) < report.gradient_norm) {
            return Ok((g_trial, alpha));
        }
        alpha *= 0.5;
        if alpha < 1e-10 {
            set_positions(model, x0);
            let why = format!(
                "no step along the Newton direction lowers Φ (iteration {}, \
                 ‖∇Φ‖ = {:.3e} N)",
                report.iterations, report.gradient_norm
            );
            return Err(PbmError::degenerate("minimization step", why));
        }
    }
}
// ANCHOR_END: line_search

/// The positions `start` + α Δ, with Δ = `direction` flat, D numbers per particle.
fn moved_along<const D: usize>(
    start: &[Vector<D>],
    direction: &[f64],
    alpha: f64,
) -> Vec<Vector<D>> {
    start
        .iter()
        .enumerate()
        .map(|(i, x)| {
            x + SVector::<f64, D>::from_column_slice(&direction[D * i..D * i + D])
                * alpha
        })
        .collect()
}

/// How far the positions of `model` are from satisfying the backward Euler equations
/// of a step of `h` from positions `x0` and velocities `v0`: ‖M (x − x₀ − h v₀)/h² −
/// f(x)‖ over the free particles (N), which is ‖∇Φ‖ when the forces have a
/// potential. Zero for the exact step; a linearized step leaves what the
/// linearization missed.
pub fn backward_euler_residual<const D: usize>(
    model: &mut MassSpring<D>,
    x0: &[Vector<D>],
    v0: &[Vector<D>],
    h: f64,
) -> Result<f64, PbmError> {
    let s: Vec<Vector<D>> = x0.iter().zip(v0).map(|(x, v)| x + v * h).collect();
    Ok(norm(&gradient(model, &s, h)?))
}
