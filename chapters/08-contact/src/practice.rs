//! Practice for chapter 8: the reader writes the collision impulse's magnitude and a
//! solver for the contact forces' LCP. The impulse is applied to the bodies with the
//! chapter's own velocity updates and judged by the law it must meet, v⁺ = −e v⁻,
//! with the energy and momentum that follow; the forces by the three conditions of
//! the LCP and by brute force, every set of clamped contacts tried in turn. Two
//! more tasks build the LCP's pieces: the rate ṅ at which a contact's normal turns,
//! against central differences of the normal as the bodies turn, and the matrix A,
//! against the motion a unit force at each contact starts, differenced twice.

use crate::impulse::{Contact, relative_velocity};
use crate::lcp::{enumerate, random_problem, scale};
use crate::resting::{Kind, RestingContact};
use crate::rows::BodyState;
use nalgebra::{DMatrix, DVector, Matrix3, Rotation3, Vector3};
use pbm_prelim::PbmError;
use pbm_prelim::practice::{Listing, Report, Task, number, numbers};

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
        solution: Listing {
            source: include_str!("practice/impulse_solution.rs"),
            anchor: "impulse_magnitude",
        },
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
    Task {
        id: "contact/normal-rate",
        title: "how fast a contact's normal turns",
        section: "Resting contact",
        page: "08-contact/resting.md",
        equation: "normal-rate",
        difficulty: 2,
        file: "normal_rate.rs",
        stub: include_str!("practice/normal_rate.rs"),
        check: "pbm_contact::practice::check_normal_rate(reader::normal_derivative)",
        hints: &[
            "`match rc.kind { Kind::VertexFace | Kind::Ball { .. } => …, \
             Kind::EdgeEdge { ea, eb } => … }`; the face case is one cross product \
             with `bodies[rc.contact.b].omega`.",
            "For the edges: z = ea.cross(&eb), ė_a = ω_a × ea, ė_b = ω_b × eb, and \
             ż = ė_a × eb + ea × ė_b, by the product rule.",
            "s is the sign of z·n. Then ṅ = s (ż − n (n·ż))/|z|: n's own part of ż \
             only stretches z, it does not turn it.",
        ],
        solution: Listing {
            source: include_str!("practice/normal_rate_solution.rs"),
            anchor: "normal_derivative",
        },
    },
    Task {
        id: "contact/matrix",
        title: "the matrix A of resting contact",
        section: "Resting contact",
        page: "08-contact/resting.md",
        equation: "contact-matrix",
        difficulty: 2,
        file: "matrix.rs",
        stub: include_str!("practice/matrix.rs"),
        check: "pbm_contact::practice::check_contact_matrix(reader::contact_matrix)",
        hints: &[
            "Fill A entry by entry, `DMatrix::from_fn(n, n, |i, j| …)`: contact j \
             pushes, contact i measures.",
            "For body k, the force of contact j is +n_j if k is j's a, −n_j if it is \
             j's b, else nothing; then Δv̇ = F/M, Δω̇ = I⁻¹((p_j − x) × F), and its \
             point p_i accelerates by Δv̇ + Δω̇ × (p_i − x).",
            "A_ij = n_i · (the acceleration of body a_i's point − that of body b_i's). \
             The torque takes the sign of the force: −n_j on b_j turns it the other \
             way.",
        ],
        solution: Listing {
            source: include_str!("practice/matrix_solution.rs"),
            anchor: "contact_matrix",
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
    } else if e > 0.0 && near(with(1.0 - e, masses + ta + tb)) {
        format!(
            "it leaves v⁺ = +e v⁻, the bodies still closing at e times the speed they \
             met: your numerator is −(1 − e) v⁻. To reverse the velocity the impulse \
             must take v⁻ away and add e v⁻ back the other way: −(1 + e) v⁻ (here \
             {} rather than {})",
            number(-(1.0 + e) * v),
            number(-(1.0 - e) * v)
        )
    } else if near(-(1.0 + e) * c.n.dot(&(a.v - b.v)) / (masses + ta + tb)) {
        format!(
            "your v⁻ is the velocity of the centres, n·(v_a − v_b) = {}. The bodies \
             meet at the contact point, whose velocity is ṗ = v + ω × r for each: \
             v⁻ = n·(ṗ_a − ṗ_b) = {}",
            number(c.n.dot(&(a.v - b.v))),
            number(v)
        )
    } else if near(with(1.0 + e, ta + tb)) {
        "its denominator has lost 1/M_a + 1/M_b, as the notes' 8-14 does when it \
         crosses the linear part with r too: only the turning part I⁻¹(r × n) is \
         crossed with r; the push j n/M adds 1/M along n by itself"
            .to_string()
    } else {
        format!(
            "the law of restitution needs j = −(1 + e) v⁻/K with v⁻ = n·(ṗ_a − ṗ_b) = \
             {} and K, the change of v_rel per unit impulse, {} here (1/M_a + 1/M_b = \
             {}, turning {} and {}); your j = {} is {} times the j they give",
            number(v),
            number(masses + ta + tb),
            number(masses),
            number(ta),
            number(tb),
            number(j),
            number(j / right)
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
                    "for {scene} with e = {e} your j is {}: is a denominator zero?",
                    number(j)
                ));
            }
            let mut after = bodies.clone();
            apply(&mut after, &c, j);
            let v_plus = relative_velocity(&after, &c);
            let law = (v_plus + e * v_minus).abs() / v_minus.abs();
            if law > 1e-9 {
                return Report::fail(format!(
                    "for {scene} (v⁻ = {} m/s) with e = {e}, your j = {} applied as +j n \
                     to a and −j n to b leaves v⁺ = {} m/s, where the law of \
                     restitution asks −e v⁻ = {}: {}",
                    number(v_minus),
                    number(j),
                    number(v_plus),
                    number(-e * v_minus),
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
                "with a restitution of {e} your function gave j = {}: the bodies would \
                 part faster than they met, or keep closing. A coefficient outside [0, 1] \
                 is an error (PbmError::invalid)",
                number(j)
            ));
        }
    }
    let fixed = [BodyState::fixed(V3::zeros()), BodyState::fixed(V3::x())];
    if let Ok(j) = f(&fixed, &c, 0.5) {
        return Report::fail(format!(
            "with both bodies fixed your function gave j = {}: nothing can move, the \
             denominator is zero, and that is an error (PbmError::degenerate), not a \
             number",
            number(j)
        ));
    }
    Report::pass(vec![
        format!(
            "v⁺ = −e v⁻ to {} of v⁻ for e = 0, 0.4 and 1, on a box landing on a corner \
             and two tumbling boxes",
            number(worst_law.max(1e-16))
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
            let (a, b) = random_problem(crate::lcp::Kind::Definite, n, seed);
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

/// A vector for a message, as a reader writes it: [0.25, −1.5].
fn show(v: &DVector<f64>) -> String {
    numbers(v.as_slice())
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
            return Report::fail(format!(
                "on {name} your solver returned f = {}",
                show(&f)
            ));
        }
        let acc = a * &f + b;
        let (f_scale, a_scale) = (1.0 + truth.amax(), s * (1.0 + truth.amax()));
        let tol = 1e-9;
        // Within 1e-6 of the answer but not on it: an iteration stopped too soon.
        let truth_acc = a * &truth + b;
        let unconverged = (&f - &truth).amax() <= 1e-6 * f_scale
            && (&acc - &truth_acc).amax() <= 1e-6 * a_scale;
        let say = |i: usize, why: String| {
            let line = format!(
                "on {name}, your f = {} gives a = A f + b = {}: contact {} {why}. For \
                 comparison, {brute}",
                show(&f),
                show(&acc),
                i + 1
            );
            if unconverged {
                Report::fail_all(vec![
                    format!(
                        "on {name} your forces are within {} of the answer but not on \
                         it: your method has not converged, iterate further (or stop \
                         on a tighter tolerance, a change below 1e−10). Projected \
                         Gauss–Seidel, for one, closes in on the answer only in the \
                         limit",
                        number((&f - &truth).amax())
                    ),
                    line,
                ])
            } else {
                Report::fail(line)
            }
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
                    "has f = {} < 0: it pulls, and a contact can only push.{how} \
                     Where a clamped force would be negative the contact must be free \
                     instead, f = 0 with a ≥ 0: in the pivoting, a clamped force that \
                     falls to zero stops the step and leaves the clamped set",
                    number(f[i])
                ),
            );
        }
        if let Some(i) = (0..n).find(|&i| acc[i] < -tol * a_scale) {
            return say(
                i,
                format!(
                    "accelerates into interpenetration (a = {} < 0) with f = {}: \
                     its force must grow until a = 0. Every contact with a < 0 must be \
                     driven, and driving one changes the others' a, so look again at \
                     all of them after each drive",
                    number(acc[i]),
                    number(f[i])
                ),
            );
        }
        let product = |i: usize| (f[i] / f_scale).min(acc[i] / a_scale);
        if let Some(i) = (0..n).find(|&i| product(i) > tol) {
            return say(
                i,
                format!(
                    "both pushes (f = {}) and parts (a = {}): complementarity \
                     fᵢ aᵢ = 0 says a contact that parts has no force. Each force \
                     changes every contact's acceleration through A's off-diagonal, so \
                     forces solved apart, or negative ones set to zero after one solve, \
                     leave the rest too large: solve the clamped ones again together",
                    number(f[i]),
                    number(acc[i])
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

/// A normal rate the reader writes (the signature of
/// [`crate::resting::normal_derivative`]).
pub type NormalRateFn = fn(&[BodyState], &RestingContact) -> V3;

/// A contact matrix the reader writes (the signature of
/// [`crate::impulse::contact_matrix`]).
pub type ContactMatrixFn = fn(&[BodyState], &[Contact]) -> DMatrix<f64>;

/// A body that turns at `omega` and does not move: all ṅ needs.
fn turning(omega: V3) -> BodyState {
    BodyState {
        x: V3::new(0.1, -0.2, 0.3),
        v: V3::zeros(),
        omega,
        inv_mass: 0.5,
        inv_inertia: Matrix3::identity(),
    }
}

/// The contacts ṅ is tried on, with their names: a vertex and a ball on a face while
/// both bodies turn, then two edges (not unit vectors) with one body turning, the
/// other, and both, with the normal along +z and −z.
fn normal_rate_cases() -> Vec<(&'static str, Vec<BodyState>, RestingContact)> {
    let (wa, wb) = (V3::new(0.7, -0.4, 1.1), V3::new(-0.5, 1.3, 0.4));
    let (ea, eb) = (V3::new(1.2, 0.3, -0.2), V3::new(-0.1, 0.8, 0.4));
    let z = ea.cross(&eb).normalize();
    let contact = |n: V3| Contact { a: 0, b: 1, p: V3::new(0.4, 0.1, 0.2), n };
    let face = |n: V3, kind: Kind| RestingContact { contact: contact(n), kind };
    let edges = |s: f64| face(z * s, Kind::EdgeEdge { ea, eb });
    let both = vec![turning(wa), turning(wb)];
    vec![
        (
            "a vertex of a on a face of b, both turning",
            both.clone(),
            face(V3::new(0.2, -0.3, 1.0).normalize(), Kind::VertexFace),
        ),
        (
            "a ball a on a face of b, both turning",
            both.clone(),
            face(V3::new(-0.4, 0.1, 1.0).normalize(), Kind::Ball { radius: 0.3 }),
        ),
        (
            "two edges, n = +z/|z|, only a turning",
            vec![turning(wa), turning(V3::zeros())],
            edges(1.0),
        ),
        (
            "two edges, n = +z/|z|, only b turning",
            vec![turning(V3::zeros()), turning(wb)],
            edges(1.0),
        ),
        ("two edges, n = +z/|z|, both turning", both.clone(), edges(1.0)),
        ("two edges, n = −z/|z|, both turning", both, edges(-1.0)),
    ]
}

/// ṅ by central differences of the normal as the bodies turn: a face's normal
/// turns with b, an edge pair's is ±(e_a × e_b)/|e_a × e_b| of the turned edges.
fn normal_rate_by_differences(bodies: &[BodyState], rc: &RestingContact) -> V3 {
    let c = &rc.contact;
    let turn = |k: usize, t: f64| Rotation3::from_scaled_axis(bodies[k].omega * t);
    let n_at = |t: f64| match rc.kind {
        Kind::VertexFace | Kind::Ball { .. } => turn(c.b, t) * c.n,
        Kind::EdgeEdge { ea, eb } => {
            let z = ea.cross(&eb);
            let sign = if z.dot(&c.n) >= 0.0 { 1.0 } else { -1.0 };
            (turn(c.a, t) * ea).cross(&(turn(c.b, t) * eb)).normalize() * sign
        }
    };
    let h = 1e-5;
    (n_at(h) - n_at(-h)) / (2.0 * h)
}

/// What a wrong ṅ most likely does, told by comparing it with what common slips
/// give for this contact.
fn diagnose_normal_rate(
    bodies: &[BodyState],
    rc: &RestingContact,
    got: &V3,
) -> String {
    let c = &rc.contact;
    let (wa, wb) = (bodies[c.a].omega, bodies[c.b].omega);
    let near = |x: V3| (got - x).norm() <= 1e-9 * (1.0 + x.norm());
    match rc.kind {
        Kind::VertexFace | Kind::Ball { .. } => if near(wa.cross(&c.n)) {
            "your normal turns with a: the face is b's, so its normal turns with b, \
                 ṅ = ω_b × n"
        } else if near(c.n.cross(&wb)) {
            "the cross product is the wrong way round: ṅ = ω_b × n, as a point r \
                 of b moves at ω_b × r"
        } else if near(wb.cross(&c.n) - wa.cross(&c.n)) {
            "the normal is fixed in b alone: ṅ = ω_b × n, with nothing from a"
        } else {
            "the normal is fixed in the face's body b: ṅ = ω_b × n"
        }
        .to_string(),
        Kind::EdgeEdge { ea, eb } => {
            let z = ea.cross(&eb);
            let s = if z.dot(&c.n) >= 0.0 { 1.0 } else { -1.0 };
            let across = |dz: V3| (dz - c.n * c.n.dot(&dz)) / z.norm();
            let (term_a, term_b) =
                (wa.cross(&ea).cross(&eb), ea.cross(&wb.cross(&eb)));
            let dz = term_a + term_b;
            let swapped = wb.cross(&ea).cross(&eb) + ea.cross(&wa.cross(&eb));
            if s < 0.0 && near(across(dz)) {
                "here the contact's normal is −z/|z|, and ṅ changes sign with it: ṅ = \
                 s (ż − n (n·ż))/|z| with s = −1"
                    .to_string()
            } else if near(dz * s / z.norm()) || near(dz / z.norm()) {
                "your ṅ has a part along n, and a unit vector's rate has none: subtract \
                 n (n·ż) from ż before dividing by |z|"
                    .to_string()
            } else if near((dz - c.n * c.n.dot(&dz)) * s) {
                "divide by |z|: the edges are not unit vectors, and n = s z/|z|"
                    .to_string()
            } else if near(dz) || near(dz * s) {
                "ż is the rate of z = e_a × e_b, not of the unit normal: ṅ = s (ż − n \
                 (n·ż))/|z|"
                    .to_string()
            } else if term_b.norm() > 1e-9 && near(across(term_a) * s) {
                "ż lacks e_a × ė_b: both edges turn, ė_b = ω_b × e_b, and the product \
                 rule gives ż = ė_a × e_b + e_a × ė_b"
                    .to_string()
            } else if term_a.norm() > 1e-9 && near(across(term_b) * s) {
                "ż lacks ė_a × e_b: both edges turn, ė_a = ω_a × e_a, and the product \
                 rule gives ż = ė_a × e_b + e_a × ė_b"
                    .to_string()
            } else if near(across(swapped) * s) {
                "each edge turns with its own body: ė_a = ω_a × e_a and ė_b = ω_b × e_b"
                    .to_string()
            } else {
                format!(
                    "with ż = ė_a × e_b + e_a × ė_b = {}, ṅ = s (ż − n (n·ż))/|z| with \
                     |z| = {} and s = {}",
                    numbers(dz.as_slice()),
                    number(z.norm()),
                    number(s)
                )
            }
        }
    }
}

/// Checks a normal rate against central differences of the normal as the bodies
/// turn: a vertex and a ball on a face, and two edges with one body turning, the
/// other, and both, for either sign of the normal; and that ṅ is across n.
pub fn check_normal_rate(f: NormalRateFn) -> Report {
    let mut problems = Vec::new();
    let mut worst = 0.0_f64;
    for (what, bodies, rc) in normal_rate_cases() {
        pbm_prelim::practice::case(what);
        let got = f(&bodies, &rc);
        let want = normal_rate_by_differences(&bodies, &rc);
        let error = (got - want).norm();
        if !error.is_finite() || error > 1e-7 * (1.0 + want.norm()) {
            problems.push(format!(
                "for {what}, your ṅ is {} where the normal, differenced as the bodies \
                 turn, moves at {}: {}",
                numbers(got.as_slice()),
                numbers(want.as_slice()),
                diagnose_normal_rate(&bodies, &rc, &got)
            ));
        }
        worst = worst.max(error / (1.0 + want.norm()));
    }
    if !problems.is_empty() {
        return Report::fail_all(problems);
    }
    Report::pass(vec![
        "a vertex and a ball on a turning face: ṅ = ω_b × n, as the face's normal \
         differenced gives"
            .to_string(),
        format!(
            "two edges turning with a, with b and with both, for n = ±z/|z|: ṅ as \
             central differences of the normal give, to {}",
            number(worst.max(1e-16))
        ),
    ])
}

/// The contacts A is tried on: a box on the ground and a box on it, five contacts
/// with tilted normals, one listed with the upper box as its b; and two tumbling
/// boxes meeting at one point.
fn matrix_scenes() -> Vec<(&'static str, Vec<BodyState>, Vec<Contact>)> {
    let body = |x: V3, m: f64, sides: V3, turn: V3| BodyState {
        x,
        v: V3::zeros(),
        omega: V3::zeros(),
        inv_mass: 1.0 / m,
        inv_inertia: world_inverse_inertia(m, sides, turn),
    };
    let upper = body(
        V3::new(0.1, 0.05, 1.4),
        2.0,
        V3::new(1.0, 0.8, 0.6),
        V3::new(0.2, -0.1, 0.3),
    );
    let lower = body(
        V3::new(0.0, 0.0, 0.5),
        5.0,
        V3::new(1.6, 1.2, 1.0),
        V3::new(-0.1, 0.2, 0.1),
    );
    let ground = BodyState::fixed(V3::zeros());
    let contact = |a: usize, b: usize, p: [f64; 3], n: [f64; 3]| Contact {
        a,
        b,
        p: V3::from(p),
        n: V3::from(n).normalize(),
    };
    let stack = vec![
        contact(2, 1, [-0.7, -0.5, 0.0], [0.0, 0.0, 1.0]),
        contact(2, 1, [0.8, 0.4, 0.0], [0.05, -0.1, 1.0]),
        contact(0, 2, [0.3, -0.2, 1.0], [-0.2, 0.1, 1.0]),
        contact(0, 2, [-0.4, 0.3, 1.0], [0.1, 0.2, 1.0]),
        contact(2, 0, [0.5, 0.35, 0.98], [0.3, 0.4, -1.0]),
    ];
    let (_, bodies, pair) = impulse_scenes().remove(1);
    vec![
        ("a box on the ground with a box on it", vec![upper, ground, lower], stack),
        ("two tumbling boxes meeting at one point", bodies, vec![pair]),
    ]
}

/// A by the motion: a unit force at contact j, applied to the bodies at rest, moves
/// each by ½ a t² and turns it by ½ α t², and d_i(t) differenced twice is A_ij.
fn matrix_by_motion(bodies: &[BodyState], contacts: &[Contact]) -> DMatrix<f64> {
    let n = contacts.len();
    let dt = 1e-4;
    DMatrix::from_fn(n, n, |i, j| {
        let (ci, cj) = (&contacts[i], &contacts[j]);
        let moved = |k: usize| {
            let body = &bodies[k];
            let force = if k == cj.a {
                cj.n
            } else if k == cj.b {
                -cj.n
            } else {
                V3::zeros()
            };
            let (a, alpha) = (
                force * body.inv_mass,
                body.inv_inertia * (cj.p - body.x).cross(&force),
            );
            let r = ci.p - body.x;
            a * (0.5 * dt * dt)
                + (Rotation3::from_scaled_axis(alpha * (0.5 * dt * dt)) * r - r)
        };
        // d(±dt) − d(0), the same either side: d̈ ≈ 2 (d(dt) − d(0))/dt².
        2.0 * ci.n.dot(&(moved(ci.a) - moved(ci.b))) / (dt * dt)
    })
}

/// The pieces of A for a diagnosis: A_ij = Σ_k s_ik s_jk (n_i·n_j/M_k +
/// (r_ik × n_i)·I_k⁻¹(r_jk × n_j)), with s = +1 for a contact's a and −1 for its b;
/// `kind` picks a slip: 0 right, 1 masses only, 2 turning negated, 3 the face body's
/// torque not negated (the notes' slip), 4 measured along n_j, 5 b's response added,
/// 6 the lever of p_j for the measured point.
fn matrix_variant(
    bodies: &[BodyState],
    contacts: &[Contact],
    kind: u8,
) -> DMatrix<f64> {
    let n = contacts.len();
    let side = |c: &Contact, k: usize| {
        if k == c.a {
            1.0
        } else if k == c.b {
            -1.0
        } else {
            0.0
        }
    };
    DMatrix::from_fn(n, n, |i, j| {
        let (ci, cj) = (&contacts[i], &contacts[j]);
        let mut sum = 0.0;
        for (k, body) in bodies.iter().enumerate() {
            let (si, sj) = (side(ci, k), side(cj, k));
            if si == 0.0 || sj == 0.0 {
                continue;
            }
            let ni = if kind == 4 { cj.n } else { ci.n };
            let ri = if kind == 6 { cj.p - body.x } else { ci.p - body.x };
            let rj = cj.p - body.x;
            let mass = ni.dot(&cj.n) * body.inv_mass;
            let turn = ri.cross(&ni).dot(&(body.inv_inertia * rj.cross(&cj.n)));
            sum += match kind {
                1 => si * sj * mass,
                2 => si * sj * (mass - turn),
                3 => si * sj * mass + si * turn,
                5 => sj * (mass + turn),
                _ => si * sj * (mass + turn),
            };
        }
        sum
    })
}

/// What a wrong A most likely does.
fn diagnose_matrix(
    bodies: &[BodyState],
    contacts: &[Contact],
    got: &DMatrix<f64>,
) -> String {
    let near = |m: &DMatrix<f64>| (got - m).amax() <= 1e-9 * (1.0 + m.amax());
    let slips: [(u8, &str); 6] = [
        (
            3,
            "your A is not symmetric because the face body's torque keeps the sign of \
             n_j where its force is −n_j, the slip of the notes' compute_aij: negate the \
             torque with the force, (p_j − x) × (−n_j)",
        ),
        (
            1,
            "it has the masses only: a force off the centre also turns the body, and \
             its point p_i accelerates by Δω̇ × (p_i − x) more, Δω̇ = I⁻¹((p_j − x) × F)",
        ),
        (
            2,
            "the turning part has the wrong sign: crossing in the other order, F × r or \
             r × Δω̇, turns the body the wrong way",
        ),
        (
            4,
            "you measure along n_j: A_ij is contact i's acceleration, n_i · (Δp̈_a − \
             Δp̈_b), whichever contact pushes",
        ),
        (
            5,
            "b's response is added, not subtracted: d̈_i = n_i · (p̈_a − p̈_b), so a body \
             that is contact i's b counts with a minus",
        ),
        (
            6,
            "the measured point is contact i's: body k's point p_i accelerates by \
             Δv̇ + Δω̇ × (p_i − x_k), with the lever p_j − x_k only in the torque",
        ),
    ];
    for (kind, why) in slips {
        if near(&matrix_variant(bodies, contacts, kind)) {
            return why.to_string();
        }
    }
    let (masses, right) =
        (matrix_variant(bodies, contacts, 1), matrix_variant(bodies, contacts, 0));
    let (mut i, mut j, mut worst) = (0, 0, -1.0);
    for r in 0..got.nrows() {
        for c in 0..got.ncols() {
            let e = (got[(r, c)] - right[(r, c)]).abs();
            if e > worst {
                (i, j, worst) = (r, c, e);
            }
        }
    }
    format!(
        "entry ({}, {}) is {} where a unit force at contact {} changes d̈_{} by {}: of \
         that, the pushes F/M give {} and the turning Δω̇ × r gives {}",
        i + 1,
        j + 1,
        number(got[(i, j)]),
        j + 1,
        i + 1,
        number(right[(i, j)]),
        number(masses[(i, j)]),
        number(right[(i, j)] - masses[(i, j)])
    )
}

/// Checks a contact matrix against the motion a unit force at each contact starts
/// from rest, differenced twice, on a stack of two boxes on the ground (five
/// contacts) and on two tumbling boxes; and that it is symmetric.
pub fn check_contact_matrix(f: ContactMatrixFn) -> Report {
    let mut problems = Vec::new();
    let mut worst = 0.0_f64;
    for (what, bodies, contacts) in matrix_scenes() {
        pbm_prelim::practice::case(what);
        let n = contacts.len();
        let got = f(&bodies, &contacts);
        if got.nrows() != n || got.ncols() != n {
            problems.push(format!(
                "for {what}, your A is {} × {} for {n} contacts: one row and one \
                 column per contact",
                got.nrows(),
                got.ncols()
            ));
            continue;
        }
        if !got.iter().all(|x| x.is_finite()) {
            problems
                .push(format!("for {what}, your A has entries that are not finite"));
            continue;
        }
        let want = matrix_by_motion(&bodies, &contacts);
        let error = (&got - &want).amax();
        if error > 1e-6 * (1.0 + want.amax()) {
            problems.push(format!(
                "for {what}, {}",
                diagnose_matrix(&bodies, &contacts, &got)
            ));
        }
        let asymmetry = (&got - got.transpose()).amax();
        if asymmetry > 1e-9 * (1.0 + got.amax()) {
            let (mut i, mut j) = (0, 0);
            for r in 0..n {
                for c in 0..n {
                    if (got[(r, c)] - got[(c, r)]).abs()
                        > (got[(i, j)] - got[(j, i)]).abs()
                    {
                        (i, j) = (r, c);
                    }
                }
            }
            problems.push(format!(
                "for {what}, your A is not symmetric: A_{}{} = {} but A_{}{} = {}. A = J \
                 M⁻¹ Jᵀ is, since a unit force at j moves contact i exactly as a unit \
                 force at i moves j",
                i + 1,
                j + 1,
                number(got[(i, j)]),
                j + 1,
                i + 1,
                number(got[(j, i)])
            ));
        }
        worst = worst.max(error / (1.0 + want.amax()));
    }
    if !problems.is_empty() {
        return Report::fail_all(problems);
    }
    Report::pass(vec![
        format!(
            "every entry as the motion a unit force starts gives it, differenced twice, \
             to {}: five contacts of a two-box stack, one of two tumbling boxes",
            number(worst.max(1e-16))
        ),
        "symmetric, as J M⁻¹ Jᵀ is".to_string(),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::impulse::impulse_magnitude;

    pbm_prelim::answers!(
        lcp => check_lcp(lcp::contact_forces),
        impulse => check_impulse(impulse::impulse_magnitude),
        normal_rate => check_normal_rate(normal_rate::normal_derivative),
        matrix => check_contact_matrix(matrix::contact_matrix),
    );

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

    #[test]
    fn impulse_slips_the_review_found_are_named() {
        // −(1 − e) v⁻: v⁺ = +e v⁻.
        check_impulse(|b, c, e| {
            impulse_magnitude(b, c, e).map(|j| j * (1.0 - e) / (1.0 + e))
        })
        .assert_fails_with("v⁺ = +e v⁻");
        // v⁻ from the centres' velocities, without ω × r.
        check_impulse(|b, c, e| {
            let v = c.n.dot(&(b[c.a].v - b[c.b].v));
            let j = impulse_magnitude(b, c, e)?;
            Ok(j * v / relative_velocity(b, c))
        })
        .assert_fails_with("velocity of the centres");
        // Anything else: the pieces and the ratio, in short numbers.
        check_impulse(|b, c, e| impulse_magnitude(b, c, e).map(|j| j * 1.3))
            .assert_fails_with("1.3 times");
    }

    #[test]
    fn an_unconverged_iteration_is_told_to_iterate_further() {
        // Projected Gauss–Seidel, 20 sweeps.
        let pgs = check_lcp(|a, b| {
            let mut f = DVector::zeros(b.len());
            for _ in 0..20 {
                for i in 0..b.len() {
                    let r = b[i] + (a.row(i) * &f)[0] - a[(i, i)] * f[i];
                    f[i] = (-r / a[(i, i)]).max(0.0);
                }
            }
            Ok(f)
        });
        pgs.assert_fails_with("iterate further");
        assert!(pgs.lines.iter().all(|l| !l.contains("-0.0000")), "{pgs:?}");
        // The same to convergence passes.
        check_lcp(|a, b| {
            let mut f: DVector<f64> = DVector::zeros(b.len());
            for _ in 0..100_000 {
                let mut change = 0.0_f64;
                for i in 0..b.len() {
                    let r = b[i] + (a.row(i) * &f)[0] - a[(i, i)] * f[i];
                    let new = (-r / a[(i, i)]).max(0.0);
                    change = change.max((new - f[i]).abs());
                    f[i] = new;
                }
                if change < 1e-13 {
                    break;
                }
            }
            Ok(f)
        })
        .assert_passed();
    }

    /// ṅ written with slips: `project` removes n's part, `divide` divides by |z|,
    /// `signed` applies s, `terms` keeps ė_a × e_b (bit 1) and e_a × ė_b (bit 2), and
    /// `face_of_a` turns a face's normal with a.
    fn normal_rate_like(
        bodies: &[BodyState],
        rc: &RestingContact,
        (project, divide, signed): (bool, bool, bool),
        terms: u8,
        face_of_a: bool,
    ) -> V3 {
        let c = &rc.contact;
        match rc.kind {
            Kind::VertexFace | Kind::Ball { .. } => {
                let k = if face_of_a { c.a } else { c.b };
                bodies[k].omega.cross(&c.n)
            }
            Kind::EdgeEdge { ea, eb } => {
                let z = ea.cross(&eb);
                let mut dz = V3::zeros();
                if terms & 1 != 0 {
                    dz += bodies[c.a].omega.cross(&ea).cross(&eb);
                }
                if terms & 2 != 0 {
                    dz += ea.cross(&bodies[c.b].omega.cross(&eb));
                }
                let s = if signed && z.dot(&c.n) < 0.0 { -1.0 } else { 1.0 };
                let v = if project { dz - c.n * c.n.dot(&dz) } else { dz };
                s * if divide { v / z.norm() } else { v }
            }
        }
    }

    #[test]
    fn normal_rate_mutants_fail_with_the_diagnosis_meant_for_them() {
        check_normal_rate(|b, rc| {
            normal_rate_like(b, rc, (true, true, true), 3, false)
        })
        .assert_passed();
        // A correct alternative: differentiate n = s z/|z| as a quotient,
        // ṅ = s (ż |z|² − z (z·ż))/|z|³.
        check_normal_rate(|b, rc| {
            let c = &rc.contact;
            match rc.kind {
                Kind::EdgeEdge { ea, eb } => {
                    let z = ea.cross(&eb);
                    let dz = b[c.a].omega.cross(&ea).cross(&eb)
                        + ea.cross(&b[c.b].omega.cross(&eb));
                    let s = z.dot(&c.n).signum();
                    s * (dz * z.norm_squared() - z * z.dot(&dz)) / z.norm().powi(3)
                }
                _ => b[c.b].omega.cross(&c.n),
            }
        })
        .assert_passed();
        let failing = |f: NormalRateFn, expect: &str| {
            check_normal_rate(f).assert_fails_with(expect)
        };
        failing(
            |b, rc| normal_rate_like(b, rc, (true, true, true), 3, true),
            "turns with a",
        );
        failing(
            |b, rc| normal_rate_like(b, rc, (false, true, true), 3, false),
            "part along n",
        );
        failing(
            |b, rc| normal_rate_like(b, rc, (true, false, true), 3, false),
            "divide by |z|",
        );
        failing(
            |b, rc| normal_rate_like(b, rc, (true, true, false), 3, false),
            "changes sign",
        );
        failing(
            |b, rc| normal_rate_like(b, rc, (true, true, true), 1, false),
            "lacks e_a × ė_b",
        );
        failing(
            |b, rc| normal_rate_like(b, rc, (true, true, true), 2, false),
            "lacks ė_a × e_b",
        );
        failing(
            |b, rc| normal_rate_like(b, rc, (false, false, false), 3, false),
            "not of the unit normal",
        );
    }

    #[test]
    fn the_contact_matrix_by_motion_is_the_books() {
        for (_, bodies, contacts) in matrix_scenes() {
            let a = crate::impulse::contact_matrix(&bodies, &contacts);
            assert!(
                (&a - matrix_by_motion(&bodies, &contacts)).amax() < 1e-7 * a.amax()
            );
            assert!(
                (&a - matrix_variant(&bodies, &contacts, 0)).amax()
                    < 1e-12 * a.amax()
            );
        }
    }

    #[test]
    fn contact_matrix_mutants_fail_with_the_diagnosis_meant_for_them() {
        check_contact_matrix(crate::impulse::contact_matrix).assert_passed();
        // A correct alternative: J M⁻¹ Jᵀ with J written out, six columns a body.
        check_contact_matrix(|bodies, contacts| {
            let m = 6 * bodies.len();
            let mut j = DMatrix::<f64>::zeros(contacts.len(), m);
            let mut w = DMatrix::<f64>::zeros(m, m);
            for (k, body) in bodies.iter().enumerate() {
                for d in 0..3 {
                    w[(6 * k + d, 6 * k + d)] = body.inv_mass;
                }
                w.view_mut((6 * k + 3, 6 * k + 3), (3, 3))
                    .copy_from(&body.inv_inertia);
            }
            for (i, c) in contacts.iter().enumerate() {
                for (k, s) in [(c.a, 1.0), (c.b, -1.0)] {
                    let arm = (c.p - bodies[k].x).cross(&c.n) * s;
                    for d in 0..3 {
                        j[(i, 6 * k + d)] += s * c.n[d];
                        j[(i, 6 * k + 3 + d)] += arm[d];
                    }
                }
            }
            &j * w * j.transpose()
        })
        .assert_passed();
        let failing = |f: ContactMatrixFn, expect: &str| {
            check_contact_matrix(f).assert_fails_with(expect)
        };
        failing(|b, c| matrix_variant(b, c, 3), "compute_aij");
        failing(|b, c| matrix_variant(b, c, 3), "not symmetric");
        failing(|b, c| matrix_variant(b, c, 1), "masses only");
        failing(|b, c| matrix_variant(b, c, 2), "wrong sign");
        failing(|b, c| matrix_variant(b, c, 4), "along n_j");
        failing(|b, c| matrix_variant(b, c, 5), "not subtracted");
        failing(|b, c| matrix_variant(b, c, 6), "the lever");
        failing(
            |b, c| crate::impulse::contact_matrix(b, c) * 1.1,
            "of that, the pushes",
        );
        failing(|_, _| DMatrix::<f64>::zeros(2, 2), "one row and one column");
    }
}
