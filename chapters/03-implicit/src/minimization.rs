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
}

fn positions<const D: usize>(model: &MassSpring<D>) -> Vec<Vector<D>> {
    model.system.particles.iter().map(|p| p.x).collect()
}

fn set_positions<const D: usize>(model: &mut MassSpring<D>, x: &[Vector<D>]) {
    for (p, xi) in model.system.particles.iter_mut().zip(x) {
        p.x = *xi;
    }
}

/// Φ at the current positions.
fn objective<const D: usize>(model: &MassSpring<D>, s: &[Vector<D>], h: f64) -> f64 {
    let inertia: f64 = model
        .system
        .particles
        .iter()
        .zip(s)
        .filter(|(p, _)| matches!(p.motion, Motion::Free))
        .map(|(p, si)| p.mass * (p.x - si).norm_squared())
        .sum::<f64>()
        / (2.0 * h * h);
    let potential: f64 = model
        .system
        .forces
        .iter()
        .map(|f| f.potential_energy(&model.system.particles))
        .sum();
    inertia + potential
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
/// One backward Euler step of an undamped mass–spring model by minimizing Φ with
/// Newton's method and a backtracking line search. Stops when ‖∇Φ‖ ≤ tol or after
/// `max_iterations`.
pub fn minimization_step<const D: usize>(
    model: &mut MassSpring<D>,
    h: f64,
    tol: f64,
    max_iterations: usize,
) -> Result<NewtonReport, PbmError> {
    check_step_size(h)?;
    let x0 = positions(model);
    let s: Vec<Vector<D>> =
        model.system.particles.iter().map(|p| p.x + p.v * h).collect();
    let mut report = NewtonReport { iterations: 0, gradient_norm: f64::INFINITY };
    for iteration in 0..=max_iterations {
        let g = gradient(model, &s, h)?;
        report = NewtonReport {
            iterations: iteration,
            gradient_norm: g.iter().map(|v| v * v).sum::<f64>().sqrt(),
        };
        if report.gradient_norm <= tol || iteration == max_iterations {
            break;
        }
        // The Hessian times h²: M + h² K, the same matrix as the linearized step's.
        let (hessian_h2, _) = model.system_matrices(h)?;
        let rhs: Vec<f64> = g.iter().map(|gi| -h * h * gi).collect();
        let mut direction = vec![0.0; rhs.len()];
        solve_pcg(&hessian_h2, &rhs, &mut direction, 1e-12, 10 * rhs.len() + 100)?;
        let slope: f64 = g.iter().zip(&direction).map(|(a, b)| a * b).sum();
        let (start, phi) = (positions(model), objective(model, &s, h));
        let mut alpha = 1.0;
        loop {
            let trial: Vec<Vector<D>> = start
                .iter()
                .enumerate()
                .map(|(i, x)| {
                    x + SVector::<f64, D>::from_column_slice(
                        &direction[D * i..D * i + D],
                    ) * alpha
                })
                .collect();
            set_positions(model, &trial);
            // Armijo: accept a step that lowers Φ by a fraction of what the slope
            // promises.
            if objective(model, &s, h) <= phi + 1e-4 * alpha * slope || alpha < 1e-8 {
                break;
            }
            alpha *= 0.5;
        }
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
