//! Long runs: a symplectic step against a high-order one. Störmer–Verlet is second
//! order and exact in nothing, but it is the exact solution of a slightly different
//! Hamiltonian system, so its energy error stays bounded over any number of orbits;
//! Dormand–Prince's error is far smaller per step and grows without bound.

use crate::runge_kutta::RungeKutta;
use crate::scenes::{KEPLER_PERIOD, kepler_energy, kepler_orbit};
use crate::system::{OdeSystem, state_of};
use crate::tableau::DORMAND_PRINCE;
use pbm_prelim::PbmError;

// ANCHOR: verlet
/// One Störmer–Verlet step for x'' = a(x) (kick, drift, kick): v += ½h a(x);
/// x += h v; v += ½h a(x) with the acceleration at the new x, which the next step
/// starts from. One evaluation of `accel` a step.
pub fn verlet_step(
    (x, v, a): (&mut [f64], &mut [f64], &mut [f64]),
    h: f64,
    accel: impl Fn(&[f64], &mut [f64]),
) {
    for i in 0..x.len() {
        v[i] += 0.5 * h * a[i];
        x[i] += h * v[i];
    }
    accel(x, a);
    for i in 0..x.len() {
        v[i] += 0.5 * h * a[i];
    }
}
// ANCHOR_END: verlet

/// The orbits of the page's run (and the exercise's default).
pub const SYMPLECTIC_ORBITS: usize = 100;
/// Force evaluations per orbit of the page's run, for each integrator.
pub const SYMPLECTIC_EVALUATIONS: usize = 3000;

/// The sun's pull on a planet at `x` (G M = 1): −x/|x|³.
pub fn kepler_acceleration(x: &[f64], a: &mut [f64]) {
    let r2 = x[0] * x[0] + x[1] * x[1];
    let r3 = r2 * r2.sqrt();
    a[0] = -x[0] / r3;
    a[1] = -x[1] / r3;
}

/// One integrator's energy record on the orbit.
#[derive(Debug, Clone, PartialEq)]
pub struct EnergyRecord {
    /// Derivative (force) evaluations spent.
    pub evaluations: usize,
    /// Per window of `sample` steps: its end time and the lowest and highest
    /// E − E₀ in it (a step's error swings within an orbit; the window keeps both
    /// ends of the swing).
    pub windows: Vec<(f64, f64, f64)>,
    /// E − E₀ after the last step.
    pub final_error: f64,
    /// The largest |E − E₀| over every step.
    pub max_error: f64,
    /// The final state.
    pub end: [f64; 4],
}

impl EnergyRecord {
    fn new(evaluations: usize) -> Self {
        EnergyRecord {
            evaluations,
            windows: Vec::new(),
            final_error: 0.0,
            max_error: 0.0,
            end: [0.0; 4],
        }
    }

    /// Records a step's error at time `t`; `close` ends the current window.
    fn add(&mut self, t: f64, error: f64, close: bool) {
        self.max_error = self.max_error.max(error.abs());
        self.final_error = error;
        match self.windows.last_mut() {
            Some(w) if w.0.is_nan() => {
                w.1 = w.1.min(error);
                w.2 = w.2.max(error);
            }
            _ => self.windows.push((f64::NAN, error, error)),
        }
        if let (true, Some(w)) = (close, self.windows.last_mut()) {
            w.0 = t;
        }
    }
}

/// Störmer–Verlet on the orbit of eccentricity `e` for `orbits` periods,
/// `steps_per_orbit` steps each, recording the lowest and highest energy error of every `sample` steps.
pub fn verlet_orbit(
    e: f64,
    orbits: usize,
    steps_per_orbit: usize,
    sample: usize,
) -> Result<EnergyRecord, PbmError> {
    let s0 = state_of(&kepler_orbit(e)?);
    let (mut x, mut v, mut a) = ([s0[0], s0[1]], [s0[2], s0[3]], [0.0; 2]);
    let h = KEPLER_PERIOD / steps_per_orbit as f64;
    kepler_acceleration(&x, &mut a);
    let e0 = kepler_energy(&s0);
    let mut record = EnergyRecord::new(1);
    let total = orbits * steps_per_orbit;
    for step in 1..=total {
        verlet_step((&mut x, &mut v, &mut a), h, kepler_acceleration);
        record.evaluations += 1;
        let error = kepler_energy(&[x[0], x[1], v[0], v[1]]) - e0;
        if !error.is_finite() {
            return Err(PbmError::Diverged { step, time: step as f64 * h });
        }
        record.add(
            step as f64 * h,
            error,
            step % sample.max(1) == 0 || step == total,
        );
    }
    record.end = [x[0], x[1], v[0], v[1]];
    Ok(record)
}

/// Dormand–Prince at a fixed step on the same orbit, `steps_per_orbit` steps a
/// period (six evaluations a step after the first, seven on the first).
pub fn dopri_orbit(
    e: f64,
    orbits: usize,
    steps_per_orbit: usize,
    sample: usize,
) -> Result<EnergyRecord, PbmError> {
    let mut system = kepler_orbit(e)?;
    let mut rk = RungeKutta::reusing(DORMAND_PRINCE);
    let h = KEPLER_PERIOD / steps_per_orbit as f64;
    let e0 = kepler_energy(&state_of(&system));
    let mut record = EnergyRecord::new(0);
    let mut s = vec![0.0; 4];
    let total = orbits * steps_per_orbit;
    for step in 1..=total {
        rk.step(&mut system, h)?;
        system.gather_state(&mut s);
        let error = kepler_energy(&s) - e0;
        record.add(
            step as f64 * h,
            error,
            step % sample.max(1) == 0 || step == total,
        );
    }
    record.evaluations = rk.evaluations();
    record.end = [s[0], s[1], s[2], s[3]];
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenes::kepler_exact;

    #[test]
    fn verlet_is_second_order_and_time_reversible() {
        // One orbit at n and 2n steps: the end-point error falls by about 4.
        let gap = |n: usize| {
            let r = verlet_orbit(0.5, 1, n, n).unwrap();
            let x = kepler_exact(0.5, KEPLER_PERIOD);
            (r.end[0] - x[0]).hypot(r.end[1] - x[1])
        };
        let ratio = gap(4000) / gap(8000);
        assert!((ratio - 4.0).abs() < 0.2, "{ratio}");
        // Reversible: step forward, flip the velocity, step back, arrive home.
        let (mut x, mut v, mut a) = ([0.5, 0.0], [0.0, 3f64.sqrt()], [0.0; 2]);
        kepler_acceleration(&x, &mut a);
        for _ in 0..1000 {
            verlet_step((&mut x, &mut v, &mut a), 1e-3, kepler_acceleration);
        }
        v = [-v[0], -v[1]];
        for _ in 0..1000 {
            verlet_step((&mut x, &mut v, &mut a), 1e-3, kepler_acceleration);
        }
        assert!((x[0] - 0.5).abs() < 1e-12 && x[1].abs() < 1e-12, "{x:?}");
    }

    #[test]
    fn verlets_energy_error_stays_bounded_while_dormand_princes_grows() {
        // Equal evaluations: Dormand–Prince gets a sixth of Verlet's steps. Over
        // 10 and then 40 orbits Verlet's largest energy error does not grow (a
        // bounded oscillation); Dormand–Prince's grows about in proportion to time.
        let (e, n) = (0.9, 6000);
        let v10 = verlet_orbit(e, 10, n, n).unwrap().max_error;
        let v40 = verlet_orbit(e, 40, n, n).unwrap().max_error;
        let d10 = dopri_orbit(e, 10, n / 6, n).unwrap().max_error;
        let d40 = dopri_orbit(e, 40, n / 6, n).unwrap().max_error;
        assert!(v40 < 1.05 * v10, "Verlet {v10} then {v40}");
        assert!(d40 > 3.0 * d10, "Dormand–Prince {d10} then {d40}");
    }
}
