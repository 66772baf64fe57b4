//! Practice for chapter 1: the reader writes Euler's step, the midpoint step, RK4's,
//! and the adaptive controller's decision. The steps run on problems with a closed
//! form: one step of ẋ = λx, which any Runge–Kutta step turns into a polynomial in
//! z = hλ; one step of ẋ = g(t), which turns it into a quadrature rule; and the order
//! of convergence on a forced oscillator whose exact solution is known. The
//! controller is measured against the rule the page states: its exponent, its safety
//! factor, its limits, and the distance it reads.

use crate::system::{OdeSystem, VectorField, state_of};
use pbm_prelim::PbmError;
use pbm_prelim::practice::{
    Listing, Report, Task, case, number, numbers, observed_order,
};

/// A step the reader writes: advances `system` by `h` from its state and clock.
pub type Step = fn(&mut dyn OdeSystem, f64) -> Result<(), PbmError>;

/// The controller's decision the reader writes: (h, x_a, x_b, tol, order) → (keep
/// the step?, next h).
pub type StepSizeFn = fn(f64, &[f64], &[f64], f64, u32) -> (bool, f64);

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
            source: include_str!("practice/euler_solution.rs"),
            anchor: "euler_step",
        },
    },
    Task {
        id: "ode/midpoint",
        title: "one step of the midpoint method",
        section: "Midpoint, RK4 and Butcher tableaus",
        page: "01-ode/runge-kutta.md",
        equation: "midpoint-step",
        difficulty: 1,
        file: "midpoint.rs",
        stub: include_str!("practice/midpoint.rs"),
        check: "pbm_ode::practice::check_midpoint(reader::midpoint_step)",
        hints: &[
            "Gather x₀ and read t₀ first: both slopes are built from them, and \
             `derivative` answers for whatever state and time were scattered last.",
            "k₁ = f(x₀, t₀) is the derivative where the system already is. Scatter the \
             middle, x₀ + (h/2) k₁, with the time t₀ + h/2, and ask again: that is k₂.",
            "x₁ = x₀ + h k₂: the whole step, from x₀, with the middle's slope; scatter it \
             with the time t₀ + h.",
        ],
        solution: Listing {
            source: include_str!("practice/midpoint_solution.rs"),
            anchor: "midpoint_step",
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
    Task {
        id: "ode/step-size",
        title: "the adaptive controller's next step",
        section: "Adaptive step sizes",
        page: "01-ode/adaptive.md",
        equation: "step-size-rule",
        difficulty: 1,
        file: "step_size.rs",
        stub: include_str!("practice/step_size.rs"),
        check: "pbm_ode::practice::check_step_size(reader::next_step_size)",
        hints: &[
            "e is the length of x_a − x_b: the square root of the sum of the squared \
             differences.",
            "The factor is 0.9 (tol/e)^{1/(order + 1)}: `powf(1.0 / f64::from(order + \
             1))`. With e = 0 there is nothing to divide by; give it the largest factor, \
             5.",
            "Clamp the factor last, `.clamp(0.2, 5.0)`, and multiply by h. Keep the step \
             when e ≤ tol: the safety factor aims the next step, it does not tighten the \
             test.",
        ],
        solution: Listing {
            source: include_str!("practice/step_size_solution.rs"),
            anchor: "next_step_size",
        },
    },
];

/// A field the checks step: a plain function of (t, x) writing ẋ.
type Field = VectorField<fn(f64, &[f64], &mut [f64])>;

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

/// One step of `step` of size `h` on ẋ = f(t, x) from x₀ at t₀: the state after it.
fn one_step(
    step: Step,
    (x0, t0, h): (&[f64], f64, f64),
    f: impl FnMut(f64, &[f64], &mut [f64]),
) -> Result<Vec<f64>, String> {
    let mut system = VectorField::new(x0, t0, f).map_err(|e| e.to_string())?;
    step(&mut system, h).map_err(|e| format!("your step returned an error: {e}"))?;
    let x = state_of(&system);
    if x.iter().any(|v| !v.is_finite()) {
        return Err(format!(
            "one step from {} at t = {} with h = {} gave {}: not a finite number",
            numbers(x0),
            number(t0),
            number(h),
            numbers(&x)
        ));
    }
    Ok(x)
}

/// Runs `step` from the forced oscillator's start to T = 2 s in steps of `h`: the
/// error against the closed form, or what went wrong in the reader's terms.
fn error_at(step: Step, h: f64) -> Result<f64, String> {
    let mut system = forced().map_err(|e| e.to_string())?;
    let n = (2.0 / h).round() as usize;
    for k in 0..n {
        let t0 = system.time();
        case(format!(
            "step {} of the driven oscillator with h = {}",
            k + 1,
            number(h)
        ));
        step(&mut system, h)
            .map_err(|e| format!("your step returned an error: {e}"))?;
        let x = state_of(&system);
        if x.iter().any(|v| !v.is_finite()) {
            return Err(format!(
                "after step {} (h = {}) of the driven oscillator the state is {}: not a \
                 finite number",
                k + 1,
                number(h),
                numbers(&x)
            ));
        }
        let t1 = system.time();
        if (t1 - (t0 + h)).abs() > 1e-9 {
            return Err(format!(
                "your step moved the clock from {} to {}, not to t₀ + h = {}: scatter \
                 the new state with the time t₀ + h",
                number(t0),
                number(t1),
                number(t0 + h)
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

/// A system whose derivative always fails, as a model with a degenerate geometry
/// does: a step must hand that error on, not step through it.
struct Failing {
    x: [f64; 2],
    t: f64,
}

impl OdeSystem for Failing {
    fn dimension(&self) -> usize {
        2
    }
    fn time(&self) -> f64 {
        self.t
    }
    fn gather_state(&self, x: &mut [f64]) {
        x.copy_from_slice(&self.x);
    }
    fn scatter_state(&mut self, x: &[f64], t: f64) {
        self.x.copy_from_slice(x);
        self.t = t;
    }
    fn derivative(&mut self, xdot: &mut [f64]) -> Result<(), PbmError> {
        xdot.fill(f64::NAN);
        Err(PbmError::degenerate("the check's model", "it fails on purpose"))
    }
}

/// A line for the report if `step` does not pass on the error of a failing
/// derivative.
fn swallows_errors(step: Step) -> Option<String> {
    case("a system whose derivative returns an error");
    let mut system = Failing { x: [1.0, 0.5], t: 0.0 };
    step(&mut system, 0.1).is_ok().then(|| {
        "a system whose `derivative` returns an error got Ok from your step: pass the \
         error on with `?` after each `derivative(…)` call, or the step walks on with \
         a slope that was never computed"
            .to_string()
    })
}

/// A system that notes, for every call of `derivative`, whether a `scatter_state`
/// came before it since the last call.
struct Traced<S> {
    system: S,
    scattered: bool,
    calls: Vec<bool>,
}

impl<S: OdeSystem> OdeSystem for Traced<S> {
    fn dimension(&self) -> usize {
        self.system.dimension()
    }
    fn time(&self) -> f64 {
        self.system.time()
    }
    fn gather_state(&self, x: &mut [f64]) {
        self.system.gather_state(x);
    }
    fn scatter_state(&mut self, x: &[f64], t: f64) {
        self.scattered = true;
        self.system.scatter_state(x, t);
    }
    fn derivative(&mut self, xdot: &mut [f64]) -> Result<(), PbmError> {
        self.calls.push(std::mem::take(&mut self.scattered));
        self.system.derivative(xdot)
    }
}

/// The first call of `derivative` after the first (counting from 1) that came with
/// no `scatter_state` before it, in one step of the driven oscillator: that call
/// saw the state and time of the one before it again.
fn unscattered_call(step: Step) -> Option<usize> {
    case("one step of the driven oscillator, watching the calls");
    let mut traced =
        Traced { system: forced().ok()?, scattered: false, calls: vec![] };
    step(&mut traced, 0.1).ok()?;
    traced.calls.iter().skip(1).position(|&scattered| !scattered).map(|i| i + 2)
}

/// Checks an Euler step: one step of ẋ = −2x + t against its closed form, its order
/// of convergence on the forced oscillator, and an error from the model passed on.
pub fn check_euler(step: Step) -> Report {
    let mut lines = Vec::new();
    case("one step of ẋ = −2x + t");
    let (x0, t0, h) = (1.0, 0.5, 0.1);
    let f = -2.0 * x0 + t0;
    let right = x0 + h * f;
    let first = one_step(step, (&[x0], t0, h), |t, x, dx| dx[0] = -2.0 * x[0] + t);
    let one_step_right = match first {
        Err(why) => {
            lines.push(why);
            false
        }
        Ok(x) if (x[0] - right).abs() > 1e-12 => {
            let x1 = x[0];
            let why = if (x1 - (x0 - h * f)).abs() < 1e-12 {
                "your step moves against the slope: x₁ = x₀ + h f, with a plus"
                    .to_string()
            } else if (x1 - (x0 + f)).abs() < 1e-12 {
                "your step adds the slope f without the step size: x₁ = x₀ + h f"
                    .to_string()
            } else if (x1 - x0).abs() < 1e-15 {
                "your step leaves the state where it was: scatter x₁ back into the \
                 system"
                    .to_string()
            } else {
                format!(
                    "x₁ should be x₀ + h f(x₀, t₀) = 1 + 0.1 × (−1.5) = {}",
                    number(right)
                )
            };
            lines.push(format!(
                "one step of ẋ = −2x + t from x = 1 at t = 0.5 with h = 0.1 gave {}: \
                 {why}",
                number(x1)
            ));
            false
        }
        Ok(_) => true,
    };
    let order = orders(step);
    match &order {
        Err(why) => lines.push(why.clone()),
        Ok((p, _)) if one_step_right && (p - 1.0).abs() > 0.2 => {
            lines.push(format!(
                "one step is right but the method converges at order {p:.2}, not 1: \
                 does every step start from the state the last one left?"
            ));
        }
        Ok(_) => {}
    }
    lines.extend(swallows_errors(step));
    match order {
        Ok((p, e)) if lines.is_empty() => Report::pass(vec![
            format!(
                "one step of ẋ = −2x + t: x₁ = {}, as x₀ + h f(x₀, t₀) gives",
                number(right)
            ),
            format!(
                "order {p:.2} on the forced oscillator (Euler: 1); error {} at h = \
                 0.025 over 2 s",
                number(e)
            ),
            "an error from the model's derivative is passed on".to_string(),
        ]),
        _ => Report::fail_all(lines),
    }
}

/// One step's growth factor R(z) on ẋ = λx from x = 1 with h = 0.1 and z = hλ.
fn growth(step: Step, z: f64) -> Result<f64, String> {
    case(format!("one step of ẋ = λx with z = hλ = {}", number(z)));
    let lambda = z / 0.1;
    one_step(step, (&[1.0], 0.3, 0.1), move |_, x, dx| dx[0] = lambda * x[0])
        .map(|x| x[0])
}

/// R(z) = 1 + a z + b z² read from one step at z = −0.2 and −0.6: (a, b), and how
/// far the polynomial misses R(−0.4) (zero for a step with two slopes).
fn growth_polynomial(step: Step) -> Result<(f64, f64, f64), String> {
    let (z1, z2, z3) = (-0.2, -0.6, -0.4);
    let r1 = (growth(step, z1)? - 1.0) / z1;
    let r2 = (growth(step, z2)? - 1.0) / z2;
    let b = (r1 - r2) / (z1 - z2);
    let a = r1 - b * z1;
    let misfit = (growth(step, z3)? - (1.0 + a * z3 + b * z3 * z3)).abs();
    Ok((a, b, misfit))
}

/// One step of ẋ = 1, t, t² from x = 0 at t₀ = 0.3 with h = 0.5: what the step adds,
/// divided by h (a weighted mean of g over the step's slopes).
fn quadrature_means(step: Step) -> Result<[f64; 3], String> {
    let (t0, h) = (0.3, 0.5);
    let mut means = [0.0; 3];
    for (power, mean) in means.iter_mut().enumerate() {
        case(format!("one step of ẋ = t^{power} from t₀ = 0.3 with h = 0.5"));
        let g = move |t: f64, _: &[f64], dx: &mut [f64]| dx[0] = t.powi(power as i32);
        *mean = one_step(step, (&[0.0], t0, h), g)?[0] / h;
    }
    Ok(means)
}

/// Checks a midpoint step: on ẋ = λx one step must multiply x by
/// R(z) = 1 + z + z²/2 (that finds a slope taken at the wrong point); on ẋ = g(t) it
/// must add h g(t₀ + h/2) (the wrong time, or two slopes averaged); on the forced
/// oscillator it must converge at order 2; and an error from the model must come
/// back.
pub fn check_midpoint(step: Step) -> Report {
    let close = |x: f64, y: f64| (x - y).abs() < 1e-9;
    let mut lines = Vec::new();
    match growth_polynomial(step) {
        Err(why) => lines.push(why),
        Ok((a, b, misfit)) if !(close(a, 1.0) && close(b, 0.5) && misfit < 1e-9) => {
            let is = |a0: f64, b0: f64| close(a, a0) && close(b, b0) && misfit < 1e-9;
            let found = if misfit > 1e-9 {
                "a polynomial of higher degree than two slopes can give: the midpoint \
                 step asks for exactly two, k₁ and k₂"
                    .to_string()
            } else if is(1.0, 0.0) && unscattered_call(step) == Some(2) {
                "1 + z, Euler's factor: your second `derivative` call came with no \
                 `scatter_state` before it, so k₂ is k₁ again. Scatter the middle \
                 x₀ + (h/2) k₁ at t₀ + h/2 first"
                    .to_string()
            } else if is(1.0, 0.0) {
                "1 + z, Euler's factor: the step must use k₂, the slope at the middle, \
                 x₁ = x₀ + h k₂"
                    .to_string()
            } else if is(1.0, 1.0) {
                "1 + z + z²: your second slope is taken a whole Euler step out, at \
                 x₀ + h k₁; the middle is x₀ + (h/2) k₁"
                    .to_string()
            } else if is(0.5, 0.5) {
                "1 + z/2 + z²/2: your middle is (x₀ + Δx)/2, the literal reading of the \
                 notes' slide that the erratum on the page corrects; the middle is \
                 x₀ + Δx/2 = x₀ + (h/2) k₁"
                    .to_string()
            } else if is(1.5, 0.5) {
                "1 + 3z/2 + z²/2: you added h k₂ to the middle; the step starts from \
                 x₀, x₁ = x₀ + h k₂"
                    .to_string()
            } else if is(0.5, 0.25) {
                "1 + z/2 + z²/4: half a step; the middle's slope drives the whole step, \
                 x₁ = x₀ + h k₂"
                    .to_string()
            } else {
                format!(
                    "1 + {} z + {} z²; the midpoint step gives 1 + z + z²/2: the z term \
                     says how far the step goes (x₁ = x₀ + h k₂), the z² term where k₂ \
                     was taken (at x₀ + (h/2) k₁)",
                    number(a),
                    number(b)
                )
            };
            lines.push(format!(
                "one step of ẋ = λx multiplies x by R(z), z = hλ, and yours is {found}."
            ));
        }
        Ok(_) => {}
    }
    let (t0, h) = (0.3, 0.5);
    let middle = t0 + h / 2.0;
    match quadrature_means(step) {
        Err(why) => lines.push(why),
        Ok([w, tau, square]) => {
            let said = if !close(w, 1.0) {
                Some(format!(
                    "on ẋ = 1 your step advances x by {} h, not h: x₁ = x₀ + h k₂ \
                     uses the middle's slope once, with the whole h",
                    number(w)
                ))
            } else if !close(tau, middle) {
                let when = if close(tau, t0) {
                    "t₀: scatter the middle with the time t₀ + h/2".to_string()
                } else if close(tau, t0 + h) {
                    "t₀ + h, the end of the step; the middle is at t₀ + h/2"
                        .to_string()
                } else if close(tau, (t0 + h) / 2.0) {
                    "(t₀ + h)/2, the notes' slip again: the middle of the step is at \
                     t₀ + h/2"
                        .to_string()
                } else {
                    format!(
                        "{}; the middle is t₀ + h/2 = {}",
                        number(tau),
                        number(middle)
                    )
                };
                Some(format!(
                    "on ẋ = t from t₀ = 0.3 with h = 0.5 your slope is g at t = {when}"
                ))
            } else if !close(square, middle * middle) {
                let trapezoid = (t0 * t0 + (t0 + h) * (t0 + h)) / 2.0;
                Some(if close(square, trapezoid) {
                    "on ẋ = t² your step averages g at the start and the end of the step: \
                     that is Heun's method (the trapezoid rule). The midpoint method \
                     takes one slope, at the middle"
                        .to_string()
                } else {
                    format!(
                        "on ẋ = t² your step adds {} h where the midpoint step adds \
                         h g(t₀ + h/2) = {} h: use the one slope at the middle",
                        number(square),
                        number(middle * middle)
                    )
                })
            } else {
                None
            };
            lines.extend(said);
        }
    }
    let order = orders(step);
    match &order {
        Err(why) => lines.push(why.clone()),
        Ok((p, _)) if lines.is_empty() && (p - 2.0).abs() > 0.2 => {
            lines.push(format!(
                "on ẋ = λx and ẋ = g(t) your step is right, but on the driven oscillator \
                 it converges at order {p:.2}, not 2: is k₂ taken at the middle state \
                 and the middle time together, x₀ + (h/2) k₁ at t₀ + h/2?"
            ));
        }
        Ok(_) => {}
    }
    lines.extend(swallows_errors(step));
    match order {
        Ok((p, e)) if lines.is_empty() => Report::pass(vec![
            "one step of ẋ = λx multiplies x by 1 + z + z²/2 (z = hλ)".to_string(),
            "on ẋ = g(t) it adds h g(t₀ + h/2): exact for 1 and t, the midpoint rule for \
             t²"
            .to_string(),
            format!(
                "order {p:.2} on the forced oscillator (midpoint: 2); error {} at h = \
                 0.025 over 2 s; an error from the model is passed on",
                number(e)
            ),
        ]),
        _ => Report::fail_all(lines),
    }
}

/// One step of ẋ = g(t) from x = 0 at t₀ = 0.3 with h = 0.5: any Runge–Kutta step
/// becomes a quadrature rule there, nodes cᵢ and weights bᵢ, which RK4's (Simpson's)
/// integrates exactly up to cubics. Returns the first power of t it gets wrong.
fn quadrature(step: Step) -> Result<Option<usize>, String> {
    let (t0, h) = (0.3, 0.5);
    for power in 0..4 {
        case(format!("one step of ẋ = t^{power} from t₀ = 0.3 with h = 0.5"));
        let g = move |t: f64, _: &[f64], dx: &mut [f64]| dx[0] = t.powi(power as i32);
        let x1 = one_step(step, (&[0.0], t0, h), g)?[0];
        let p = power as i32 + 1;
        let exact = ((t0 + h).powi(p) - t0.powi(p)) / f64::from(p);
        if (x1 - exact).abs() > 1e-12 {
            return Ok(Some(power));
        }
    }
    Ok(None)
}

/// Checks an RK4 step: every stage must be scattered before its slope is asked for;
/// on ẋ = g(t) it must integrate like Simpson's rule (that finds wrong weights and
/// wrong stage times); on the forced oscillator it must converge at order 4 (that
/// finds a stage built from the wrong point); and an error from the model must come
/// back.
pub fn check_rk4(step: Step) -> Report {
    let mut lines = Vec::new();
    let found = orders(step).and_then(|(p, e)| quadrature(step).map(|q| (p, e, q)));
    let unscattered = unscattered_call(step);
    match &found {
        Err(why) => lines.push(why.clone()),
        Ok((p, ..)) if unscattered.is_some() && (p - 4.0).abs() > 0.3 => {
            let call = unscattered.unwrap_or(2);
            let (stage, trial) = match call {
                2 => ("k₂", "x₀ + (h/2) k₁ at t₀ + h/2"),
                3 => ("k₃", "x₀ + (h/2) k₂ at t₀ + h/2"),
                _ => ("k₄", "x₀ + h k₃ at t₀ + h"),
            };
            lines.push(format!(
                "your step converges at order {p:.1}, not 4, and its call number {call} \
                 of `derivative` came with no `scatter_state` before it, so it saw the \
                 previous stage's state and time again: scatter {trial} before asking \
                 for {stage}."
            ));
        }
        Ok((p, _, wrong_power)) => {
            let p = *p;
            let advice = match wrong_power {
                Some(0) => Some(format!(
                    "on ẋ = 1 your step does not advance x by h (order {p:.1}): the \
                     weights must sum to 1 and multiply h (k₁ + 2k₂ + 2k₃ + k₄)/6."
                )),
                Some(1) => Some(format!(
                    "your step converges at order {p:.1}, like Euler's, and on ẋ = t it \
                     misses ∫ t dt: look at the time each stage is evaluated at (t₀, \
                     t₀ + h/2, t₀ + h/2, t₀ + h)."
                )),
                Some(_) => Some(format!(
                    "your step converges at order {p:.1} where RK4 is 4, and on ẋ = t² \
                     it misses ∫ t² dt, which Simpson's weights get right: look at how \
                     k₂ and k₃ are weighted (1/3 each, twice k₁'s and k₄'s 1/6)."
                )),
                None if p < 3.5 => Some(format!(
                    "your weights and times are right (ẋ = t³ is integrated exactly), \
                     but the step converges at order {p:.1}, not 4: one stage is \
                     evaluated at the wrong point. k₂ at x₀ + (h/2) k₁, k₃ at \
                     x₀ + (h/2) k₂, k₄ at x₀ + h k₃."
                )),
                None => None,
            };
            lines.extend(advice);
        }
    }
    lines.extend(swallows_errors(step));
    match found {
        Ok((p, e, _)) if lines.is_empty() => Report::pass(vec![
            "ẋ = 1, t, t², t³ integrated exactly over a step, as Simpson's rule does"
                .to_string(),
            format!(
                "order {p:.2} on the forced oscillator (RK4: 4); error {} at h = 0.025 \
                 over 2 s; the clock advanced by h every step",
                number(e)
            ),
            "an error from the model's derivative is passed on".to_string(),
        ]),
        _ => Report::fail_all(lines),
    }
}

/// The page's rule, with its guards: h times 0.9 (tol/e)^{1/(p+1)} kept within
/// [1/5, 5], and 5 for e = 0.
fn rule(h: f64, e: f64, tol: f64, order: u32) -> f64 {
    if e == 0.0 {
        return 5.0 * h;
    }
    h * (0.9 * (tol / e).powf(1.0 / f64::from(order + 1))).clamp(0.2, 5.0)
}

/// Another measure of x_a − x_b, from its Euclidean length.
type Measure = fn(f64) -> f64;

/// The direction of x_b − x_a in the controller's probes: a unit vector whose
/// components' absolute values sum to 11/7 and whose largest is 6/7, so the
/// Euclidean distance, the sum and the maximum are told apart.
const APART: [f64; 3] = [2.0 / 7.0, -3.0 / 7.0, 6.0 / 7.0];

/// Checks a controller's decision after a step-doubling attempt: the distance it
/// reads, the exponent 1/(p+1) measured between two errors for orders 1 and 4, the
/// safety factor at e = tol, the limits 1/5 and 5, e = 0, the step kept exactly when
/// e ≤ tol, and the next step proportional to h.
pub fn check_step_size(f: StepSizeFn) -> Report {
    let (h, tol) = (0.1, 1e-3);
    let x_a = [0.3, -1.2, 0.5];
    // Calls the reader's function with x_b − x_a = e APART.
    let call = |h: f64, e: f64, order: u32| -> (bool, f64) {
        let x_b: Vec<f64> = x_a.iter().zip(APART).map(|(a, d)| a + e * d).collect();
        case(format!(
            "h = {}, |x_a − x_b| = {}, tol = {}, order {order}",
            number(h),
            number(e),
            number(tol)
        ));
        f(h, &x_a, &x_b, tol, order)
    };
    let close = |x: f64, y: f64| (x - y).abs() <= 1e-9 * y.abs().max(1e-300);
    let probes: Vec<(f64, f64, u32)> = [1, 4]
        .into_iter()
        .flat_map(|p| {
            [0.0, 1e-9, 0.5, 1.0, 2.0, 1e6].map(move |ratio| (h, ratio * tol, p))
        })
        .chain([(0.2, 0.5 * tol, 1)])
        .collect();
    let answers: Vec<f64> = probes.iter().map(|&(h, e, p)| call(h, e, p).1).collect();
    if let Some(((h, e, p), next)) = probes
        .iter()
        .zip(&answers)
        .find(|(_, next)| !(next.is_finite() && **next > 0.0))
    {
        let why = if *e == 0.0 {
            "with x_a = x_b there is nothing to divide by: give e = 0 the largest \
             growth, 5h"
        } else {
            "the next step must be a positive number"
        };
        return Report::fail(format!(
            "for |x_a − x_b| = {}, tol = {} and order {p} your next step from h = {} is \
             {}: {why}",
            number(*e),
            number(tol),
            number(*h),
            number(*next)
        ));
    }
    // The rule applied to another measure of x_a − x_b: the sum of the components'
    // sizes, the largest, or the square of the distance.
    let measures: [(&str, Measure); 3] = [
        ("adds up the sizes of the components of x_a − x_b", |e| e * 11.0 / 7.0),
        ("takes the largest component of x_a − x_b", |e| e * 6.0 / 7.0),
        ("leaves out the square root: Σ (x_a − x_b)² is e²", |e| e * e),
    ];
    for (what, measure) in measures {
        let same = probes
            .iter()
            .zip(&answers)
            .all(|(&(h, e, p), &next)| close(next, rule(h, measure(e), tol, p)));
        if same {
            return Report::fail(format!(
                "your controller follows the rule, but your e {what}; e is the \
                 Euclidean distance √Σ (x_a − x_b)², as the page's |x_a − x_b|"
            ));
        }
    }
    let mut lines = Vec::new();
    let ratio = |e: f64, p: u32| call(h, e, p).1 / h;
    // The next step in proportion to h.
    let (small, large) = (ratio(0.5 * tol, 1), call(0.2, 0.5 * tol, 1).1 / 0.2);
    if !close(large, small) {
        lines.push(format!(
            "the same error gives a next step of {} h after a step of h = 0.1 and {} h \
             after h = 0.2: the next step is h times the factor, whatever h is",
            number(small),
            number(large)
        ));
    }
    // The exponent, between e = tol/2 and 2 tol (inside the limits for both orders).
    let exponent =
        |p: u32| (ratio(0.5 * tol, p) / ratio(2.0 * tol, p)).ln() / 4f64.ln();
    let (q1, q4) = (exponent(1), exponent(4));
    let near = |x: f64, y: f64| (x - y).abs() < 1e-6;
    let exponents_right = near(q1, 0.5) && near(q4, 0.2);
    if !exponents_right {
        let why = if q1 < 0.0 || q4 < 0.0 {
            "a larger error makes your next step larger: the ratio is upside down, \
             (e/tol) where the rule has (tol/e), the slip the page's erratum names"
                .to_string()
        } else if near(q1, 1.0) && near(q4, 0.25) {
            "your exponent is 1/order: one step of a method of order p makes an error \
             of order h^{p+1}, so the rule's exponent is 1/(p + 1)"
                .to_string()
        } else if near(q1, 0.5) && near(q4, 0.5) {
            "your exponent is 1/2 whatever the order: 1/2 is Euler's 1/(p + 1); for a \
             method of order 4 it is 1/5"
                .to_string()
        } else if near(q1, 0.0) && near(q4, 0.0) {
            "your next step does not depend on the error at all".to_string()
        } else {
            "the rule is h (tol/e)^{1/(p + 1)}: e twice as large gives a step \
             2^{−1/(p + 1)} times as long"
                .to_string()
        };
        lines.push(format!(
            "between e = tol/2 and e = 2 tol your next step changes as e^({}) for order 1 \
             and e^({}) for order 4, where the rule gives e^(−1/2) and e^(−1/5): {why}",
            number(-q1),
            number(-q4)
        ));
    }
    // The safety factor, at e = tol.
    let at_tol = [ratio(tol, 1), ratio(tol, 4)];
    if exponents_right && !(close(at_tol[0], 0.9) && close(at_tol[1], 0.9)) {
        lines.push(if at_tol.iter().all(|&r| close(r, 1.0)) {
            "at e = tol your next step stays h: aim a little low, 0.9 h, with the \
             safety factor 0.9, because e is only an estimate and a rejected attempt \
             wastes all its work"
                .to_string()
        } else {
            format!(
                "at e = tol your next step is {} h (order 1) and {} h (order 4); the \
                 safety factor makes both 0.9 h",
                number(at_tol[0]),
                number(at_tol[1])
            )
        });
    }
    // The limits, far from the tolerance and at e = 0.
    let [tiny, zero, huge] =
        [ratio(1e-9 * tol, 1), ratio(0.0, 1), ratio(1e6 * tol, 1)];
    // Only where a smaller error gives a longer step: otherwise the limits say
    // nothing new.
    let shrinks = q1 > 0.0 && q4 > 0.0;
    if shrinks && !(close(tiny, 5.0) && close(huge, 0.2)) {
        let why = if close(tiny, 4.5) || close(huge, 0.18) {
            "you clamped before the safety factor; clamp the factor last, so that the \
             limits are exactly 5 and 1/5"
        } else if tiny > 5.0 || huge < 0.2 {
            "keep the factor within [1/5, 5], so that one lucky or unlucky estimate \
             cannot throw the step size away"
        } else {
            "the factor 0.9 (tol/e)^{1/(p + 1)} is limited to [1/5, 5], no tighter"
        };
        lines.push(format!(
            "at e = tol/10⁹ your next step is {} h and at e = 10⁶ tol it is {} h; they \
             should be 5 h and h/5: {why}",
            number(tiny),
            number(huge)
        ));
    } else if shrinks && !close(zero, 5.0) {
        lines.push(format!(
            "at e = 0 your next step is {} h: with no error at all, grow by the most \
             allowed, 5 h",
            number(zero)
        ));
    }
    // Keep exactly the steps with e ≤ tol.
    let (inside, outside) = (call(h, 0.95 * tol, 1), call(h, 1.05 * tol, 1));
    match (inside.0, outside.0) {
        (true, false) => {}
        (false, true) => lines.push(
            "you keep a step whose e = 1.05 tol and reject one whose e = 0.95 tol: \
             keep it when e ≤ tol"
                .to_string(),
        ),
        (false, false) if inside.1 < h => lines.push(
            "you reject a step whose e = 0.95 tol, within the tolerance, because its \
             next step is shorter: keep every step with e ≤ tol; the safety factor aims \
             the next step, it does not tighten the test"
                .to_string(),
        ),
        (false, false) => lines.push(
            "you reject a step whose e = 0.95 tol: keep it when e ≤ tol".to_string(),
        ),
        (true, true) => lines.push(
            "you keep a step whose e = 1.05 tol: undo it and try again shorter; keep \
             only steps with e ≤ tol"
                .to_string(),
        ),
    }
    if !lines.is_empty() {
        return Report::fail_all(lines);
    }
    Report::pass(vec![
        "e is the Euclidean distance |x_a − x_b|; the step is kept when e ≤ tol"
            .to_string(),
        "the next step goes as e^(−1/2) for order 1 and e^(−1/5) for order 4, is 0.9 h at \
         e = tol, and stays within [h/5, 5h] (5h at e = 0)"
            .to_string(),
    ])
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

    use super::*;
    use crate::runge_kutta::{RungeKutta, euler_step};
    use crate::tableau::{MIDPOINT, RK4};

    pbm_prelim::answers!(
        euler => check_euler(euler::euler_step),
        midpoint => check_midpoint(midpoint::midpoint_step),
        rk4 => check_rk4(rk4::rk4_step),
        step_size => check_step_size(step_size::next_step_size),
    );

    #[test]
    fn the_books_steps_pass_their_checks() {
        check_euler(|s, h| euler_step(s, h)).assert_passed();
        check_midpoint(|s, h| RungeKutta::new(MIDPOINT).step(s, h).map(|_| ()))
            .assert_passed();
        let rk4 = check_rk4(|s, h| RungeKutta::new(RK4).step(s, h).map(|_| ()));
        rk4.assert_passed();
        assert!(
            rk4.lines[1].starts_with("order 3.9")
                || rk4.lines[1].starts_with("order 4.0")
        );
    }

    /// An explicit Runge–Kutta step with the stages' sources and weights given: stage
    /// i is evaluated at x₀ + c[i] h k[from[i]] and time t₀ + c[i] h (or t₀ when
    /// `stage_time` is false), scattered first unless `scatter[i]` is false; the step
    /// is x₀ + h Σ b[i] k[i].
    struct Stages<const S: usize> {
        b: [f64; S],
        from: [usize; S],
        c: [f64; S],
        stage_time: bool,
        scatter: [bool; S],
    }

    impl<const S: usize> Stages<S> {
        fn step(&self, s: &mut dyn OdeSystem, h: f64) -> Result<(), PbmError> {
            let (t0, x0) = (s.time(), state_of(s));
            let n = x0.len();
            let mut k = vec![vec![0.0; n]; S];
            for i in 0..S {
                let trial: Vec<f64> = (0..n)
                    .map(|j| {
                        if i == 0 {
                            x0[j]
                        } else {
                            x0[j] + self.c[i] * h * k[self.from[i]][j]
                        }
                    })
                    .collect();
                if self.scatter[i] {
                    let t = if self.stage_time { t0 + self.c[i] * h } else { t0 };
                    s.scatter_state(&trial, t);
                }
                s.derivative(&mut k[i])?;
            }
            let x1: Vec<f64> = (0..n)
                .map(|j| x0[j] + h * (0..S).map(|i| self.b[i] * k[i][j]).sum::<f64>())
                .collect();
            s.scatter_state(&x1, t0 + h);
            Ok(())
        }
    }

    const B: [f64; 4] = [1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0];
    const C: [f64; 4] = [0.0, 0.5, 0.5, 1.0];
    const RK4_STAGES: Stages<4> = Stages {
        b: B,
        from: [0, 0, 1, 2],
        c: C,
        stage_time: true,
        scatter: [true; 4],
    };

    #[test]
    fn rk4_mutants_fail_with_the_diagnosis_meant_for_them() {
        // The right step, written out, passes; so does Kutta's 3/8 rule, another
        // fourth-order method.
        check_rk4(|s, h| RK4_STAGES.step(s, h)).assert_passed();
        check_rk4(|s, h| {
            const A: [[f64; 3]; 4] = [
                [0.0; 3],
                [1.0 / 3.0, 0.0, 0.0],
                [-1.0 / 3.0, 1.0, 0.0],
                [1.0, -1.0, 1.0],
            ];
            const W: [f64; 4] = [0.125, 0.375, 0.375, 0.125];
            let (t0, x0) = (s.time(), state_of(s));
            let mut k: Vec<Vec<f64>> = vec![];
            for (i, row) in A.iter().enumerate() {
                let trial: Vec<f64> = (0..x0.len())
                    .map(|j| {
                        x0[j] + h * (0..i).map(|m| row[m] * k[m][j]).sum::<f64>()
                    })
                    .collect();
                s.scatter_state(&trial, t0 + h * row.iter().sum::<f64>());
                let mut out = vec![0.0; x0.len()];
                s.derivative(&mut out)?;
                k.push(out);
            }
            let x1: Vec<f64> = (0..x0.len())
                .map(|j| x0[j] + h * (0..4).map(|i| W[i] * k[i][j]).sum::<f64>())
                .collect();
            s.scatter_state(&x1, t0 + h);
            Ok(())
        })
        .assert_passed();
        // Equal weights: still consistent and second order (Σ bᵢcᵢ = 1/2), no more.
        let equal =
            check_rk4(|s, h| Stages { b: [0.25; 4], ..RK4_STAGES }.step(s, h));
        equal.assert_fails_with("weighted");
        // Every stage evaluated at t₀: on a driven oscillator, first order.
        let frozen =
            check_rk4(|s, h| Stages { stage_time: false, ..RK4_STAGES }.step(s, h));
        frozen.assert_fails_with("time each stage");
        // k₃ built from k₁ instead of k₂.
        let wrong_point =
            check_rk4(|s, h| Stages { from: [0, 0, 0, 2], ..RK4_STAGES }.step(s, h));
        wrong_point.assert_fails_with("wrong point");
        // k₄ asked for without scattering its trial state: it is k₃ again. The
        // review's case, once told only "look at the time each stage is evaluated at".
        let k4_unscattered = check_rk4(|s, h| {
            Stages { scatter: [true, true, true, false], ..RK4_STAGES }.step(s, h)
        });
        k4_unscattered
            .assert_fails_with("scatter x₀ + h k₃ at t₀ + h before asking for k₄");
        // The clock forgotten at the end.
        let clock = check_rk4(|s, h| {
            let t0 = s.time();
            RK4_STAGES.step(s, h)?;
            let x = state_of(s);
            s.scatter_state(&x, t0);
            Ok(())
        });
        clock.assert_fails_with("moved the clock");
        // A step that never moves.
        let still = check_rk4(|_, _| Ok(()));
        assert!(!still.passed, "{still:?}");
        // NaN, said as a reader writes numbers.
        let nan = check_rk4(|s, _| {
            let x = vec![f64::NAN; s.dimension()];
            let t = s.time();
            s.scatter_state(&x, t);
            Ok(())
        });
        nan.assert_fails_with("[NaN, NaN]: not a finite number");
        // An error from the model ignored: the step goes on with NaN slopes... here
        // with the stages' old values, and reports Ok.
        let swallowed = check_rk4(|s, h| {
            let _ = RK4_STAGES.step(s, h);
            Ok(())
        });
        swallowed.assert_fails_with("pass the error on with `?`");
    }

    /// An Euler step with the slope's sign and whether it is scaled by h.
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

    #[test]
    fn euler_mutants_fail_with_the_diagnosis_meant_for_them() {
        let minus = check_euler(|s, h| signed(s, h, -1.0, true));
        minus.assert_fails_with("against the slope");
        let no_h = check_euler(|s, h| signed(s, h, 1.0, false));
        no_h.assert_fails_with("without the step size");
        check_euler(|s, h| signed(s, h, 1.0, true)).assert_passed();
        // The review's `forgot-question-mark`: `derivative(&mut f);` with its Result
        // dropped passed before.
        let dropped = check_euler(|s, h| {
            let (t0, mut x) = (s.time(), state_of(s));
            let mut f = vec![0.0; x.len()];
            let _ = s.derivative(&mut f);
            for (x, f) in x.iter_mut().zip(&f) {
                *x += h * f;
            }
            s.scatter_state(&x, t0 + h);
            Ok(())
        });
        dropped.assert_fails_with("pass the error on with `?`");
        assert_eq!(dropped.lines.len(), 1, "{dropped:?}");
        // Two things wrong at once are both said.
        let both = check_euler(|s, h| {
            let _ = signed(s, h, -1.0, true);
            Ok(())
        });
        both.assert_fails_with("against the slope");
        both.assert_fails_with("pass the error on");
    }

    /// A midpoint-like step: the middle at x₀ + `reach` h k₁ (or, `literal`, at
    /// (x₀ + h k₁)/2), its time t₀ + `when` h, and x₁ = x₀ + h k₂.
    fn middle(
        s: &mut dyn OdeSystem,
        h: f64,
        (reach, when, literal): (f64, f64, bool),
    ) -> Result<(), PbmError> {
        let (t0, x0) = (s.time(), state_of(s));
        let mut k = vec![0.0; x0.len()];
        s.derivative(&mut k)?;
        let mid: Vec<f64> = x0
            .iter()
            .zip(&k)
            .map(|(x, k)| if literal { (x + h * k) / 2.0 } else { x + reach * h * k })
            .collect();
        s.scatter_state(&mid, t0 + when * h);
        s.derivative(&mut k)?;
        let x1: Vec<f64> = x0.iter().zip(&k).map(|(x, k)| x + h * k).collect();
        s.scatter_state(&x1, t0 + h);
        Ok(())
    }

    #[test]
    fn midpoint_mutants_fail_with_the_diagnosis_meant_for_them() {
        check_midpoint(|s, h| middle(s, h, (0.5, 0.5, false))).assert_passed();
        // The notes' slide read literally: (x + Δx)/2.
        check_midpoint(|s, h| middle(s, h, (0.0, 0.5, true)))
            .assert_fails_with("literal reading");
        // The second slope a whole Euler step out.
        check_midpoint(|s, h| middle(s, h, (1.0, 0.5, false)))
            .assert_fails_with("a whole Euler step out");
        // The middle scattered at t₀, or at t₀ + h.
        check_midpoint(|s, h| middle(s, h, (0.5, 0.0, false)))
            .assert_fails_with("scatter the middle with the time t₀ + h/2");
        check_midpoint(|s, h| middle(s, h, (0.5, 1.0, false)))
            .assert_fails_with("the end of the step");
        // The middle never scattered: k₂ is k₁, Euler's step.
        check_midpoint(|s, h| {
            Stages {
                b: [0.0, 1.0],
                from: [0, 0],
                c: [0.0, 0.5],
                stage_time: true,
                scatter: [true, false],
            }
            .step(s, h)
        })
        .assert_fails_with("no `scatter_state` before it");
        // Heun's method: the right order and the right growth factor, another method.
        let heun = check_midpoint(|s, h| {
            Stages {
                b: [0.5, 0.5],
                from: [0, 0],
                c: [0.0, 1.0],
                stage_time: true,
                scatter: [true; 2],
            }
            .step(s, h)
        });
        heun.assert_fails_with("Heun's method");
        // The error from the model dropped.
        check_midpoint(|s, h| {
            let _ = middle(s, h, (0.5, 0.5, false));
            Ok(())
        })
        .assert_fails_with("pass the error on with `?`");
    }

    fn distance(a: &[f64], b: &[f64]) -> f64 {
        a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum::<f64>().sqrt()
    }

    #[test]
    fn step_size_mutants_fail_with_the_diagnosis_meant_for_them() {
        // The chapter's own controller with the estimate of step doubling passes.
        let book: StepSizeFn = |h, x_a, x_b, tol, order| {
            let control = crate::adaptive::Controller::new(tol).unwrap();
            let e = crate::adaptive::distance(x_a, x_b);
            (e <= control.tol, h * control.factor(e, 1.0 / f64::from(order + 1)))
        };
        check_step_size(book).assert_passed();
        // So does a controller written as the rescaled step, then limited.
        check_step_size(|h, x_a, x_b, tol, order| {
            let e = distance(x_a, x_b);
            let ideal = 0.9 * h * (tol / e).powf(1.0 / (f64::from(order) + 1.0));
            (e <= tol, ideal.max(h / 5.0).min(5.0 * h))
        })
        .assert_passed();
        // The reader's summary, upside down.
        check_step_size(|h, x_a, x_b, tol, order| {
            let e = distance(x_a, x_b);
            let r =
                (0.9 * (e / tol).powf(1.0 / f64::from(order + 1))).clamp(0.2, 5.0);
            (e <= tol, h * r)
        })
        .assert_fails_with("upside down");
        // 1/p for 1/(p + 1).
        check_step_size(|h, x_a, x_b, tol, order| {
            let e = distance(x_a, x_b);
            (
                e <= tol,
                h * (0.9 * (tol / e).powf(1.0 / f64::from(order))).clamp(0.2, 5.0),
            )
        })
        .assert_fails_with("your exponent is 1/order");
        // The square root for every method.
        check_step_size(|h, x_a, x_b, tol, _| {
            let e = distance(x_a, x_b);
            (e <= tol, h * (0.9 * (tol / e).sqrt()).clamp(0.2, 5.0))
        })
        .assert_fails_with("1/2 whatever the order");
        // No safety factor.
        check_step_size(|h, x_a, x_b, tol, order| {
            let e = distance(x_a, x_b);
            (e <= tol, h * (tol / e).powf(1.0 / f64::from(order + 1)).clamp(0.2, 5.0))
        })
        .assert_fails_with("safety factor 0.9");
        // The safety factor after the clamp.
        check_step_size(|h, x_a, x_b, tol, order| {
            let e = distance(x_a, x_b);
            (
                e <= tol,
                h * 0.9 * (tol / e).powf(1.0 / f64::from(order + 1)).clamp(0.2, 5.0),
            )
        })
        .assert_fails_with("clamped before the safety factor");
        // The sum of the components' sizes for the distance.
        check_step_size(|h, x_a, x_b, tol, order| {
            let e: f64 = x_a.iter().zip(x_b).map(|(a, b)| (a - b).abs()).sum();
            let r =
                (0.9 * (tol / e).powf(1.0 / f64::from(order + 1))).clamp(0.2, 5.0);
            (e <= tol, if e == 0.0 { 5.0 * h } else { h * r })
        })
        .assert_fails_with("adds up the sizes");
        // The step kept only when the next one is no shorter.
        check_step_size(|h, x_a, x_b, tol, order| {
            let (_, next) = step_size::next_step_size(h, x_a, x_b, tol, order);
            (next >= h, next)
        })
        .assert_fails_with("does not tighten the test");
        // The factor returned, not the step.
        check_step_size(|h, x_a, x_b, tol, order| {
            let (keep, next) = step_size::next_step_size(h, x_a, x_b, tol, order);
            (keep, next / h)
        })
        .assert_fails_with("h times the factor");
        // e = 0 unguarded with the ratio upside down: a zero step.
        check_step_size(|h, x_a, x_b, tol, order| {
            let e = distance(x_a, x_b);
            (e <= tol, h * 0.9 * (e / tol).powf(1.0 / f64::from(order + 1)))
        })
        .assert_fails_with("nothing to divide by");
    }
}
