//! Practice for chapter 8: the reader writes the collision impulse's magnitude and a
//! solver for the contact forces' LCP. The impulse is applied to the bodies with the
//! chapter's own velocity updates and judged by the law it must meet, v⁺ = −e v⁻,
//! with the energy and momentum that follow; the forces by the three conditions of
//! the LCP and by brute force, every set of clamped contacts tried in turn.

use crate::impulse::{Contact, relative_velocity};
use crate::lcp::{Kind, enumerate, random_problem, scale};
use crate::rows::BodyState;
use nalgebra::{DMatrix, DVector, Matrix3, Rotation3, Vector3};
use pbm_prelim::PbmError;
use pbm_prelim::practice::{Listing, Report, Task};

type V3 = Vector3<f64>;

/// An impulse magnitude the reader writes (the signature of
/// [`crate::impulse::impulse_magnitude`]).
pub type ImpulseFn = fn(&[BodyState], &Contact, f64) -> Result<f64, PbmError>;

/// An LCP solver the reader writes (the signature of [`crate::dantzig::dantzig`]).
pub type LcpFn = fn(&DMatrix<f64>, &DVector<f64>) -> Result<DVector<f64>, PbmError>;

/// The chapter's tasks.
pub const TASKS: &[Task] = &[
    Task {
        id: "contact/impulse",
        title: "the collision impulse's magnitude",
        section: "Colliding contact",
        page: "08-contact/colliding.md",
        equation: "impulse-magnitude",
        difficulty: 1,
        file: "impulse.rs",
        stub: include_str!("practice/impulse.rs"),
        check: "pbm_contact::practice::check_impulse(reader::impulse_magnitude)",
        hints: &[
            "Validate the restitution first; then r_a = c.p − bodies[c.a].x and r_b = \
             c.p − bodies[c.b].x.",
            "Each body adds 1/M + n·((I⁻¹ (r × n)) × r) to the denominator: \
             `c.n.dot(&(body.inv_inertia * r.cross(&c.n)).cross(&r))`. Both bodies \
             add, whichever side of the contact they are on.",
            "The numerator is −(1 + e) v⁻ with v⁻ = `relative_velocity(bodies, c)`, \
             negative for colliding bodies, so j comes out positive.",
        ],
        solution: Listing { source: include_str!("impulse.rs"), anchor: "impulse" },
    },
    Task {
        id: "contact/lcp",
        title: "contact forces from the LCP",
        section: "Resting contact",
        page: "08-contact/resting.md",
        equation: "lcp-conditions",
        difficulty: 2,
        file: "lcp.rs",
        stub: include_str!("practice/lcp.rs"),
        check: "pbm_contact::practice::check_lcp(reader::contact_forces)",
        hints: &[
            "If you knew the set C of contacts that end clamped (aᵢ = 0), the forces \
             would be one solve, A_CC f_C = −b_C, with the others zero. For n ≤ 4 you \
             can try all 2ⁿ sets and keep the one whose f ≥ 0 and a ≥ 0.",
            "Pivoting instead: start at f = 0, a = b; drive a contact d with a_d < 0 \
             along Δf_d = 1, A_CC Δf_C = −A_Cd, as far as the first of a_d, a clamped \
             force or a free acceleration reaches zero.",
            "The index that stopped the step changes sides: a clamped force at zero \
             becomes free, a free acceleration at zero becomes clamped, and d is done \
             when it is the one that stopped.",
        ],
        solution: Listing {
            source: include_str!("practice/lcp_solution.rs"),
            anchor: "contact_forces",
        },
    },
];

/// A world inverse inertia R I_body⁻¹ Rᵀ for a box of mass `m` and sides `sides`,
/// turned by `turn` (an axis times an angle).
fn world_inverse_inertia(m: f64, sides: V3, turn: V3) -> Matrix3<f64> {
    let (w, h, d) = (sides.x, sides.y, sides.z);
    let body = Matrix3::from_diagonal(&V3::new(
        12.0 / (m * (h * h + d * d)),
        12.0 / (m * (w * w + d * d)),
        12.0 / (m * (w * w + h * h)),
    ));
    let r = Rotation3::from_scaled_axis(turn).into_inner();
    r * body * r.transpose()
}

/// The scenes an impulse is tried on, with their names: a tilted box landing on a
/// corner on the ground, and two tumbling boxes meeting off both their centres
/// (listed b first, so that a body's place in the slice is not its role).
fn impulse_scenes() -> Vec<(&'static str, Vec<BodyState>, Contact)> {
    let tumbling = BodyState {
        x: V3::new(0.0, 0.0, 0.8),
        v: V3::new(0.3, -0.2, -2.0),
        omega: V3::new(0.5, 1.5, -0.7),
        inv_mass: 1.0 / 3.0,
        inv_inertia: world_inverse_inertia(
            3.0,
            V3::new(2.0, 1.0, 0.5),
            V3::new(0.3, -0.2, 0.5),
        ),
    };
    let ground = BodyState::fixed(V3::zeros());
    let corner = Contact { a: 0, b: 1, p: V3::new(0.9, 0.4, 0.0), n: V3::z() };
    let upper = BodyState {
        x: V3::new(0.2, -0.1, 0.7),
        v: V3::new(-0.4, 0.1, -1.2),
        omega: V3::new(-0.8, 0.3, 1.1),
        inv_mass: 0.5,
        inv_inertia: world_inverse_inertia(
            2.0,
            V3::new(1.0, 0.6, 0.4),
            V3::new(-0.6, 0.4, 0.2),
        ),
    };
    let lower = BodyState {
        x: V3::new(-0.3, 0.2, -0.4),
        v: V3::new(0.2, 0.3, 0.9),
        omega: V3::new(0.4, -1.3, 0.2),
        inv_mass: 0.2,
        inv_inertia: world_inverse_inertia(
            5.0,
            V3::new(1.5, 0.8, 0.6),
            V3::new(0.1, 0.9, -0.4),
        ),
    };
    let n = V3::new(0.1, -0.2, 1.0).normalize();
    let meeting = Contact { a: 1, b: 0, p: V3::new(0.5, 0.25, 0.1), n };
    vec![
        ("a tilted box landing on a corner", vec![tumbling, ground], corner),
        ("two tumbling boxes meeting off both centres", vec![lower, upper], meeting),
    ]
}

/// Applies +j n to a and −j n to b at the contact, as the chapter's `collide` does.
fn apply(bodies: &mut [BodyState], c: &Contact, j: f64) {
    bodies[c.a].apply_impulse(&c.p, &(c.n * j));
    bodies[c.b].apply_impulse(&c.p, &(c.n * -j));
}

/// Linear momentum and angular momentum about the origin of the movable bodies.
fn momenta(bodies: &[BodyState]) -> (V3, V3) {
    let (mut linear, mut angular) = (V3::zeros(), V3::zeros());
    for body in bodies.iter().filter(|b| b.inv_mass > 0.0) {
        let m = 1.0 / body.inv_mass;
        let inertia = body.inv_inertia.try_inverse().unwrap_or_else(Matrix3::zeros);
        linear += body.v * m;
        angular += body.x.cross(&(body.v * m)) + inertia * body.omega;
    }
    (linear, angular)
}

/// What a denominator with negative turning terms is told.
const TURNING_SIGN: &str = "a turning term has the wrong sign: each is n·(I⁻¹(r × n)) × r \
     = (r × n)ᵀ I⁻¹ (r × n) ≥ 0, so turning only makes a body easier to push; crossing in \
     the other order, n × r or r × (I⁻¹ …), makes it negative";

/// What a wrong j is most likely missing: each of the denominator's pieces, and j
/// as common slips would make it, is compared with the reader's.
fn diagnose_impulse(bodies: &[BodyState], c: &Contact, e: f64, j: f64) -> String {
    let (a, b) = (&bodies[c.a], &bodies[c.b]);
    let turning = |body: &BodyState| {
        let r = c.p - body.x;
        c.n.dot(&(body.inv_inertia * r.cross(&c.n)).cross(&r))
    };
    let (masses, ta, tb) = (a.inv_mass + b.inv_mass, turning(a), turning(b));
    let v = relative_velocity(bodies, c);
    let with = |scale: f64, k: f64| -scale * v / k;
    let near = |x: f64| (j - x).abs() <= 1e-9 * x.abs().max(1e-300);
    let right = with(1.0 + e, masses + ta + tb);
    if near(-right) {
        "it has the wrong sign, and pushes the bodies into each other. With v⁻ = \
         n·(ṗ_a − ṗ_b) negative for bodies that close, −(1 + e) v⁻ is positive, and so \
         is j: is your relative velocity a's point minus b's, along n?"
            .to_string()
    } else if e > 0.0 && near(with(1.0, masses + ta + tb)) {
        "it stops the bodies dead at the contact (v⁺ = 0) instead of bouncing: the \
         numerator is −(1 + e) v⁻, one v⁻ to stop them and e v⁻ more to send them back"
            .to_string()
    } else if near(with(1.0 + e, masses)) {
        "its denominator is only 1/M_a + 1/M_b: a hit off the line through the centre \
         of mass also turns the body, which makes its point there easier to push. Add \
         n·(I⁻¹(r × n)) × r for each body"
            .to_string()
    } else if near(with(1.0 + e, masses + ta)) || near(with(1.0 + e, masses + tb)) {
        "it has the turning term of one body only: both bodies turn, and each adds \
         n·(I⁻¹(r × n)) × r with its own r = p − x and I⁻¹"
            .to_string()
    } else if near(with(1.0 + e, masses - ta - tb)) {
        TURNING_SIGN.to_string()
    } else if near(with(1.0 + e, ta + tb)) {
        "its denominator has lost 1/M_a + 1/M_b, as the notes' 8-14 does when it \
         crosses the linear part with r too: only the turning part I⁻¹(r × n) is \
         crossed with r; the push j n/M adds 1/M along n by itself"
            .to_string()
    } else {
        format!(
            "the law of restitution needs j = −(1 + e) v⁻/K, where K, the change of v_rel \
             per unit impulse, is {:.6} here; your j corresponds to a denominator of \
             {:.6}",
            masses + ta + tb,
            -(1.0 + e) * v / j
        )
    }
}

/// Checks an impulse magnitude on two scenes and three restitutions by what the
/// impulse does when applied: v⁺ = −e v⁻, energy kept at e = 1, momentum kept
/// between two free bodies; and that a bad restitution and two fixed bodies are
/// errors.
pub fn check_impulse(f: ImpulseFn) -> Report {
    let (mut worst_law, mut worst_energy, mut worst_momentum) = (0.0_f64, 0.0, 0.0);
    for (scene, bodies, c) in impulse_scenes() {
        let v_minus = relative_velocity(&bodies, &c);
        for e in [0.4, 1.0, 0.0] {
            let j = match f(&bodies, &c, e) {
                Ok(j) => j,
                Err(err) if e == 0.0 || e == 1.0 => {
                    return Report::fail(format!(
                        "for {scene} with e = {e} your function returned an error: \
                         {err}. Restitution lies in the closed interval [0, 1]: a \
                         perfectly plastic (0) and a perfectly elastic (1) impact are \
                         both allowed. If the error is your denominator instead, it \
                         is positive for bodies that can move: {TURNING_SIGN}"
                    ));
                }
                Err(err) => {
                    return Report::fail(format!(
                        "for {scene} with e = {e} your function returned an error: \
                         {err}. These bodies can move, so the denominator is positive: \
                         if yours came out ≤ 0, {TURNING_SIGN}"
                    ));
                }
            };
            if !j.is_finite() {
                return Report::fail(format!(
                    "for {scene} with e = {e} your j is {j}: is a denominator zero?"
                ));
            }
            let mut after = bodies.clone();
            apply(&mut after, &c, j);
            let v_plus = relative_velocity(&after, &c);
            let law = (v_plus + e * v_minus).abs() / v_minus.abs();
            if law > 1e-9 {
                return Report::fail(format!(
                    "for {scene} (v⁻ = {v_minus:.4} m/s) with e = {e}, your j = {j:.6} \
                     applied as +j n to a and −j n to b leaves v⁺ = {v_plus:.6} m/s, where \
                     the law of restitution asks −e v⁻ = {:.6}: {}",
                    -e * v_minus,
                    diagnose_impulse(&bodies, &c, e, j)
                ));
            }
            worst_law = worst_law.max(law);
            let energy = |bs: &[BodyState]| -> f64 {
                bs.iter().map(BodyState::kinetic_energy).sum()
            };
            if e == 1.0 {
                let (before, now) = (energy(&bodies), energy(&after));
                worst_energy = f64::max(worst_energy, (now - before).abs() / before);
            }
            if bodies.iter().all(|b| b.inv_mass > 0.0) {
                let ((p0, l0), (p1, l1)) = (momenta(&bodies), momenta(&after));
                let change =
                    ((p1 - p0).norm() / p0.norm()).max((l1 - l0).norm() / l0.norm());
                worst_momentum = f64::max(worst_momentum, change);
            }
        }
    }
    let (bodies, c) = {
        let mut scenes = impulse_scenes();
        let (_, bodies, c) = scenes.remove(0);
        (bodies, c)
    };
    for e in [1.5, -0.1] {
        if let Ok(j) = f(&bodies, &c, e) {
            return Report::fail(format!(
                "with a restitution of {e} your function gave j = {j}: the bodies would \
                 part faster than they met, or keep closing. A coefficient outside [0, 1] \
                 is an error (PbmError::invalid)"
            ));
        }
    }
    let fixed = [BodyState::fixed(V3::zeros()), BodyState::fixed(V3::x())];
    if let Ok(j) = f(&fixed, &c, 0.5) {
        return Report::fail(format!(
            "with both bodies fixed your function gave j = {j}: nothing can move, the \
             denominator is zero, and that is an error (PbmError::degenerate), not a \
             number"
        ));
    }
    Report::pass(vec![
        format!(
            "v⁺ = −e v⁻ to {worst_law:.0e} of v⁻ for e = 0, 0.4 and 1, on a box landing on \
             a corner and two tumbling boxes"
        ),
        format!("at e = 1 the kinetic energy is kept to {worst_energy:.0e}"),
        format!(
            "between the two boxes, momentum and angular momentum about the origin are \
             kept to {worst_momentum:.0e} (equal and opposite impulses keep them for any j)"
        ),
        "a restitution outside [0, 1] and two fixed bodies are errors".to_string(),
    ])
}

/// The LCPs a solver is tried on, with a few words each: a block on the floor, a
/// block lifting off, two coupled contacts where the first clamped must let go, and
/// random definite problems of one to four contacts.
fn lcp_problems() -> Vec<(String, DMatrix<f64>, DVector<f64>)> {
    let mut problems = vec![
        (
            "a block on the floor (A = 2, b = −9.81)".to_string(),
            DMatrix::from_element(1, 1, 2.0),
            DVector::from_element(1, -9.81),
        ),
        (
            "a block lifting off (A = 2, b = 1)".to_string(),
            DMatrix::from_element(1, 1, 2.0),
            DVector::from_element(1, 1.0),
        ),
        (
            "two coupled contacts, A = [1 0.9; 0.9 1], b = (−1, −3)".to_string(),
            DMatrix::from_row_slice(2, 2, &[1.0, 0.9, 0.9, 1.0]),
            DVector::from_vec(vec![-1.0, -3.0]),
        ),
    ];
    for n in 1..=4 {
        for seed in 0..6 {
            let (a, b) = random_problem(Kind::Definite, n, seed);
            problems.push((format!("random problem {seed} of {n} contacts"), a, b));
        }
    }
    problems
}

/// The contacts a solution clamps (f > 0), as the page would list them: {1, 3}.
fn clamped_set(f: &DVector<f64>, tol: f64) -> String {
    let set: Vec<String> =
        (0..f.len()).filter(|&i| f[i] > tol).map(|i| (i + 1).to_string()).collect();
    format!("{{{}}}", set.join(", "))
}

/// Rounds a vector for a message.
fn show(v: &DVector<f64>) -> String {
    let parts: Vec<String> = v.iter().map(|x| format!("{x:.4}")).collect();
    format!("({})", parts.join(", "))
}

/// Checks an LCP solver on 27 definite problems of one to four contacts: the three
/// conditions, then the answer against brute-force enumeration of the clamped sets.
pub fn check_lcp(solve: LcpFn) -> Report {
    let problems = lcp_problems();
    let (mut worst, mut worst_enumeration) = (0.0_f64, 0.0_f64);
    for (name, a, b) in &problems {
        let n = b.len();
        let s = scale(a, b);
        let truth = match enumerate(a, b, 1e-10 * s) {
            Ok(all) if !all.is_empty() => all[0].clone(),
            _ => {
                return Report::fail(format!(
                    "{name}: the enumeration found no answer"
                ));
            }
        };
        let brute = format!(
            "trying all {} sets of clamped contacts finds the one answer, f = {} \
             (contacts {} clamped)",
            1 << n,
            show(&truth),
            clamped_set(&truth, 1e-9 * s)
        );
        let f = match solve(a, b) {
            Ok(f) => f,
            Err(e) => {
                return Report::fail(format!(
                    "on {name} your solver returned an error: {e}. A symmetric positive \
                     definite A always has an answer: {brute}"
                ));
            }
        };
        if f.len() != n {
            return Report::fail(format!(
                "on {name} your solver returned {} forces for {n} contacts",
                f.len()
            ));
        }
        if !f.iter().all(|x| x.is_finite()) {
            return Report::fail(format!("on {name} your solver returned f = {f:?}"));
        }
        let acc = a * &f + b;
        let (f_scale, a_scale) = (1.0 + truth.amax(), s * (1.0 + truth.amax()));
        let tol = 1e-9;
        let say = |i: usize, why: String| {
            Report::fail(format!(
                "on {name}, your f = {} gives a = A f + b = {}: contact {} {why}. For \
                 comparison, {brute}",
                show(&f),
                show(&acc),
                i + 1
            ))
        };
        if let Some(i) = (0..n).find(|&i| f[i] < -tol * f_scale) {
            let all_clamped = a.clone().lu().solve(&-b);
            let how = if all_clamped
                .is_some_and(|x| (&x - &f).amax() <= tol * f_scale)
            {
                " Your f solves A f = −b with every contact clamped, and that is what \
                 it gives here."
            } else {
                ""
            };
            return say(
                i,
                format!(
                    "has f = {:.4} < 0: it pulls, and a contact can only push.{how} \
                     Where a clamped force would be negative the contact must be free \
                     instead, f = 0 with a ≥ 0: in the pivoting, a clamped force that \
                     falls to zero stops the step and leaves the clamped set",
                    f[i]
                ),
            );
        }
        if let Some(i) = (0..n).find(|&i| acc[i] < -tol * a_scale) {
            return say(
                i,
                format!(
                    "accelerates into interpenetration (a = {:.4} < 0) with f = {:.4}: \
                     its force must grow until a = 0. Every contact with a < 0 must be \
                     driven, and driving one changes the others' a, so look again at \
                     all of them after each drive",
                    acc[i], f[i]
                ),
            );
        }
        let product = |i: usize| (f[i] / f_scale).min(acc[i] / a_scale);
        if let Some(i) = (0..n).find(|&i| product(i) > tol) {
            return say(
                i,
                format!(
                    "both pushes (f = {:.4}) and parts (a = {:.4}): complementarity \
                     fᵢ aᵢ = 0 says a contact that parts has no force. Each force \
                     changes every contact's acceleration through A's off-diagonal, so \
                     forces solved apart, or negative ones set to zero after one solve, \
                     leave the rest too large: solve the clamped ones again together",
                    f[i], acc[i]
                ),
            );
        }
        for i in 0..n {
            worst =
                worst.max((-f[i] / f_scale).max(-acc[i] / a_scale).max(product(i)));
        }
        worst_enumeration = worst_enumeration.max((&f - &truth).amax() / f_scale);
    }
    Report::pass(vec![
        format!(
            "f ≥ 0, a ≥ 0 and fᵢ aᵢ = 0 to {:.0e} on {} problems of 1 to 4 contacts, \
             among them one where a clamped contact must let go",
            worst.max(1e-16),
            problems.len()
        ),
        format!(
            "the same f as brute-force enumeration of every clamped set, to {:.0e}",
            worst_enumeration.max(1e-16)
        ),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::impulse::impulse_magnitude;

    pbm_prelim::answers!(lcp => check_lcp(lcp::contact_forces));

    #[test]
    fn the_books_impulse_passes_its_check() {
        check_impulse(impulse_magnitude).assert_passed();
    }

    /// The impulse with a denominator of the given pieces, each body's turning term
    /// computed by `turning` (None drops it) and its mass counted if `masses`.
    fn impulse_with(
        bodies: &[BodyState],
        c: &Contact,
        e: f64,
        masses: bool,
        turning: fn(&BodyState, &V3, &V3) -> Option<f64>,
    ) -> Result<f64, PbmError> {
        if !(0.0..=1.0).contains(&e) {
            return Err(PbmError::invalid("restitution", "outside [0, 1]"));
        }
        let mut k = 0.0;
        for body in [&bodies[c.a], &bodies[c.b]] {
            let r = c.p - body.x;
            k += if masses { body.inv_mass } else { 0.0 };
            k += turning(body, &r, &c.n).unwrap_or(0.0);
        }
        if k <= 0.0 {
            return Err(PbmError::degenerate("impulse", "fixed"));
        }
        Ok(-(1.0 + e) * relative_velocity(bodies, c) / k)
    }

    #[test]
    fn impulse_mutants_fail_with_the_diagnosis_meant_for_them() {
        let failing =
            |f: ImpulseFn, expect: &str| check_impulse(f).assert_fails_with(expect);
        failing(|b, c, e| impulse_magnitude(b, c, e).map(|j| -j), "wrong sign");
        failing(|b, c, e| impulse_magnitude(b, c, e).map(|j| j / (1.0 + e)), "dead");
        failing(
            |b, c, e| impulse_with(b, c, e, true, |_, _, _| None),
            "only 1/M_a + 1/M_b",
        );
        failing(
            |b, c, e| {
                impulse_with(b, c, e, true, |body, r, n| {
                    Some(n.dot(&(body.inv_inertia * n.cross(r)).cross(r)))
                })
            },
            "a turning term has the wrong sign",
        );
        failing(
            |b, c, e| {
                impulse_with(b, c, e, false, |body, r, n| {
                    Some(n.dot(&(body.inv_inertia * r.cross(n)).cross(r)))
                })
            },
            "8-14",
        );
        // Only the body the normal points towards turns.
        failing(
            |b, c, e| {
                let a = &b[c.a];
                let r = c.p - a.x;
                let k = a.inv_mass
                    + b[c.b].inv_mass
                    + c.n.dot(&(a.inv_inertia * r.cross(&c.n)).cross(&r));
                Ok(-(1.0 + e) * relative_velocity(b, c) / k)
            },
            "one body only",
        );
        // No check of the restitution.
        failing(
            |b, c, e| impulse_magnitude(b, c, e.clamp(0.0, 1.0)),
            "outside [0, 1]",
        );
    }

    #[test]
    fn lcp_mutants_fail_with_the_diagnosis_meant_for_them() {
        let failing = |f: LcpFn, expect: &str| check_lcp(f).assert_fails_with(expect);
        // Every contact clamped: one linear solve.
        failing(
            |a, b| {
                a.clone()
                    .lu()
                    .solve(&-b)
                    .ok_or_else(|| PbmError::degenerate("t", "s"))
            },
            "every contact clamped",
        );
        // The same, with the negative forces set to zero afterwards.
        failing(
            |a, b| {
                let f = a.clone().lu().solve(&-b);
                let f = f.ok_or_else(|| PbmError::degenerate("t", "s"))?;
                Ok(f.map(|x| x.max(0.0)))
            },
            "both pushes",
        );
        // Only the contact closing fastest is driven, alone.
        failing(
            |a, b| {
                let mut f = DVector::zeros(b.len());
                if let Some(d) = (0..b.len()).min_by(|&i, &j| b[i].total_cmp(&b[j])) {
                    f[d] = (-b[d] / a[(d, d)]).max(0.0);
                }
                Ok(f)
            },
            "interpenetration",
        );
        // Pivoting that never releases a clamped force: a clamped set grown one
        // contact at a time, each solve keeping every contact clamped so far.
        failing(
            |a, b| {
                let n = b.len();
                let mut clamped: Vec<usize> = Vec::new();
                let mut f = DVector::zeros(n);
                for _ in 0..n {
                    let acc = a * &f + b;
                    let Some(d) =
                        (0..n).find(|i| !clamped.contains(i) && acc[*i] < 0.0)
                    else {
                        break;
                    };
                    clamped.push(d);
                    let a_cc = a.select_rows(&clamped).select_columns(&clamped);
                    let rhs = -b.select_rows(&clamped);
                    let x = a_cc
                        .lu()
                        .solve(&rhs)
                        .ok_or_else(|| PbmError::degenerate("t", "singular"))?;
                    f.fill(0.0);
                    clamped.iter().zip(x.iter()).for_each(|(&i, &x)| f[i] = x);
                }
                Ok(f)
            },
            "leaves the clamped set",
        );
    }
}
