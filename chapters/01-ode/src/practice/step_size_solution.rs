// The book's answer to `ode/step-size`, as `pbm practice solution ode/step-size`
// prints it: the chapter's `Controller::factor` (adaptive.rs) with the distance and
// the test for keeping the step, for a method of any order.

// ANCHOR: next_step_size
/// Keep the step if e = |x_a − x_b| ≤ tol; the next step is h times
/// 0.9 (tol/e)^{1/(order + 1)}, kept within [1/5, 5] (5 when e = 0).
pub fn next_step_size(
    h: f64,
    x_a: &[f64],
    x_b: &[f64],
    tol: f64,
    order: u32,
) -> (bool, f64) {
    let squares: f64 = x_a.iter().zip(x_b).map(|(a, b)| (a - b) * (a - b)).sum();
    let e = squares.sqrt();
    let factor = if e == 0.0 {
        5.0
    } else {
        let exponent = 1.0 / f64::from(order + 1);
        (0.9 * (tol / e).powf(exponent)).clamp(0.2, 5.0)
    };
    (e <= tol, h * factor)
}
// ANCHOR_END: next_step_size
