//! The few numbers a page states that no directive can put there, checked against the code.
//!
//! A number a sentence quotes from a run or a timing table comes onto the page through
//! `{{#value}}` or `{{#timing}}` (`pbm_book::values`) and cannot drift. What is left here is
//! what those cannot compute: a slope fitted to a source's own table, a reciprocal of a
//! timing, a count only a benchmark's setup produces. Each claim names its
//! page, quotes the sentence as it stands there (so editing either side fails the test), and
//! computes the value: from a fresh run of an exercise (deterministic numbers) or from the
//! committed output the page includes (timings measured on the book's machine, which the
//! sentence must agree with).

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use pbm_chapters::{pbm_collision, pbm_constraints, pbm_ode};
use std::fs;

/// How the stated number must agree with the computed one.
#[derive(Clone, Copy, Debug)]
enum Agree {
    /// The computed value rounds to the digits shown.
    Rounds,
    /// "about": within this relative distance.
    About(f64),
    /// "under": the computed value is below the number, and within this relative distance.
    Under(f64),
}

/// One number on one page.
struct Claim {
    /// The page, under `book/src`.
    page: &'static str,
    /// Words of the page around the number, verbatim (line breaks as spaces).
    says: &'static str,
    /// The number as written inside `says` (commas allowed).
    number: &'static str,
    /// What the code computes for it.
    value: fn() -> f64,
    /// How close it must be.
    agree: Agree,
}

fn bench(file: &str, label: &str) -> f64 {
    let path = pbm::repo_root().join("book/src/benchmarks").join(file);
    let text = fs::read_to_string(&path).unwrap();
    pbm::benchmarks::committed_median(&text, label)
        .unwrap_or_else(|| panic!("{file} has no row {label}"))
}

/// CG iterations of one derivative evaluation of a chain of `links` rods that has fallen for
/// 20 ms, as the benchmark times it.
fn chain_cg_iterations(links: usize) -> f64 {
    use pbm_ode::runge_kutta::RungeKutta;
    use pbm_ode::system::OdeSystem;
    use pbm_ode::tableau::RK4;
    let chain = pbm_constraints::scenes::Chain { links, length: 0.1, mass: 0.1 };
    let mut system = chain.with_rods().unwrap();
    let mut stepper = RungeKutta::new(RK4);
    for _ in 0..20 {
        stepper.step(&mut system, 1e-3).unwrap();
    }
    let before = system.stats().iterations;
    let mut xdot = vec![0.0; system.dimension()];
    system.derivative(&mut xdot).unwrap();
    (system.stats().iterations - before) as f64
}

const CLAIMS: &[Claim] = &[
    Claim {
        page: "07-collision/broad-phase.md",
        says: "Baraff's own column grows with slope 1.16",
        number: "1.16",
        value: || {
            let paper: Vec<(f64, f64)> = pbm_collision::scenes::PAPER_TABLE_1
                .iter()
                .map(|&(n, ms)| (n as f64, ms))
                .collect();
            pbm_ode::convergence::log_log_slope(&paper)
        },
        agree: Agree::Rounds,
    },
    Claim {
        page: "04-constraints/models.md",
        says: "where CG takes 11, 101 and",
        number: "11",
        value: || chain_cg_iterations(10),
        agree: Agree::Rounds,
    },
    Claim {
        page: "04-constraints/models.md",
        says: "where CG takes 11, 101 and",
        number: "101",
        value: || chain_cg_iterations(100),
        agree: Agree::Rounds,
    },
];

/// Half a unit in the last digit `number` shows: 0.05 for "3.2", 5e-7 for "1.7e-5".
fn half_unit(number: &str) -> f64 {
    let (mantissa, exponent) = match number.split_once('e') {
        Some((m, e)) => (m, e.parse::<i32>().unwrap()),
        None => (number, 0),
    };
    let decimals = mantissa.split_once('.').map_or(0, |(_, d)| d.len()) as i32;
    0.5 * 10f64.powi(exponent - decimals)
}

fn agrees(stated: f64, value: f64, agree: Agree, number: &str) -> bool {
    match agree {
        Agree::Rounds => (value - stated).abs() <= half_unit(number) * (1.0 + 1e-9),
        Agree::About(rel) => (value / stated - 1.0).abs() <= rel,
        Agree::Under(rel) => value < stated && value >= stated * (1.0 - rel),
    }
}

#[test]
fn every_number_a_page_states_agrees_with_the_code() {
    let mut wrong = Vec::new();
    for claim in CLAIMS {
        let path = pbm::repo_root().join("book/src").join(claim.page);
        let page = fs::read_to_string(&path).unwrap();
        let flat = page.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains(claim.says),
            "{}: no longer says \"{}\"; update the claim with the page",
            claim.page,
            claim.says
        );
        assert!(
            claim.says.contains(claim.number),
            "{}: {}",
            claim.page,
            claim.number
        );
        let stated: f64 = claim.number.replace(',', "").parse().unwrap();
        let value = (claim.value)();
        if !agrees(stated, value, claim.agree, claim.number) {
            wrong.push(format!(
                "{}: \"{}\" states {}, the code gives {value} ({:?})",
                claim.page, claim.says, claim.number, claim.agree
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "pages that state a number the code does not give:\n{}",
        { wrong.join("\n") }
    );
}

#[test]
fn the_agreement_rules_can_fail() {
    assert_eq!(half_unit("3.2"), 0.05);
    assert!((half_unit("1.7e-5") - 5e-7).abs() < 1e-20);
    assert!(agrees(3.2, 3.24, Agree::Rounds, "3.2"));
    assert!(!agrees(3.2, 3.26, Agree::Rounds, "3.2"));
    assert!(!agrees(300.0, 301.0, Agree::Under(0.1), "300"));
    assert!(!agrees(300.0, 260.0, Agree::Under(0.1), "300"));
    assert!(!agrees(25.0, 27.0, Agree::About(0.05), "25"));
}

#[test]
fn the_direct_solver_leads_the_sheet_solve_and_its_lead_grows_with_n() {
    // 03-implicit/mass-spring.md: "The direct solver wins, and its lead grows with $n$."
    let file = "implicit-solvers.md";
    let lead = |n: u32| {
        bench(file, &format!("n = {n}: our block-Jacobi CG"))
            / bench(file, &format!("n = {n}: faer sparse Cholesky"))
    };
    assert!(lead(32) > 1.0 && lead(64) > lead(32), "{} {}", lead(32), lead(64));
}
