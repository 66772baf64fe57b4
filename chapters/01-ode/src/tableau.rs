//! Explicit Runge–Kutta methods as data (course notes, sections 2.1–2.2): Euler,
//! midpoint and RK4 differ only in where they evaluate f and how they weight the
//! results, which a Butcher tableau records. The Dormand–Prince pair adds a second
//! set of weights for error estimation.

// ANCHOR: tableau
/// An explicit Runge–Kutta method: stage i evaluates f at x0 + h Σ_j a[i][j] k_j,
/// time t0 + c[i] h; the step is x1 = x0 + h Σ_i b[i] k_i.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ButcherTableau {
    /// Name used in figures and tables.
    pub name: &'static str,
    /// Stage coefficients; row i has i entries (strictly lower triangular).
    pub a: &'static [&'static [f64]],
    /// Weights of the stages in the step.
    pub b: &'static [f64],
    /// Stage times as fractions of the step.
    pub c: &'static [f64],
    /// Global order of accuracy of the step given by `b`.
    pub order: u32,
    /// For an embedded pair: weights of a lower-order step, whose difference from `b`
    /// estimates the local error; and that lower order.
    pub embedded: Option<(&'static [f64], u32)>,
}
// ANCHOR_END: tableau

impl ButcherTableau {
    /// Number of stages, i.e. derivative evaluations per step.
    pub fn stages(&self) -> usize {
        self.b.len()
    }

    /// Whether the last stage is evaluated where the step ends: its row of `a` is
    /// `b` and its `c` is 1, so it is f(x1, t0 + h), the next step's first stage.
    /// Dormand and Prince built their pair this way ("first same as last"): seven
    /// stages, six new evaluations a step.
    pub fn first_same_as_last(&self) -> bool {
        let s = self.stages();
        s > 1
            && self.c[s - 1] == 1.0
            && self.b[s - 1] == 0.0
            && self.a[s - 1] == &self.b[..s - 1]
    }

    // ANCHOR: stability_polynomial
    /// The coefficients of the stability function R(z), the factor one step
    /// applies to ẏ = λy with z = hλ. On that equation the stages solve
    /// k = λ y₀ 𝟙 + z A k, so k = λ (I + zA + z²A² + …) 𝟙 y₀ and
    /// y₁ = (1 + z bᵀ𝟙 + z² bᵀA𝟙 + z³ bᵀA²𝟙 + …) y₀. A is strictly lower
    /// triangular (A^s = 0), so the series stops: R is a polynomial of degree at
    /// most s. Returns [1, bᵀ𝟙, bᵀA𝟙, …, bᵀA^{s−1}𝟙].
    pub fn stability_polynomial(&self) -> Vec<f64> {
        let s = self.stages();
        let mut coefficients = vec![1.0];
        let mut power = vec![1.0; s]; // A^{k−1} 𝟙, starting from 𝟙
        for _ in 0..s {
            coefficients.push(self.b.iter().zip(&power).map(|(b, v)| b * v).sum());
            power = (0..s)
                .map(|i| self.a[i].iter().zip(&power).map(|(a, v)| a * v).sum())
                .collect();
        }
        coefficients
    }
    // ANCHOR_END: stability_polynomial

    /// Derivative evaluations `steps` steps cost a stepper that reuses a
    /// first-same-as-last stage: all the stages of the first step, one fewer for
    /// every step after it.
    pub fn evaluations_for(&self, steps: usize) -> usize {
        if steps == 0 {
            0
        } else if self.first_same_as_last() {
            self.stages() + (steps - 1) * (self.stages() - 1)
        } else {
            steps * self.stages()
        }
    }
}

// ANCHOR: classic_tableaus
/// Euler's method: one evaluation at the start of the step.
pub const EULER: ButcherTableau = ButcherTableau {
    name: "Euler",
    a: &[&[]],
    b: &[1.0],
    c: &[0.0],
    order: 1,
    embedded: None,
};

/// The midpoint method: an Euler half step, then the derivative there drives the
/// whole step.
pub const MIDPOINT: ButcherTableau = ButcherTableau {
    name: "midpoint",
    a: &[&[], &[0.5]],
    b: &[0.0, 1.0],
    c: &[0.0, 0.5],
    order: 2,
    embedded: None,
};

/// The classical fourth-order Runge–Kutta method.
pub const RK4: ButcherTableau = ButcherTableau {
    name: "RK4",
    a: &[&[], &[0.5], &[0.0, 0.5], &[0.0, 0.0, 1.0]],
    b: &[1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0],
    c: &[0.0, 0.5, 0.5, 1.0],
    order: 4,
    embedded: None,
};
// ANCHOR_END: classic_tableaus

/// The weights of Dormand and Prince's fifth-order step, also the last row of its
/// `a`.
const DORMAND_PRINCE_B: [f64; 7] = [
    35.0 / 384.0,
    0.0,
    500.0 / 1113.0,
    125.0 / 192.0,
    -2187.0 / 6784.0,
    11.0 / 84.0,
    0.0,
];

/// Dormand and Prince's 5(4) pair (J. R. Dormand, P. J. Prince, "A family of embedded
/// Runge–Kutta formulae", 1980): a fifth-order step with an embedded fourth-order
/// one.
pub const DORMAND_PRINCE: ButcherTableau = ButcherTableau {
    name: "Dormand-Prince 5(4)",
    a: &[
        &[],
        &[1.0 / 5.0],
        &[3.0 / 40.0, 9.0 / 40.0],
        &[44.0 / 45.0, -56.0 / 15.0, 32.0 / 9.0],
        &[19372.0 / 6561.0, -25360.0 / 2187.0, 64448.0 / 6561.0, -212.0 / 729.0],
        &[
            9017.0 / 3168.0,
            -355.0 / 33.0,
            46732.0 / 5247.0,
            49.0 / 176.0,
            -5103.0 / 18656.0,
        ],
        // First same as last: the seventh stage is evaluated at the step's result,
        // so it is the next step's first.
        DORMAND_PRINCE_B.split_at(6).0,
    ],
    b: &DORMAND_PRINCE_B,
    c: &[0.0, 1.0 / 5.0, 3.0 / 10.0, 4.0 / 5.0, 8.0 / 9.0, 1.0, 1.0],
    order: 5,
    embedded: Some((
        &[
            5179.0 / 57600.0,
            0.0,
            7571.0 / 16695.0,
            393.0 / 640.0,
            -92097.0 / 339200.0,
            187.0 / 2100.0,
            1.0 / 40.0,
        ],
        4,
    )),
};

#[cfg(test)]
mod tests {
    use super::*;

    /// The order conditions up to order 4 (Hairer, Nørsett, Wanner I, section II.2).
    /// A mistyped coefficient breaks one of them.
    fn order_conditions_hold(a: &[&[f64]], b: &[f64], c: &[f64], order: u32) -> bool {
        let s = b.len();
        let close = |x: f64, y: f64| (x - y).abs() < 1e-14;
        let aij = |i: usize, j: usize| a[i].get(j).copied().unwrap_or(0.0);
        let mut ok = close(b.iter().sum(), 1.0);
        for (i, row) in a.iter().enumerate() {
            ok &= close(row.iter().sum(), c[i]);
        }
        if order >= 2 {
            ok &= close((0..s).map(|i| b[i] * c[i]).sum(), 0.5);
        }
        if order >= 3 {
            ok &= close((0..s).map(|i| b[i] * c[i] * c[i]).sum(), 1.0 / 3.0);
            let ac: f64 = (0..s)
                .map(|i| b[i] * (0..s).map(|j| aij(i, j) * c[j]).sum::<f64>())
                .sum();
            ok &= close(ac, 1.0 / 6.0);
        }
        if order >= 4 {
            ok &= close((0..s).map(|i| b[i] * c[i].powi(3)).sum(), 0.25);
            let bcac: f64 = (0..s)
                .map(|i| b[i] * c[i] * (0..s).map(|j| aij(i, j) * c[j]).sum::<f64>())
                .sum();
            ok &= close(bcac, 1.0 / 8.0);
            let bac2: f64 = (0..s)
                .map(|i| b[i] * (0..s).map(|j| aij(i, j) * c[j] * c[j]).sum::<f64>())
                .sum();
            ok &= close(bac2, 1.0 / 12.0);
            let baac: f64 = (0..s)
                .map(|i| {
                    b[i] * (0..s)
                        .map(|j| {
                            aij(i, j) * (0..s).map(|k| aij(j, k) * c[k]).sum::<f64>()
                        })
                        .sum::<f64>()
                })
                .sum();
            ok &= close(baac, 1.0 / 24.0);
        }
        ok
    }

    #[test]
    fn only_dormand_prince_is_first_same_as_last() {
        assert!(DORMAND_PRINCE.first_same_as_last());
        for t in [EULER, MIDPOINT, RK4] {
            assert!(!t.first_same_as_last(), "{}", t.name);
            assert_eq!(t.evaluations_for(10), 10 * t.stages());
        }
        assert_eq!(DORMAND_PRINCE.evaluations_for(1), 7);
        assert_eq!(DORMAND_PRINCE.evaluations_for(100), 601);
        assert_eq!(DORMAND_PRINCE.evaluations_for(0), 0);
    }

    #[test]
    fn tableaus_satisfy_their_order_conditions() {
        for t in [EULER, MIDPOINT, RK4, DORMAND_PRINCE] {
            assert!(
                order_conditions_hold(t.a, t.b, t.c, t.order.min(4)),
                "{}",
                t.name
            );
            assert_eq!(t.a.len(), t.stages());
            assert!(t.a.iter().enumerate().all(|(i, row)| row.len() == i));
        }
        let (low, order) = DORMAND_PRINCE.embedded.unwrap();
        assert!(order_conditions_hold(
            DORMAND_PRINCE.a,
            low,
            DORMAND_PRINCE.c,
            order
        ));
    }

    #[test]
    fn euler_is_not_second_order() {
        // The test above is able to fail: Euler's weights violate the order-2
        // condition.
        assert!(!order_conditions_hold(EULER.a, EULER.b, EULER.c, 2));
    }

    #[test]
    fn stability_polynomials_are_the_taylor_terms_up_to_the_order() {
        // Euler 1 + z, midpoint 1 + z + z²/2, RK4 the first five terms of e^z: an
        // explicit method of order p = s matches e^z to z^p and stops there.
        let close = |r: &[f64], want: &[f64]| {
            r.len() >= want.len()
                && r.iter()
                    .zip(want.iter().chain(std::iter::repeat(&0.0)))
                    .all(|(x, y)| (x - y).abs() < 1e-15)
        };
        assert!(close(&EULER.stability_polynomial(), &[1.0, 1.0]));
        assert!(close(&MIDPOINT.stability_polynomial(), &[1.0, 1.0, 0.5]));
        let taylor = [1.0, 1.0, 0.5, 1.0 / 6.0, 1.0 / 24.0];
        assert!(close(&RK4.stability_polynomial(), &taylor));
        // Dormand–Prince (7 stages, the last one unused by b): e^z to z⁵, then a
        // sixth-degree term that is not 1/720.
        let r = DORMAND_PRINCE.stability_polynomial();
        assert!(close(&r[..6], &[1.0, 1.0, 0.5, 1.0 / 6.0, 1.0 / 24.0, 1.0 / 120.0]));
        assert!((r[6] - 1.0 / 600.0).abs() < 1e-15, "{}", r[6]);
    }

    #[test]
    fn the_stability_polynomial_is_what_one_step_does_to_a_decay() {
        // Independent of the coefficients' formula: one step of the stepper itself
        // on ẏ = λy from y = 1 must give R(hλ).
        use crate::runge_kutta::RungeKutta;
        use crate::system::{VectorField, state_of};
        for tableau in [EULER, MIDPOINT, RK4, DORMAND_PRINCE] {
            for z in [-2.7, -1.3, -0.4, 0.9] {
                let f = move |_: f64, y: &[f64], d: &mut [f64]| d[0] = z * y[0];
                let mut sys = VectorField::new(&[1.0], 0.0, f).unwrap();
                RungeKutta::new(tableau).step(&mut sys, 1.0).unwrap();
                let r: f64 = tableau
                    .stability_polynomial()
                    .iter()
                    .rev()
                    .fold(0.0, |acc, c| acc * z + c);
                let y = state_of(&sys)[0];
                assert!((y - r).abs() < 1e-13, "{} at {z}: {y} vs {r}", tableau.name);
            }
        }
    }
}
