//! Practice for chapter 3: the reader writes one backward Euler step of a linear
//! system, the spring's stiffness block of the implicit step, and the conjugate
//! gradient method, plain and with a Jacobi preconditioner. The step is checked by
//! the equation it must satisfy, (I − hA) x₁ = x₀, by a singular I − hA, and by
//! staying bounded on a stiff system at a step that sends explicit Euler off; the
//! stiffness block against central differences of the spring's force; CG by what its
//! first two iterations must give (exact answers on matrices built for it), the
//! residual it reaches and the iterations it reports.

use nalgebra::{DMatrix, DVector, Matrix3, Vector3};
use pbm_prelim::PbmError;
use pbm_prelim::practice::{Listing, Report, Task, case, number, numbers, sequence};

/// A backward Euler step the reader writes.
pub type StepFn =
    fn(&DMatrix<f64>, &DVector<f64>, f64) -> Result<DVector<f64>, PbmError>;

/// A conjugate gradient solver the reader writes, plain or preconditioned.
pub type CgFn = fn(&DMatrix<f64>, &DVector<f64>, f64, usize) -> (DVector<f64>, usize);

/// A spring's stiffness block ∂f_a/∂x_a the reader writes: from x_a, x_b, k_s, r.
pub type StiffnessFn = fn(&Vector3<f64>, &Vector3<f64>, f64, f64) -> Matrix3<f64>;

/// The chapter's tasks.
pub const TASKS: &[Task] = &[
    Task {
        id: "implicit/backward-euler",
        title: "one backward Euler step of ẋ = A x",
        section: "Implicit Methods",
        page: "03-implicit/index.md",
        equation: "backward-euler",
        difficulty: 1,
        file: "backward_euler.rs",
        stub: include_str!("practice/backward_euler.rs"),
        check: "pbm_implicit::practice::check_backward_euler(reader::backward_euler_step)",
        hints: &[
            "x₁ appears on both sides of x₁ = x₀ + h A x₁: gather it on the left.",
            "(I − h A) x₁ = x₀: build I − hA with `DMatrix::identity(n, n) - a * h` and \
             solve with `.lu().solve(x0)`.",
            "`.lu().solve(…)` gives None when I − hA is singular: turn that into \
             `Err(PbmError::degenerate(\"backward Euler\", \"…\"))` with `ok_or_else`.",
        ],
        solution: Listing {
            source: include_str!("practice/backward_euler_solution.rs"),
            anchor: "backward_euler_step",
        },
    },
    Task {
        id: "implicit/cg",
        title: "conjugate gradients",
        section: "Large steps for mass–spring systems",
        page: "03-implicit/mass-spring.md",
        equation: "implicit-mass-spring",
        difficulty: 2,
        file: "cg.rs",
        stub: include_str!("practice/cg.rs"),
        check: "pbm_implicit::practice::check_cg(reader::conjugate_gradient)",
        hints: &[
            "Start from x = 0, r = b and the first direction p = r.",
            "Each iteration: α = (r·r)/(p·A p), x += α p, r −= α A p.",
            "The next direction is r + β p with β = (r·r after)/(r·r before): that makes \
             it conjugate to the ones before, and CG finishes in at most n steps in exact \
             arithmetic.",
        ],
        solution: Listing {
            source: include_str!("practice/cg_solution.rs"),
            anchor: "conjugate_gradient",
        },
    },
    Task {
        id: "implicit/spring-stiffness",
        title: "the spring's stiffness block ∂f_a/∂x_a",
        section: "Large steps for mass–spring systems",
        page: "03-implicit/mass-spring.md",
        equation: "spring-stiffness-block",
        difficulty: 2,
        file: "spring_stiffness.rs",
        stub: include_str!("practice/spring_stiffness.rs"),
        check: "pbm_implicit::practice::check_spring_stiffness(reader::spring_stiffness)",
        hints: &[
            "Write l = x_a − x_b, L = |l| and u = l/L first; f_a = −k_s (L − r) u, and \
             the block is what a small move δ of x_a does to f_a.",
            "Two facts: the length changes by the part of δ along the spring, δL = uᵀδ, \
             and the direction turns by the part across it, δu = P δ/L with P = I − u \
             uᵀ. Apply the product rule to (L − r) u.",
            "−k_s [u uᵀ + (1 − r/L) P]: `u * u.transpose()` is u uᵀ, and \
             `Matrix3::identity()` is I.",
        ],
        solution: Listing {
            source: include_str!("practice/spring_stiffness_solution.rs"),
            anchor: "spring_stiffness",
        },
    },
    Task {
        id: "implicit/pcg",
        title: "conjugate gradients with a Jacobi preconditioner",
        section: "Large steps for mass–spring systems",
        page: "03-implicit/mass-spring.md",
        equation: "pcg-iteration",
        difficulty: 2,
        file: "pcg.rs",
        stub: include_str!("practice/pcg.rs"),
        check: "pbm_implicit::practice::check_pcg(reader::preconditioned_cg)",
        hints: &[
            "It is CG with one extra vector, z = P⁻¹ r, where P is the diagonal of A: \
             z_i = r_i / A_ii. Start from x = 0, r = b, z = P⁻¹ r and p = z.",
            "Each iteration: α = (r·z)/(p·A p), x += α p, r −= α A p, then z = P⁻¹ r \
             for the new r. Wherever plain CG has r·r, the preconditioned one has r·z.",
            "The next direction is z + β p with β = (r·z after)/(r·z before). Stop on \
             the plain residual, ‖r‖ ≤ tolerance ‖b‖, and count the iterations taken.",
        ],
        solution: Listing {
            source: include_str!("practice/pcg_solution.rs"),
            anchor: "preconditioned_cg",
        },
    },
];

/// A vector for a message: its entries, the first four of a long one.
fn show(v: &DVector<f64>) -> String {
    if v.len() <= 4 {
        numbers(v.as_slice())
    } else {
        let shown = numbers(&v.as_slice()[..3]);
        format!("{}, … ({} entries)]", &shown[..shown.len() - 1], v.len())
    }
}

/// A matrix for a message, row by row.
fn show_matrix(m: &DMatrix<f64>) -> String {
    let rows: Vec<String> = m
        .row_iter()
        .map(|r| numbers(&r.iter().copied().collect::<Vec<_>>()))
        .collect();
    format!("[{}]", rows.join(", "))
}

/// Whether `a` and `b` agree to `relative` of the larger.
fn agree(a: &DVector<f64>, b: &DVector<f64>, relative: f64) -> bool {
    a.len() == b.len()
        && (a - b).norm() <= relative * a.norm().max(b.norm()).max(1e-300)
}

/// A 2 × 2 system with a slow and a fast decay and a little coupling, as in the
/// chapter's stiff example.
fn stiff() -> DMatrix<f64> {
    DMatrix::from_row_slice(2, 2, &[-1.0, 0.5, 0.0, -1000.0])
}

/// Solves (I − hA) x = rhs with (I − hA) written out, for the check's candidates.
fn solve_shifted(a: &DMatrix<f64>, h: f64, rhs: &DVector<f64>) -> DVector<f64> {
    let n = rhs.len();
    (DMatrix::identity(n, n) - a * h).lu().solve(rhs).unwrap_or_else(|| rhs.clone())
}

/// What one step on the stiff system says about a wrong x₁: the likely method, by
/// the one solve each candidate takes.
fn backward_euler_mistake(
    a: &DMatrix<f64>,
    x0: &DVector<f64>,
    h: f64,
    x1: &DVector<f64>,
) -> String {
    let n = x0.len();
    let identity = DMatrix::identity(n, n);
    let explicit = x0 + a * x0 * h;
    let flipped = (&identity + a * h).lu().solve(x0).unwrap_or_else(|| x0.clone());
    let trapezoidal = solve_shifted(a, h / 2.0, &((&identity + a * (h / 2.0)) * x0));
    let transposed = solve_shifted(&a.transpose(), h, x0);
    let right = solve_shifted(a, h, x0);
    let residual = x1 - a * x1 * h - x0;
    if agree(x1, &explicit, 1e-12) {
        format!(
            "that is explicit Euler, x₀ + h A x₀: its fast part went from 1 to {} in one \
             step. Backward Euler takes the slope at the end of the step",
            number(x1[1])
        )
    } else if agree(x1, &flipped, 1e-12) {
        "it solves (I + hA) x₁ = x₀: x₁ = x₀ + h A x₁ moves h A x₁ to the left with a \
         minus"
            .to_string()
    } else if agree(x1, &trapezoidal, 1e-12) {
        "that is the trapezoidal rule (implicit midpoint on a linear system), (I − hA/2) \
         x₁ = (I + hA/2) x₀: it averages the slopes at both ends, where backward Euler \
         takes the slope at the end alone, (I − hA) x₁ = x₀"
            .to_string()
    } else if agree(x1, &transposed, 1e-12) {
        "it solves (I − hAᵀ) x₁ = x₀, with A transposed: look at how you index A, or at \
         a `.transpose()` (the system is ẋ = A x, so row i of A gives ẋ_i)"
            .to_string()
    } else if x1.norm() > 1e3 * x0.norm() {
        format!(
            "x₁ has grown to size {}: if you iterate x ← x₀ + h A x until it settles, \
             that iteration multiplies its error by hA, and with the fast eigenvalue \
             hλ = −100 here it diverges. Solve the linear system (I − hA) x₁ = x₀ instead",
            number(x1.norm())
        )
    } else {
        format!(
            "x₁ should solve (I − hA) x₁ = x₀, which gives {}; yours leaves (I − hA) x₁ − \
             x₀ = {}",
            show(&right),
            show(&residual)
        )
    }
}

/// Checks a backward Euler step on the stiff system at h = 0.1, where explicit Euler
/// grows the fast part 99× a step, and on a step whose I − hA is singular.
pub fn check_backward_euler(step: StepFn) -> Report {
    let (a, h) = (stiff(), 0.1);
    let x0 = DVector::from_vec(vec![1.0, 1.0]);
    let start = "one step of the stiff system A = [[−1, 0.5], [0, −1000]] from (1, 1) at \
                 h = 0.1";
    case(start);
    let x1 = match step(&a, &x0, h) {
        Ok(x1) => x1,
        Err(e) => {
            return Report::fail(format!(
                "{start}: your step returned an error: {e}"
            ));
        }
    };
    if x1.len() != 2 {
        return Report::fail(format!(
            "{start} gave a vector of {} entries for a state of 2",
            x1.len()
        ));
    }
    if !x1.iter().all(|v| v.is_finite()) {
        return Report::fail(format!(
            "{start} gave {}: not a finite number. If you iterate x ← x₀ + h A x until \
             it settles, that iteration diverges when h|λ| > 1, and here hλ = −100: solve \
             the linear system (I − hA) x₁ = x₀ instead",
            show(&x1)
        ));
    }
    let residual = (&x1 - &a * &x1 * h - &x0).norm();
    if residual > 1e-12 {
        let why = backward_euler_mistake(&a, &x0, h, &x1);
        return Report::fail(format!("{start} gave {}: {why}", show(&x1)));
    }
    let mut failures = Vec::new();
    // I − hA = [[0, −0.5], [0, 1.5]]: (1, 1) is not in its range, so no x₁ exists.
    let singular = DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 0.0, -1.0]);
    case("a step whose I − hA is singular (A = [[2, 1], [0, −1]], h = 0.5)");
    if let Ok(x) = step(&singular, &x0, 0.5) {
        let what = if agree(&x, &x0, 1e-15) {
            "x₀ unchanged".to_string()
        } else {
            show(&x)
        };
        failures.push(format!(
            "with A = [[2, 1], [0, −1]] and h = 0.5, I − hA = [[0, −0.5], [0, 1.5]] is \
             singular and no x₁ solves the step from (1, 1), yet yours returned {what}. \
             Return the error the stub asks for, `PbmError::degenerate(\"backward \
             Euler\", …)`, when the solve gives None"
        ));
    }
    // A hundred steps stay bounded and decay, at a step 50× explicit Euler's limit.
    case("100 steps of the stiff system at h = 0.1");
    let mut x = x0.clone();
    for k in 0..100 {
        match step(&a, &x, h) {
            Ok(next) => x = next,
            Err(e) => {
                failures
                    .push(format!("step {} of 100 returned an error: {e}", k + 1));
                break;
            }
        }
    }
    if !x.norm().is_finite() || x.norm() >= x0.norm() {
        failures.push(format!(
            "after 100 steps from (1, 1) the state is {}: it should decay",
            show(&x)
        ));
    }
    if !failures.is_empty() {
        return Report::fail_all(failures);
    }
    Report::pass(vec![
        format!(
            "(I − hA) x₁ = x₀ to {} on the stiff system at h = 0.1",
            number(residual)
        ),
        format!(
            "100 steps at 50× explicit Euler's stable step decay to |x| = {}; a singular \
             I − hA is an error",
            number(x.norm())
        ),
    ])
}

/// A symmetric positive definite n × n matrix with eigenvalues spread evenly in
/// log from 1 to `condition`, rotated by a fixed orthogonal matrix.
fn spd(n: usize, condition: f64) -> DMatrix<f64> {
    let mut unit = sequence(0x9e37_79b9_u64);
    let mut next = move || 0.5 * unit();
    let random = DMatrix::from_fn(n, n, |_, _| next());
    let q = random.qr().q();
    let d = DMatrix::from_diagonal(&DVector::from_fn(n, |i, _| {
        condition.powf(i as f64 / (n - 1) as f64)
    }));
    &q * d * q.transpose()
}

/// (I + t v vᵀ)/(1 + t/n) with v = (±1, …)/√n: unit diagonal and exactly two distinct
/// eigenvalues, so conjugate directions solve it in two iterations.
fn two_eigenvalues(n: usize, t: f64) -> DMatrix<f64> {
    let v = DVector::from_fn(n, |i, _| if i % 3 == 1 { -1.0 } else { 1.0 })
        / (n as f64).sqrt();
    (DMatrix::identity(n, n) + &v * v.transpose() * t) / (1.0 + t / n as f64)
}

/// D^½ S D^½ for the diagonal D = `scales`: its diagonal is D where S has 1s.
fn scaled(s: &DMatrix<f64>, scales: &DVector<f64>) -> DMatrix<f64> {
    let root = DMatrix::from_diagonal(&scales.map(f64::sqrt));
    &root * s * &root
}

/// Diagonal entries from 10⁻ᵉ to 10ᵉ, in a scrambled order.
fn spread(n: usize, decades: f64) -> DVector<f64> {
    DVector::from_fn(n, |i, _| {
        let k = (i * 7) % n;
        10f64.powf(decades * (2.0 * k as f64 / (n - 1) as f64 - 1.0))
    })
}

/// A right-hand side with every entry different.
fn rhs(n: usize) -> DVector<f64> {
    DVector::from_fn(n, |i, _| ((i * 7 % 11) as f64 - 5.0) / 5.0 + 0.1)
}

/// “1 iteration”, “2 iterations”.
fn count(iterations: usize) -> String {
    if iterations == 1 {
        "1 iteration".to_string()
    } else {
        format!("{iterations} iterations")
    }
}

fn relative_residual(a: &DMatrix<f64>, b: &DVector<f64>, x: &DVector<f64>) -> f64 {
    (b - a * x).norm() / b.norm()
}

/// Runs a solver, failing on a result that is not a finite vector of b's length.
fn run(
    solve: CgFn,
    (a, b): (&DMatrix<f64>, &DVector<f64>),
    tolerance: f64,
    cap: usize,
) -> Result<(DVector<f64>, usize), String> {
    let (x, iterations) = solve(a, b, tolerance, cap);
    if x.len() != b.len() {
        return Err(format!(
            "your solver returned {} entries for {}",
            x.len(),
            b.len()
        ));
    }
    if !x.iter().all(|v| v.is_finite()) {
        return Err(format!(
            "your solver returned x = {} after {}: not a finite number. A division by \
             p·A p or by r·r that is 0: does an iteration run after r has reached 0?",
            show(&x),
            count(iterations)
        ));
    }
    Ok((x, iterations))
}

/// The solve a check makes of the tolerance, the count and the stopping rule: a
/// system of n = b.len() unknowns with ‖b‖ far from 1, so that a tolerance taken as
/// absolute shows. Returns the relative residual and the iterations, or what is wrong.
fn tolerance_and_count(
    solve: CgFn,
    (a, b): (&DMatrix<f64>, &DVector<f64>),
    what: &str,
    expected: usize,
) -> Result<(f64, usize), Vec<String>> {
    let (tolerance, cap) = (1e-8, 2000);
    case(format!("{what}, tolerance 1e−8, at most 2000 iterations"));
    let (x, iterations) = run(solve, (a, b), tolerance, cap).map_err(|e| vec![e])?;
    let residual = relative_residual(a, b, &x);
    let absolute = (b - a * &x).norm();
    let n = b.len();
    if residual > 10.0 * tolerance {
        let why = if absolute <= 1.01 * tolerance {
            format!(
                "you stopped at ‖b − A x‖ = {} ≤ tolerance: the tolerance is relative, \
                 ‖b − A x‖ ≤ tolerance · ‖b‖, and here ‖b‖ = {}",
                number(absolute),
                number(b.norm())
            )
        } else if iterations >= cap {
            format!(
                "it never got there in {cap} iterations, where conjugate directions \
                 need about {expected}: look at the step α and the update of r, which \
                 must use the same α and A p as x"
            )
        } else {
            "you stopped early: stop when ‖b − A x‖ ≤ tolerance · ‖b‖, with r = b − A x \
             kept up to date by r −= α A p"
                .to_string()
        };
        return Err(vec![format!(
            "on {what}, after {} ‖b − A x‖/‖b‖ = {}, above the tolerance 1e−8: {why}",
            count(iterations),
            number(residual)
        )]);
    }
    let mut failures = Vec::new();
    if iterations == cap {
        failures.push(format!(
            "on {what}, your solver met the tolerance, but reports {cap} iterations, the \
             max_iterations it was given: return the number of iterations it took"
        ));
    } else if iterations > 0 {
        case(format!("{what}, stopped at max_iterations = {}", iterations - 1));
        let (early, _) =
            run(solve, (a, b), tolerance, iterations - 1).map_err(|e| vec![e])?;
        if relative_residual(a, b, &early) <= tolerance {
            failures.push(format!(
                "on {what}, your solver reports {iterations} iterations, but stopped \
                 after {} it already meets the tolerance: count one per update of x",
                iterations - 1
            ));
        }
    }
    if iterations > 0 && iterations < cap {
        case(format!("{what}, stopped at max_iterations = {iterations}"));
        let (exact, _) =
            run(solve, (a, b), tolerance, iterations).map_err(|e| vec![e])?;
        if relative_residual(a, b, &exact) > 1.001 * tolerance {
            failures.push(format!(
                "on {what}, your solver reports {}, but stopped at \
                 max_iterations = {iterations} it has not met the tolerance: it took \
                 more than it says. Count one per update of x",
                count(iterations)
            ));
        }
    }
    if iterations > 2 * n && failures.is_empty() {
        failures.push(format!(
            "on {what}, you reached the tolerance, but in {iterations} iterations where \
             about {expected} do: is the next direction conjugate to the last, with β the \
             ratio of the new r·r to the old (r·z with a preconditioner)? With β = 0 it \
             is steepest descent"
        ));
    }
    if failures.is_empty() { Ok((residual, iterations)) } else { Err(failures) }
}

/// What two CG iterations from 0 give with the second direction r₁ + β p₀.
fn two_steps(a: &DMatrix<f64>, b: &DVector<f64>, beta: f64) -> DVector<f64> {
    let x1 = b * (b.dot(b) / b.dot(&(a * b)));
    let r1 = b - a * &x1;
    let p = &r1 + b * beta;
    &x1 + &p * (r1.dot(&r1) / p.dot(&(a * &p)))
}

/// Checks a CG solver: one iteration must be steepest descent's first step, two must
/// solve a matrix with two distinct eigenvalues exactly, and on a 40 × 40 system of
/// condition 100 it must reach a relative tolerance and report the iterations it took.
pub fn check_cg(solve: CgFn) -> Report {
    let n = 40;
    let a = spd(n, 100.0);
    let b = rhs(n);
    // One iteration from x = 0 along p = r = b, to the minimum along it.
    case("one iteration (max_iterations = 1) on a 40 × 40 system");
    let (x1, _) = match run(solve, (&a, &b), 1e-12, 1) {
        Ok(found) => found,
        Err(e) => return Report::fail(e),
    };
    let want = &b * (b.dot(&b) / b.dot(&(&a * &b)));
    if !agree(&x1, &want, 1e-10) {
        let along = x1.dot(&b) / (x1.norm() * b.norm()).max(1e-300);
        let why = if x1.norm() == 0.0 {
            "x is still 0: the iteration did not run, or did not update x".to_string()
        } else if (along - 1.0).abs() < 1e-10 {
            format!(
                "it goes along p = r₀ = b, as it should, but {} times as far as the \
                 minimum along p: the step is α = (r·r)/(p·A p)",
                number(x1.norm() / want.norm())
            )
        } else {
            "the first direction must be p = r₀ = b − A·0 = b".to_string()
        };
        return Report::fail(format!(
            "after one iteration from x = 0 your x = {} where the minimum along b is {}: \
             {why}",
            show(&x1),
            show(&want)
        ));
    }
    // Two distinct eigenvalues: the second direction, if conjugate, finishes the job.
    let s = two_eigenvalues(n, 3.0);
    case("two iterations on a 40 × 40 matrix with two distinct eigenvalues");
    let (x2, _) = match run(solve, (&s, &b), 1e-14, 2) {
        Ok(found) => found,
        Err(e) => return Report::fail(e),
    };
    let residual2 = relative_residual(&s, &b, &x2);
    if residual2 > 1e-10 {
        let why = if agree(&x2, &two_steps(&s, &b, 0.0), 1e-9) {
            "that is steepest descent's second step, β = 0: the next direction is r + \
             β p with β = (r·r after)/(r·r before)"
        } else if agree(&x2, &two_steps(&s, &b, 1.0), 1e-9) {
            "your second direction is r + p, β = 1: β = (r·r after)/(r·r before) needs \
             the old r·r kept before r is updated"
        } else {
            "the second direction must be r + β p with β = (r·r after)/(r·r before), \
             which makes it A-conjugate to the first, and r must have been updated with \
             the same α and A p as x, r −= α A p"
        };
        return Report::fail(format!(
            "after two iterations on a 40 × 40 matrix with only two distinct \
             eigenvalues, where conjugate directions are exact, ‖b − A x‖/‖b‖ = {}: {why}",
            number(residual2)
        ));
    }
    // ‖b‖ ≈ 1e−4: a tolerance taken as absolute stops 10⁴ times too early.
    let small = &b * (1e-4 / b.norm());
    match tolerance_and_count(
        solve,
        (&a, &small),
        "a 40 × 40 system of condition 100 with ‖b‖ = 1e−4",
        40,
    ) {
        Err(failures) => Report::fail_all(failures),
        Ok((residual, iterations)) => Report::pass(vec![
            "one iteration is steepest descent's first step; two solve a matrix with two \
             distinct eigenvalues"
                .to_string(),
            format!(
                "‖b − A x‖/‖b‖ = {} in {iterations} iterations on a 40 × 40 system of \
                 condition 100 (at most 40 in exact arithmetic), with ‖b‖ = 1e−4; the \
                 count is the iterations taken",
                number(residual)
            ),
        ]),
    }
}

/// Checks a Jacobi-preconditioned CG: one iteration must solve a diagonal system,
/// two must solve one whose P⁻¹A has two distinct eigenvalues, and on a 60 × 60
/// system whose diagonal spans eight decades it must reach a relative tolerance in
/// the iterations the preconditioned spectrum needs, and report them.
pub fn check_pcg(solve: CgFn) -> Report {
    // A diagonal matrix: z = P⁻¹ r is already the answer.
    let d = DVector::from_vec(vec![0.5, 3.0, 40.0, 400.0, 7.0, 0.02]);
    let a = DMatrix::from_diagonal(&d);
    let b = rhs(6);
    case("one iteration (max_iterations = 1) on a diagonal 6 × 6 matrix");
    let (x1, _) = match run(solve, (&a, &b), 1e-12, 1) {
        Ok(found) => found,
        Err(e) => return Report::fail(e),
    };
    let want = b.component_div(&d);
    if !agree(&x1, &want, 1e-10) {
        let parallel = |v: &DVector<f64>| {
            (x1.dot(v).abs() / (x1.norm() * v.norm()).max(1e-300) - 1.0).abs() < 1e-10
        };
        let why = if x1.norm() == 0.0 {
            "x is still 0: the iteration did not run, or did not update x".to_string()
        } else if parallel(&b) {
            "your first step goes along b = r₀, as plain CG's does: the preconditioned \
             one goes along z = P⁻¹ r, each r_i divided by A_ii"
                .to_string()
        } else if parallel(&b.component_mul(&d)) {
            "your first step goes along A_ii r_i: P⁻¹ divides by the diagonal, z_i = r_i \
             / A_ii"
                .to_string()
        } else if parallel(&want) {
            format!(
                "it goes along z = P⁻¹ r, as it should, but {} times as far as the \
                 minimum along it: α = (r·z)/(p·A p), with r·z where plain CG has r·r",
                number(x1.norm() / want.norm())
            )
        } else {
            "the first direction is p = z = P⁻¹ b, and α = (r·z)/(p·A p) takes x to \
             the minimum along it"
                .to_string()
        };
        return Report::fail(format!(
            "on the diagonal matrix diag{} one Jacobi-preconditioned iteration from x = 0 \
             lands on the answer b_i/A_ii = {}, yours on {}: {why}",
            numbers(d.as_slice()),
            show(&want),
            show(&x1)
        ));
    }
    // P⁻¹A similar to a matrix with two distinct eigenvalues, under a diagonal that
    // spans four decades: plain CG needs far more than two iterations.
    let n = 30;
    let a2 = scaled(&two_eigenvalues(n, 3.0), &spread(n, 2.0));
    let b2 = rhs(n);
    case("two iterations on a 30 × 30 matrix whose P⁻¹A has two eigenvalues");
    let (x2, _) = match run(solve, (&a2, &b2), 1e-14, 2) {
        Ok(found) => found,
        Err(e) => return Report::fail(e),
    };
    let residual2 = relative_residual(&a2, &b2, &x2);
    if residual2 > 1e-9 {
        return Report::fail(format!(
            "on a 30 × 30 matrix whose diagonal spans four decades and whose P⁻¹A has \
             only two distinct eigenvalues, two preconditioned iterations are exact; \
             yours leave ‖b − A x‖/‖b‖ = {}. Your first iteration is right, so look at \
             the second direction: p = z + β p with z = P⁻¹ r of the updated r (r −= α \
             A p) and β = (r·z after)/(r·z before)",
            number(residual2)
        ));
    }
    // Sixty unknowns, a diagonal over eight decades, ‖b‖ ≈ 1e−4.
    let n = 60;
    let a3 = scaled(&unit_diagonal(&spd(n, 10.0)), &spread(n, 4.0));
    let b3 = rhs(n);
    let b3 = &b3 * (1e-4 / b3.norm());
    match tolerance_and_count(
        solve,
        (&a3, &b3),
        "a 60 × 60 system whose diagonal spans eight decades, with ‖b‖ = 1e−4",
        35,
    ) {
        Err(failures) => Report::fail_all(failures),
        Ok((_, iterations)) if iterations > 70 => Report::fail(format!(
            "on a 60 × 60 system whose diagonal spans eight decades your solver reached \
             the tolerance in {iterations} iterations, where Jacobi-preconditioned CG \
             needs about 35 and plain CG over 800 (the scaled matrix P^−½ A P^−½ has \
             condition 10): is every r·r of plain CG an r·z, and is z = P⁻¹ r \
             recomputed each iteration?"
        )),
        Ok((residual, iterations)) => Report::pass(vec![
            "one iteration solves a diagonal system; two solve a matrix whose P⁻¹A has two \
             distinct eigenvalues"
                .to_string(),
            format!(
                "‖b − A x‖/‖b‖ = {} in {iterations} iterations on a 60 × 60 \
                 system whose diagonal spans eight decades, with ‖b‖ = 1e−4; the count \
                 is the iterations taken",
                number(residual)
            ),
        ]),
    }
}

/// S scaled to a unit diagonal, diag(S)^−½ S diag(S)^−½.
fn unit_diagonal(s: &DMatrix<f64>) -> DMatrix<f64> {
    let inverse_root = DMatrix::from_diagonal(&s.diagonal().map(|v| 1.0 / v.sqrt()));
    &inverse_root * s * &inverse_root
}

/// The check's own spring force on a: f_a = −k_s (|l| − r) l/|l|, l = x_a − x_b.
fn spring_force(
    x_a: &Vector3<f64>,
    x_b: &Vector3<f64>,
    k_s: f64,
    rest: f64,
) -> Vector3<f64> {
    let l = x_a - x_b;
    let length = l.norm();
    -l * (k_s * (length - rest) / length)
}

/// ∂f_a/∂x_a by central differences of the check's force, column by column.
fn central_stiffness(
    x_a: &Vector3<f64>,
    x_b: &Vector3<f64>,
    k_s: f64,
    rest: f64,
) -> Matrix3<f64> {
    let eps = 1e-6 * (x_a - x_b).norm();
    Matrix3::from_fn(|i, j| {
        let mut e = Vector3::zeros();
        e[j] = eps;
        let plus = spring_force(&(x_a + e), x_b, k_s, rest);
        let minus = spring_force(&(x_a - e), x_b, k_s, rest);
        (plus[i] - minus[i]) / (2.0 * eps)
    })
}

fn show3(m: &Matrix3<f64>) -> String {
    show_matrix(&DMatrix::from_column_slice(3, 3, m.as_slice()))
}

/// What a wrong stiffness block shows: its parts along the spring (u uᵀ) and across
/// it (P), against −k_s [u uᵀ + (1 − r/L) P].
fn stiffness_mistake(
    got: &Matrix3<f64>,
    (l, k_s, rest): (&Vector3<f64>, f64, f64),
) -> String {
    let length = l.norm();
    let u = l / length;
    let across = Matrix3::identity() - u * u.transpose();
    // got = −k_s [a u uᵀ + c P] when it has the right shape.
    let a = -(u.transpose() * got * u)[0] / k_s;
    let c = -(across * got * across).trace() / (2.0 * k_s);
    let shape = -(u * u.transpose() * a + across * c) * k_s;
    let want_c = 1.0 - rest / length;
    let close = |x: f64, y: f64| (x - y).abs() < 1e-6 * (1.0 + y.abs());
    if (got - shape).norm() > 1e-6 * k_s {
        return "it is not of the form −k_s [a u uᵀ + c P] that a spring's block has, \
                with u = l/|l| and P = I − u uᵀ: along u and across it only"
            .to_string();
    }
    if close(a, -1.0) && close(c, -want_c) {
        return "it has the wrong sign: stretching the spring (moving x_a along u) \
                pulls a back harder, so the block is −k_s [u uᵀ + (1 − r/L) P]. (With \
                your sign it is ∂f_a/∂x_b, the block for moving the other end.)"
            .to_string();
    }
    if close(a, 1.0 / k_s) || close(a, 1.0 / k_s.powi(2)) {
        return "it has lost k_s: the block is −k_s [u uᵀ + (1 − r/L) P]".to_string();
    }
    if !close(a, 1.0) {
        if close(a - 1.0, c) && close(c, want_c) {
            return "it is −k_s [u uᵀ + (1 − r/L) I]: the across term uses P = I − u \
                    uᵀ, the part of a move perpendicular to the spring, not I"
                .to_string();
        }
        return format!(
            "along the spring (u uᵀ) it is −{} k_s where it should be −k_s: moving x_a \
             by δ along u changes the length by δ, and the force by k_s δ",
            number(a)
        );
    }
    let ratio = rest / length;
    if close(c, 0.0) {
        if want_c < 0.0 {
            "across a compressed spring the block is −k_s (1 − r/L) P, which is \
             positive: yours is 0 there, as the solver's clamped matrix has it (after \
             Choi and Ko). This task asks for the true derivative, not the clamped one"
                .to_string()
        } else {
            "the across term −k_s (1 − r/L) P is missing: a stretched spring also turns \
             when x_a moves sideways, δu = P δ/L, and its tension (L − r) k_s turns with \
             it"
            .to_string()
        }
    } else if close(c, -want_c) {
        "the across term has the wrong sign: (1 − r/L), positive for a stretched spring"
            .to_string()
    } else if close(c, 1.0 - 1.0 / ratio) {
        "the across term has r/L upside down: (1 − r/L), with the rest length over the \
         current length"
            .to_string()
    } else if close(c, length - rest) {
        "the across term is missing its 1/L: δu = P δ/L, so (L − r) P δ/L = (1 − r/L) P δ"
            .to_string()
    } else if close(c, 1.0) {
        "the across coefficient is 1 where it is (1 − r/L): that is a spring of rest \
         length 0"
            .to_string()
    } else {
        format!(
            "across the spring (P) it is −{} k_s where it should be −(1 − r/L) k_s = −{} \
             k_s",
            number(c),
            number(want_c)
        )
    }
}

/// Checks a spring's stiffness block: at rest length (where only the along term is
/// left), stretched, compressed and at ten random states, against central differences
/// of the spring's force, and symmetric.
pub fn check_spring_stiffness(f: StiffnessFn) -> Report {
    let x_b = Vector3::new(0.2, -0.1, 0.3);
    let tilt = Vector3::new(0.6, 0.48, 0.64); // a unit direction
    let (k_s, rest) = (50.0, 0.8);
    let mut states = vec![
        ("at its rest length", x_b + tilt * rest, k_s, rest),
        ("stretched to 1.5 times its rest length", x_b + tilt * 1.2, k_s, rest),
        ("compressed to 0.6 times its rest length", x_b + tilt * 0.48, k_s, rest),
    ];
    let mut next = sequence(0x5e1f_0003);
    for _ in 0..10 {
        let l = Vector3::new(next(), next(), next()) * 2.0;
        let rest = 0.2 + next().abs() * l.norm();
        states.push(("at a random state", x_b + l, 10.0 + 90.0 * next().abs(), rest));
    }
    let mut worst = 0.0_f64;
    for (what, x_a, k_s, rest) in states {
        let l = x_a - x_b;
        let at = format!(
            "for a spring of k_s = {} and r = {} {what}, l = x_a − x_b = {}",
            number(k_s),
            number(rest),
            numbers(l.as_slice())
        );
        case(at.clone());
        let got = f(&x_a, &x_b, k_s, rest);
        if !got.iter().all(|v| v.is_finite()) {
            return Report::fail(format!(
                "{at}, your block is {}: not a finite number",
                show3(&got)
            ));
        }
        let want = central_stiffness(&x_a, &x_b, k_s, rest);
        let error = (got - want).norm() / k_s;
        if error > 1e-6 {
            let why = if (got - got.transpose()).norm() > 1e-9 * k_s {
                "it is not symmetric, and a spring's block always is (it is minus the \
                 second derivative of the spring's energy). Build it from u uᵀ and P = I \
                 − u uᵀ, both symmetric"
                    .to_string()
            } else {
                stiffness_mistake(&got, (&l, k_s, rest))
            };
            return Report::fail(format!(
                "{at}, your ∂f_a/∂x_a is {} where central differences of f_a = −k_s (|l| \
                 − r) l/|l| give {}: {why}",
                show3(&got),
                show3(&want)
            ));
        }
        worst = worst.max(error);
    }
    Report::pass(vec![
        "at the rest length only the along term −k_s u uᵀ is left, as yours has it; \
         stretched, compressed and at ten random states it matches central differences \
         of the force"
            .to_string(),
        format!("largest difference {} k_s; the block is symmetric", number(worst)),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    pbm_prelim::answers! {
        backward_euler => check_backward_euler(backward_euler::backward_euler_step),
        cg => check_cg(cg::conjugate_gradient),
        spring_stiffness => check_spring_stiffness(spring_stiffness::spring_stiffness),
        pcg => check_pcg(pcg::preconditioned_cg),
    }

    fn shifted_solve(
        matrix: DMatrix<f64>,
        rhs: &DVector<f64>,
    ) -> Result<DVector<f64>, PbmError> {
        matrix.lu().solve(rhs).ok_or_else(|| PbmError::degenerate("t", "singular"))
    }

    #[test]
    fn another_correct_backward_euler_step_passes() {
        // The inverse, taken by nalgebra's closed form for small matrices.
        check_backward_euler(|a, x, h| {
            let n = x.len();
            let inverse = (DMatrix::identity(n, n) - a * h)
                .try_inverse()
                .ok_or_else(|| PbmError::degenerate("backward Euler", "singular"))?;
            Ok(inverse * x)
        })
        .assert_passed();
    }

    #[test]
    fn backward_euler_mutants_fail_with_the_diagnosis_meant_for_them() {
        check_backward_euler(|a, x, h| Ok(x + a * x * h))
            .assert_fails_with("explicit Euler");
        check_backward_euler(|a, x, h| {
            shifted_solve(DMatrix::identity(x.len(), x.len()) + a * h, x)
        })
        .assert_fails_with("(I + hA)");
        // The trapezoidal rule.
        check_backward_euler(|a, x, h| {
            let i = DMatrix::identity(x.len(), x.len());
            shifted_solve(&i - a * (h / 2.0), &((&i + a * (h / 2.0)) * x))
        })
        .assert_fails_with("trapezoidal rule");
        // A transposed.
        check_backward_euler(|a, x, h| {
            shifted_solve(DMatrix::identity(x.len(), x.len()) - a.transpose() * h, x)
        })
        .assert_fails_with("A transposed");
        // A fixed-point iteration, which diverges on the stiff part.
        check_backward_euler(|a, x, h| {
            let mut next = x.clone();
            for _ in 0..30 {
                next = x + a * &next * h;
            }
            Ok(next)
        })
        .assert_fails_with("diverges");
        // A singular I − hA answered with x₀.
        check_backward_euler(|a, x, h| {
            let i = DMatrix::identity(x.len(), x.len());
            Ok((&i - a * h).lu().solve(x).unwrap_or_else(|| x.clone()))
        })
        .assert_fails_with("x₀ unchanged");
    }

    /// CG from 0 with a choice of mistakes: `beta` overrides β, `alpha` scales α,
    /// `count` maps (iterations taken, cap) to the count returned, `absolute` takes
    /// the tolerance as absolute; with `jacobi` the preconditioner is diag(A).
    #[derive(Clone, Copy)]
    struct Cg {
        beta: Option<f64>,
        alpha: f64,
        count: fn(usize, usize) -> usize,
        absolute: bool,
        jacobi: Option<fn(f64) -> f64>,
        z_in_numerators: bool,
    }

    const RIGHT: Cg = Cg {
        beta: None,
        alpha: 1.0,
        count: |k, _| k,
        absolute: false,
        jacobi: None,
        z_in_numerators: true,
    };

    impl Cg {
        fn solve(
            self,
            a: &DMatrix<f64>,
            b: &DVector<f64>,
            tol: f64,
            cap: usize,
        ) -> (DVector<f64>, usize) {
            let precondition = |r: &DVector<f64>| match self.jacobi {
                Some(f) => DVector::from_fn(r.len(), |i, _| r[i] * f(a[(i, i)])),
                None => r.clone(),
            };
            let dot_rz = |r: &DVector<f64>, z: &DVector<f64>| {
                if self.z_in_numerators { r.dot(z) } else { r.dot(r) }
            };
            let mut x = DVector::zeros(b.len());
            let mut r = b.clone();
            let mut z = precondition(&r);
            let mut p = z.clone();
            let stop = if self.absolute { tol } else { tol * b.norm() };
            for k in 0..cap {
                if r.norm() <= stop {
                    return (x, (self.count)(k, cap));
                }
                let ap = a * &p;
                let rz = dot_rz(&r, &z);
                let alpha = self.alpha * rz / p.dot(&ap);
                x += &p * alpha;
                r -= &ap * alpha;
                z = precondition(&r);
                let beta = self.beta.unwrap_or(dot_rz(&r, &z) / rz);
                p = &z + &p * beta;
            }
            (x, (self.count)(cap, cap))
        }
    }

    macro_rules! cg {
        ($check:ident, $($field:ident: $value:expr),*) => {
            $check(|a, b, t, c| Cg { $($field: $value,)* ..RIGHT }.solve(a, b, t, c))
        };
    }

    #[test]
    fn other_correct_cgs_pass() {
        cg!(check_cg,).assert_passed();
        // The residual recomputed as b − A x every iteration, counted after the update.
        fn recomputed(
            a: &DMatrix<f64>,
            b: &DVector<f64>,
            tol: f64,
            cap: usize,
        ) -> (DVector<f64>, usize) {
            let mut x = DVector::zeros(b.len());
            let mut p = b.clone();
            for k in 0..cap {
                let r = b - a * &x;
                if r.norm() <= tol * b.norm() {
                    return (x, k);
                }
                if k > 0 {
                    let ap = a * &p;
                    p = &r - &p * (r.dot(&ap) / p.dot(&ap)); // A-conjugate to p
                } else {
                    p = r.clone();
                }
                let ap = a * &p;
                x += &p * (p.dot(&r) / p.dot(&ap));
            }
            (x, cap)
        }
        check_cg(recomputed).assert_passed();
        cg!(check_pcg, jacobi: Some(|d| 1.0 / d)).assert_passed();
        // A plain CG on the symmetrically scaled system D^−½ A D^−½ y = D^−½ b, x =
        // D^−½ y, stopped on the original residual: the same iterates.
        fn scaled_cg(
            a: &DMatrix<f64>,
            b: &DVector<f64>,
            tol: f64,
            cap: usize,
        ) -> (DVector<f64>, usize) {
            let s = a.diagonal().map(|d| 1.0 / d.sqrt());
            let m = DMatrix::from_diagonal(&s);
            let (a_s, b_s) = (&m * a * &m, b.component_mul(&s));
            let mut y = DVector::zeros(b.len());
            let (mut r, mut rr) = (b_s.clone(), b_s.dot(&b_s));
            let mut p = r.clone();
            for k in 0..cap {
                let x = y.component_mul(&s);
                if (b - a * &x).norm() <= tol * b.norm() {
                    return (x, k);
                }
                let ap = &a_s * &p;
                let alpha = rr / p.dot(&ap);
                y += &p * alpha;
                r -= &ap * alpha;
                let rr_next = r.dot(&r);
                p = &r + &p * (rr_next / rr);
                rr = rr_next;
            }
            (y.component_mul(&s), cap)
        }
        check_pcg(scaled_cg).assert_passed();
    }

    #[test]
    fn cg_mutants_fail_with_the_diagnosis_meant_for_them() {
        // Steepest descent: β = 0.
        cg!(check_cg, beta: Some(0.0)).assert_fails_with("steepest descent");
        // β = 1: the old r·r overwritten before β is formed.
        cg!(check_cg, beta: Some(1.0)).assert_fails_with("β = 1");
        // A step of the wrong length.
        cg!(check_cg, alpha: 1e-3).assert_fails_with("α = (r·r)/(p·A p)");
        // The right iteration, but max_iterations returned as the count.
        cg!(check_cg, count: |_, cap| cap)
            .assert_fails_with("the max_iterations it was");
        // One too many.
        cg!(check_cg, count: |k, _| k + 1).assert_fails_with("already meets");
        // One too few.
        cg!(check_cg, count: |k, _| k.saturating_sub(1))
            .assert_fails_with("took more");
        // The tolerance taken as absolute.
        cg!(check_cg, absolute: true).assert_fails_with("the tolerance is relative");
        // NaN, shown short.
        let nan =
            check_cg(|_, b, _, _| (DVector::from_element(b.len(), f64::NAN), 1));
        nan.assert_fails_with("x = [NaN, NaN, NaN, … (40 entries)]");
    }

    #[test]
    fn pcg_mutants_fail_with_the_diagnosis_meant_for_them() {
        // No preconditioner at all: plain CG.
        cg!(check_pcg,).assert_fails_with("as plain CG's does");
        // Multiplied by the diagonal instead of divided.
        cg!(check_pcg, jacobi: Some(|d| d))
            .assert_fails_with("divides by the diagonal");
        // r·r where r·z belongs.
        cg!(check_pcg, jacobi: Some(|d| 1.0 / d), z_in_numerators: false)
            .assert_fails_with("with r·z where plain CG has r·r");
        // β = 0: preconditioned steepest descent.
        cg!(check_pcg, jacobi: Some(|d| 1.0 / d), beta: Some(0.0))
            .assert_fails_with("second direction");
        // The tolerance taken as absolute.
        cg!(check_pcg, jacobi: Some(|d| 1.0 / d), absolute: true)
            .assert_fails_with("the tolerance is relative");
        // The count.
        cg!(check_pcg, jacobi: Some(|d| 1.0 / d), count: |_, cap| cap)
            .assert_fails_with("the max_iterations it was");
    }

    /// The block with the along coefficient `a`, the across `c(L, r)`, and `i_for_p`
    /// putting I where P belongs.
    fn stiffness_like(
        (x_a, x_b, k_s, rest): (&Vector3<f64>, &Vector3<f64>, f64, f64),
        a: f64,
        c: fn(f64, f64) -> f64,
        i_for_p: bool,
    ) -> Matrix3<f64> {
        let l = x_a - x_b;
        let length = l.norm();
        let u = l / length;
        let uut = u * u.transpose();
        let across =
            if i_for_p { Matrix3::identity() } else { Matrix3::identity() - uut };
        -(uut * a + across * c(length, rest)) * k_s
    }

    #[test]
    fn another_correct_spring_stiffness_passes() {
        // The same block regrouped: −k_s [(1 − r/L) I + (r/L) u uᵀ].
        check_spring_stiffness(|x_a, x_b, k_s, rest| {
            let l = x_a - x_b;
            let ratio = rest / l.norm();
            -(Matrix3::identity() * (1.0 - ratio)
                + l * l.transpose() * ratio / l.norm_squared())
                * k_s
        })
        .assert_passed();
    }

    #[test]
    fn spring_stiffness_mutants_fail_with_the_diagnosis_meant_for_them() {
        let failing = |f: StiffnessFn, expect: &str| {
            check_spring_stiffness(f).assert_fails_with(expect)
        };
        failing(
            |xa, xb, k, r| {
                -stiffness_like((xa, xb, k, r), 1.0, |l, r| 1.0 - r / l, false)
            },
            "it has the wrong sign: stretching",
        );
        failing(
            |xa, xb, k, r| stiffness_like((xa, xb, k, r), 1.0, |_, _| 0.0, false),
            "across term −k_s (1 − r/L) P is missing",
        );
        failing(
            |xa, xb, k, r| {
                stiffness_like(
                    (xa, xb, k, r),
                    1.0,
                    |l, r| (1.0 - r / l).max(0.0),
                    false,
                )
            },
            "clamped",
        );
        failing(
            |xa, xb, k, r| {
                stiffness_like((xa, xb, k, r), 1.0, |l, r| 1.0 - l / r, false)
            },
            "upside down",
        );
        failing(
            |xa, xb, k, r| stiffness_like((xa, xb, k, r), 1.0, |l, r| l - r, false),
            "missing its 1/L",
        );
        failing(
            |xa, xb, k, r| {
                stiffness_like((xa, xb, k, r), 1.0, |l, r| 1.0 - r / l, true)
            },
            "not I",
        );
        failing(
            |xa, xb, k, r| {
                stiffness_like((xa, xb, k, r), 1.0, |l, r| r / l - 1.0, false)
            },
            "across term has the wrong sign",
        );
        // Not symmetric: u lᵀ where u uᵀ belongs, scaled to pass at first sight.
        failing(
            |xa, xb, k, r| {
                let l = xa - xb;
                let u = l / l.norm();
                stiffness_like((xa, xb, k, r), 1.0, |l, r| 1.0 - r / l, false)
                    + (u * Vector3::x().transpose() - Vector3::x() * u.transpose())
                        * k
            },
            "not symmetric",
        );
    }
}
