//! The model problems of the chapter, each with something known exactly to check
//! against: the circular field (its integral curves are circles), exponential decay
//! (x = x0 e^{-kt}), a Kepler orbit (it returns to its start after one period) and a
//! damped pendulum (for the picture of a vector field).

use crate::system::{OdeSystem, VectorField};
use pbm_prelim::PbmError;
use pbm_prelim::validate::positive;
use std::f64::consts::TAU;

/// A vector field given by a plain function; what every problem below returns.
pub type Field = VectorField<fn(f64, &[f64], &mut [f64])>;

// ANCHOR: circle_field
/// f(x, y) = (−y, x): every integral curve is a circle about the origin, run
/// counter-clockwise once every 2π seconds.
pub fn circle_derivative(_t: f64, x: &[f64], xdot: &mut [f64]) {
    xdot[0] = -x[1];
    xdot[1] = x[0];
}
// ANCHOR_END: circle_field

/// The circular field starting at `(x0, y0)` at t = 0.
pub fn circle_field(x0: f64, y0: f64) -> Result<Field, PbmError> {
    VectorField::new(&[x0, y0], 0.0, circle_derivative as fn(f64, &[f64], &mut [f64]))
}

// ANCHOR: euler_radius_ratio
/// The factor by which one Euler step of size h multiplies the distance from the
/// origin in the circular field: |x + h(−y, x)|² = (1 + h²)|x|², whatever the point.
pub fn euler_radius_ratio(h: f64) -> f64 {
    (1.0 + h * h).sqrt()
}
// ANCHOR_END: euler_radius_ratio

/// x' = −k x from x(0) = x0, with its exact solution x0 e^{−kt}.
pub struct Decay {
    /// The rate constant k (1/s), positive.
    pub k: f64,
}

impl Decay {
    /// Validates k > 0 and finite.
    pub fn new(k: f64) -> Result<Self, PbmError> {
        Ok(Decay { k: positive("decay rate", "k", k)? })
    }

    /// The exact solution at time t.
    pub fn exact(&self, x0: f64, t: f64) -> f64 {
        x0 * (-self.k * t).exp()
    }

    /// The system starting at x0 at t = 0.
    pub fn system(&self, x0: f64) -> Result<impl OdeSystem, PbmError> {
        let k = self.k;
        VectorField::new(&[x0], 0.0, move |_, x, xdot| xdot[0] = -k * x[0])
    }
}

// ANCHOR: kepler
/// A planet around a sun of unit mass (G M = 1): state (x, y, v_x, v_y), acceleration
/// −r/|r|³.
pub fn kepler_derivative(_t: f64, s: &[f64], sdot: &mut [f64]) {
    let r2 = s[0] * s[0] + s[1] * s[1];
    let r3 = r2 * r2.sqrt();
    sdot[0] = s[2];
    sdot[1] = s[3];
    sdot[2] = -s[0] / r3;
    sdot[3] = -s[1] / r3;
}
// ANCHOR_END: kepler

/// One period of an orbit with semi-major axis 1 and G M = 1 (Kepler's third law: T =
/// 2π a^{3/2}).
pub const KEPLER_PERIOD: f64 = TAU;

/// The orbit of eccentricity `e` (0 ≤ e < 1, semi-major axis 1), started at
/// perihelion: position (1 − e, 0), velocity (0, √((1 + e)/(1 − e))) from the
/// vis-viva equation. After each [`KEPLER_PERIOD`] the exact solution is back at this
/// state.
pub fn kepler_initial_state(e: f64) -> Result<[f64; 4], PbmError> {
    if !(0.0..0.99).contains(&e) {
        return Err(PbmError::invalid(
            "eccentricity",
            format!("e = {e}; allowed: [0, 0.99)"),
        ));
    }
    Ok([1.0 - e, 0.0, 0.0, ((1.0 + e) / (1.0 - e)).sqrt()])
}

/// The Kepler orbit of eccentricity `e` as a system.
pub fn kepler_orbit(e: f64) -> Result<Field, PbmError> {
    VectorField::new(
        &kepler_initial_state(e)?,
        0.0,
        kepler_derivative as fn(f64, &[f64], &mut [f64]),
    )
}

/// The exact state at time `t` of [`kepler_orbit`]`(e)`, from Kepler's equation
/// M = E − e sin E (mean anomaly M = t for a = 1, G M = 1), solved for the
/// eccentric anomaly E by Newton's method: position (cos E − e, √(1 − e²) sin E),
/// velocity (−sin E, √(1 − e²) cos E) / (1 − e cos E).
pub fn kepler_exact(e: f64, t: f64) -> [f64; 4] {
    let m = t.rem_euclid(KEPLER_PERIOD);
    let mut big_e = if e > 0.8 { std::f64::consts::PI } else { m };
    for _ in 0..50 {
        let step = (big_e - e * big_e.sin() - m) / (1.0 - e * big_e.cos());
        big_e -= step;
        if step.abs() < 1e-15 {
            break;
        }
    }
    let (s, c, root) = (big_e.sin(), big_e.cos(), (1.0 - e * e).sqrt());
    let rate = 1.0 / (1.0 - e * c);
    [c - e, root * s, -s * rate, root * c * rate]
}

/// The energy ½|v|² − 1/|r| of a Kepler state; −1/2 for every orbit of
/// [`kepler_orbit`] (semi-major axis 1).
pub fn kepler_energy(s: &[f64]) -> f64 {
    0.5 * (s[2] * s[2] + s[3] * s[3]) - 1.0 / s[0].hypot(s[1])
}

/// Damping of the pendulum in the vector-field figure (1/s).
pub const PENDULUM_DAMPING: f64 = 0.25;

/// A damped pendulum in phase space, state (θ, ω): θ' = ω, ω' = −sin θ − c ω with c =
/// [`PENDULUM_DAMPING`]. A nonlinear field whose integral curves spiral into rest.
pub fn pendulum_derivative(_t: f64, s: &[f64], sdot: &mut [f64]) {
    sdot[0] = s[1];
    sdot[1] = -s[0].sin() - PENDULUM_DAMPING * s[1];
}

/// The damped pendulum from (θ0, ω0).
pub fn pendulum(theta0: f64, omega0: f64) -> Result<Field, PbmError> {
    VectorField::new(
        &[theta0, omega0],
        0.0,
        pendulum_derivative as fn(f64, &[f64], &mut [f64]),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runge_kutta::integrate;
    use crate::tableau::RK4;

    #[test]
    fn kepler_orbit_returns_after_one_period() {
        // RK4 with 20,000 steps: error ~ C h^4, far below the tolerance.
        let e = 0.5;
        let mut orbit = kepler_orbit(e).unwrap();
        let states =
            integrate(&mut orbit, RK4, KEPLER_PERIOD / 20_000.0, 20_000).unwrap();
        let start = kepler_initial_state(e).unwrap();
        let end = states.last().unwrap();
        for i in 0..4 {
            assert!(
                (end[i] - start[i]).abs() < 1e-9,
                "{i}: {} vs {}",
                end[i],
                start[i]
            );
        }
    }

    #[test]
    fn bad_problem_parameters_are_errors() {
        assert!(kepler_initial_state(1.0).is_err());
        assert!(kepler_initial_state(-0.1).is_err());
        assert!(kepler_initial_state(f64::NAN).is_err());
        assert!(Decay::new(0.0).is_err());
        assert!(Decay::new(f64::NAN).is_err());
    }
}
