//! Practice for chapter 3: the reader writes one backward Euler step of a linear
//! system and the conjugate gradient method. The step is checked by the equation it
//! must satisfy, (I − hA) x₁ = x₀, and by staying bounded on a stiff system at a step
//! that sends explicit Euler off; CG by the residual it reaches and the iterations it
//! takes on a symmetric positive definite matrix of known spectrum.

use nalgebra::{DMatrix, DVector};
use pbm_prelim::PbmError;
use pbm_prelim::practice::{Listing, Report, Task, sequence};

/// A backward Euler step the reader writes.
pub type StepFn =
    fn(&DMatrix<f64>, &DVector<f64>, f64) -> Result<DVector<f64>, PbmError>;

/// A conjugate gradient solver the reader writes.
pub type CgFn = fn(&DMatrix<f64>, &DVector<f64>, f64, usize) -> (DVector<f64>, usize);

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
];

/// A 2 × 2 system with a slow and a fast decay and a little coupling, as in the
/// chapter's stiff example.
fn stiff() -> DMatrix<f64> {
    DMatrix::from_row_slice(2, 2, &[-1.0, 0.5, 0.0, -1000.0])
}

/// Checks a backward Euler step on the stiff system at h = 0.1, where explicit Euler
/// grows the fast part 99× a step.
pub fn check_backward_euler(step: StepFn) -> Report {
    let (a, h) = (stiff(), 0.1);
    let x0 = DVector::from_vec(vec![1.0, 1.0]);
    let x1 = match step(&a, &x0, h) {
        Ok(x1) => x1,
        Err(e) => return Report::fail(format!("your step returned an error: {e}")),
    };
    if x1.len() != 2 || !x1.iter().all(|v| v.is_finite()) {
        return Report::fail(format!("one step from (1, 1) gave {x1:?}"));
    }
    let residual = (&x1 - &a * &x1 * h - &x0).norm();
    if residual > 1e-12 {
        let explicit = &x0 + &a * &x0 * h;
        let flipped = (&x1 + &a * &x1 * h - &x0).norm();
        let why = if (&x1 - &explicit).norm() < 1e-12 {
            format!(
                "that is explicit Euler, x₀ + h A x₀: its fast part went from 1 to {:.0} in \
                 one step. Backward Euler takes the slope at the end of the step",
                x1[1]
            )
        } else if flipped < 1e-12 {
            "it solves (I + hA) x₁ = x₀: x₁ = x₀ + h A x₁ moves h A x₁ to the left with a \
             minus"
                .to_string()
        } else {
            format!("x₁ − h A x₁ − x₀ is {residual:.1e} away from zero")
        };
        return Report::fail(format!(
            "one step of the stiff system from (1, 1) at h = 0.1 gave {x1:?}: {why}"
        ));
    }
    // A hundred steps stay bounded and decay, at a step 50× explicit Euler's limit.
    let mut x = x0.clone();
    for k in 0..100 {
        match step(&a, &x, h) {
            Ok(next) => x = next,
            Err(e) => return Report::fail(format!("step {}: {e}", k + 1)),
        }
    }
    if x.norm() >= x0.norm() || !x.norm().is_finite() {
        return Report::fail(format!(
            "after 100 steps the state is {x:?}: it should decay"
        ));
    }
    Report::pass(vec![
        format!("(I − hA) x₁ = x₀ to {residual:.0e} on the stiff system at h = 0.1"),
        format!(
            "100 steps at 50× explicit Euler's stable step decay to |x| = {:.1e}",
            x.norm()
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

/// Checks a CG solver: on a 40 × 40 system of condition 100 it must reach the
/// tolerance, in the few iterations conjugate directions take.
pub fn check_cg(solve: CgFn) -> Report {
    let n = 40;
    let a = spd(n, 100.0);
    let b = DVector::from_fn(n, |i, _| ((i * 7 % 11) as f64 - 5.0) / 5.0);
    let (tolerance, cap) = (1e-8, 2000);
    let (x, iterations) = solve(&a, &b, tolerance, cap);
    if x.len() != n || !x.iter().all(|v| v.is_finite()) {
        return Report::fail(format!(
            "your solver returned x = {:?}…",
            x.iter().take(3).collect::<Vec<_>>()
        ));
    }
    let residual = (&b - &a * &x).norm() / b.norm();
    if residual > 10.0 * tolerance {
        return Report::fail(format!(
            "after {iterations} iterations ‖b − A x‖/‖b‖ = {residual:.1e}, above the \
             tolerance {tolerance:.0e}: is the step α = (r·r)/(p·A p), and is r updated \
             with the same α and A p as x?"
        ));
    }
    // CG needs at most n iterations in exact arithmetic; steepest descent on this
    // matrix needs about (condition/2) ln(1/tolerance), close to a thousand.
    if iterations > 2 * n {
        return Report::fail(format!(
            "you reached the tolerance, but in {iterations} iterations on a {n} × {n} \
             system, where conjugate directions need at most {n} in exact arithmetic: is \
             the next direction r + β p with β = (r·r after)/(r·r before)? With β = 0 it \
             is steepest descent"
        ));
    }
    Report::pass(vec![format!(
        "‖b − A x‖/‖b‖ = {residual:.1e} in {iterations} iterations on a 40 × 40 system of \
         condition 100 (at most 40 in exact arithmetic)"
    )])
}

#[cfg(test)]
mod tests {
    use super::*;

    pbm_prelim::answers! {
        backward_euler => check_backward_euler(backward_euler::backward_euler_step),
        cg => check_cg(cg::conjugate_gradient),
    }

    #[test]
    fn backward_euler_mutants_fail_with_the_diagnosis_meant_for_them() {
        let explicit = check_backward_euler(|a, x, h| Ok(x + a * x * h));
        assert!(
            !explicit.passed && explicit.lines[0].contains("explicit Euler"),
            "{explicit:?}"
        );
        let flipped = check_backward_euler(|a, x, h| {
            let n = x.len();
            (DMatrix::identity(n, n) + a * h)
                .lu()
                .solve(x)
                .ok_or_else(|| PbmError::degenerate("t", "singular"))
        });
        assert!(
            !flipped.passed && flipped.lines[0].contains("(I + hA)"),
            "{flipped:?}"
        );
    }

    #[test]
    fn cg_mutants_fail_with_the_diagnosis_meant_for_them() {
        // Steepest descent: β = 0.
        fn descent(
            a: &DMatrix<f64>,
            b: &DVector<f64>,
            tol: f64,
            cap: usize,
        ) -> (DVector<f64>, usize) {
            let mut x = DVector::zeros(b.len());
            for k in 0..cap {
                let r = b - a * &x;
                if r.norm() <= tol * b.norm() {
                    return (x, k);
                }
                let alpha = r.dot(&r) / r.dot(&(a * &r));
                x += r * alpha;
            }
            (x, cap)
        }
        check_cg(descent).assert_fails_with("steepest descent");
        // α = (r·r)/(p·p): a step of the wrong length.
        fn wrong_alpha(
            a: &DMatrix<f64>,
            b: &DVector<f64>,
            tol: f64,
            cap: usize,
        ) -> (DVector<f64>, usize) {
            let (mut x, mut r) = (DVector::zeros(b.len()), b.clone());
            let mut p = r.clone();
            for k in 0..cap {
                if r.norm() <= tol * b.norm() {
                    return (x, k);
                }
                let ap = a * &p;
                let alpha = r.dot(&r) / p.dot(&p) * 1e-3;
                x += &p * alpha;
                let rr = r.dot(&r);
                r -= &ap * alpha;
                p = &r + &p * (r.dot(&r) / rr);
            }
            (x, cap)
        }
        check_cg(wrong_alpha).assert_fails_with("α = (r·r)/(p·A p)");
    }
}
