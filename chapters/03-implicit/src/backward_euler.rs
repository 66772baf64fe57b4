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
