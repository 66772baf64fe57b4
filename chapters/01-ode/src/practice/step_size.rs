// Practice `ode/step-size`: the adaptive controller's decision after a step-doubling
// attempt.
//
// Read "Adaptive step sizes" (book/src/01-ode/adaptive.md), the section "Step
// doubling, the notes' rule" and, further down, "The controller" with its three
// guards. Then fill in the body and run
// `cargo run --release -- practice check ode/step-size`.

/// After an attempt of size `h` that gave `x_a` (one step of h) and `x_b` (two steps
/// of h/2) with a method of order `order` (Euler's is 1): the estimate
/// e = |x_a − x_b|, the Euclidean distance. Returns whether to keep the step
/// (e ≤ tol) and the next step size: h times the rule's factor
/// (tol/e)^{1/(order + 1)} aimed low by the safety factor 0.9, then kept between
/// 1/5 and 5. An attempt with e = 0 grows the step by the most allowed, 5.
pub fn next_step_size(
    h: f64,
    x_a: &[f64],
    x_b: &[f64],
    tol: f64,
    order: u32,
) -> (bool, f64) {
    let _ = (h, x_a, x_b, tol, order);
    todo!("keep the step? and the next h")
}
