//! Practice for chapter 1: the reader writes Euler's step and RK4's, and the checks
//! run them on problems with a closed form: one step of a linear equation, and the
//! order of convergence on a forced oscillator whose exact solution is known.

use crate::system::{OdeSystem, VectorField, state_of};
use pbm_prelim::PbmError;
use pbm_prelim::practice::{Listing, Report, Task, observed_order};

/// A step the reader writes: advances `system` by `h` from its state and clock.
pub type Step = fn(&mut dyn OdeSystem, f64) -> Result<(), PbmError>;

/// The chapter's tasks.
pub const TASKS: &[Task] = &[
    Task {
        id: "ode/euler",
        title: "Euler's step",
        section: "Euler's method and its two problems",
        page: "01-ode/euler.md",
        equation: "euler-step",
        difficulty: 1,
        file: "euler.rs",
        stub: include_str!("practice/euler.rs"),
        check: "pbm_ode::practice::check_euler(reader::euler_step)",
        hints: &[
            "Read the state with `gather_state` into a Vec of length `system.dimension()`, \
             and the slope with `derivative` into another.",
            "x₁ = x₀ + h f(x₀, t₀): the slope is taken at the start, where the state is \
             now.",
            "Finish with `system.scatter_state(&x, t0 + h)`: the clock moves with the \
             state.",
        ],
        solution: Listing {
            source: include_str!("runge_kutta.rs"),
            anchor: "plain_euler",
        },
    },
    Task {
        id: "ode/rk4",
        title: "one step of RK4",
        section: "Midpoint, RK4 and Butcher tableaus",
        page: "01-ode/runge-kutta.md",
        equation: "rk4-step",
        difficulty: 2,
        file: "rk4.rs",
        stub: include_str!("practice/rk4.rs"),
        check: "pbm_ode::practice::check_rk4(reader::rk4_step)",
        hints: &[
            "Each stage scatters a trial state and time into the system, then asks it \
             for `derivative`. Keep x₀ and t₀ to build every trial from.",
            "k₁ at (x₀, t₀); k₂ at (x₀ + h/2 k₁, t₀ + h/2); k₃ at (x₀ + h/2 k₂, \
             t₀ + h/2); k₄ at (x₀ + h k₃, t₀ + h).",
            "x₁ = x₀ + h (k₁ + 2k₂ + 2k₃ + k₄)/6, scattered at t₀ + h.",
        ],
        solution: Listing {
            source: include_str!("practice/rk4_solution.rs"),
            anchor: "rk4_step",
        },
    },
];

/// A field the checks step: a plain function of (t, x) writing ẋ.
type Field = VectorField<fn(f64, &[f64], &mut [f64])>;

/// ẋ = −2x + t from x = 1 at t = 0.5: one step of h has the closed form
/// x₀ + h (−2x₀ + t₀).
fn linear() -> Result<Field, PbmError> {
    fn f(t: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = -2.0 * x[0] + t;
    }
    VectorField::new(&[1.0], 0.5, f as fn(f64, &[f64], &mut [f64]))
}

/// ẍ + x = sin(t)/2 from x = 1, ẋ = 0 at rest: driven at resonance, so the exact
/// solution, cos t + (sin t)/4 − (t cos t)/4, depends on the clock at every stage.
fn forced() -> Result<Field, PbmError> {
    fn f(t: f64, x: &[f64], dx: &mut [f64]) {
        dx[0] = x[1];
        dx[1] = -x[0] + 0.5 * t.sin();
    }
    VectorField::new(&[1.0, 0.0], 0.0, f as fn(f64, &[f64], &mut [f64]))
}

fn forced_exact(t: f64) -> [f64; 2] {
    let (s, c) = t.sin_cos();
    [c + 0.25 * s - 0.25 * t * c, -s + 0.25 * t * s]
}

/// Runs `step` from the forced oscillator's start to T = 2 s in steps of `h`: the
/// error against the closed form, or what went wrong in the reader's terms.
fn error_at(step: Step, h: f64) -> Result<f64, String> {
    let mut system = forced().map_err(|e| e.to_string())?;
    let n = (2.0 / h).round() as usize;
    for k in 0..n {
        let t0 = system.time();
        step(&mut system, h)
            .map_err(|e| format!("your step returned an error: {e}"))?;
        let x = state_of(&system);
        if x.iter().any(|v| !v.is_finite()) {
            return Err(format!(
                "after step {} (h = {h}) the state is {x:?}: not a finite number",
                k + 1
            ));
        }
        let t1 = system.time();
        if (t1 - (t0 + h)).abs() > 1e-9 {
            return Err(format!(
                "your step moved the clock from {t0} to {t1}, not to t₀ + h = {}: scatter \
                 the new state with the time t₀ + h",
                t0 + h
            ));
        }
    }
    let [x, v] = forced_exact(system.time());
    let s = state_of(&system);
    Ok((s[0] - x).hypot(s[1] - v))
}

/// The orders between h = 0.1, 0.05 and 0.025, and the error at the finest.
fn orders(step: Step) -> Result<(f64, f64), String> {
    let e = [error_at(step, 0.1)?, error_at(step, 0.05)?, error_at(step, 0.025)?];
    Ok((observed_order(e[1], e[2]), e[2]))
}

/// Checks an Euler step: one step of ẋ = −2x + t against its closed form, then its
/// order of convergence on the forced oscillator.
pub fn check_euler(step: Step) -> Report {
    let Ok(mut system) = linear() else {
        return Report::fail("the check's own problem could not be built");
    };
    let h = 0.1;
    if let Err(e) = step(&mut system, h) {
        return Report::fail(format!("your step returned an error: {e}"));
    }
    let x1 = state_of(&system)[0];
    let (x0, t0) = (1.0, 0.5);
    let f = -2.0 * x0 + t0;
    let right = x0 + h * f;
    if !x1.is_finite() {
        return Report::fail(format!("one step of ẋ = −2x + t gave x = {x1}"));
    }
    if (x1 - right).abs() > 1e-12 {
        let why = if (x1 - (x0 - h * f)).abs() < 1e-12 {
            "your step moves against the slope: x₁ = x₀ + h f, with a plus"
                .to_string()
        } else if (x1 - (x0 + f)).abs() < 1e-12 {
            "your step adds the slope f without the step size: x₁ = x₀ + h f"
                .to_string()
        } else if (x1 - x0).abs() < 1e-15 {
            "your step leaves the state where it was: scatter x₁ back into the system"
                .to_string()
        } else {
            format!("x₁ should be x₀ + h f(x₀, t₀) = {right}")
        };
        return Report::fail(format!(
            "one step of ẋ = −2x + t from x = 1 at t = 0.5 with h = 0.1 gave {x1}: {why}"
        ));
    }
    match orders(step) {
        Err(why) => Report::fail(why),
        Ok((p, _)) if (p - 1.0).abs() > 0.2 => Report::fail(format!(
            "one step is right but the method converges at order {p:.2}, not 1: does \
             every step start from the state the last one left?"
        )),
        Ok((p, e)) => Report::pass(vec![
            format!("one step of ẋ = −2x + t: x₁ = {x1}, as x₀ + h f(x₀, t₀) gives"),
            format!(
                "order {p:.2} on the forced oscillator (Euler: 1); error {e:.1e} at h = \
                 0.025 over 2 s"
            ),
        ]),
    }
}

/// One step of ẋ = g(t) from x = 0 at t₀ = 0.3 with h = 0.5: any Runge–Kutta step
/// becomes a quadrature rule there, nodes cᵢ and weights bᵢ, which RK4's (Simpson's)
/// integrates exactly up to cubics. Returns the first power of t it gets wrong.
fn quadrature(step: Step) -> Result<Option<usize>, String> {
    let (t0, h) = (0.3, 0.5);
    for power in 0..4 {
        let mut system =
            VectorField::new(&[0.0], t0, move |t: f64, _: &[f64], dx: &mut [f64]| {
                dx[0] = t.powi(power as i32)
            })
            .map_err(|e| e.to_string())?;
        step(&mut system, h)
            .map_err(|e| format!("your step returned an error: {e}"))?;
        let p = power as i32 + 1;
        let exact = ((t0 + h).powi(p) - t0.powi(p)) / f64::from(p);
        if (state_of(&system)[0] - exact).abs() > 1e-12 {
            return Ok(Some(power));
        }
    }
    Ok(None)
}

/// Checks an RK4 step: on ẋ = g(t) it must integrate like Simpson's rule (that
/// finds wrong weights and wrong stage times), and on the forced oscillator it must
/// converge at order 4 (that finds a stage built from the wrong point).
pub fn check_rk4(step: Step) -> Report {
    let (p, e) = match orders(step) {
        Ok(found) => found,
        Err(why) => return Report::fail(why),
    };
    let wrong_power = match quadrature(step) {
        Ok(found) => found,
        Err(why) => return Report::fail(why),
    };
    let advice = match wrong_power {
        Some(0) => format!(
            "on ẋ = 1 your step does not advance x by h (order {p:.1}): the weights \
             must sum to 1 and multiply h (k₁ + 2k₂ + 2k₃ + k₄)/6."
        ),
        Some(1) => format!(
            "your step converges at order {p:.1}, like Euler's, and on ẋ = t it misses \
             ∫ t dt: look at the time each stage is evaluated at (t₀, t₀ + h/2, \
             t₀ + h/2, t₀ + h)."
        ),
        Some(_) => format!(
            "your step converges at order {p:.1} where RK4 is 4, and on ẋ = t² it \
             misses ∫ t² dt, which Simpson's weights get right: look at how k₂ and k₃ \
             are weighted (1/3 each, twice k₁'s and k₄'s 1/6)."
        ),
        None if p < 3.5 => format!(
            "your weights and times are right (ẋ = t³ is integrated exactly), but the \
             step converges at order {p:.1}, not 4: one stage is evaluated at the wrong \
             point. k₂ at x₀ + (h/2) k₁, k₃ at x₀ + (h/2) k₂, k₄ at x₀ + h k₃."
        ),
        None => {
            return Report::pass(vec![
                "ẋ = 1, t, t², t³ integrated exactly over a step, as Simpson's rule does"
                    .to_string(),
                format!(
                    "order {p:.2} on the forced oscillator (RK4: 4); error {e:.1e} at h = \
                     0.025 over 2 s; the clock advanced by h every step"
                ),
            ]);
        }
    };
    Report::fail(advice)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

    use super::*;
    use crate::runge_kutta::{RungeKutta, euler_step};
    use crate::tableau::RK4;

    pbm_prelim::answers!(rk4 => check_rk4(rk4::rk4_step));

    #[test]
    fn the_books_steps_pass_their_checks() {
        check_euler(|s, h| euler_step(s, h)).assert_passed();
        let rk4 = check_rk4(|s, h| RungeKutta::new(RK4).step(s, h).map(|_| ()));
        rk4.assert_passed();
        assert!(
            rk4.lines[1].starts_with("order 3.9")
                || rk4.lines[1].starts_with("order 4.0")
        );
    }

    /// An RK4 step with the weights `b` and each stage built from stage `from[i]`
    /// (the right one is the stage before) with fraction `c[i]` of the step.
    fn rk4_like(
        s: &mut dyn OdeSystem,
        h: f64,
        b: [f64; 4],
        from: [usize; 4],
        c: [f64; 4],
        stage_time: bool,
    ) -> Result<(), PbmError> {
        let (t0, x0) = (s.time(), state_of(s));
        let n = x0.len();
        let mut k = [vec![0.0; n], vec![0.0; n], vec![0.0; n], vec![0.0; n]];
        for i in 0..4 {
            let trial: Vec<f64> = (0..n)
                .map(
                    |j| if i == 0 { x0[j] } else { x0[j] + c[i] * h * k[from[i]][j] },
                )
                .collect();
            s.scatter_state(&trial, if stage_time { t0 + c[i] * h } else { t0 });
            s.derivative(&mut k[i])?;
        }
        let x1: Vec<f64> = (0..n)
            .map(|j| x0[j] + h * (0..4).map(|i| b[i] * k[i][j]).sum::<f64>())
            .collect();
        s.scatter_state(&x1, t0 + h);
        Ok(())
    }

    const B: [f64; 4] = [1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0];
    const C: [f64; 4] = [0.0, 0.5, 0.5, 1.0];

    #[test]
    fn rk4_mutants_fail_with_the_diagnosis_meant_for_them() {
        // The right step, written out, passes.
        check_rk4(|s, h| rk4_like(s, h, B, [0, 0, 1, 2], C, true)).assert_passed();
        // Equal weights: still consistent and second order (Σ bᵢcᵢ = 1/2), no more.
        let equal =
            check_rk4(|s, h| rk4_like(s, h, [0.25; 4], [0, 0, 1, 2], C, true));
        equal.assert_fails_with("weighted");
        // Every stage evaluated at t₀: on a driven oscillator, first order.
        let frozen = check_rk4(|s, h| rk4_like(s, h, B, [0, 0, 1, 2], C, false));
        frozen.assert_fails_with("time each stage");
        // k₃ built from k₁ instead of k₂.
        let wrong_point = check_rk4(|s, h| rk4_like(s, h, B, [0, 0, 0, 2], C, true));
        wrong_point.assert_fails_with("wrong point");
        // The clock forgotten at the end.
        let clock = check_rk4(|s, h| {
            let t0 = s.time();
            rk4_like(s, h, B, [0, 0, 1, 2], C, true)?;
            let x = state_of(s);
            s.scatter_state(&x, t0);
            Ok(())
        });
        clock.assert_fails_with("moved the clock");
        // A step that never moves.
        let still = check_rk4(|_, _| Ok(()));
        assert!(!still.passed, "{still:?}");
        // NaN.
        let nan = check_rk4(|s, _| {
            let x = vec![f64::NAN; s.dimension()];
            let t = s.time();
            s.scatter_state(&x, t);
            Ok(())
        });
        nan.assert_fails_with("not a finite number");
    }

    #[test]
    fn euler_mutants_fail_with_the_diagnosis_meant_for_them() {
        fn signed(
            s: &mut dyn OdeSystem,
            h: f64,
            sign: f64,
            scale: bool,
        ) -> Result<(), PbmError> {
            let (t0, mut x) = (s.time(), state_of(s));
            let mut f = vec![0.0; x.len()];
            s.derivative(&mut f)?;
            for (x, f) in x.iter_mut().zip(&f) {
                *x += sign * if scale { h * f } else { *f };
            }
            s.scatter_state(&x, t0 + h);
            Ok(())
        }
        let minus = check_euler(|s, h| signed(s, h, -1.0, true));
        minus.assert_fails_with("against the slope");
        let no_h = check_euler(|s, h| signed(s, h, 1.0, false));
        no_h.assert_fails_with("without the step size");
        check_euler(|s, h| signed(s, h, 1.0, true)).assert_passed();
    }
}
