//! A large stiff system: an n × n mass–spring sheet pinned at two corners, hanging under
//! gravity. At frame-size steps explicit methods explode on it; backward Euler does not.

use crate::mass_spring::MassSpring;
use nalgebra::Vector3;
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::tableau::RK4;
use pbm_particles::forces::DampedSpring;
use pbm_particles::particle::{Motion, Particle};
use pbm_prelim::PbmError;
use std::time::Instant;

/// An n × n sheet, 1 m square and 1 kg in all, lying flat in the x–y plane with gravity along
/// −z, pinned at the two corners of its y = 0 edge. Structural and shear springs of stiffness
/// `k_s` (N/m) with light damping.
pub fn sheet(n: usize, k_s: f64) -> Result<MassSpring<3>, PbmError> {
    if n < 2 {
        return Err(PbmError::invalid(
            "sheet",
            format!("n = {n}; it needs at least 2 × 2 particles"),
        ));
    }
    let spacing = 1.0 / (n - 1) as f64;
    let mass = 1.0 / (n * n) as f64;
    let id = |i: usize, j: usize| i * n + j;
    let mut particles = Vec::with_capacity(n * n);
    for i in 0..n {
        for j in 0..n {
            let p = Particle::new(
                mass,
                Vector3::new(j as f64 * spacing, i as f64 * spacing, 0.0),
                Vector3::zeros(),
            )?;
            let pinned = i == 0 && (j == 0 || j == n - 1);
            particles.push(if pinned { p.with_motion(Motion::Fixed) } else { p });
        }
    }
    let k_d = 0.01 * k_s.sqrt();
    let mut springs = Vec::new();
    for i in 0..n {
        for j in 0..n {
            let mut link = |a: usize, b: usize| -> Result<(), PbmError> {
                springs.push(DampedSpring::at_rest(&particles, a, b, k_s, k_d)?);
                Ok(())
            };
            if j + 1 < n {
                link(id(i, j), id(i, j + 1))?;
            }
            if i + 1 < n {
                link(id(i, j), id(i + 1, j))?;
                if j + 1 < n {
                    link(id(i, j), id(i + 1, j + 1))?;
                    link(id(i, j + 1), id(i + 1, j))?;
                }
            }
        }
    }
    MassSpring::new(particles, springs, Vector3::new(0.0, 0.0, -9.81))
}

/// Whether every particle of the sheet is still within `box_size` metres of the origin.
pub fn bounded(model: &MassSpring<3>, box_size: f64) -> bool {
    model
        .system
        .particles
        .iter()
        .all(|p| p.x.iter().all(|c| c.is_finite() && c.abs() < box_size))
}

/// Result of running the sheet with both kinds of method.
#[derive(Debug, Clone, PartialEq)]
pub struct SheetRun {
    /// RK4 at step h stayed bounded.
    pub explicit_stable: bool,
    /// Backward Euler at step h stayed bounded.
    pub implicit_stable: bool,
    /// Mean CG iterations per implicit step.
    pub mean_cg_iterations: f64,
    /// Mean wall-clock time of an implicit step (ms).
    pub ms_per_step: f64,
    /// Lowest point of the sheet at the end of the implicit run (m).
    pub lowest_z: f64,
}

/// Runs the sheet for `t_end` seconds at step `h`, explicitly (RK4) and implicitly.
pub fn run_sheet(n: usize, k_s: f64, h: f64, t_end: f64) -> Result<SheetRun, PbmError> {
    let steps = (t_end / h).round().max(1.0) as usize;
    let mut explicit = sheet(n, k_s)?;
    let mut rk4 = RungeKutta::new(RK4);
    let mut explicit_stable = true;
    for _ in 0..steps {
        if rk4.step(&mut explicit.system, h).is_err() || !bounded(&explicit, 10.0) {
            explicit_stable = false;
            break;
        }
    }
    let mut implicit = sheet(n, k_s)?;
    let mut iterations = 0;
    let mut implicit_stable = true;
    let start = Instant::now();
    for _ in 0..steps {
        match implicit.backward_euler_step(h) {
            Ok(report) => iterations += report.cg.iterations,
            Err(_) => {
                implicit_stable = false;
                break;
            }
        }
        if !bounded(&implicit, 10.0) {
            implicit_stable = false;
            break;
        }
    }
    let ms_per_step = start.elapsed().as_secs_f64() * 1e3 / steps as f64;
    let lowest_z =
        implicit.system.particles.iter().map(|p| p.x.z).fold(f64::INFINITY, f64::min);
    Ok(SheetRun {
        explicit_stable,
        implicit_stable,
        mean_cg_iterations: iterations as f64 / steps as f64,
        ms_per_step,
        lowest_z,
    })
}
