//! The chapter's exercises.

use crate::lcp::{Kind, enumerate, random_problem, scale, solve};
use pbm_prelim::{Choice, Exercise, ParamSpec, Params, PbmError};
use serde_json::{Value, json};

impl Choice for Kind {
    const OPTIONS: &'static [(&'static str, Self)] = &[
        ("definite", Kind::Definite),
        ("unsymmetric", Kind::Unsymmetric),
        ("redundant", Kind::Redundant),
    ];
}

/// Every exercise of the chapter, in reading order.
pub fn all() -> Vec<Exercise> {
    vec![Exercise {
        id: "lcp-random",
        summary: "the pivoting LCP solver on random problems, checked against enumerating every complementary basis",
        params: vec![
            ParamSpec::int("problems", "random problems of each size", 20, 1, 50),
            ParamSpec::int("n_max", "largest problem (sizes 1 … n_max)", 12, 1, 40),
            ParamSpec::choice("kind", "which kind of matrix A", Kind::Definite),
            ParamSpec::int("seed", "first random seed", 0, 0, 1_000_000),
        ],
        run: lcp_random,
        optional: &[],
    }]
}

/// Enumeration checks sizes up to this (2ⁿ subsets each).
const ENUMERATE_UP_TO: usize = 12;

fn lcp_random(p: &Params) -> Result<Value, PbmError> {
    let (problems, n_max) = (p.usize("problems")?, p.usize("n_max")?);
    let (kind, seed): (Kind, u64) = (p.choice("kind")?, p.usize("seed")? as u64);
    let (mut worst, mut agrees, mut pivots, mut total) = (0.0_f64, true, 0, 0);
    let mut enumerated = 0;
    for n in 1..=n_max {
        for k in 0..problems as u64 {
            let (a, b) = random_problem(kind, n, seed + 1000 * n as u64 + k);
            let sol = solve(&a, &b)?;
            let s = scale(&a, &b);
            worst = worst.max(sol.residual(s));
            pivots += sol.pivots;
            total += 1;
            if n <= ENUMERATE_UP_TO {
                enumerated += 1;
                let all = enumerate(&a, &b, 1e-9 * s)?;
                // Definite problems have one solution; redundant ones one a.
                let same = all.iter().any(|f| {
                    let a_enum = &a * f + &b;
                    (&sol.a - a_enum).amax() <= 1e-8 * s
                });
                agrees &= same && (kind == Kind::Redundant || all.len() == 1);
            }
        }
    }
    Ok(json!({
        "kind": kind.word(),
        "problems": total,
        "enumerated": enumerated,
        "max_complementarity_residual": worst,
        "agrees_with_enumeration": agrees,
        "mean_pivots": pivots as f64 / total as f64,
    }))
}
