//! A large stiff system: an n × n mass–spring sheet pinned at two corners, hanging
//! under gravity. At frame-size steps explicit methods explode on it; backward Euler
//! does not.

use crate::mass_spring::{MassSpring, Preconditioner};
use nalgebra::Vector3;
use pbm_ode::runge_kutta::{RungeKutta, step_count};
use pbm_ode::tableau::RK4;
use pbm_particles::forces::G;
use pbm_particles::particle::{Motion, Particle};
use pbm_particles::spring::DampedSpring;
use pbm_prelim::PbmError;
use pbm_prelim::validate::positive;

/// An n × n sheet, 1 m square and 1 kg in all, lying flat in the x–y plane with
/// gravity along −z, pinned at the two corners of its y = 0 edge. Structural and
/// shear springs of stiffness `k_s` (N/m) with light damping.
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
    MassSpring::new(particles, springs, Vector3::new(0.0, 0.0, -G))
}

/// Whether every particle of the sheet is still within `box_size` metres of the
/// origin.
pub fn bounded(model: &MassSpring<3>, box_size: f64) -> bool {
    model
        .system
        .particles
        .iter()
        .all(|p| p.x.iter().all(|c| c.is_finite() && c.abs() < box_size))
}

/// Whether RK4 at step `h` keeps the n × n sheet bounded for `t_end` seconds (at
/// least one step).
pub fn explicit_sheet_stays_bounded(
    n: usize,
    k_s: f64,
    h: f64,
    t_end: f64,
) -> Result<bool, PbmError> {
    let mut explicit = sheet(n, k_s)?;
    let mut rk4 = RungeKutta::new(RK4);
    for _ in 0..step_count(h, t_end)?.max(1) {
        if rk4.step(&mut explicit.system, h).is_err() || !bounded(&explicit, 10.0) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// What backward Euler did on the sheet.
#[derive(Debug, Clone, PartialEq)]
pub struct ImplicitSheetRun {
    /// Every step succeeded and the sheet stayed bounded.
    pub stable: bool,
    /// Implicit steps taken.
    pub steps: usize,
    /// Mean CG iterations per implicit step.
    pub mean_cg_iterations: f64,
    /// Lowest point of the sheet at the end (m).
    pub lowest_z: f64,
}

/// How each implicit step's linear system is solved: CG to this relative residual,
/// from the last step's Δv or from zero, with this preconditioner.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Solve {
    /// CG's relative residual.
    pub tolerance: f64,
    /// Start from the last step's Δv.
    pub warm_start: bool,
    /// CG's preconditioner.
    pub preconditioner: Preconditioner,
}

impl Solve {
    /// What a frame of animation needs: three digits, from the last step's answer,
    /// preconditioned by a multigrid cycle. The page compares it with ten digits
    /// from zero.
    pub const FRAME: Solve = Solve {
        tolerance: 1e-3,
        warm_start: true,
        preconditioner: Preconditioner::Multigrid,
    };
    /// Ten digits from a zero start: the linear system solved, not just the frame.
    pub const TIGHT: Solve = Solve {
        tolerance: 1e-10,
        warm_start: false,
        preconditioner: Preconditioner::Multigrid,
    };
}

/// Runs the n × n sheet for `t_end` seconds (at least one step) with backward Euler
/// at `h`, each step's system solved as `solve` says.
pub fn implicit_sheet_run(
    n: usize,
    k_s: f64,
    h: f64,
    t_end: f64,
    solve: Solve,
) -> Result<ImplicitSheetRun, PbmError> {
    let steps = step_count(h, t_end)?.max(1);
    let mut implicit = sheet(n, k_s)?;
    implicit.cg_tolerance = positive("sheet", "tolerance", solve.tolerance)?;
    implicit.warm_start = solve.warm_start;
    implicit.preconditioner = solve.preconditioner;
    let mut iterations = 0;
    let mut stable = true;
    for _ in 0..steps {
        match implicit.backward_euler_step(h) {
            Ok(report) => iterations += report.cg.iterations,
            Err(_) => {
                stable = false;
                break;
            }
        }
        if !bounded(&implicit, 10.0) {
            stable = false;
            break;
        }
    }
    let lowest_z =
        implicit.system.particles.iter().map(|p| p.x.z).fold(f64::INFINITY, f64::min);
    Ok(ImplicitSheetRun {
        stable,
        steps,
        mean_cg_iterations: iterations as f64 / steps as f64,
        lowest_z,
    })
}
