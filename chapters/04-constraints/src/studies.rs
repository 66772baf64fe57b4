//! The chapter's two numerical arguments: drift (and the feedback that cures it), and
//! why a chain of rods beats a chain of stiff springs.

use crate::models::{Chain, bead};
use crate::system::Feedback;
use pbm_ode::runge_kutta::{RungeKutta, step_count};
use pbm_ode::system::OdeSystem;
use pbm_ode::tableau::{ButcherTableau, RK4};
use pbm_particles::forces::G;
use pbm_particles::particle::ParticleSystem;
use pbm_prelim::PbmError;

// ANCHOR: drift
/// |C| of the bead after every step of size `h` up to `t_end`: (t, |C|).
pub fn bead_drift(
    tableau: ButcherTableau,
    feedback: Feedback,
    h: f64,
    t_end: f64,
) -> Result<Vec<(f64, f64)>, PbmError> {
    let mut system = bead(feedback)?;
    let mut stepper = RungeKutta::new(tableau);
    let mut track = vec![(0.0, system.max_abs_c()?)];
    for _ in 0..step_count(h, t_end)? {
        stepper.step(&mut system, h)?;
        track.push((system.time(), system.max_abs_c()?));
    }
    Ok(track)
}
// ANCHOR_END: drift

/// How the chain's links are held.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Holder {
    /// Rigid rods: constraint forces.
    Rods,
    /// Penalty springs of this stiffness (N/m).
    Springs(f64),
}

/// What one chain run did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChainRun {
    /// Whether every step succeeded (finite state, converged constraint solves).
    pub completed: bool,
    /// The largest relative link-length error |ℓ − L|/L seen.
    pub max_length_error: f64,
    /// The largest |E − E₀| seen, relative to the chain's energy scale m g L (whole
    /// chain).
    pub max_energy_change: f64,
}

impl ChainRun {
    /// A run counts as stable if it finished, kept its energy within 5% of the scale
    /// and no link stretched or shrank by half. Past the stability limit the energy
    /// grows by orders of magnitude within the run, so the exact thresholds hardly
    /// move the limit.
    pub fn stable(&self) -> bool {
        self.completed && self.max_energy_change < 0.05 && self.max_length_error < 0.5
    }
}

/// Runs the book's chain with RK4 at step h for t_end seconds.
pub fn run_chain(
    chain: Chain,
    holder: Holder,
    h: f64,
    t_end: f64,
) -> Result<ChainRun, PbmError> {
    let n = step_count(h, t_end)?;
    let scale =
        chain.links as f64 * chain.mass * G * chain.links as f64 * chain.length;
    let mut stepper = RungeKutta::new(RK4);
    let mut run =
        ChainRun { completed: true, max_length_error: 0.0, max_energy_change: 0.0 };
    let observe = |particles: &ParticleSystem<2>, e0: f64, run: &mut ChainRun| {
        run.max_length_error =
            run.max_length_error.max(chain.length_error(&particles.particles));
        run.max_energy_change =
            run.max_energy_change.max((particles.energy() - e0).abs() / scale);
    };
    match holder {
        Holder::Rods => {
            let mut system = chain.with_rods()?;
            let e0 = system.energy();
            for _ in 0..n {
                if stepper.step(&mut system, h).is_err() {
                    run.completed = false;
                    break;
                }
                observe(&system.particles, e0, &mut run);
            }
        }
        Holder::Springs(k) => {
            let mut system = chain.with_springs(k)?;
            let e0 = system.energy();
            for _ in 0..n {
                if stepper.step(&mut system, h).is_err() {
                    run.completed = false;
                    break;
                }
                observe(&system, e0, &mut run);
            }
        }
    }
    Ok(run)
}

// ANCHOR: max_stable
/// The largest RK4 step at which the chain stays stable for t_end, by bisection in
/// log h between 1e-6 s and 0.5 s (returned as is if even 0.5 s is stable).
pub fn max_stable_step(
    chain: Chain,
    holder: Holder,
    t_end: f64,
) -> Result<f64, PbmError> {
    let (mut stable, mut unstable) = (1e-6_f64, 0.5_f64);
    if run_chain(chain, holder, unstable, t_end)?.stable() {
        return Ok(unstable);
    }
    if !run_chain(chain, holder, stable, t_end.min(0.01))?.stable() {
        return Err(PbmError::invalid("chain", "unstable even at h = 1e-6 s"));
    }
    for _ in 0..24 {
        let mid = (stable * unstable).sqrt();
        if run_chain(chain, holder, mid, t_end)?.stable() {
            stable = mid;
        } else {
            unstable = mid;
        }
    }
    Ok(stable)
}
// ANCHOR_END: max_stable
