//! The chapter's exercises.

use crate::bvh::{Bvh, folded_sheet};
use crate::gjk::{Gjk, NearestCache, Proximity, Support, epa, gjk, gjk_from};
use crate::polyhedron::{PlaneCache, Status, contacts, separation_counted};
use crate::scenes::{
    BoxScene, PAPER_TABLE_1, SolidKind, TumblingPass, predicted_exchanges,
    random_pair,
};
use crate::sweep::{CoherentSweep, brute_force_pairs, sort_and_sweep_pairs};
use crate::toi::{
    BOOK_TOSS, FallingBox, Refinement, Search, exact_impact, find_impact,
};
use crate::tunnel::{Shot, first_tunnelling_speed};
use nalgebra::Vector3;
use pbm_ode::convergence::log_log_slope;
use pbm_prelim::{Choice, Exercise, Optional, PbmError, params};
use serde_json::{Value, json};
use std::time::Instant;

/// Whose time per step `collision/sweep-table` fits a slope to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// The coherent insertion-sort sweep.
    Coherent,
    /// A full sort and sweep every step.
    Resort,
    /// Every pair tested.
    Brute,
}

impl Choice for Method {
    const OPTIONS: &'static [(&'static str, Self)] = &[
        ("coherent", Method::Coherent),
        ("resort", Method::Resort),
        ("brute", Method::Brute),
    ];
}

/// Every exercise of the chapter, in reading order.
pub fn all() -> Vec<Exercise> {
    vec![
        Exercise::new(
            "sweep-table",
            "Baraff's Table 1 again: the coherent sweep, a full re-sort and brute force on 100 to 3,200 moving boxes",
            sweep_table,
        )
        .heavy()
        .optional(&[
                Optional {
                    field: "exchange_slope",
                    null_when: "fewer than two box counts made an exchange (speed 0)",
                },
                Optional {
                    field: "change_slope",
                    null_when: "fewer than two box counts saw a change in overlap (speed 0)",
                },
            ]),
        Exercise::new(
            "separating-plane",
            "a tumbling cube passing a fixed one: how often last step's separating plane still separates",
            separating_plane,
        ),
        Exercise::new(
            "gjk",
            "GJK and EPA beside the separating axes: the tumbling cube, and random pairs of boxes and hulls",
            gjk_beside_sat,
        ),
        Exercise::new(
            "toi",
            "a spinning box falls onto a floor: its collision time by re-taking the step and by interpolating it",
            toi,
        ),
        Exercise::new(
            "tunnel",
            "a thin fast plate at a wall: tested at the ends of steps it passes through; two cures",
            tunnel,
        )
        .optional(&[
                Optional {
                    field: "hit_time_with_cure",
                    null_when: "the plate never reaches the wall",
                },
                Optional {
                    field: "plain_tunnels_from_speed",
                    null_when: "no speed up to twice the thickness over the step tunnels",
                },
                Optional {
                    field: "substeps_tunnel_from_speed",
                    null_when: "no speed up to twice the sub-stepped limit tunnels",
                },
            ]),
        Exercise::new(
            "bvh-fold",
            "a sheet folding onto itself: a box hierarchy refitted each step against a rebuild and brute force",
            bvh_fold,
        )
        .limit(
            ("(frames + 1) × (2 n²)² / 2: brute force tests every pair of triangles", "triangle-pair tests"),
            (1.5e8, "lower n or frames"),
            |p: &BvhFoldParams| {
                let t = (2 * p.n * p.n) as f64;
                (p.frames + 1) as f64 * t * t / 2.0
            },
        ),
    ]
}

/// The median of per-step timings (ms): robust to a step the OS interrupted.
fn median_ms(samples: &mut [f64]) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

params! {
    /// `collision/sweep-table`.
    pub struct SweepTableParams {
        n_max: usize = int(
            "largest number of boxes (doubling from 100)", 3200, 200, 3200,
        ),
        speed: f64 = float("largest box speed", "units/step", 0.05, 0.0, 0.4).label("largest speed"),
        seed: usize = int("which random scene", 1, 0, 1_000_000),
        steps: usize = int("steps timed at each n", 50, 5, 100),
        method: Method = choice(
            "whose time per step fitted_slope is fitted to", Method::Coherent,
        ),
    }
}

fn sweep_table(p: SweepTableParams) -> Result<Value, PbmError> {
    let (n_max, speed) = (p.n_max, p.speed);
    let (seed, steps) = (p.seed as u64, p.steps);
    let method: Method = p.method;
    let (mut rows, mut coherence) = (Vec::new(), Vec::new());
    let (mut fit, mut exchange_fit, mut change_fit) = (vec![], vec![], vec![]);
    for &(n, paper_ms) in PAPER_TABLE_1.iter().filter(|(n, _)| *n <= n_max) {
        let mut scene = BoxScene::new(n, speed, seed)?;
        let mut sweep = CoherentSweep::new(&scene.bounds()?)?;
        let (mut coherent, mut resort, mut brute) = (vec![], vec![], vec![]);
        let mut equal = true;
        let (mut exchanges, mut changed) = (0, 0);
        for _ in 0..steps {
            scene.step();
            let boxes = scene.bounds()?;
            let start = Instant::now();
            let changes = sweep.update(&boxes)?;
            coherent.push(start.elapsed().as_secs_f64() * 1e3);
            exchanges += changes.exchanges;
            changed += changes.began.len() + changes.ended.len();
            let start = Instant::now();
            let sorted = sort_and_sweep_pairs(&boxes)?;
            resort.push(start.elapsed().as_secs_f64() * 1e3);
            let start = Instant::now();
            let reference = brute_force_pairs(&boxes);
            brute.push(start.elapsed().as_secs_f64() * 1e3);
            equal &= sweep.pairs() == reference && sorted == reference;
        }
        let times =
            [median_ms(&mut coherent), median_ms(&mut resort), median_ms(&mut brute)];
        fit.push((n as f64, times[method as usize]));
        let (c, k) = (exchanges as f64 / steps as f64, changed as f64 / steps as f64);
        // A scene where nothing moves (speed 0) has nothing to fit.
        if c > 0.0 {
            exchange_fit.push((n as f64, c));
        }
        if k > 0.0 {
            change_fit.push((n as f64, k));
        }
        rows.push(json!({
            "n": n,
            "sweep_ms": times[0],
            "resort_ms": times[1],
            "brute_ms": times[2],
            "paper_ms": paper_ms,
            "pairs_equal_brute": equal,
        }));
        coherence.push(json!({
            "n": n,
            "overlapping_pairs": sweep.pairs().len(),
            "exchanges_per_step": c,
            "predicted_exchanges_per_step": predicted_exchanges(n, speed, scene.region()),
            "changes_per_step": k,
        }));
    }
    // n_max ≥ 200 gives at least two rows to fit.
    let slope = |points: &[(f64, f64)]| {
        if points.len() >= 2 {
            Value::from(log_log_slope(points))
        } else {
            Value::Null
        }
    };
    Ok(json!({
        "method": method.word(),
        "rows": rows,
        "fitted_slope": log_log_slope(&fit),
        "coherence": coherence,
        "exchange_slope": slope(&exchange_fit),
        "change_slope": slope(&change_fit),
    }))
}

params! {
    /// The moving cube's pass by the fixed one, which `collision/separating-plane`
    /// and `collision/gjk` both watch.
    pub struct PassParams {
        steps: usize = int(
            "steps over the pass", TumblingPass::BOOK.steps as u64, 10, 100_000,
        ),
        spin: f64 = float(
            "how far the cube turns over the pass",
            "rad",
            TumblingPass::BOOK.spin,
            -1000.0,
            1000.0,
        ),
        height: f64 = float(
            "height of the moving cube's path above the fixed cube's centre",
            "m",
            TumblingPass::BOOK.height,
            0.0,
            5.0,
        ),
    }
}

impl PassParams {
    /// The pass these parameters describe.
    pub fn pass(&self) -> TumblingPass {
        TumblingPass { steps: self.steps, spin: self.spin, height: self.height }
    }
}

params! {
    /// `collision/separating-plane`.
    pub struct SeparatingPlaneParams {
        ..pass: PassParams,
        epsilon: f64 = epsilon(1e-3, 0.0, 0.1),
    }
}

fn separating_plane(p: SeparatingPlaneParams) -> Result<Value, PbmError> {
    let pass = p.pass.pass();
    let epsilon = p.epsilon;
    let fixed = TumblingPass::cube()?;
    let mut cache = PlaneCache::default();
    let (mut closest, mut status_changes, mut contact_steps) = (f64::INFINITY, 0, 0);
    let (mut most_contacts, mut without_witness, mut per_search) = (0, 0, 0);
    let mut last = None;
    for k in 0..pass.steps {
        let body = pass.moving(&fixed, k);
        let status = cache.test(&fixed, &body, epsilon);
        // The full search at every step, for what the witness saves.
        let (d, _, tried) = separation_counted(&fixed, &body, 0.0);
        closest = closest.min(d);
        without_witness += tried;
        per_search = per_search.max(tried);
        status_changes += usize::from(last.is_some_and(|s| s != status));
        last = Some(status);
        if status == Status::Contact {
            contact_steps += 1;
            most_contacts = most_contacts.max(contacts(&fixed, &body, epsilon).len());
        }
    }
    // What a search would try over every pair of edges rather than one edge of each
    // direction: 2(F_A + F_B + E_A·E_B).
    let (faces, edges) = (fixed.faces().len(), fixed.edges().len());
    Ok(json!({
        "witness_reuse_rate": cache.reused as f64 / pass.steps as f64,
        "reused": cache.reused,
        "searched": cache.searched,
        "directions_per_search": per_search,
        "directions_every_edge_pair": 2 * (faces + faces + edges * edges),
        "axes_tested": cache.directions,
        "axes_without_witness": without_witness,
        "closest_separation": closest,
        "status_changes": status_changes,
        "contact_steps": contact_steps,
        "most_contacts": most_contacts,
    }))
}

params! {
    /// `collision/gjk`.
    pub struct GjkParams {
        ..pass: PassParams,
        epsilon: f64 = epsilon(1e-3, 0.0, 0.1),
        pairs: usize = int(
            "random pairs of each kind (boxes, hulls)", 500, 1, 10_000,
        ),
    }
}

/// How closely GJK's and EPA's answers must match the separating axes' to count as
/// agreeing (m): hundreds of times what they stop within on shapes a metre across.
pub const AGREEMENT: f64 = 1e-9;

/// GJK's distance for a pair, or minus EPA's depth when they overlap, and the
/// support points both took.
fn signed_distance<const D: usize>(
    a: &impl Support<D>,
    b: &impl Support<D>,
    found: &Gjk<D>,
) -> Result<(f64, usize), PbmError> {
    match &found.proximity {
        Proximity::Apart { distance, .. } => Ok((*distance, found.supports)),
        Proximity::Overlapping { simplex } => {
            let depth = epa(a, b, simplex).ok_or_else(|| {
                PbmError::invalid("collision/gjk", "EPA found a pair of no volume")
            })?;
            Ok((-depth.depth, found.supports + depth.supports))
        }
    }
}

fn gjk_beside_sat(p: GjkParams) -> Result<Value, PbmError> {
    let pass = p.pass.pass();
    let epsilon = p.epsilon;
    let fixed = TumblingPass::cube()?;
    // The separating axes with their witness, as in collision/separating-plane.
    let mut cache = PlaneCache::default();
    // GJK's counterpart: last step's nearest direction tried first.
    let mut nearest = NearestCache::default();
    // GJK's distance at every step, from scratch and from last step's point.
    let (mut cold, mut warm, mut start, mut agree) = (0, 0, Vector3::x(), 0);
    let (mut short_steps, mut shortfall) = (0, 0.0_f64);
    for k in 0..pass.steps {
        let body = pass.moving(&fixed, k);
        let sat = cache.test(&fixed, &body, epsilon);
        let status = nearest.test(&fixed, &body, epsilon);
        agree += usize::from(status == sat);
        let from_scratch = gjk(&fixed, &body);
        let from_last = gjk_from(&fixed, &body, &start, |_, _| {});
        let (distance, work) = signed_distance(&fixed, &body, &from_scratch)?;
        cold += work;
        warm += signed_distance(&fixed, &body, &from_last)?.1;
        if from_last.nearest.norm() > 0.0 {
            start = from_last.nearest;
        }
        // The separating axes bound the distance below; by how much they fall short.
        let short = distance - separation_counted(&fixed, &body, 0.0).0;
        short_steps += usize::from(short > AGREEMENT);
        shortfall = shortfall.max(short);
    }
    // Random pairs: GJK's verdict against the sign of the separation, EPA's depth
    // against the separating axes' depth, and the work of each.
    let (mut apart, mut overlapping, mut signs, mut depths, mut below) =
        (0, 0, 0, 0, 0);
    let (mut pair_supports, mut pair_directions) = (0, 0);
    for seed in 0..p.pairs as u64 {
        for kind in [SolidKind::Box, SolidKind::Hull] {
            let (a, b) = random_pair(seed, kind)?;
            let (sat, _, tried) = separation_counted(&a, &b, 0.0);
            let found = gjk(&a, &b);
            let (d, work) = signed_distance(&a, &b, &found)?;
            pair_supports += work;
            pair_directions += tried;
            match found.proximity {
                Proximity::Apart { .. } => {
                    apart += 1;
                    signs += usize::from(sat > -AGREEMENT);
                    below += usize::from(sat < d - AGREEMENT);
                }
                Proximity::Overlapping { .. } => {
                    overlapping += 1;
                    signs += usize::from(sat < AGREEMENT);
                    depths += usize::from((d - sat).abs() <= AGREEMENT);
                }
            }
        }
    }
    let total = 2.0 * p.pairs as f64;
    Ok(json!({
        "sat_directions": cache.directions,
        "sat_searches": cache.searched,
        "gjk_supports": nearest.supports,
        "gjk_runs": nearest.searched,
        "statuses_agree": agree,
        "supports_cold_every_step": cold,
        "supports_warm_every_step": warm,
        "steps_separation_short": short_steps,
        "largest_shortfall": shortfall,
        "pairs_apart": apart,
        "pairs_overlapping": overlapping,
        "verdicts_agree": signs,
        "depths_agree": depths,
        "separation_below_distance": below,
        "supports_per_pair": pair_supports as f64 / total,
        "directions_per_pair": pair_directions as f64 / total,
    }))
}

params! {
    /// `collision/toi`.
    pub struct ToiParams {
        h: f64 = float("RK4 step", "s", BOOK_TOSS.h, 1e-3, 0.2),
        epsilon: f64 = epsilon(BOOK_TOSS.epsilon, 1e-8, 1e-2),
        spin: f64 = float("initial spin", "rad/s", BOOK_TOSS.spin, -20.0, 20.0),
        drag: f64 = float("air drag rate c", "1/s", BOOK_TOSS.drag, 0.0, 5.0),
    }
}

fn toi(p: ToiParams) -> Result<Value, PbmError> {
    let (h, epsilon) = (p.h, p.epsilon);
    let body = FallingBox::new(p.spin, p.drag)?;
    let exact = exact_impact(&body, 10.0)?;
    let methods = [
        ("retake, bisection", Refinement::Retake(Search::Bisection)),
        ("retake, secant", Refinement::Retake(Search::Secant)),
        ("quadratic, secant", Refinement::Quadratic(Search::Secant)),
        ("cubic, bisection", Refinement::Cubic(Search::Bisection)),
        ("cubic, secant", Refinement::Cubic(Search::Secant)),
    ];
    let mut rows = Vec::new();
    for (name, refinement) in methods {
        let found = find_impact(&body, h, epsilon, refinement)?;
        rows.push(json!({
            "method": name,
            "t": found.t,
            "time_error": found.t - exact,
            "true_gap": found.true_separation,
            "evaluations": found.derivative_evaluations,
            "tests": found.tests,
        }));
    }
    Ok(json!({ "exact_t": exact, "rows": rows }))
}

params! {
    /// `collision/tunnel`.
    pub struct TunnelParams {
        speed: f64 = float("plate speed", "m/s", 45.0, 0.5, 1000.0),
        spin: f64 = float("plate spin", "rad/s", 0.0, -100.0, 100.0),
        plate: f64 = float("plate thickness", "m", 0.02, 0.001, 0.5),
        wall: f64 = float("wall thickness", "m", 0.1, 0.001, 1.0),
        h: f64 = step(1.0 / 60.0, 1e-3, 0.1),
        substeps: usize = int("tests per step for the sub-stepping cure", 4, 1, 64),
        epsilon: f64 = epsilon(1e-3, 1e-6, 1e-2),
    }
}

fn tunnel(p: TunnelParams) -> Result<Value, PbmError> {
    let shot = Shot::new(p.speed, p.spin, p.plate, p.wall, p.h)?;
    let (substeps, epsilon) = (p.substeps, p.epsilon);
    let plain = shot.discrete(1, epsilon)?;
    let sub = shot.discrete(substeps, epsilon)?;
    let cured = shot.advancing(epsilon)?;
    // The plain test can only miss once a step carries the plate past the plate and
    // wall together; look for the first miss between half and twice that speed.
    let limit = (shot.plate + shot.wall) / shot.h;
    let scan = |k: usize| {
        let range = (0.5 * limit * k as f64, 2.0 * limit * k as f64);
        first_tunnelling_speed(&shot, k, epsilon, range, 200)
    };
    Ok(json!({
        // How far one step, and one sub-step, carries the plate, beside the
        // thickness it must not skip: the tunnelling condition's two sides.
        "step_travel": shot.speed * shot.h,
        "substep_travel": shot.speed * shot.h / substeps as f64,
        "plate_and_wall": shot.plate + shot.wall,
        "tunnels_without_cure": plain.tunnelled,
        "tunnels_with_substeps": sub.tunnelled,
        "tunnels_with_cure": cured.tunnelled,
        "hit_time_with_cure": cured.hit,
        "tests_without_cure": plain.tests,
        "tests_with_substeps": sub.tests,
        "tests_with_cure": cured.tests,
        "thickness_over_step": limit,
        "plain_tunnels_from_speed": scan(1)?,
        "substeps_tunnel_from_speed": scan(substeps)?,
    }))
}

params! {
    /// `collision/bvh-fold`.
    pub struct BvhFoldParams {
        // The brute-force reference's pairs reach the limit near n = 49 at the default
        // frames.
        n: usize = int("cells along each side of the sheet", 32, 2, 48),
        margin: f64 = float(
            "how far each triangle's box is grown", "m", 0.01, 1e-6, 0.05,
        ),
        frames: usize = int("frames from flat to folded", 12, 1, 60),
    }
}

fn bvh_fold(p: BvhFoldParams) -> Result<Value, PbmError> {
    let (n, margin, frames) = (p.n, p.margin, p.frames);
    let (flat, triangles) = folded_sheet(n, 0.0);
    let mut bvh = Bvh::build(&triangles, &flat, margin)?;
    let mut rows = Vec::new();
    let mut all_equal = true;
    for k in 0..=frames {
        // From flat to folded back to within 1 % of π (the halves nearly touch).
        let angle = std::f64::consts::PI * 0.99 * k as f64 / frames as f64;
        let (x, _) = folded_sheet(n, angle);
        bvh.refit(&x)?;
        let rebuilt = Bvh::build(&triangles, &x, margin)?;
        let (pairs, refit_tests) = bvh.self_pairs();
        let (again, rebuilt_tests) = rebuilt.self_pairs();
        let equal = pairs == again && pairs == bvh.brute_force_self_pairs(&x)?;
        all_equal &= equal;
        rows.push(json!({
            "angle_deg": angle.to_degrees(),
            "pairs": pairs.len(),
            "tests_refit": refit_tests,
            "tests_rebuilt": rebuilt_tests,
            "looseness": bvh.inner_volume() / rebuilt.inner_volume(),
            "equal_brute": equal,
        }));
    }
    let t = triangles.len();
    Ok(json!({
        "triangles": t,
        "brute_force_tests": t * (t - 1) / 2,
        "rows": rows,
        "all_equal_brute": all_equal,
    }))
}
