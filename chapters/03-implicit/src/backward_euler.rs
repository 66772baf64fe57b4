//! Backward (implicit) Euler, linearized ("Implicit Methods", section 3): instead of
//! the slope where we are, use the slope where we land, x_new = x_0 + h f(x_new), and
//! approximate f(x_new) by its first-order Taylor expansion so that one linear solve
//! gives the step.

use crate::stiff::Linearizable;
use nalgebra::{DMatrix, DVector};
use pbm_ode::runge_kutta::check_step_size;
use pbm_ode::system::state_of;
use pbm_prelim::PbmError;

// ANCHOR: backward_euler_step
/// One linearized backward Euler step: solve (I/h − f′(x_0)) Δx = f(x_0), then x_0 +
/// Δx.
pub fn backward_euler_step<S: Linearizable + ?Sized>(
    system: &mut S,
    h: f64,
) -> Result<(), PbmError> {
    check_step_size(h)?;
    let n = system.dimension();
    let x0 = DVector::from_vec(state_of(system));
    let mut f0 = DVector::zeros(n);
    system.derivative(f0.as_mut_slice())?;
    let a = DMatrix::identity(n, n) / h - system.jacobian();
    let dx = a.lu().solve(&f0).ok_or_else(|| {
        PbmError::degenerate("backward Euler", "the matrix I/h − f′ is singular")
    })?;
    let t = system.time();
    system.scatter_state((x0 + dx).as_slice(), t + h);
    Ok(())
}
// ANCHOR_END: backward_euler_step

/// Newton iterations an implicit midpoint step may take before it gives up.
pub const MIDPOINT_NEWTON_LIMIT: usize = 50;

// ANCHOR: implicit_midpoint_step
/// One implicit midpoint step, x₁ = x₀ + h f((x₀ + x₁)/2), solved by Newton's method
/// on g(x₁) = x₁ − x₀ − h f(m) at the midpoint m: each iteration solves
/// (I − (h/2) f′(m)) δ = −g and adds δ, until δ is at rounding level. A linear system
/// is solved by the first iteration (the second confirms it). Returns the iterations.
pub fn implicit_midpoint_step<S: Linearizable + ?Sized>(
    system: &mut S,
    h: f64,
) -> Result<usize, PbmError> {
    check_step_size(h)?;
    let (n, t) = (system.dimension(), system.time());
    let x0 = DVector::from_vec(state_of(system));
    let (mut x1, mut f, mut correction) = (x0.clone(), DVector::zeros(n), f64::NAN);
    for iteration in 1..=MIDPOINT_NEWTON_LIMIT {
        let mid: DVector<f64> = (&x0 + &x1) / 2.0;
        system.scatter_state(mid.as_slice(), t + h / 2.0);
        system.derivative(f.as_mut_slice())?;
        let g = &x1 - &x0 - &f * h;
        let a = DMatrix::identity(n, n) - system.jacobian() * (h / 2.0);
        let delta = a.lu().solve(&(-g)).ok_or_else(|| {
            PbmError::degenerate("implicit midpoint", "I − (h/2) f′ is singular")
        })?;
        x1 += &delta;
        correction = delta.norm() / (1.0 + x1.norm());
        if correction <= 1e-13 {
            system.scatter_state(x1.as_slice(), t + h);
            return Ok(iteration);
        }
    }
    system.scatter_state(x0.as_slice(), t);
    Err(PbmError::Solver {
        solver: "implicit midpoint's Newton iteration",
        iterations: MIDPOINT_NEWTON_LIMIT,
        residual: correction,
        why: "the correction did not fall to rounding level".into(),
    })
}
// ANCHOR_END: implicit_midpoint_step

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stiff::StiffExample;

    #[test]
    fn one_step_matches_the_notes_closed_form() {
        // "Implicit Methods", section 3: Δx = −(h/(1+h) x0, hk/(1+hk) y0).
        let (k, h, x0, y0) = (1000.0, 0.1, 0.7, -0.4);
        let mut s = StiffExample::new(k, x0, y0).unwrap();
        backward_euler_step(&mut s, h).unwrap();
        let x = state_of(&s);
        assert!((x[0] - (x0 - h / (1.0 + h) * x0)).abs() < 1e-15);
        assert!((x[1] - (y0 - h * k / (1.0 + h * k) * y0)).abs() < 1e-15);
    }

    #[test]
    fn on_the_circle_backward_euler_spirals_in_as_euler_spirals_out() {
        use crate::stiff::circle_with_jacobian;
        use pbm_ode::system::OdeSystem;
        use pbm_prelim::finite_difference::central_jacobian;
        let mut circle = circle_with_jacobian(0.6, 0.8).unwrap();
        // The Jacobian written out agrees with differences of the field.
        let fd = central_jacobian(
            |x: &[f64], d: &mut [f64]| {
                circle.scatter_state(x, 0.0);
                circle.derivative(d)
            },
            &[0.6, 0.8],
            2,
            1e-6,
        )
        .unwrap();
        let exact = circle.jacobian();
        for (i, v) in fd.iter().enumerate() {
            assert!((v - exact[(i / 2, i % 2)]).abs() < 1e-9, "{fd:?}");
        }
        circle.scatter_state(&[0.6, 0.8], 0.0);
        let h = 0.3;
        backward_euler_step(&mut circle, h).unwrap();
        let r = state_of(&circle).iter().map(|v| v * v).sum::<f64>().sqrt();
        assert!((r - 1.0 / (1.0 + h * h).sqrt()).abs() < 1e-15, "{r}");
    }

    #[test]
    fn implicit_midpoint_turns_the_circle_without_changing_its_radius() {
        // On ẋ = A x with A the quarter turn (eigenvalues ±i), implicit midpoint
        // multiplies by R(ih) = (1 + ih/2)/(1 − ih/2): |R| = 1 exactly, so the
        // radius never changes, and each step turns by 2 atan(h/2), a little less
        // than the exact h.
        use crate::stiff::circle_with_jacobian;
        let h = 0.3;
        let mut circle = circle_with_jacobian(1.0, 0.0).unwrap();
        let iterations = implicit_midpoint_step(&mut circle, h).unwrap();
        assert_eq!(iterations, 2, "a linear system: solved, then confirmed");
        let x = state_of(&circle);
        let turn = 2.0 * (h / 2.0).atan();
        assert!(
            (x[0] - turn.cos()).abs() < 1e-15 && (x[1] - turn.sin()).abs() < 1e-15
        );
        for _ in 0..999 {
            implicit_midpoint_step(&mut circle, h).unwrap();
        }
        let r = state_of(&circle).iter().map(|v| v * v).sum::<f64>().sqrt();
        assert!((r - 1.0).abs() < 1e-12, "{r}");
    }

    #[test]
    fn implicit_midpoint_conserves_a_linear_springs_energy_at_any_step() {
        // ẍ = −k x as (x, v): the energy k x²/2 + v²/2 is a quadratic invariant,
        // which implicit midpoint keeps exactly, to rounding, even at hω = 10, where
        // backward Euler keeps 1/(1 + h²ω²) of it per step.
        use crate::stiff::Linear;
        use pbm_ode::system::VectorField;
        let k = 1e4;
        let spring = || {
            let field = move |_t: f64, x: &[f64], d: &mut [f64]| {
                d[0] = x[1];
                d[1] = -k * x[0];
            };
            let jacobian = DMatrix::from_row_slice(2, 2, &[0.0, 1.0, -k, 0.0]);
            Linear {
                system: VectorField::new(&[1.0, 0.0], 0.0, field).unwrap(),
                jacobian,
            }
        };
        let energy = |x: &[f64]| 0.5 * k * x[0] * x[0] + 0.5 * x[1] * x[1];
        let (mut midpoint, mut backward) = (spring(), spring());
        let e0 = energy(&state_of(&midpoint));
        let h = 0.1; // hω = 0.1 · 100 = 10
        for _ in 0..500 {
            implicit_midpoint_step(&mut midpoint, h).unwrap();
        }
        let e = energy(&state_of(&midpoint));
        assert!((e - e0).abs() < 1e-10 * e0, "{e} vs {e0}");
        backward_euler_step(&mut backward, h).unwrap();
        let kept = energy(&state_of(&backward)) / e0;
        assert!((kept - 1.0 / (1.0 + 100.0)).abs() < 1e-12, "{kept}");
    }

    #[test]
    fn implicit_midpoint_does_not_damp_a_stiff_decay() {
        // Not L-stable: on ẏ = −k y it multiplies by (1 − hk/2)/(1 + hk/2), which
        // tends to −1 as hk grows. At hk = 1000 the stiff mode flips sign every step
        // and keeps 99.6% of its size, where backward Euler keeps 1/(1 + hk).
        let (k, h) = (1000.0, 1.0);
        let mut s = StiffExample::new(k, 1.0, 1.0).unwrap();
        implicit_midpoint_step(&mut s, h).unwrap();
        let y = state_of(&s)[1];
        let z = h * k;
        assert!((y - (1.0 - z / 2.0) / (1.0 + z / 2.0)).abs() < 1e-15, "{y}");
        assert!(y < -0.99);
    }

    #[test]
    fn errata_the_slides_linearized_step_needs_h_on_the_jacobian_term() {
        // The slides write ΔX = h f(X₀) + (∂f/∂X) ΔX; with f = −k y that gives
        // Δy = −h k y₀/(1 + k), which depends on h only through the first term and
        // for h → ∞ goes far past the origin. The step is ΔX = h f(X₀) + h (∂f/∂X) ΔX.
        let (k, h, y0) = (1000.0, 0.1, -0.4);
        let mut s = StiffExample::new(k, 0.0, y0).unwrap();
        backward_euler_step(&mut s, h).unwrap();
        let y = state_of(&s)[1];
        let as_printed = y0 - h * k * y0 / (1.0 + k);
        assert!((y - y0 / (1.0 + h * k)).abs() < 1e-15);
        assert!((y - as_printed).abs() > 0.1 * y0.abs(), "{y} vs {as_printed}");
    }

    #[test]
    fn errata_equation_4_6_needs_h_on_the_time_derivative() {
        // Equation 4-6 of the notes ends h (f₀ + h ∂f/∂x v₀ + ∂f/∂t). For a force
        // growing in time, f = F t on a unit mass, backward Euler's v₁ = v₀ + h f(t₀
        // + h) = v₀ + h (f₀ + h F) exactly; the printed ∂f/∂t, without its h, is in
        // N/s where the bracket holds newtons, and is off by (1 − h) h F.
        let (f_rate, t0, h, v0): (f64, f64, f64, f64) = (3.0, 0.5, 0.1, 0.2);
        let exact = v0 + h * f_rate * (t0 + h);
        let with_h = v0 + h * (f_rate * t0 + h * f_rate);
        let as_printed = v0 + h * (f_rate * t0 + f_rate);
        assert!((with_h - exact).abs() < 1e-15);
        assert!((as_printed - exact - (1.0 - h) * h * f_rate).abs() < 1e-15);
    }
}
