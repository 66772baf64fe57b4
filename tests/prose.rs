//! Numbers the pages state in prose and captions, checked against the code that computes them.
//!
//! Program output is included from generated files (`tests/output.rs`); a number a sentence
//! quotes from it, or from a run the page describes, is checked here. Each claim names its
//! page, quotes the sentence as it stands there (so editing either side fails the test), and
//! computes the value: from a fresh run of an exercise (deterministic numbers) or from the
//! committed output the page includes (timings measured on the book's machine, which the
//! sentence must agree with).

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use serde_json::Value;
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

/// Runs exercise `id` with `set` and returns the number at JSON `pointer`.
fn run(id: &str, set: &[&str], pointer: &str) -> f64 {
    let chapters = pbm::chapters();
    let (chapter, exercise) = pbm::find_exercise(&chapters, id).unwrap();
    let value = exercise.run_with(chapter.id, set).unwrap();
    number_at(&value, pointer)
}

fn number_at(value: &Value, pointer: &str) -> f64 {
    value.pointer(pointer).and_then(Value::as_f64).unwrap_or_else(|| {
        panic!("no number at {pointer} in {value}");
    })
}

/// The value of `key` in a committed output file (`key   value` lines of `pbm run`'s table).
fn output(file: &str, key: &str) -> f64 {
    let path = pbm::repo_root().join("book/src/output").join(file);
    let text = fs::read_to_string(&path).unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix(key).filter(|r| r.starts_with(' ')))
        .and_then(|r| r.trim().parse().ok())
        .unwrap_or_else(|| panic!("{file} has no number for {key}"))
}

/// Column `column` of the row whose first cell is `first` in a table of a committed output.
fn output_row(file: &str, first: &str, column: usize) -> f64 {
    let path = pbm::repo_root().join("book/src/output").join(file);
    let text = fs::read_to_string(&path).unwrap();
    text.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|cells| cells.first() == Some(&first))
        .and_then(|cells| cells.get(column)?.parse().ok())
        .unwrap_or_else(|| panic!("{file} has no row {first} with column {column}"))
}

/// The median (seconds) of row `label` in a committed timing table (`book/src/benchmarks`).
/// Mean CG iterations of row `k` of `implicit/sheet-sizes` (n = 32, 64, 128).
fn sheet_sizes_iterations(k: usize) -> f64 {
    run("implicit/sheet-sizes", &[], &format!("/rows/{k}/mean_cg_iterations"))
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
    let chain = pbm_constraints::models::Chain { links, length: 0.1, mass: 0.1 };
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
            let paper: Vec<(f64, f64)> = pbm_collision::exercises::PAPER_TABLE_1
                .iter()
                .map(|&(n, ms)| (n as f64, ms))
                .collect();
            pbm_ode::convergence::log_log_slope(&paper)
        },
        agree: Agree::Rounds,
    },
    Claim {
        page: "07-collision/broad-phase.md",
        says: "(fitted slope 1.50), the changes in overlap like $n$ (slope 0.98)",
        number: "1.50",
        value: || run("collision/sweep-table", &["steps=20"], "/exchange_slope"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "07-collision/broad-phase.md",
        says: "the changes in overlap like $n$ (slope 0.98)",
        number: "0.98",
        value: || run("collision/sweep-table", &["steps=20"], "/change_slope"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "07-collision/broad-phase.md",
        says: "at 3,200 boxes there are > about 390 exchanges for every change",
        number: "390",
        value: || {
            let f = "collision-sweep-table--steps=20.txt";
            output_row(f, "3200", 2) / output_row(f, "3200", 3)
        },
        agree: Agree::About(0.02),
    },
    Claim {
        page: "07-collision/broad-phase.md",
        says: "testing 1.3 times the box pairs of a rebuilt tree",
        number: "1.3",
        value: || {
            let f = "collision-bvh-fold.txt";
            output_row(f, "178.2", 2) / output_row(f, "178.2", 3)
        },
        agree: Agree::Rounds,
    },
    Claim {
        page: "07-collision/narrow-phase.md",
        says: "The cached plane answers 99.8 % of the tests",
        number: "99.8",
        value: || {
            100.0 * run("collision/separating-plane", &[], "/witness_reuse_rate")
        },
        agree: Agree::Rounds,
    },
    Claim {
        page: "07-collision/narrow-phase.md",
        says: "tested 3,244 directions in all, where a search at every step would have tested 624,000",
        number: "3,244",
        value: || run("collision/separating-plane", &[], "/axes_tested"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "07-collision/collision-time.md",
        says: "the true separation at the times found is at most 5.2 × 10⁻⁵ m",
        number: "5.2",
        value: || 1e5 * output_row("collision-toi.txt", "retake,", 4),
        agree: Agree::Rounds,
    },
    Claim {
        page: "07-collision/collision-time.md",
        says: "the quadratic's time is off by 1.8 × 10⁻⁶ s",
        number: "1.8",
        value: || 1e6 * output_row("collision-toi.txt", "quadratic,", 3),
        agree: Agree::Rounds,
    },
    Claim {
        page: "07-collision/collision-time.md",
        says: "the plain test first misses at 8.36 m/s",
        number: "8.36",
        value: || run("collision/tunnel", &[], "/plain_tunnels_from_speed"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "07-collision/collision-time.md",
        says: "the 4-sub-step test at 33.5 m/s",
        number: "33.5",
        value: || run("collision/tunnel", &[], "/substeps_tunnel_from_speed"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "07-collision/collision-time.md",
        says: "hit at 22.0 ms",
        number: "22.0",
        value: || 1e3 * run("collision/tunnel", &[], "/hit_time_with_cure"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "01-ode/euler.md",
        says: "The three Euler polygons end at radius 3.28, 1.84 and 1.37",
        number: "3.28",
        // One turn: 2π/h steps, rounded, as the figure draws it.
        value: || {
            run("ode/euler-spiral", &["h=0.4", "steps=16"], "/euler_final_radius")
        },
        agree: Agree::Rounds,
    },
    Claim {
        page: "01-ode/euler.md",
        says: "end at radius 3.28, 1.84 and 1.37",
        number: "1.84",
        value: || {
            run("ode/euler-spiral", &["h=0.2", "steps=31"], "/euler_final_radius")
        },
        agree: Agree::Rounds,
    },
    Claim {
        page: "01-ode/euler.md",
        says: "3.28, 1.84 and 1.37 for",
        number: "1.37",
        value: || {
            run("ode/euler-spiral", &["h=0.1", "steps=63"], "/euler_final_radius")
        },
        agree: Agree::Rounds,
    },
    Claim {
        page: "01-ode/euler.md",
        says: "the logarithm of the final radius (1.19, 0.61, 0.31)",
        number: "1.19",
        value: || {
            run("ode/euler-spiral", &["h=0.4", "steps=16"], "/euler_final_radius")
                .ln()
        },
        agree: Agree::Rounds,
    },
    Claim {
        page: "01-ode/euler.md",
        says: "the logarithm of the final radius (1.19, 0.61, 0.31)",
        number: "0.61",
        value: || {
            run("ode/euler-spiral", &["h=0.2", "steps=31"], "/euler_final_radius")
                .ln()
        },
        agree: Agree::Rounds,
    },
    Claim {
        page: "01-ode/euler.md",
        says: "the logarithm of the final radius (1.19, 0.61, 0.31)",
        number: "0.31",
        value: || {
            run("ode/euler-spiral", &["h=0.1", "steps=63"], "/euler_final_radius")
                .ln()
        },
        agree: Agree::Rounds,
    },
    Claim {
        page: "01-ode/euler.md",
        says: "note the vertical axis, which reaches 25 after two seconds",
        number: "25",
        // The eighth step of h = 0.25 is t = 2 s.
        value: || run("ode/stability", &["h=0.25"], "/trajectory/8"),
        agree: Agree::About(0.05),
    },
    Claim {
        page: "01-ode/convergence.md",
        says: "reaches $4.6 \\times 10^{-9}$ with 2,048 steps",
        number: "4.6",
        value: || 1e9 * run("ode/convergence", &[], "/errors/rk4/3/error"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "01-ode/convergence.md",
        says: "$2.8 \\times 10^{-10}$ with 4,096",
        number: "2.8",
        value: || 1e10 * run("ode/convergence", &[], "/errors/rk4/4/error"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "01-ode/adaptive.md",
        says: "with 10 to 19 times fewer evaluations",
        number: "10",
        // The smallest saving over the figure's tolerances is at 1e-5.
        value: || run("ode/adaptive", &["tol=1e-5"], "/evals_saved_factor"),
        agree: Agree::About(0.05),
    },
    Claim {
        page: "01-ode/adaptive.md",
        says: "with 10 to 19 times fewer evaluations",
        number: "19",
        value: || run("ode/adaptive", &["tol=1e-10"], "/evals_saved_factor"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "01-ode/adaptive.md",
        says: "the adaptive run spends 175 evaluations where a fixed step needs 163",
        number: "175",
        value: || run("ode/adaptive", &["eccentricity=0"], "/adaptive_evals"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "01-ode/adaptive.md",
        says: "the adaptive run spends 175 evaluations where a fixed step needs 163",
        number: "163",
        value: || run("ode/adaptive", &["eccentricity=0"], "/fixed_evals"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "01-ode/adaptive.md",
        says: "forty-eight thousand evaluations still leave an error of 2, the size",
        number: "2",
        value: || {
            run(
                "ode/adaptive",
                &["method=euler-doubling", "tol=1e-7"],
                "/final_error",
            )
        },
        agree: Agree::Rounds,
    },
    Claim {
        page: "01-ode/adaptive.md",
        says: "It grows from under $0.002$ s at closest",
        number: "0.002",
        value: || run("ode/adaptive", &[], "/min_step"),
        agree: Agree::Under(0.2),
    },
    Claim {
        page: "01-ode/adaptive.md",
        says: "approach to $0.5$ s at the far end",
        number: "0.5",
        value: || run("ode/adaptive", &[], "/max_step"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "01-ode/adaptive.md",
        says: "a factor of almost 300 that no fixed step could exploit",
        number: "300",
        value: || {
            run("ode/adaptive", &[], "/max_step")
                / run("ode/adaptive", &[], "/min_step")
        },
        agree: Agree::Under(0.1),
    },
    Claim {
        page: "02-particles/collisions.md",
        says: "With displacement they are off by up to 0.061, nearly a tenth of",
        number: "0.061",
        value: || {
            run(
                "particles/bouncing-ball",
                &["strategy=displace"],
                "/max_ratio_deviation",
            )
        },
        agree: Agree::Rounds,
    },
    Claim {
        page: "03-implicit/minimization.md",
        says: "that first iterate is off by 7.7 cm",
        number: "7.7",
        value: || 100.0 * run("implicit/newton", &["h=0.5"], "/linearized_distance"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "03-implicit/minimization.md",
        says: "it ends at $L = 0.554$ m",
        number: "0.554",
        value: || run("implicit/newton", &["below=0.3"], "/final_length"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "03-implicit/minimization.md",
        says: "The measured ratio is 0.2016 from the second iteration on, the predicted one 0.2016",
        number: "0.2016",
        value: || run("implicit/newton", &["below=0.3"], "/predicted_rate"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "03-implicit/minimization.md",
        says: "The measured ratio is 0.2016 from the second",
        number: "0.2016",
        value: || run("implicit/newton", &["below=0.3"], "/ratios/5"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "02-particles/structures.md",
        says: "drooping about 0.74 m at the tip",
        number: "0.74",
        value: || -run("particles/hanging-structure", &[], "/tip_sag_at_end"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "02-particles/interaction.md",
        says: "At 20,000 particles the grid is about 110 times faster",
        number: "110",
        value: || {
            let file = "particles-interaction-scaling.txt";
            output_row(file, "20000", 1) / output_row(file, "20000", 2)
        },
        agree: Agree::About(0.1),
    },
    Claim {
        page: "03-implicit/index.md",
        says: "1.39 times larger (its stability region reaches $-2.785$",
        number: "1.39",
        value: || run("implicit/stiff-blowup", &[], "/rk4_over_euler"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "03-implicit/index.md",
        says: "its stability region reaches $-2.785$ along the real axis",
        number: "2.785",
        // k = 1000: the limit h k.
        value: || 1e3 * run("implicit/stiff-blowup", &[], "/rk4_max_stable_h"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "03-implicit/mass-spring.md",
        says: "in about 94 CG iterations a step",
        number: "94",
        value: || {
            output("implicit-sheet--preconditioner=jacobi.txt", "mean_cg_iterations")
        },
        agree: Agree::About(0.02),
    },
    Claim {
        page: "03-implicit/mass-spring.md",
        says: "takes 280 iterations, and the picture does not change",
        number: "280",
        value: || {
            let set = ["tolerance=1e-10", "warm=false", "preconditioner=jacobi"];
            run("implicit/sheet", &set, "/mean_cg_iterations")
        },
        agree: Agree::About(0.01),
    },
    Claim {
        page: "03-implicit/mass-spring.md",
        says: "at three digits (94 against 119 from zero)",
        number: "119",
        value: || {
            let set = ["warm=false", "preconditioner=jacobi"];
            run("implicit/sheet", &set, "/mean_cg_iterations")
        },
        agree: Agree::Rounds,
    },
    Claim {
        page: "03-implicit/mass-spring.md",
        says: "and nothing at ten (279 against 280)",
        number: "279",
        value: || {
            let set = ["tolerance=1e-10", "preconditioner=jacobi"];
            run("implicit/sheet", &set, "/mean_cg_iterations")
        },
        agree: Agree::Rounds,
    },
    Claim {
        page: "03-implicit/mass-spring.md",
        says: "take about 145 CG iterations per step instead of 75",
        number: "145",
        value: || {
            let set = ["n=64", "t_end=0.25", "preconditioner=jacobi"];
            run("implicit/sheet", &set, "/mean_cg_iterations")
        },
        agree: Agree::About(0.02),
    },
    Claim {
        page: "03-implicit/mass-spring.md",
        says: "take about 145 CG iterations per step instead of 75",
        number: "75",
        value: || {
            let set = ["t_end=0.25", "preconditioner=jacobi"];
            run("implicit/sheet", &set, "/mean_cg_iterations")
        },
        agree: Agree::About(0.02),
    },
    Claim {
        page: "03-implicit/mass-spring.md",
        says: "About 13 iterations a step instead of 94",
        number: "13",
        value: || output("implicit-sheet.txt", "mean_cg_iterations"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "03-implicit/mass-spring.md",
        says: "but only by a factor of 1.4 to 1.6 per doubling",
        number: "1.4",
        value: || sheet_sizes_iterations(2) / sheet_sizes_iterations(1),
        agree: Agree::Rounds,
    },
    Claim {
        page: "03-implicit/mass-spring.md",
        says: "but only by a factor of 1.4 to 1.6 per doubling",
        number: "1.6",
        value: || sheet_sizes_iterations(1) / sheet_sizes_iterations(0),
        agree: Agree::Rounds,
    },
    Claim {
        page: "07-collision/broad-phase.md",
        says: "parry's hierarchy is 1.9 times as fast as the coherent sweep timed beside it",
        number: "1.9",
        value: || {
            let file = "production-broad-phase.md";
            bench(file, "chapter 7's coherent sweep")
                / bench(file, "parry's BVH, refitted")
        },
        agree: Agree::Rounds,
    },
    Claim {
        page: "08-contact/simulation.md",
        says: "Rapier steps the stack about 56 times faster",
        number: "56",
        value: || {
            let file = "production-stack.md";
            bench(file, "chapter 8, warm start")
                / bench(file, "rapier 0.36 (bodies kept awake)")
        },
        agree: Agree::Rounds,
    },
    Claim {
        page: "appendix-production.md",
        says: "on 20,000 unknowns our RK4 takes 0.35 times the time of ode_solvers' Rk4",
        number: "0.35",
        value: || {
            let file = "production-ode.md";
            bench(file, "RK4, 20,000 unknowns: chapter 1's")
                / bench(file, "RK4, 20,000 unknowns: ode_solvers' Rk4")
        },
        agree: Agree::Rounds,
    },
    Claim {
        page: "appendix-production.md",
        says: "and by 73 times on the chain",
        number: "73",
        value: || {
            let file = "constraints-solvers.md";
            bench(file, "our CG, unformed, Jacobi-preconditioned")
                / bench(file, "faer sparse Cholesky of the formed J W Jᵀ")
        },
        agree: Agree::Rounds,
    },
    Claim {
        page: "04-constraints/index.md",
        says: "largest value over these 20 s is about 400 times lower",
        number: "400",
        value: || {
            let rk4 = ["solver=rk4", "t_end=20"];
            run("constraints/drift", &rk4, "/max_abs_c_without_feedback")
                / run("constraints/drift", &rk4, "/max_abs_c_with_feedback")
        },
        agree: Agree::About(0.05),
    },
    Claim {
        page: "04-constraints/index.md",
        says: "cuts its peak by only about 3 times",
        number: "3",
        value: || {
            let mid = ["solver=midpoint", "t_end=20"];
            run("constraints/drift", &mid, "/max_abs_c_without_feedback")
                / run("constraints/drift", &mid, "/max_abs_c_with_feedback")
        },
        agree: Agree::About(0.1),
    },
    Claim {
        page: "06-rigid/motion.md",
        says: "3.41 J of work, and that is the kinetic energy at the end",
        number: "3.41",
        value: || 2.0 + run("rigid/force-torque-puzzle", &[], "/extra_work"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "04-constraints/models.md",
        says: "must step below 1.4 ms. The rods allow a step 10.7 times larger",
        number: "1.4",
        value: || {
            1e3 * run("constraints/rods-vs-springs", &[], "/spring_max_stable_h")
        },
        agree: Agree::Rounds,
    },
    Claim {
        page: "04-constraints/models.md",
        says: "The rods allow a step 10.7 times larger",
        number: "10.7",
        value: || run("constraints/rods-vs-springs", &[], "/step_ratio"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "04-constraints/models.md",
        says: "where CG takes 11, 101 and 1,001 iterations for 10, 100 and 1,000 rods",
        number: "11",
        value: || chain_cg_iterations(10),
        agree: Agree::Rounds,
    },
    Claim {
        page: "04-constraints/models.md",
        says: "where CG takes 11, 101 and 1,001 iterations",
        number: "101",
        value: || chain_cg_iterations(100),
        agree: Agree::Rounds,
    },
    Claim {
        page: "04-constraints/models.md",
        says: "where CG takes 11, 101 and 1,001 iterations",
        number: "1,001",
        value: || chain_cg_iterations(1000),
        agree: Agree::Rounds,
    },
    Claim {
        page: "05-lagrangian/index.md",
        says: "The constrained particles take about 2 times as long",
        number: "2",
        value: || {
            let file = "lagrangian-derivative.md";
            bench(file, "as constrained particles (chapter 4)")
                / bench(file, "in angles (this chapter)")
        },
        agree: Agree::About(0.15),
    },
    Claim {
        page: "06-rigid/mass.md",
        says: "The exact answer takes about 1 ms",
        number: "1",
        value: || 1e3 * bench("rigid-mass.md", "a 9,800-triangle sphere"),
        agree: Agree::About(0.15),
    },
    Claim {
        page: "06-rigid/motion.md",
        says: "A derivative evaluation is about 22 ns per body on one thread",
        number: "22",
        value: || {
            1e9 * bench("rigid-bodies.md", "one derivative evaluation, 1 thread")
                / 1e4
        },
        agree: Agree::About(0.1),
    },
    Claim {
        page: "06-rigid/motion.md",
        says: "so two threads make it 2.2 times faster",
        number: "2.2",
        value: || {
            let file = "rigid-bodies.md";
            bench(file, "one derivative evaluation, 1 thread")
                / bench(file, "one derivative evaluation, 2 threads")
        },
        agree: Agree::Rounds,
    },
    Claim {
        page: "06-rigid/motion.md",
        says: "gains 1.94 times",
        number: "1.94",
        value: || {
            let file = "rigid-bodies.md";
            bench(file, "one RK4 step, 1 thread")
                / bench(file, "one RK4 step, 2 threads")
        },
        agree: Agree::Rounds,
    },
    Claim {
        page: "05-lagrangian/index.md",
        says: "the two curves are one curve for 18 seconds",
        number: "18",
        value: || run("lagrangian/compare", &[], "/separation_time"),
        agree: Agree::About(0.02),
    },
    Claim {
        page: "06-rigid/motion.md",
        says: "gives 70% more kinetic energy",
        number: "70",
        value: || {
            let id = "rigid/force-torque-puzzle";
            let off = run(id, &[], "/kinetic_energy_off_centre");
            100.0 * (off / run(id, &[], "/kinetic_energy_centred") - 1.0)
        },
        agree: Agree::About(0.02),
    },
    Claim {
        page: "06-rigid/index.md",
        says: "the rotation matrix's ‖RᵀR − 1‖ climbs to 1.7e-5",
        number: "1.7e-5",
        value: || run("rigid/quat-vs-matrix", &[], "/matrix_orthogonality_error"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "06-rigid/index.md",
        says: "the quaternion's | |q| − 1 | to 1.5e-7",
        number: "1.5e-7",
        value: || run("rigid/quat-vs-matrix", &[], "/quaternion_norm_error"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "08-contact/colliding.md",
        says: "The energy left at the end, 0.98 J, is the",
        number: "0.98",
        value: || output("contact-drop.txt", "end_energy_j"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "08-contact/colliding.md",
        says: "from the integrator, 0.2 mJ out of 7 J",
        number: "0.2",
        value: || 1e3 * output("contact-drop.txt", "peak_rise_j"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "08-contact/simulation.md",
        says: "The smallest contact force is 2.45 N, a quarter",
        number: "2.45",
        value: || output("contact-stack.txt", "min_contact_force"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "08-contact/simulation.md",
        says: "The smallest contact force is 2.45 N, a quarter",
        number: "2.45",
        value: || 0.25 * 9.81 * pbm_contact::scenes::CUBE.1,
        agree: Agree::Rounds,
    },
    Claim {
        page: "08-contact/worlds.md",
        says: "$\\mu \\ge \\tfrac27\\Omega u/g = 0.037$ here",
        number: "0.037",
        value: || output("contact-turntable.txt", "friction_needed"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "08-contact/worlds.md",
        says: "The simulated orbit takes 3.5 s to the printed digits",
        number: "3.5",
        value: || output("contact-turntable.txt", "orbit_period_s"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "08-contact/worlds.md",
        says: "the centre stays within 6e-10 m of the closed-form",
        number: "6e-10",
        value: || output("contact-turntable.txt", "max_path_error_m"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "08-contact/worlds.md",
        says: "rests on the ground at 11.54°, within 0.01° of the predicted 11.54°",
        number: "11.54",
        value: || output("contact-seesaw.txt", "tilt_deg"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "08-contact/worlds.md",
        says: "within 0.01° of the predicted 11.54°",
        number: "11.54",
        value: || output("contact-seesaw.txt", "resting_on_ground_deg"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "11-interactive/mechanisms.md",
        says: "The feeder with its eight blocks runs about 12 times faster than real time",
        number: "12",
        value: || {
            2.0 / bench(
                "interactive-scenes.md",
                "the feeder, 8 blocks (the exercise's)",
            )
        },
        agree: Agree::About(0.1),
    },
    Claim {
        page: "11-interactive/mechanisms.md",
        says: "about 1,220 steps of 10 ms a second",
        number: "1,220",
        // Two seconds are 200 steps of 10 ms, and a few shortened at collisions.
        value: || {
            200.0
                / bench(
                    "interactive-scenes.md",
                    "the feeder, 8 blocks (the exercise's)",
                )
        },
        agree: Agree::About(0.1),
    },
    Claim {
        page: "11-interactive/mechanisms.md",
        says: "The demo's four blocks run about 38 times faster than real time",
        number: "38",
        value: || {
            2.0 / bench(
                "interactive-scenes.md",
                "the feeder, 4 blocks (the live demo's)",
            )
        },
        agree: Agree::About(0.1),
    },
    Claim {
        page: "11-interactive/mechanisms.md",
        says: "The pile runs about 18 times faster than real time",
        number: "18",
        value: || 2.0 / bench("interactive-scenes.md", "the pile of 20 polygons"),
        agree: Agree::About(0.1),
    },
    Claim {
        page: "11-interactive/mechanisms.md",
        says: "The jack runs about 28 times faster than real time",
        number: "28",
        value: || {
            2.0 / bench(
                "interactive-scenes.md",
                "the double-action jack (the exercise's)",
            )
        },
        agree: Agree::About(0.1),
    },
    Claim {
        page: "08-contact/simulation.md",
        says: "from 5 to 80 contacts its time grows 440-fold",
        number: "440",
        value: || {
            bench("contact-lcp.md", "80, pivoting")
                / bench("contact-lcp.md", "5, pivoting")
        },
        agree: Agree::About(0.05),
    },
    Claim {
        page: "08-contact/simulation.md",
        says: "about as $n^{2.2}$",
        number: "2.2",
        value: || {
            let ratio = bench("contact-lcp.md", "80, pivoting")
                / bench("contact-lcp.md", "5, pivoting");
            ratio.ln() / 16f64.ln()
        },
        agree: Agree::Rounds,
    },
    Claim {
        page: "08-contact/simulation.md",
        says: "it is 19 times faster than pivoting at 80 contacts",
        number: "19",
        value: || {
            bench("contact-lcp.md", "80, pivoting")
                / bench("contact-lcp.md", "80, warm start")
        },
        agree: Agree::Rounds,
    },
    Claim {
        page: "09-cloth/hair.md",
        says: "gives 9.79 mm against the beam formula's 9.81 mm",
        number: "9.79",
        value: || 1e3 * run("cloth/hair-discretization", &[], "/richardson_limit_m"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "09-cloth/hair.md",
        says: "0.90 mm, then 0.47 mm, then 0.24 mm",
        number: "0.47",
        // Rows alternate per-length and fixed: 20 segments is row 2, 40 is row 4.
        value: || {
            let at = |row: usize| {
                run("cloth/hair-discretization", &[], &format!("/rows/{row}/sag_m"))
            };
            1e3 * (at(4) - at(2))
        },
        agree: Agree::Rounds,
    },
    Claim {
        page: "09-cloth/hair.md",
        says: "the 80-segment strand sags 69 mm, 8.7 times as far as the 10-segment one",
        number: "8.7",
        value: || {
            let at = |row: usize| {
                run("cloth/hair-discretization", &[], &format!("/rows/{row}/sag_m"))
            };
            at(7) / at(1)
        },
        agree: Agree::Rounds,
    },
    Claim {
        page: "09-cloth/cloth.md",
        says: "The fan rose 36 mm in the middle",
        number: "36",
        value: || run("cloth/over-constraint", &[], "/centre_rise_mm"),
        agree: Agree::Rounds,
    },
    Claim {
        page: "09-cloth/drape.md",
        says: "its hem 0.73 m below the rail",
        number: "0.73",
        value: || {
            let set = ["scene=curtain", "curvature=gauss-newton"];
            -run("cloth/drape", &set, "/lowest_z_m")
        },
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
