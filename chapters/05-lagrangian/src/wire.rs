//! A bead on any wire given as a plane curve c(θ): the parametric model of
//! [`crate::models::Bead`] with the circle replaced by a curve and its first two
//! derivatives, q = c(θ), J = c′(θ) and J̇ = c″(θ) θ̇. The page's demo offers two
//! curves the circle and ellipse do not cover: the cycloid, on which a bead's swing
//! takes the same time from any height (the tautochrone), and a figure eight.

use crate::parametric::ParametricModel;
use nalgebra::{DMatrix, DVector, Vector2};
use pbm_prelim::PbmError;
use pbm_prelim::validate::positive;
use std::f64::consts::PI;

/// A plane curve and its derivatives in its parameter θ.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Curve {
    /// The cycloid c(θ) = a (θ + sin θ, 1 − cos θ), θ in (−π, π): a bowl with its
    /// bottom at the origin and cusps at height 2a.
    Cycloid {
        /// The rolling circle's radius (m).
        a: f64,
    },
    /// The figure eight (Gerono's lemniscate) c(θ) = a (sin θ, sin θ cos θ).
    FigureEight {
        /// Its half-width (m).
        a: f64,
    },
}

impl Curve {
    /// c(θ), c′(θ) and c″(θ).
    pub fn at(&self, theta: f64) -> [Vector2<f64>; 3] {
        let (s, c) = theta.sin_cos();
        match *self {
            Curve::Cycloid { a } => [
                Vector2::new(a * (theta + s), a * (1.0 - c)),
                Vector2::new(a * (1.0 + c), a * s),
                Vector2::new(-a * s, a * c),
            ],
            Curve::FigureEight { a } => {
                let (s2, c2) = (2.0 * theta).sin_cos();
                [
                    Vector2::new(a * s, 0.5 * a * s2),
                    Vector2::new(a * c, a * c2),
                    Vector2::new(-a * s, -2.0 * a * s2),
                ]
            }
        }
    }

    /// The parameter's range: the cycloid's open interval between its cusps (where
    /// c′ = 0 and the parametrisation is singular), the eight's whole turn, drawn from
    /// its lowest point.
    pub fn range(&self) -> (f64, f64) {
        match self {
            Curve::Cycloid { .. } => (-PI, PI),
            Curve::FigureEight { .. } => (-0.25 * PI, 1.75 * PI),
        }
    }
}

// ANCHOR: wire_bead
/// A bead of mass m on the wire `curve` under gravity g along −y: one coordinate θ.
#[derive(Debug, Clone)]
pub struct WireBead {
    masses: [f64; 2],
    curve: Curve,
    g: f64,
}

impl ParametricModel for WireBead {
    fn dof(&self) -> usize {
        1
    }
    fn masses(&self) -> &[f64] {
        &self.masses
    }
    fn positions(&self, u: &[f64]) -> DVector<f64> {
        let [c, _, _] = self.curve.at(u[0]);
        DVector::from_column_slice(c.as_slice())
    }
    fn jacobian(&self, u: &[f64]) -> DMatrix<f64> {
        let [_, dc, _] = self.curve.at(u[0]);
        DMatrix::from_column_slice(2, 1, dc.as_slice())
    }
    fn jacobian_dot(&self, u: &[f64], u_dot: &[f64]) -> DMatrix<f64> {
        let [_, _, ddc] = self.curve.at(u[0]);
        DMatrix::from_column_slice(2, 1, (ddc * u_dot[0]).as_slice())
    }
    fn gravity(&self) -> f64 {
        self.g
    }
}
// ANCHOR_END: wire_bead

impl WireBead {
    /// A bead of `mass` on `curve` (its size positive) under gravity `g`.
    pub fn new(mass: f64, curve: Curve, g: f64) -> Result<Self, PbmError> {
        let mass = positive("wire bead", "mass", mass)?;
        match curve {
            Curve::Cycloid { a } | Curve::FigureEight { a } => {
                positive("wire bead", "curve size", a)?;
            }
        }
        Ok(WireBead { masses: [mass, mass], curve, g })
    }

    /// The wire.
    pub fn curve(&self) -> Curve {
        self.curve
    }
}

/// The period of small and large swings on the cycloid of rolling radius `a`:
/// 4π √(a/g), the same from every height (Huygens's tautochrone).
pub fn tautochrone_period(a: f64, g: f64) -> f64 {
    4.0 * PI * (a / g).sqrt()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

    use super::*;
    use crate::parametric::LagrangianSystem;
    use pbm_ode::runge_kutta::RungeKutta;
    use pbm_ode::tableau::RK4;

    const CURVES: [Curve; 2] =
        [Curve::Cycloid { a: 0.5 }, Curve::FigureEight { a: 1.2 }];

    #[test]
    fn the_derivatives_of_each_curve_are_its_central_differences() {
        let d = 1e-5;
        for curve in CURVES {
            for theta in [-2.5, -1.0, 0.0, 0.3, 1.7, 2.9] {
                let [_, dc, ddc] = curve.at(theta);
                let [plus, dplus, _] = curve.at(theta + d);
                let [minus, dminus, _] = curve.at(theta - d);
                assert!(((plus - minus) / (2.0 * d) - dc).norm() < 1e-8, "{curve:?}");
                assert!(
                    ((dplus - dminus) / (2.0 * d) - ddc).norm() < 1e-8,
                    "{curve:?}"
                );
            }
        }
    }

    #[test]
    fn a_bead_on_either_wire_keeps_its_energy_under_rk4_and_stays_on_the_wire() {
        for curve in CURVES {
            let model = WireBead::new(1.0, curve, 9.81).unwrap();
            let mut system =
                LagrangianSystem::new(model, vec![1.0], vec![0.0]).unwrap();
            let e0 = system.energy();
            let mut rk4 = RungeKutta::new(RK4);
            for _ in 0..2000 {
                rk4.step(&mut system, 0.002).unwrap();
            }
            let drift = (system.energy() - e0).abs() / 9.81;
            assert!(drift < 1e-7, "{curve:?}: energy drift {drift} m");
            let [c, _, _] = system.model.curve().at(system.u[0]);
            assert!((system.positions()[0] - c.x).abs() == 0.0);
        }
    }

    /// The time between two successive right-hand turning points (θ̇ from + to −),
    /// each found by linear interpolation of θ̇ between steps.
    fn cycloid_period(start: f64) -> f64 {
        let model = WireBead::new(1.0, Curve::Cycloid { a: 0.5 }, 9.81).unwrap();
        let mut system =
            LagrangianSystem::new(model, vec![start], vec![0.0]).unwrap();
        let (mut rk4, h) = (RungeKutta::new(RK4), 1e-4);
        let mut turns = Vec::new();
        // Start just past a right-hand turn: the next two are one period apart.
        while turns.len() < 2 {
            let (t0, w0) = (system.t, system.u_dot[0]);
            rk4.step(&mut system, h).unwrap();
            let w1 = system.u_dot[0];
            if system.t > h && w0 > 0.0 && w1 <= 0.0 {
                turns.push(t0 + h * w0 / (w0 - w1));
            }
        }
        turns[1] - turns[0]
    }

    #[test]
    fn on_the_cycloid_a_swing_takes_four_pi_root_a_over_g_from_any_height() {
        let expected = tautochrone_period(0.5, 9.81);
        for start in [0.2, 1.5, 2.8] {
            let period = cycloid_period(start);
            assert!(
                (period - expected).abs() < 1e-6 * expected,
                "from θ = {start}: {period} s, not {expected} s"
            );
        }
    }
}
