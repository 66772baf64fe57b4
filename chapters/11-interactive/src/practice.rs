//! Practice for chapter 11: the reader writes the mouse spring, the right-hand
//! side of a friction row, the paper's blend of a step, the tolerance correction of
//! one contact and the impulse that catches a pinned point. The spring is checked by
//! the mass a free body really shows at the grabbed point, measured with an impulse,
//! with the spring and the damping probed apart, and by dragging a thin bar by its
//! tip under RK4 at the world's step; the friction row by central differences of the
//! sliding velocity as the two bodies move under their loads, the frozen contact
//! point followed in both; the blend by its ends, its slope and its degree; the
//! correction by the gap it closes, measured on the moved bodies, and by the cost of
//! every other move that closes it as well; the catch by the velocity that the
//! body's own impulse leaves at the point.

use nalgebra::Vector2;
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::tableau::RK4;
use pbm_prelim::PbmError;
use pbm_prelim::practice::{Listing, Report, Task, case, number, numbers, sequence};
use pbm_rigid::body::{BodyForce, RigidSystem};
use pbm_rigid::body2d::{RigidBody2, RigidBody2Def, cross2, rotation2, spin2};

/// A mouse spring the reader writes: (body, grabbed point in body coordinates,
/// target, k, c) → force.
pub type MouseFn =
    fn(&RigidBody2, &Vector2<f64>, &Vector2<f64>, f64, f64) -> Vector2<f64>;

/// A friction row's right-hand side the reader writes: (a, b, p, n, h) → number.
pub type FrictionRowFn =
    fn(&RigidBody2, &RigidBody2, &Vector2<f64>, &Vector2<f64>, f64) -> f64;

/// The paper's blend of a step the reader writes: (Y₀, k₁, Y₁, h, s) → Y(t₀ + s).
pub type BlendFn = fn(&[f64], &[f64], &[f64], f64, f64) -> Vec<f64>;

/// The correction of one contact the reader writes: (a, b, p, n, gap) →
/// [(Δx_a, Δθ_a), (Δx_b, Δθ_b)].
pub type LeastDisplacementFn = fn(
    &RigidBody2,
    &RigidBody2,
    &Vector2<f64>,
    &Vector2<f64>,
    f64,
) -> [(Vector2<f64>, f64); 2];

/// The catch of a pin to the world the reader writes: (body, anchor) → impulse.
pub type CatchFn = fn(&RigidBody2, &Vector2<f64>) -> Vector2<f64>;

/// The chapter's tasks.
pub const TASKS: &[Task] = &[
    Task {
        id: "interactive/mouse-spring",
        title: "the mouse spring, scaled by the grabbed point's mass",
        section: "Mechanisms: the Feeder, a Jam, a Jack and a Pendulum",
        page: "11-interactive/mechanisms.md",
        equation: "mouse-spring",
        difficulty: 1,
        file: "mouse.rs",
        stub: include_str!("practice/mouse.rs"),
        check: "pbm_interactive::practice::check_mouse(reader::mouse_force)",
        hints: &[
            "The grabbed point is `body.world_point(local)`: `local` is in the body's \
             coordinates, which turn with it.",
            "1/m_p = 1/m + |r|²/I with r = p − x: the mass of the point, not of the body.",
            "F = m_p (k (target − p) − c ṗ), with ṗ = `body.point_velocity(&p)`, the \
             velocity of the grabbed point rather than of the centre.",
        ],
        solution: Listing {
            source: include_str!("practice/mouse_solution.rs"),
            anchor: "mouse_force",
        },
    },
    Task {
        id: "interactive/friction-row",
        title: "the right-hand side of a friction row",
        section: "Baraff's Interactive Simulator",
        page: "11-interactive/index.md",
        equation: "baraff-friction-rhs",
        difficulty: 2,
        file: "friction_row.rs",
        stub: include_str!("practice/friction_row.rs"),
        check: "pbm_interactive::practice::check_friction_row(reader::friction_rhs)",
        hints: &[
            "Write a small closure for the load acceleration of the point p of a body: \
             F/m + α × r − ω² r, with r = p − x and α = τ/I.",
            "s = ṗ_a − ṗ_b is the sliding velocity at p; t = (−n_y, n_x).",
            "The edge belongs to b, so t turns with b: ṫ = ω_b × t = `spin2(ω_b, &t)`. \
             Following the two material points that touch at p, it enters once, ṫ·s, \
             and the last term (t·s)/h takes the sliding away within the step.",
        ],
        solution: Listing {
            source: include_str!("practice/friction_row_solution.rs"),
            anchor: "friction_rhs",
        },
    },
    Task {
        id: "interactive/blend",
        title: "the paper's blend of a step, for the collision search",
        section: "One step",
        page: "11-interactive/index.md",
        equation: "baraff-blend",
        difficulty: 1,
        file: "blend.rs",
        stub: include_str!("practice/blend.rs"),
        check: "pbm_interactive::practice::check_blend(reader::blend)",
        hints: &[
            "k₅ = (Y₁ − Y₀)/h is the slope of the straight line from Y₀ to Y₁. The \
             blend hands its weight from k₁ at s = 0 to k₅ at s = h.",
            "Work number by number: for each i, y0[i] + s ((1 − s/h) k1[i] + (s/h) \
             k5[i]), collected into a Vec as long as y0.",
            "Check it by hand: at s = 0 it is Y₀ with slope k₁; at s = h it is \
             Y₀ + h k₅ = Y₁; in between it is a parabola in s.",
        ],
        solution: Listing {
            source: include_str!("practice/blend_solution.rs"),
            anchor: "blend",
        },
    },
    Task {
        id: "interactive/least-displacement",
        title: "the tolerance correction of one contact",
        section: "The tolerance correction",
        page: "11-interactive/correction.md",
        equation: "baraff-correction",
        difficulty: 2,
        file: "least_displacement.rs",
        stub: include_str!("practice/least_displacement.rs"),
        check: "pbm_interactive::practice::check_least_displacement(\
                reader::least_displacement)",
        hints: &[
            "A push f along n at p moves a by Δx_a = f n/m_a and turns it by \
             Δθ_a = (r_a × n) f/I_a, with r_a = p − x_a; b takes −f n, the same \
             formulas with the opposite sign.",
            "To first order the gap grows by n·(δp_a − δp_b), δp = Δx + Δθ × r. With \
             the push above that is w f, w = 1/m_a + (r_a × n)²/I_a + 1/m_b + \
             (r_b × n)²/I_b: the row's diagonal entry of A = J M⁻¹ Jᵀ.",
            "One row of the LCP: w f + e ≥ 0, f ≥ 0, f (w f + e) = 0. A deep contact \
             (e < 0) gets f = −e/w; one that is apart (e ≥ 0) gets f = 0.",
        ],
        solution: Listing {
            source: include_str!("practice/least_displacement_solution.rs"),
            anchor: "least_displacement",
        },
    },
    Task {
        id: "interactive/pin-catch",
        title: "the impulse that catches a point pinned to the world",
        section: "Pins added and taken away while it runs",
        page: "11-interactive/correction.md",
        equation: "pin-catch",
        difficulty: 2,
        file: "catch.rs",
        stub: include_str!("practice/catch.rs"),
        check: "pbm_interactive::practice::check_catch(reader::catch_impulse)",
        hints: &[
            "v = `body.point_velocity(anchor)`, r = anchor − x and r⊥ = (−r_y, r_x).",
            "K = 𝟙/m + r⊥r⊥ᵀ/I: `Matrix2::identity() / m + r_perp * \
             r_perp.transpose() / I` with `nalgebra::Matrix2`.",
            "j = −K⁻¹ v. Or solve along r̂ and across it, where K is 1/m and \
             1/m + |r|²/I: a push along r turns nothing, one across r turns the body.",
        ],
        solution: Listing {
            source: include_str!("practice/catch_solution.rs"),
            anchor: "catch_impulse",
        },
    },
];

/// A plane vector for a message: [0.25, −1.5].
fn vec2(v: &Vector2<f64>) -> String {
    numbers(&[v.x, v.y])
}

fn finite(v: &Vector2<f64>) -> bool {
    v.iter().all(|c| c.is_finite())
}

/// A bar of mass m and length ℓ, thin: I = m ℓ²/12.
fn bar(
    (mass, length): (f64, f64),
    (x, angle): (Vector2<f64>, f64),
    (v, omega): (Vector2<f64>, f64),
) -> Result<RigidBody2, PbmError> {
    RigidBody2::new(RigidBody2Def {
        mass,
        inertia: mass * length * length / 12.0,
        position: x,
        angle,
        velocity: v,
        angular_velocity: omega,
    })
}

/// The least mass the free body shows at p, measured: a unit impulse at p along u ⊥ r
/// (where the point yields most) changes the point's velocity along u by 1/m_p.
fn least_point_mass(body: &RigidBody2, p: &Vector2<f64>) -> f64 {
    let r = p - body.position();
    let u = if r.norm() > 0.0 {
        Vector2::new(-r.y, r.x) / r.norm()
    } else {
        Vector2::x()
    };
    let mut pushed = body.clone();
    pushed.apply_impulse_at(p, &u);
    1.0 / (pushed.point_velocity(p) - body.point_velocity(p)).dot(&u)
}

/// The reader's spring on body 0, its target moving 1.1 m in the first second.
struct ReaderMouse {
    f: MouseFn,
    local: Vector2<f64>,
    start: Vector2<f64>,
}

impl ReaderMouse {
    fn target(&self, t: f64) -> Vector2<f64> {
        self.start + Vector2::new(1.1, 0.0) * t.min(1.0)
    }
}

impl BodyForce<RigidBody2> for ReaderMouse {
    fn name(&self) -> &'static str {
        "your mouse spring"
    }
    fn bodies(&self) -> &[usize] {
        &[0]
    }
    fn apply(&self, t: f64, bodies: &mut [RigidBody2]) -> Result<(), PbmError> {
        let body = &mut bodies[0];
        let f = (self.f)(body, &self.local, &self.target(t), 4000.0, 120.0);
        let p = body.world_point(&self.local);
        body.apply_force_at(&p, &f);
        Ok(())
    }
}

/// Drags a free 2 m bar of 1 kg by its tip for 3 s of RK4 at 10 ms: how far the tip
/// ends from the mouse.
fn drag_by_the_tip(f: MouseFn) -> Result<f64, String> {
    let body =
        bar((1.0, 2.0), (Vector2::new(0.0, 1.0), 0.0), (Vector2::zeros(), 0.0))
            .map_err(|e| e.to_string())?;
    let local = Vector2::new(1.0, 0.0);
    let start = body.world_point(&local);
    let mut system = RigidSystem::new(vec![body]).map_err(|e| e.to_string())?;
    let mouse = ReaderMouse { f, local, start };
    let end = mouse.target(3.0);
    system.add_force(mouse).map_err(|e| e.to_string())?;
    let mut rk4 = RungeKutta::new(RK4);
    for k in 0..300 {
        rk4.step(&mut system, 0.01).map_err(|e| e.to_string())?;
        let tip = system.bodies[0].world_point(&local);
        if !finite(&tip) || tip.norm() > 1e3 {
            return Err(format!("by step {} the tip was at {}", k + 1, vec2(&tip)));
        }
    }
    Ok((system.bodies[0].world_point(&local) - end).norm())
}

/// What the reader's spring does wrong on `body` grabbed at `local` with the mouse
/// at `target`, from the force `got` it gave where m_p (k (m − p) − c ṗ) is `want`:
/// a named slip when one of them gives `got`, else the measured parts.
fn mouse_diagnosis(
    body: &RigidBody2,
    (local, target): (Vector2<f64>, Vector2<f64>),
    (k, c): (f64, f64),
    (got, want): (Vector2<f64>, Vector2<f64>),
) -> String {
    let p = body.world_point(&local);
    let (m, inertia) = (body.mass(), body.inertia());
    let r = p - body.position();
    let m_p = 1.0 / (1.0 / m + r.norm_squared() / inertia);
    let pull = target - p;
    let velocity = body.point_velocity(&p);
    let spring = |point: Vector2<f64>, velocity: Vector2<f64>, mass: f64| {
        ((target - point) * k - velocity * c) * mass
    };
    let close = |x: Vector2<f64>| (got - x).norm() <= 1e-9 * (1.0 + want.norm());
    let mut slips: Vec<(Vector2<f64>, String)> = vec![
        (
            spring(p, velocity, m),
            format!(
                "it is scaled by the body's mass m = {} kg, but the point yields like \
                 m_p = {} kg (the body turns as well as moves). With the body's mass \
                 the spring's rates are {} times too high there, and RK4 at the \
                 world's step blows up",
                number(m),
                number(m_p),
                number(m / m_p)
            ),
        ),
        (
            spring(p, velocity, 1.0),
            "it is not scaled by any mass: k and c are rates per unit of mass, and the \
             force is m_p (k (m − p) − c ṗ)"
                .to_string(),
        ),
        (
            spring(p, velocity, 1.0 / m_p),
            "it is divided by the point's mass m_p: k and c are per unit of mass, so \
             the force is m_p times k (m − p) − c ṗ"
                .to_string(),
        ),
        (
            spring(p, velocity, 1.0 / (1.0 / m + r.norm_squared() * inertia)),
            "its mass multiplies |r|² by the moment of inertia: 1/m_p = 1/m + |r|²/I"
                .to_string(),
        ),
        (
            spring(p, velocity, 1.0 / (1.0 / m + p.norm_squared() / inertia)),
            "its mass takes r from the world's origin: r = p − x runs from the centre \
             of mass to the grabbed point"
                .to_string(),
        ),
        (
            ((p - target) * k - velocity * c) * m_p,
            "the spring pushes the point away from the mouse: k (m − p) points from \
             the grabbed point p to the mouse m"
                .to_string(),
        ),
        (
            pull * (k * m_p),
            "the damping −c ṗ is missing: with the mouse at the grabbed point only the \
             damping acts, and your force is zero"
                .to_string(),
        ),
        (
            spring(p, body.velocity(), m_p),
            "it damps the centre's velocity; the spring is attached at p and damps the \
             point's velocity ṗ = v + ω × r, `body.point_velocity(&p)`"
                .to_string(),
        ),
        (
            (pull * k + velocity * c) * m_p,
            "its damping pushes along the motion: −c ṗ opposes it".to_string(),
        ),
    ];
    let unturned = body.position() + local;
    slips.push((
        spring(
            unturned,
            body.point_velocity(&unturned),
            1.0 / (1.0 / m + local.norm_squared() / inertia),
        ),
        "it pulls the point x + local, as if the body had not turned: `local` is in the \
         body's coordinates, and the point is `body.world_point(local)`"
            .to_string(),
    ));
    if pull.norm() > 0.0 {
        let lever = cross2(&r, &(pull / pull.norm()));
        slips.push((
            spring(p, velocity, 1.0 / (1.0 / m + lever * lever / inertia)),
            "it uses the mass along the pull, 1/m + (r × u)²/I. The world uses the \
             least mass, 1/m + |r|²/I, the same in every direction, so that k and c \
             bound the spring's rates however it pulls"
                .to_string(),
        ));
    }
    if let Some((_, why)) = slips.into_iter().find(|(x, _)| close(*x)) {
        return why;
    }
    // Measured: which part acts in this probe, and how the force compares with it.
    let ratio = got.dot(&want) / want.norm_squared();
    let part = if pull.norm() > 0.0 {
        format!(
            "the spring's part m_p k (m − p) = {}, the pull k (m − p) = {} times the \
             grabbed point's least mass m_p = {} kg (1/m_p = 1/m + |r|²/I, \
             r = p − x = {})",
            vec2(&want),
            vec2(&(pull * k)),
            number(m_p),
            vec2(&r)
        )
    } else {
        format!(
            "the damping's part −m_p c ṗ = {}, with the grabbed point's velocity \
             ṗ = v + ω × r = {} and its least mass m_p = {} kg",
            vec2(&want),
            vec2(&velocity),
            number(m_p)
        )
    };
    if ratio > 0.0 && (got - want * ratio).norm() <= 1e-9 * got.norm() {
        format!(
            "it points the right way but is {} times {part}: the mass it is scaled by \
             is {} kg",
            number(ratio),
            number(ratio * m_p)
        )
    } else {
        format!("it should be {part}")
    }
}

/// Checks a mouse spring: the mass it is scaled by and the point it pulls, with the
/// bar at rest so that only the spring acts; the velocity it damps, with the mouse
/// at the grabbed point so that only the damping acts; and a drag under RK4 at the
/// world's step.
pub fn check_mouse(f: MouseFn) -> Report {
    let (k, c) = (4000.0, 120.0);
    // A 2 m bar of 4.5 kg (I = 1.5 kg m², so that /I and ·I differ), turned by
    // 0.6 rad: at rest and grabbed at its centre, at its tip and between, with the
    // mouse away (the spring alone pulls); then moving and spinning, with the mouse
    // at the grabbed point (the damping alone pulls).
    let cases = [
        (Vector2::new(0.0, 0.0), Vector2::new(0.4, 1.6), Vector2::zeros(), 0.0),
        (Vector2::new(1.0, 0.0), Vector2::new(0.7, 2.5), Vector2::zeros(), 0.0),
        (Vector2::new(-0.6, 0.0), Vector2::new(-1.0, 0.3), Vector2::zeros(), 0.0),
        (Vector2::new(0.8, 0.0), Vector2::zeros(), Vector2::new(0.5, -0.2), 1.5),
    ];
    let mut lines = Vec::new();
    let mut spring_failed = false;
    for (local, offset, v, omega) in cases {
        let damping_only = offset == Vector2::zeros();
        if spring_failed && !damping_only {
            continue; // one line for the spring's part
        }
        let setting = if damping_only {
            format!(
                "on a 4.5 kg bar turned by 0.6 rad, moving at {} m/s and spinning at {} \
                 rad/s, grabbed at {} in its coordinates with the mouse right at the \
                 grabbed point (only the damping acts)",
                vec2(&v),
                number(omega),
                vec2(&local)
            )
        } else {
            format!(
                "on a 4.5 kg bar at rest, turned by 0.6 rad and grabbed at {} in its \
                 coordinates with the mouse {} m away (only the spring acts)",
                vec2(&local),
                vec2(&offset)
            )
        };
        case(setting.clone());
        let body = match bar((4.5, 2.0), (Vector2::new(0.2, 1.0), 0.6), (v, omega)) {
            Ok(b) => b,
            Err(e) => {
                return Report::fail(format!("the test bar could not be made: {e}"));
            }
        };
        let p = body.world_point(&local);
        let target = p + offset;
        let got = f(&body, &local, &target, k, c);
        if !finite(&got) {
            spring_failed |= !damping_only;
            let why = if local == Vector2::zeros() {
                ": at the centre of mass r = 0, and 1/m_p = 1/m + |r|²/I is just 1/m"
            } else if damping_only {
                ": with the mouse at the grabbed point m − p = 0, and a direction taken \
                 from it, (m − p)/|m − p|, is 0/0"
            } else {
                ""
            };
            lines.push(format!("{setting}, your force is {}{why}", vec2(&got)));
            continue;
        }
        let m_p = least_point_mass(&body, &p);
        let want = ((target - p) * k - body.point_velocity(&p) * c) * m_p;
        if (got - want).norm() <= 1e-9 * (1.0 + want.norm()) {
            continue;
        }
        spring_failed |= !damping_only;
        let why = mouse_diagnosis(&body, (local, target), (k, c), (got, want));
        lines.push(format!("{setting}, your force is {}: {why}", vec2(&got)));
    }
    case("dragging a thin bar by its tip under RK4");
    let dragged = match drag_by_the_tip(f) {
        Err(e) => Err(format!(
            "dragging a thin bar by its tip (k = 4000/s², c = 120/s, RK4 at 10 ms) went \
             wrong: {e}"
        )),
        Ok(gap) if gap > 0.05 => Err(format!(
            "dragging a thin bar by its tip, the tip ended {} m from the mouse 2 s \
             after it stopped: the spring should pull it in",
            number(gap)
        )),
        Ok(gap) => Ok(gap),
    };
    match dragged {
        Err(line) => {
            lines.push(line);
            Report::fail_all(lines)
        }
        Ok(_) if !lines.is_empty() => Report::fail_all(lines),
        Ok(gap) => Report::pass(vec![
            "m_p k (m − p) at three grabbed points of a turned bar at rest, and \
             −m_p c ṗ at a fourth as it moves and spins, m_p measured with an impulse"
                .to_string(),
            format!(
                "a thin bar dragged 1.1 m by its tip under RK4 at 10 ms ends {} m from \
                 the mouse",
                number(gap)
            ),
        ]),
    }
}

/// A body moving under constant loads, followed exactly: at time t, the world
/// position and velocity of the point that was at `p` at t = 0, and its angle turned.
fn follow(
    body: &RigidBody2,
    p: &Vector2<f64>,
    t: f64,
) -> (Vector2<f64>, Vector2<f64>, f64) {
    let a = body.force() / body.mass();
    let alpha = body.torque() / body.inertia();
    let x = body.position() + body.velocity() * t + a * (0.5 * t * t);
    let turned = body.angular_velocity() * t + 0.5 * alpha * t * t;
    let point = x + rotation2(turned) * (p - body.position());
    let omega = body.angular_velocity() + alpha * t;
    let velocity = body.velocity() + a * t + spin2(omega, &(point - x));
    (point, velocity, turned)
}

/// Two bodies a and b meeting at the point p, with b's outward normal n there.
type Meeting = (RigidBody2, RigidBody2, Vector2<f64>, Vector2<f64>);

/// Pairs of loaded bodies meeting at p with b's normal n, from a fixed sequence.
fn contacts() -> Result<Vec<Meeting>, PbmError> {
    let mut next = sequence(0x1405_7b7e_u64);
    let mut out = Vec::new();
    for _ in 0..6 {
        let mut v2 = || Vector2::new(next(), next());
        let (xa, xb, va, vb, fa, fb, p) = (v2(), v2(), v2(), v2(), v2(), v2(), v2());
        let (wa, wb, ta, tb, angle) =
            (next() * 3.0, next() * 3.0, next(), next(), next() * 3.0);
        let mut a = RigidBody2::new(RigidBody2Def {
            mass: 1.5,
            inertia: 0.2,
            position: xa,
            angle: 0.3,
            velocity: va,
            angular_velocity: wa,
        })?;
        let mut b = RigidBody2::new(RigidBody2Def {
            mass: 0.7,
            inertia: 0.05,
            position: xb,
            angle: -1.0,
            velocity: vb,
            angular_velocity: wb,
        })?;
        a.apply_force_at(&p, &(fa * 4.0));
        a.apply_torque(ta);
        b.apply_force_at(&xb, &(fb * 4.0));
        b.apply_torque(tb);
        out.push((a, b, p, Vector2::new(angle.cos(), angle.sin())));
    }
    Ok(out)
}

/// Checks a friction row's right-hand side against the rate of change of t·s,
/// measured by central differences as both bodies move under their loads, plus
/// (t·s)/h.
pub fn check_friction_row(f: FrictionRowFn) -> Report {
    let h = 0.01;
    let cases = match contacts() {
        Ok(c) => c,
        Err(e) => {
            return Report::fail(format!("the test bodies could not be made: {e}"));
        }
    };
    let mut worst = 0.0_f64;
    for (a, b, p, n) in &cases {
        let t = Vector2::new(-n.y, n.x);
        // t·s along the motion: t turns with b, and s is the relative velocity of
        // the two points that touched at p.
        let sliding = |time: f64| {
            let (_, va, _) = follow(a, p, time);
            let (_, vb, turned) = follow(b, p, time);
            (rotation2(turned) * t, va - vb)
        };
        let d = 1e-4;
        let ((t_plus, s_plus), (t_minus, s_minus)) = (sliding(d), sliding(-d));
        let rate = (t_plus.dot(&s_plus) - t_minus.dot(&s_minus)) / (2.0 * d);
        let acc = (s_plus - s_minus) / (2.0 * d);
        let s = a.point_velocity(p) - b.point_velocity(p);
        let load = t.dot(&acc); // t·(p̈_a − p̈_b)
        let turn = rate - load; // ṫ·s
        let now = t.dot(&s) / h;
        let want = rate + now;
        case(format!(
            "a contact with n = {}, ω_a = {}, ω_b = {}",
            vec2(n),
            number(a.angular_velocity()),
            number(b.angular_velocity())
        ));
        let got = f(a, b, p, n, h);
        if !got.is_finite() {
            return Report::fail(format!(
                "at a contact with n = {}, your right-hand side is {}",
                vec2(n),
                number(got)
            ));
        }
        let scale = 1.0 + load.abs() + turn.abs() + now.abs();
        let relative = (got - want).abs() / scale;
        worst = worst.max(relative);
        if relative <= 1e-6 {
            continue;
        }
        let close = |x: f64| (got - x).abs() <= 1e-6 * scale;
        let centripetal = t.dot(
            &(-(p - a.position()) * a.angular_velocity().powi(2)
                + (p - b.position()) * b.angular_velocity().powi(2)),
        );
        let why = if close(-want) {
            "every term has the wrong sign: t = n⊥ = (−n_y, n_x), the normal turned a \
             quarter counter-clockwise"
                .to_string()
        } else if close(load + turn) {
            "the term (t·s)/h is missing: it is the sliding there already is, spread over \
             one step, so that a sticking contact stops sliding within the step"
                .to_string()
        } else if close(load + now) {
            "the term ṫ·s is missing: the edge, and its tangent, turn with body b, \
             ṫ = ω_b × t"
                .to_string()
        } else if close(load + 2.0 * turn + now) {
            "ṫ·s is counted twice. This row follows the two material points that touch \
             at p, b's as well as a's; following a's vertex along b's edge instead adds \
             another ṫ·s = −ω_b (n·s), which vanishes for a held contact (n·s = 0) but \
             not for the sliding states this check samples"
                .to_string()
        } else if close(load - turn + now) {
            "ṫ·s has the wrong sign: ṫ = ω_b × t = (−ω_b t_y, ω_b t_x)".to_string()
        } else if close(load + spin2(a.angular_velocity(), &t).dot(&s) + now) {
            "ṫ is taken with body a's ω: the edge and its normal belong to body b, so \
             ṫ = ω_b × t"
                .to_string()
        } else if close(want - centripetal) {
            "the points' accelerations miss the centripetal part: p̈ = F/m + α × r − ω² r"
                .to_string()
        } else {
            format!(
                "measured, the loads give t·(p̈_a − p̈_b) = {}, the turning tangent \
                 ṫ·s = {}, and (t·s)/h = {}",
                number(load),
                number(turn),
                number(now)
            )
        };
        return Report::fail(format!(
            "at a contact with n = {}, ω_a = {}, ω_b = {}, your right-hand side is {} \
             where the rate of change of t·s measured along the motion, plus (t·s)/h, \
             is {}: {why}",
            vec2(n),
            number(a.angular_velocity()),
            number(b.angular_velocity()),
            number(got),
            number(want)
        ));
    }
    Report::pass(vec![format!(
        "d(t·s)/dt + (t·s)/h at {} contacts of loaded, spinning bodies, by central \
         differences of the motion, to {} relative",
        cases.len(),
        number(worst)
    )])
}

/// The largest |got − want| of a state, each number against its own scale.
fn worst_gap(got: &[f64], want: &[f64], scale: &[f64]) -> f64 {
    got.iter()
        .zip(want)
        .zip(scale)
        .map(|((g, w), s)| (g - w).abs() / s)
        .fold(0.0, f64::max)
}

/// `y` + `h` `k` for states and slopes given number by number.
fn along(y: &[f64], k: &[f64], h: f64) -> Vec<f64> {
    y.iter().zip(k).map(|(y, k)| y + h * k).collect()
}

/// The first advice whose state is within `tol` of `got`, else `otherwise`.
fn named(
    got: &[f64],
    scale: &[f64],
    tol: f64,
    slips: Vec<(Vec<f64>, &str)>,
    otherwise: &str,
) -> String {
    slips
        .into_iter()
        .find(|(x, _)| worst_gap(got, x, scale) <= tol)
        .map_or_else(|| otherwise.to_string(), |(_, why)| why.to_string())
}

/// Checks the paper's blend of a step: it starts at Y₀ along k₁, ends at Y₁, and is
/// a parabola in s, which together leave one curve; and a body under constant
/// forces, whose state is a parabola in time, is found on it exactly.
pub fn check_blend(f: BlendFn) -> Report {
    let h = 0.02;
    // A body's state (x, y, θ, P_x, P_y, L) at the start of a step, its derivative
    // there, and where a curving step took it: Y₁ = Y₀ + h k₁ + h² q.
    let mut next = sequence(0x0b1e_2d5e_u64);
    let y0: Vec<f64> = (0..6).map(|_| 2.0 * next()).collect();
    let k1: Vec<f64> = (0..6).map(|_| 5.0 * next()).collect();
    let y1: Vec<f64> =
        (0..6).map(|i| y0[i] + h * k1[i] + h * h * (20.0 + 30.0 * next())).collect();
    let k5: Vec<f64> = y0.iter().zip(&y1).map(|(a, b)| (b - a) / h).collect();
    let scale: Vec<f64> = (0..6)
        .map(|i| y0[i].abs() + y1[i].abs() + h * (k1[i].abs() + k5[i].abs()))
        .collect();
    let slope_scale: Vec<f64> = (0..6).map(|i| k1[i].abs() + k5[i].abs()).collect();
    let delta = 1e-3 * h;
    let run = |y0: &[f64], k1: &[f64], y1: &[f64], s: f64| {
        case(format!("the blend at s = {} of a step of h = 0.02", number(s)));
        let y = f(y0, k1, y1, h, s);
        if y.len() != y0.len() {
            Err(format!(
                "at s = {} your blend has {} numbers where the state has {}: it needs \
                 one for each number of the state",
                number(s),
                y.len(),
                y0.len()
            ))
        } else if y.iter().any(|v| !v.is_finite()) {
            Err(format!("at s = {} your blend is {}", number(s), numbers(&y)))
        } else {
            Ok(y)
        }
    };
    let times = [0.0, h, delta, -delta, 0.25 * h, 0.5 * h, 0.75 * h];
    let at: Vec<Vec<f64>> =
        match times.iter().map(|&s| run(&y0, &k1, &y1, s)).collect() {
            Ok(at) => at,
            Err(why) => return Report::fail(why),
        };
    let (start, end) = (&at[0], &at[1]);
    let slope: Vec<f64> =
        at[2].iter().zip(&at[3]).map(|(p, m)| (p - m) / (2.0 * delta)).collect();
    // Third differences over s = 0, h/4, h/2, 3h/4, h: zero for a parabola.
    let third = |y: [&Vec<f64>; 4]| -> Vec<f64> {
        (0..6)
            .map(|i| (y[3][i] - 3.0 * y[2][i] + 3.0 * y[1][i] - y[0][i]) / scale[i])
            .collect()
    };
    let cubic = third([&at[0], &at[4], &at[5], &at[6]])
        .into_iter()
        .chain(third([&at[4], &at[5], &at[6], &at[1]]))
        .fold(0.0_f64, |m, d| m.max(d.abs()));

    let mut lines = Vec::new();
    if worst_gap(start, &y0, &scale) > 1e-12 {
        let why = named(
            start,
            &scale,
            1e-9,
            vec![(
                along(&y0, &k1, 1.0),
                "the factor s in front of the slopes is missing: Y₀ + s ((1 − s/h) k₁ \
                 + (s/h) k₅)",
            )],
            "every term of the blend but Y₀ carries a factor s",
        );
        lines.push(format!(
            "at s = 0 your blend is at {} where the step starts, Y₀ = {}: {why}",
            numbers(start),
            numbers(&y0)
        ));
    }
    if worst_gap(end, &y1, &scale) > 1e-9 {
        let average: Vec<f64> =
            k1.iter().zip(&k5).map(|(a, b)| 0.5 * (a + b)).collect();
        let per_h: Vec<f64> =
            k1.iter().zip(&k5).map(|(a, b)| (1.0 - h * h) * a + h * h * b).collect();
        let undivided: Vec<f64> = y0.iter().zip(&y1).map(|(a, b)| b - a).collect();
        let why = named(
            end,
            &scale,
            1e-9,
            vec![
                (
                    along(&y0, &k1, h),
                    "the weights are swapped: k₁ carries 1 − s/h, which is 1 at the \
                     start and 0 at the end, and k₅ carries s/h",
                ),
                (
                    along(&y0, &undivided, h),
                    "k₅ = (Y₁ − Y₀)/h is a slope: the step's change divided by h",
                ),
                (
                    along(&y0, &per_h, h),
                    "the weights are fractions of the step, 1 − s/h and s/h; yours \
                     multiply s by h",
                ),
                (
                    along(&y0, &average, h),
                    "it weighs k₁ and k₅ equally; the blend hands its weight from k₁ \
                     at s = 0 to k₅ at s = h",
                ),
            ],
            "at s = h the blend is Y₀ + h k₅ = Y₁, since k₁'s weight 1 − s/h has \
             fallen to 0 there",
        );
        lines.push(format!(
            "at s = h your blend ends at {} where the step ended, Y₁ = {}: {why}",
            numbers(end),
            numbers(&y1)
        ));
    }
    if worst_gap(&slope, &k1, &slope_scale) > 1e-6 {
        let average: Vec<f64> =
            k1.iter().zip(&k5).map(|(a, b)| 0.5 * (a + b)).collect();
        let why = named(
            &slope,
            &slope_scale,
            1e-6,
            vec![
                (
                    k5.clone(),
                    "it leaves Y₀ along k₅, the step's average slope, as the straight \
                     line from Y₀ to Y₁ does. The blend starts along k₁, the derivative \
                     at the start, so that it bends the way the motion does",
                ),
                (
                    average,
                    "it starts along the mean of k₁ and k₅; at s = 0 all the weight is \
                     on k₁",
                ),
            ],
            "near s = 0 the blend is Y₀ + s k₁, to first order in s",
        );
        lines.push(format!(
            "at s = 0 your blend's slope, measured by central differences, is {} where \
             the derivative at the start is k₁ = {}: {why}",
            numbers(&slope),
            numbers(&k1)
        ));
    }
    if cubic > 1e-9 {
        lines.push(format!(
            "your blend is not a parabola in s: its third differences over s = 0, h/4, \
             h/2, 3h/4 and h reach {} of the state's size, where a parabola's vanish. \
             Y₀ + s ((1 − s/h) k₁ + (s/h) k₅) is of degree two in s",
            number(cubic)
        ));
    }
    if !lines.is_empty() {
        return Report::fail_all(lines);
    }

    // A body under constant force and torque: its state is a parabola in time, and
    // the blend of one step finds it exactly anywhere inside the step.
    let (m, inertia) = (2.0, 0.3);
    let (x0, v, force) = ([0.1, 1.2], [1.5, 0.8], [0.5, -19.6]);
    let (theta0, omega, torque) = (0.4, 3.0, 0.7);
    let state = |t: f64| {
        let acc = |i: usize| force[i] / m;
        vec![
            x0[0] + v[0] * t + 0.5 * acc(0) * t * t,
            x0[1] + v[1] * t + 0.5 * acc(1) * t * t,
            theta0 + omega * t + 0.5 * torque / inertia * t * t,
            m * v[0] + force[0] * t,
            m * v[1] + force[1] * t,
            inertia * omega + torque * t,
        ]
    };
    let slope0 = [v[0], v[1], omega, force[0], force[1], torque];
    let falling = match run(&state(0.0), &slope0, &state(h), 0.5 * h) {
        Ok(y) => y,
        Err(why) => return Report::fail(why),
    };
    let fall_scale: Vec<f64> = state(0.5 * h).iter().map(|y| 1.0 + y.abs()).collect();
    let miss = worst_gap(&falling, &state(0.5 * h), &fall_scale);
    if miss > 1e-9 {
        return Report::fail(format!(
            "a body under constant forces moves on a parabola in time, which the blend \
             follows exactly, but your blend misses its state halfway through the step \
             by {} of its size",
            number(miss)
        ));
    }
    Report::pass(vec![
        "Y₀ at s = 0 with slope k₁ (central differences), Y₁ at s = h, and a parabola \
         in s between (third differences vanish), on a six-number state with h = 0.02"
            .to_string(),
        format!(
            "a body under constant force and torque, whose state is a parabola in time, \
             is found halfway through the step {}",
            if miss == 0.0 {
                "exactly".to_string()
            } else {
                format!("to {} of its state's size", number(miss))
            }
        ),
    ])
}

/// A move of two bodies as six numbers: (Δx_a, Δy_a, Δθ_a, Δx_b, Δy_b, Δθ_b).
type Move = [f64; 6];

/// One contact to correct: bodies a and b, a's vertex at p, b's outward normal n,
/// and the gap along n (negative: that deep).
type Overlap = (RigidBody2, RigidBody2, Vector2<f64>, Vector2<f64>, f64);

fn flat_move(m: &[(Vector2<f64>, f64); 2]) -> Move {
    [m[0].0.x, m[0].0.y, m[0].1, m[1].0.x, m[1].0.y, m[1].1]
}

/// The gap after moving a and b by `scale` times `m`, each rigidly about its own
/// centre of mass: a's vertex, which was at p, measured from b's edge, which was
/// `gap` behind it along n and turns with b.
fn gap_after((a, b, p, n, gap): &Overlap, m: &Move, scale: f64) -> f64 {
    let moved = |body: &RigidBody2, d: &[f64], point: Vector2<f64>| {
        body.position()
            + Vector2::new(d[0], d[1]) * scale
            + rotation2(d[2] * scale) * (point - body.position())
    };
    let vertex = moved(a, &m[0..3], *p);
    let edge = moved(b, &m[3..6], p - n * *gap);
    (rotation2(m[5] * scale) * n).dot(&(vertex - edge))
}

/// How fast the gap changes along the move m, by central differences of
/// [`gap_after`].
fn gap_rate(overlap: &Overlap, m: &Move) -> f64 {
    let size = m.iter().fold(0.0_f64, |s, v| s.max(v.abs()));
    if size == 0.0 {
        return 0.0;
    }
    let d = 1e-6 / size;
    (gap_after(overlap, m, d) - gap_after(overlap, m, -d)) / (2.0 * d)
}

/// The kinetic-energy norm of a move, ½ Σ (m |Δx|² + I Δθ²).
fn move_cost((a, b, ..): &Overlap, m: &Move) -> f64 {
    let weights = [a.mass(), a.mass(), a.inertia(), b.mass(), b.mass(), b.inertia()];
    0.5 * weights.iter().zip(m).map(|(w, d)| w * d * d).sum::<f64>()
}

/// The least cost of any move that changes the gap at the rate `rate`: with the
/// gap's row J measured along each of the six ways to move, rate²/(2 J M⁻¹ Jᵀ).
fn least_cost(overlap: &Overlap, rate: f64) -> f64 {
    let (a, b, ..) = overlap;
    let weights = [a.mass(), a.mass(), a.inertia(), b.mass(), b.mass(), b.inertia()];
    let w: f64 = (0..6)
        .map(|i| {
            let mut unit = [0.0; 6];
            unit[i] = 1.0;
            gap_rate(overlap, &unit).powi(2) / weights[i]
        })
        .sum();
    rate * rate / (2.0 * w)
}

/// A slip in the correction of one contact: what the move becomes with it.
#[derive(Clone, Copy)]
struct Slip {
    /// The push on a along n, per f: 1, or −1 into b.
    push: f64,
    /// The push on b along n, per f: −1, or 0 (b left alone), or 1 (along with a).
    b_push: f64,
    /// The power of the mass in Δx = push m^power: −1, or 1.
    mass: i32,
    /// The power of the moment of inertia in Δθ = lever push I^power: −1, or 1.
    inertia: i32,
    /// The lever of a push along n at r: r × n, or r·n, or n × r.
    lever: fn(&Vector2<f64>, &Vector2<f64>) -> f64,
    /// Whether w counts the turning terms (r × n)²/I.
    turning_in_w: bool,
    /// Whether w counts b's share.
    b_in_w: bool,
}

const RIGHT: Slip = Slip {
    push: 1.0,
    b_push: -1.0,
    mass: -1,
    inertia: -1,
    lever: cross2,
    turning_in_w: true,
    b_in_w: true,
};

fn slipped((a, b, p, n, gap): &Overlap, slip: Slip) -> Move {
    let lever_a = (slip.lever)(&(p - a.position()), n);
    let lever_b = (slip.lever)(&(p - b.position()), n);
    let share = |body: &RigidBody2, lever: f64| {
        1.0 / body.mass()
            + if slip.turning_in_w { lever * lever / body.inertia() } else { 0.0 }
    };
    let w = share(a, lever_a) + if slip.b_in_w { share(b, lever_b) } else { 0.0 };
    let f = if *gap < 0.0 { -gap / w } else { 0.0 };
    let moved = |body: &RigidBody2, lever: f64, push: f64| {
        let dx = n * (push * body.mass().powi(slip.mass));
        [dx.x, dx.y, lever * push * body.inertia().powi(slip.inertia)]
    };
    let [ax, ay, at] = moved(a, lever_a, slip.push * f);
    let [bx, by, bt] = moved(b, lever_b, slip.b_push * f);
    [ax, ay, at, bx, by, bt]
}

/// The named slip that gives the move `got`, if one does; else, when `got` is the
/// right move scaled, by how much.
fn correction_slip(overlap: &Overlap, got: &Move) -> Option<String> {
    let slips = [
        (
            Slip { push: -1.0, b_push: 1.0, ..RIGHT },
            "it pushes the bodies further together: a's push is +f n, along b's \
             outward normal and out of b, and b's is −f n",
        ),
        (
            Slip { mass: 1, ..RIGHT },
            "it multiplies the push by the mass: a body moves by Δx = f n/m, so that the \
             heavier body moves less",
        ),
        (
            Slip { inertia: 1, ..RIGHT },
            "it multiplies the turn by the moment of inertia: Δθ = (r × n) f/I",
        ),
        (
            Slip { lever: |r, n| r.dot(n), ..RIGHT },
            "it turns each body by (r·n) f/I: a push along n at r turns a body by its \
             moment r × n = r_x n_y − r_y n_x",
        ),
        (
            Slip { lever: |r, n| cross2(n, r), ..RIGHT },
            "its turns have the wrong sign: the moment of a push along n at r = p − x \
             is r × n, and n × r = −r × n",
        ),
        (
            Slip { b_push: 0.0, b_in_w: false, ..RIGHT },
            "b does not move: it is as free as a and takes the opposite push −f n (only \
             a fixed body, of infinite mass, stays put)",
        ),
        (
            Slip { b_push: 1.0, ..RIGHT },
            "b is pushed the same way as a: the push on b is −f n, the reaction to a's",
        ),
        (
            Slip { turning_in_w: false, ..RIGHT },
            "f = −e/w is sized as if the bodies only slid: w = 1/m_a + (r_a × n)²/I_a \
             + 1/m_b + (r_b × n)²/I_b, for each body yields at p by turning as well",
        ),
        (
            Slip { b_in_w: false, ..RIGHT },
            "f = −e/w is sized with a's share alone: w = 1/m_a + (r_a × n)²/I_a + \
             1/m_b + (r_b × n)²/I_b, for both bodies yield",
        ),
    ];
    let size = |m: &Move| m.iter().fold(0.0_f64, |s, v| s.max(v.abs()));
    let close = |m: &Move| {
        got.iter().zip(m).all(|(g, x)| (g - x).abs() <= 1e-9 * size(m) + 1e-15)
    };
    if let Some((_, why)) =
        slips.iter().find(|(slip, _)| close(&slipped(overlap, *slip)))
    {
        return Some(why.to_string());
    }
    let right = slipped(overlap, RIGHT);
    let ratio = got.iter().zip(&right).map(|(g, r)| g * r).sum::<f64>()
        / right.iter().map(|r| r * r).sum::<f64>();
    let scaled: Move = std::array::from_fn(|i| right[i] * ratio);
    (ratio > 0.0 && close(&scaled)).then(|| {
        format!(
            "it moves the bodies the right way, but {} times as far as closes the gap to \
             first order: f = −e/w, with w = 1/m_a + (r_a × n)²/I_a + 1/m_b + \
             (r_b × n)²/I_b",
            number(ratio)
        )
    })
}

/// Contacts to correct, from a fixed sequence: a 1.5 kg body's vertex a few
/// millimetres into a 0.7 kg body, and the last against a body as heavy as a fixed
/// one.
fn overlaps() -> Result<Vec<Overlap>, PbmError> {
    let mut next = sequence(0x7011_e4a5_u64);
    let mut out = Vec::new();
    for k in 0..6 {
        let mut v2 = || Vector2::new(next(), next());
        let (xa, xb, p) = (v2(), v2(), v2());
        let (angle, depth) = (3.0 * next(), 0.006 + 0.004 * next());
        let heavy = k == 5;
        let a = RigidBody2::new(RigidBody2Def {
            mass: 1.5,
            inertia: 0.2,
            position: xa,
            angle: 0.3,
            ..RigidBody2Def::default()
        })?;
        let b = RigidBody2::new(RigidBody2Def {
            mass: if heavy { 1e6 } else { 0.7 },
            inertia: if heavy { 1e5 } else { 0.05 },
            position: xb,
            angle: -1.0,
            ..RigidBody2Def::default()
        })?;
        out.push((a, b, p, Vector2::new(angle.cos(), angle.sin()), -depth));
    }
    Ok(out)
}

/// Checks the correction of one contact: on the moved bodies the gap closes to first
/// order; no other move that closes it as well costs less in the kinetic-energy norm;
/// and a contact already apart, or just touching, is left alone.
pub fn check_least_displacement(f: LeastDisplacementFn) -> Report {
    let cases = match overlaps() {
        Ok(c) => c,
        Err(e) => {
            return Report::fail(format!("the test bodies could not be made: {e}"));
        }
    };
    let mut lines = Vec::new();
    let (mut worst_closure, mut worst_cost) = (0.0_f64, 0.0_f64);
    for (k, overlap) in cases.iter().enumerate() {
        let (a, b, p, n, gap) = overlap;
        let heavy = if k == 5 { ", b as heavy as a fixed body" } else { "" };
        let setting = format!(
            "at a contact {} mm deep (e = {} m) with n = {}{heavy}",
            number(-gap * 1e3),
            number(*gap),
            vec2(n)
        );
        case(setting.clone());
        let got = flat_move(&f(a, b, p, n, *gap));
        if got.iter().any(|d| !d.is_finite()) {
            lines.push(format!("{setting}, your move is {}", numbers(&got)));
            break;
        }
        if got.iter().all(|d| *d == 0.0) {
            lines.push(format!(
                "{setting}, nothing moved: a vertex inside b must be pushed out, \
                 f = −e/w > 0"
            ));
            break;
        }
        let rate = gap_rate(overlap, &got);
        let closure = (gap + rate).abs() / gap.abs();
        let cost = move_cost(overlap, &got) / least_cost(overlap, rate) - 1.0;
        worst_closure = worst_closure.max(closure);
        worst_cost = worst_cost.max(cost);
        if closure <= 1e-6 && cost <= 1e-7 {
            continue;
        }
        let shown = format!(
            "{setting}, your move (Δx_a, Δy_a, Δθ_a, Δx_b, Δy_b, Δθ_b) is {}",
            numbers(&got)
        );
        lines.push(match correction_slip(overlap, &got) {
            Some(why) => format!("{shown}: {why}"),
            None => shown,
        });
        if closure > 1e-6 {
            lines.push(format!(
                "measured on the moved bodies, your move changes the gap by {} m to \
                 first order, where it must close it: −e = {} m",
                number(rate),
                number(-gap)
            ));
        }
        if cost > 1e-7 && rate.abs() > 1e-9 * gap.abs() {
            lines.push(format!(
                "it costs {} times the kinetic-energy norm ½ Σ (m |Δx|² + I Δθ²) of the \
                 least move that changes the gap as much: M ΔY must be a multiple of the \
                 row Jᵀ, so each body moves along its push, Δx = (push)/m, and turns by \
                 Δθ = (r × push)/I",
                number(cost + 1.0)
            ));
        }
        break;
    }
    // A contact apart, or just touching, asks for no push.
    if let Some((a, b, p, n, _)) = cases.first() {
        for gap in [0.004, 0.0] {
            case(format!("a contact {} mm apart", number(gap * 1e3)));
            let got = flat_move(&f(a, b, p, n, gap));
            if got.iter().any(|d| *d != 0.0) {
                let how =
                    if gap > 0.0 { "4 mm apart" } else { "just touching, gap 0," };
                lines.push(format!(
                    "a contact {how} was moved by {}: the correction only pushes \
                     (f ≥ 0), and a contact with e ≥ 0 is left alone. A gap held at zero \
                     would pull it shut, which is what the page's bilateral rows do and \
                     its inequalities do not",
                    numbers(&got)
                ));
                break;
            }
        }
    }
    if !lines.is_empty() {
        return Report::fail_all(lines);
    }
    Report::pass(vec![
        format!(
            "the gap closed to first order at {} contacts, one against a body as heavy \
             as a fixed one, measured on the moved bodies to {} of the depth",
            cases.len(),
            number(worst_closure)
        ),
        format!(
            "the least move in the kinetic-energy norm: no move that changes the gap as \
             much costs less (within {})",
            number(worst_cost.max(0.0))
        ),
        "a contact 4 mm apart, and one just touching, left alone".to_string(),
    ])
}

/// Bodies to catch and the points to pin, from a fixed sequence: the page's thin bar
/// thrown sideways and spinning, pinned at its end and at its centre of mass, then
/// bodies of other masses and moments pinned anywhere within 1.5 m.
fn catches() -> Result<Vec<(RigidBody2, Vector2<f64>)>, PbmError> {
    let thrown = bar(
        (4.5, 2.0),
        (Vector2::new(0.2, 1.0), 0.6),
        (Vector2::new(0.4, 2.5), 1.2),
    )?;
    let end = thrown.world_point(&Vector2::new(1.0, 0.0));
    let centre = thrown.position();
    let mut out = vec![(thrown.clone(), end), (thrown, centre)];
    let mut next = sequence(0xca7c_04e5_u64);
    for _ in 0..4 {
        let mut v2 = || Vector2::new(next(), next());
        let (x, v, offset) = (v2(), v2() * 3.0, v2() * 1.5);
        let (mass, inertia) = (1.25 + next(), 0.3 + 0.25 * next());
        let body = RigidBody2::new(RigidBody2Def {
            mass,
            inertia,
            position: x,
            angle: next(),
            velocity: v,
            angular_velocity: 4.0 * next(),
        })?;
        out.push((body, x + offset));
    }
    Ok(out)
}

/// What the reader's catch does wrong: a named slip when one gives `got`, else the
/// impulse along r and across it, where the point has the masses m and m_p.
fn catch_diagnosis(
    body: &RigidBody2,
    anchor: &Vector2<f64>,
    got: &Vector2<f64>,
) -> String {
    let (m, inertia) = (body.mass(), body.inertia());
    let r = anchor - body.position();
    let v = body.point_velocity(anchor);
    let r_perp = Vector2::new(-r.y, r.x);
    let k_of =
        |turning: nalgebra::Matrix2<f64>| nalgebra::Matrix2::identity() / m + turning;
    let k = k_of(r_perp * r_perp.transpose() / inertia);
    let solve = |k: nalgebra::Matrix2<f64>| {
        k.try_inverse().map_or(Vector2::zeros(), |k| k * v)
    };
    let want = -solve(k);
    let m_p = 1.0 / (1.0 / m + r.norm_squared() / inertia);
    let slips = [
        (
            -v * m,
            "across r it uses the whole body's mass, j = −m v: a push across r also \
             turns the body, so the point yields more there, like m_p with \
             1/m_p = 1/m + |r|²/I"
                .to_string(),
        ),
        (
            -v * m_p,
            format!(
                "it uses the least mass m_p = {} kg in every direction, as the mouse \
                 does. A push along r turns nothing, so along r the point has the whole \
                 mass m = {} kg: K is a matrix, 1/m along r and 1/m + |r|²/I across it",
                number(m_p),
                number(m)
            ),
        ),
        (
            -solve(k_of(r * r.transpose() / inertia)),
            "its turning term is r rᵀ/I, which makes the point yield along r, where a \
             push turns nothing: it is r⊥r⊥ᵀ/I, r⊥ = (−r_y, r_x), across r"
                .to_string(),
        ),
        (
            -solve(k_of(r_perp * r_perp.transpose() * inertia)),
            "its turning term multiplies by the moment of inertia: K = 𝟙/m + r⊥r⊥ᵀ/I"
                .to_string(),
        ),
        (
            -want,
            "it pushes along the motion, and the point leaves at 2v: K j = −v, the \
             impulse opposes the point's velocity"
                .to_string(),
        ),
        (
            want * 2.0,
            "it reverses the point's velocity, an elastic bounce; a pin catches \
             inelastically, K j = −v, leaving the point at rest"
                .to_string(),
        ),
        (
            -(k * v),
            "it is −K v: K is the inverse of the effective mass, so the impulse is \
             j = −K⁻¹ v, K inverted"
                .to_string(),
        ),
    ];
    let close = |x: &Vector2<f64>| (got - x).norm() <= 1e-9 * (1e-9 + want.norm());
    if let Some((_, why)) = slips.iter().find(|(x, _)| close(x)) {
        return why.clone();
    }
    if r.norm() == 0.0 {
        return format!(
            "at the centre of mass the body yields like its whole mass in every \
             direction: j = −m v = {}",
            vec2(&want)
        );
    }
    // Measured apart: along r̂ the point has the mass m, across it m_p.
    let (along, across) = (r / r.norm(), r_perp / r.norm());
    let mut parts = Vec::new();
    let sides = [(along, "along r", "m", m), (across, "across r", "m_p", m_p)];
    for (u, side, name, mass) in sides {
        if (got.dot(&u) - want.dot(&u)).abs() > 1e-9 * want.norm() {
            parts.push(format!(
                "{side} the point has the mass {name} = {} kg, so the impulse's part \
                 {side} should be −{name} times the velocity's, −{} × {} = {} N s, and \
                 yours is {} N s",
                number(mass),
                number(mass),
                number(v.dot(&u)),
                number(want.dot(&u)),
                number(got.dot(&u))
            ));
        }
    }
    format!("{} (K is 1/m along r and 1/m + |r|²/I across it)", parts.join("; "))
}

/// Checks the catch of a pin to the world: the body's own impulse at the anchor, the
/// reader's j, must leave the anchor's point at rest, at the end of a thrown bar, at
/// its centre of mass and at points of other bodies.
pub fn check_catch(f: CatchFn) -> Report {
    let cases = match catches() {
        Ok(c) => c,
        Err(e) => {
            return Report::fail(format!("the test bodies could not be made: {e}"));
        }
    };
    let (mut worst, mut fastest) = (0.0_f64, 0.0_f64);
    for (k, (body, anchor)) in cases.iter().enumerate() {
        let what = match k {
            0 => "the end of a 2 m bar of 4.5 kg, thrown sideways and spinning"
                .to_string(),
            1 => "the centre of mass of the same bar".to_string(),
            _ => format!(
                "a point {} m from the centre of a {} kg body with I = {} kg m²",
                number((anchor - body.position()).norm()),
                number(body.mass()),
                number(body.inertia())
            ),
        };
        case(format!("pinning {what}"));
        let j = f(body, anchor);
        let v = body.point_velocity(anchor);
        if !finite(&j) {
            return Report::fail(format!(
                "pinning {what}, your impulse is {}",
                vec2(&j)
            ));
        }
        let mut caught = body.clone();
        caught.apply_impulse_at(anchor, &j);
        let left = caught.point_velocity(anchor);
        fastest = fastest.max(v.norm());
        worst = worst.max(left.norm() / v.norm());
        if left.norm() <= 1e-9 * v.norm() {
            continue;
        }
        return Report::fail(format!(
            "pinning {what}, where the point moved at {} m/s, your impulse {} N s leaves \
             it moving at {} m/s: {}",
            vec2(&v),
            vec2(&j),
            vec2(&left),
            catch_diagnosis(body, anchor, &j)
        ));
    }
    // The energy the catch takes at the bar's end, measured and by the closed form.
    let (bar, end) = &cases[0];
    let energy = |b: &RigidBody2| {
        0.5 * (b.mass() * b.velocity().norm_squared()
            + b.inertia() * b.angular_velocity().powi(2))
    };
    let mut caught = bar.clone();
    caught.apply_impulse_at(end, &f(bar, end));
    let r = end - bar.position();
    let r_perp = Vector2::new(-r.y, r.x);
    let k = nalgebra::Matrix2::identity() / bar.mass()
        + r_perp * r_perp.transpose() / bar.inertia();
    let v = bar.point_velocity(end);
    let closed =
        k.try_inverse().map_or(f64::NAN, |inverse| 0.5 * v.dot(&(inverse * v)));
    Report::pass(vec![
        format!(
            "your impulse, applied by the body itself, stops the pinned point at {} \
             points of moving, spinning bodies, the centre of mass among them, to {} of \
             speeds up to {} m/s",
            cases.len(),
            number(worst),
            number(fastest)
        ),
        format!(
            "at the thrown bar's end it takes {} J of kinetic energy, as ½ vᵀK⁻¹v = {} J \
             says",
            number(energy(bar) - energy(&caught)),
            number(closed)
        ),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    pbm_prelim::answers! {
        mouse => check_mouse(mouse::mouse_force),
        friction_row => check_friction_row(friction_row::friction_rhs),
        blend => check_blend(blend::blend),
        least_displacement => check_least_displacement(
            least_displacement::least_displacement
        ),
        catch => check_catch(catch::catch_impulse),
    }

    #[test]
    fn mouse_mutants_fail_with_the_diagnosis_meant_for_them() {
        let failing =
            |f: MouseFn, expect: &str| check_mouse(f).assert_fails_with(expect);
        // Scaled by the body's mass: the book's own first version.
        failing(
            |b, l, m, k, c| {
                let p = b.world_point(l);
                ((m - p) * k - b.point_velocity(&p) * c) * b.mass()
            },
            "body's mass",
        );
        // The body-frame point taken as a world offset.
        failing(
            |b, l, m, k, c| {
                let p = b.position() + l;
                let r = p - b.position();
                let mass = 1.0 / (1.0 / b.mass() + r.norm_squared() / b.inertia());
                ((m - p) * k - b.point_velocity(&p) * c) * mass
            },
            "world_point(local)",
        );
        // The centre's velocity damped.
        failing(
            |b, l, m, k, c| {
                let p = b.world_point(l);
                let r = p - b.position();
                let mass = 1.0 / (1.0 / b.mass() + r.norm_squared() / b.inertia());
                ((m - p) * k - b.velocity() * c) * mass
            },
            "centre's velocity",
        );
        // The mass along the pull.
        failing(
            |b, l, m, k, c| {
                let p = b.world_point(l);
                let r = p - b.position();
                let u = (m - p).normalize();
                let lever = r.x * u.y - r.y * u.x;
                let mass = 1.0 / (1.0 / b.mass() + lever * lever / b.inertia());
                ((m - p) * k - b.point_velocity(&p) * c) * mass
            },
            "least",
        );
        // The point's least mass, by the moment about the grabbed point: passes.
        check_mouse(|b, l, m, k, c| {
            let p = b.world_point(l);
            let r2 = (p - b.position()).norm_squared();
            let mass = b.mass() * b.inertia() / (b.inertia() + b.mass() * r2);
            (m - p) * (k * mass) - b.point_velocity(&p) * (c * mass)
        })
        .assert_passed();
        /// The spring with the grabbed point's mass replaced by `mass(m, I, r²)`.
        fn scaled(
            b: &RigidBody2,
            l: &Vector2<f64>,
            m: &Vector2<f64>,
            (k, c): (f64, f64),
            mass: fn(f64, f64, f64) -> f64,
        ) -> Vector2<f64> {
            let p = b.world_point(l);
            let r2 = (p - b.position()).norm_squared();
            ((m - p) * k - b.point_velocity(&p) * c) * mass(b.mass(), b.inertia(), r2)
        }
        failing(|b, l, m, k, c| scaled(b, l, m, (k, c), |_, _, _| 1.0), "any mass");
        failing(
            |b, l, m, k, c| scaled(b, l, m, (k, c), |m, i, r2| 1.0 / m + r2 / i),
            "divided by the point's mass",
        );
        failing(
            |b, l, m, k, c| {
                scaled(b, l, m, (k, c), |m, i, r2| 1.0 / (1.0 / m + r2 * i))
            },
            "multiplies |r|²",
        );
        failing(
            |b, l, m, k, c| {
                scaled(b, l, m, (k, c), |m, i, r2| 2.0 / (1.0 / m + r2 / i))
            },
            "points the right way but is 2 times",
        );
        fn least(b: &RigidBody2, p: &Vector2<f64>) -> f64 {
            1.0 / (1.0 / b.mass() + (p - b.position()).norm_squared() / b.inertia())
        }
        failing(
            |b, l, m, k, c| {
                let p = b.world_point(l);
                ((p - m) * k - b.point_velocity(&p) * c) * least(b, &p)
            },
            "away from the mouse",
        );
        failing(
            |b, l, m, k, _| {
                let p = b.world_point(l);
                (m - p) * (k * least(b, &p))
            },
            "−c ṗ is missing",
        );
        failing(
            |b, l, m, k, c| {
                let p = b.world_point(l);
                ((m - p) * k + b.point_velocity(&p) * c) * least(b, &p)
            },
            "along the motion",
        );
        // A damping of the velocity turned a quarter: named by its measured part.
        failing(
            |b, l, m, k, c| {
                let p = b.world_point(l);
                let v = b.point_velocity(&p);
                ((m - p) * k - Vector2::new(-v.y, v.x) * c) * least(b, &p)
            },
            "it should be the damping's part −m_p c ṗ",
        );
        // Two slips at once: both parts are reported, the spring's and the damping's.
        let both = check_mouse(|b, l, m, k, c| {
            let p = b.world_point(l);
            ((m - p) * k - b.velocity() * c) * b.mass()
        });
        both.assert_fails_with("only the spring acts");
        both.assert_fails_with("only the damping acts");
    }

    #[test]
    fn friction_row_mutants_fail_with_the_diagnosis_meant_for_them() {
        let failing = |f: FrictionRowFn, expect: &str| {
            check_friction_row(f).assert_fails_with(expect)
        };
        fn rhs(
            a: &RigidBody2,
            b: &RigidBody2,
            p: &Vector2<f64>,
            n: &Vector2<f64>,
            (turn_weight, turn_body_a, with_now, centripetal): (
                f64,
                bool,
                bool,
                bool,
            ),
        ) -> f64 {
            let acc_of = |body: &RigidBody2| {
                let r = p - body.position();
                let w = body.angular_velocity();
                let spin = if centripetal { r * (w * w) } else { Vector2::zeros() };
                body.force() / body.mass() + spin2(body.torque() / body.inertia(), &r)
                    - spin
            };
            let t = Vector2::new(-n.y, n.x);
            let s = a.point_velocity(p) - b.point_velocity(p);
            let omega =
                if turn_body_a { a.angular_velocity() } else { b.angular_velocity() };
            let now = if with_now { t.dot(&s) / 0.01 } else { 0.0 };
            t.dot(&(acc_of(a) - acc_of(b)))
                + turn_weight * spin2(omega, &t).dot(&s)
                + now
        }
        failing(
            |a, b, p, n, _| rhs(a, b, p, n, (1.0, false, false, true)),
            "(t·s)/h is missing",
        );
        failing(
            |a, b, p, n, _| rhs(a, b, p, n, (2.0, false, true, true)),
            "counted twice",
        );
        failing(
            |a, b, p, n, _| rhs(a, b, p, n, (0.0, false, true, true)),
            "ṫ·s is missing",
        );
        failing(
            |a, b, p, n, _| rhs(a, b, p, n, (1.0, true, true, true)),
            "body a's ω",
        );
        failing(
            |a, b, p, n, _| rhs(a, b, p, n, (1.0, false, true, false)),
            "centripetal",
        );
        failing(
            |a, b, p, n, h| -friction_row::friction_rhs(a, b, p, n, h),
            "wrong sign",
        );
    }

    #[test]
    fn a_friction_row_written_without_spin2_passes() {
        check_friction_row(|a, b, p, n, h| {
            let t = Vector2::new(-n.y, n.x);
            let s = a.point_velocity(p) - b.point_velocity(p);
            let load = |body: &RigidBody2| {
                let r = p - body.position();
                let (w, alpha) =
                    (body.angular_velocity(), body.torque() / body.inertia());
                body.force() / body.mass() + Vector2::new(-r.y, r.x) * alpha
                    - r * (w * w)
            };
            // ṫ·s = (ω_b × t)·s = ω_b (t_x s_y − t_y s_x).
            let turn = b.angular_velocity() * (t.x * s.y - t.y * s.x);
            t.dot(&(load(a) - load(b))) + turn + t.dot(&s) / h
        })
        .assert_passed();
    }

    /// A weight of the blend, as a function of s/h.
    type Weight = fn(f64) -> f64;

    /// The blend with k₁ weighted by `w1(s/h)` and k₅ by `w5(s/h)`.
    fn weighted(
        (y0, k1, y1): (&[f64], &[f64], &[f64]),
        (h, s): (f64, f64),
        (w1, w5): (Weight, Weight),
    ) -> Vec<f64> {
        (0..y0.len())
            .map(|i| {
                let k5 = (y1[i] - y0[i]) / h;
                y0[i] + s * (w1(s / h) * k1[i] + w5(s / h) * k5)
            })
            .collect()
    }

    #[test]
    fn blend_mutants_fail_with_the_diagnosis_meant_for_them() {
        // The same parabola written as Y₀ + s k₁ + (Y₁ − Y₀ − h k₁)(s/h)²: passes.
        check_blend(|y0, k1, y1, h, s| {
            (0..y0.len())
                .map(|i| {
                    y0[i] + s * k1[i] + (y1[i] - y0[i] - h * k1[i]) * (s / h).powi(2)
                })
                .collect()
        })
        .assert_passed();
        let failing =
            |f: BlendFn, expect: &str| check_blend(f).assert_fails_with(expect);
        failing(
            |y0, k1, y1, h, s| weighted((y0, k1, y1), (h, s), (|u| u, |u| 1.0 - u)),
            "swapped",
        );
        let swapped = check_blend(|y0, k1, y1, h, s| {
            weighted((y0, k1, y1), (h, s), (|u| u, |u| 1.0 - u))
        });
        swapped.assert_fails_with("along k₅, the step's average slope");
        // The straight line from Y₀ to Y₁.
        failing(
            |y0, _, y1, h, s| {
                y0.iter().zip(y1).map(|(a, b)| a + (b - a) * s / h).collect()
            },
            "straight line",
        );
        // k₅ = Y₁ − Y₀, not divided by h.
        failing(
            |y0, k1, y1, h, s| {
                (0..y0.len())
                    .map(|i| {
                        let k5 = y1[i] - y0[i];
                        y0[i] + s * ((1.0 - s / h) * k1[i] + (s / h) * k5)
                    })
                    .collect()
            },
            "divided by h",
        );
        // s h for s/h.
        failing(
            |y0, k1, y1, h, s| {
                (0..y0.len())
                    .map(|i| {
                        let k5 = (y1[i] - y0[i]) / h;
                        y0[i] + s * ((1.0 - s * h) * k1[i] + (s * h) * k5)
                    })
                    .collect()
            },
            "multiply s by h",
        );
        // The factor s forgotten.
        failing(
            |y0, k1, y1, h, s| {
                (0..y0.len())
                    .map(|i| {
                        let k5 = (y1[i] - y0[i]) / h;
                        y0[i] + (1.0 - s / h) * k1[i] + (s / h) * k5
                    })
                    .collect()
            },
            "factor s",
        );
        failing(
            |y0, k1, y1, h, s| weighted((y0, k1, y1), (h, s), (|_| 0.5, |_| 0.5)),
            "equally",
        );
        // Weights of degree two: the ends and the start's slope are right, the curve
        // is a cubic.
        failing(
            |y0, k1, y1, h, s| {
                weighted((y0, k1, y1), (h, s), (|u| 1.0 - u * u, |u| u * u))
            },
            "not a parabola",
        );
        failing(|y0, _, _, _, _| y0[..2].to_vec(), "numbers where the state has 6");
    }

    /// The book's correction of one contact, through the row J and M⁻¹ as the world
    /// builds them: ΔY = M⁻¹Jᵀ f with f = −e/(J M⁻¹ Jᵀ).
    fn through_the_row(
        a: &RigidBody2,
        b: &RigidBody2,
        p: &Vector2<f64>,
        n: &Vector2<f64>,
        gap: f64,
    ) -> [(Vector2<f64>, f64); 2] {
        let (ra, rb) = (p - a.position(), p - b.position());
        let j = nalgebra::SVector::<f64, 6>::from_column_slice(&[
            n.x,
            n.y,
            cross2(&ra, n),
            -n.x,
            -n.y,
            -cross2(&rb, n),
        ]);
        let w_inv = nalgebra::SVector::<f64, 6>::from_column_slice(&[
            1.0 / a.mass(),
            1.0 / a.mass(),
            1.0 / a.inertia(),
            1.0 / b.mass(),
            1.0 / b.mass(),
            1.0 / b.inertia(),
        ]);
        let m_inv_jt = j.component_mul(&w_inv);
        let f = (-gap / j.dot(&m_inv_jt)).max(0.0);
        let d = m_inv_jt * f;
        [(Vector2::new(d[0], d[1]), d[2]), (Vector2::new(d[3], d[4]), d[5])]
    }

    #[test]
    fn least_displacement_mutants_fail_with_the_diagnosis_meant_for_them() {
        check_least_displacement(through_the_row).assert_passed();
        let failing = |f: LeastDisplacementFn, expect: &str| {
            check_least_displacement(f).assert_fails_with(expect)
        };
        // A slip of the check's own list, made by hand from the right move.
        fn slip(
            (a, b, p, n, gap): (
                &RigidBody2,
                &RigidBody2,
                &Vector2<f64>,
                &Vector2<f64>,
                f64,
            ),
            s: Slip,
        ) -> [(Vector2<f64>, f64); 2] {
            let m = slipped(&(a.clone(), b.clone(), *p, *n, gap), s);
            [(Vector2::new(m[0], m[1]), m[2]), (Vector2::new(m[3], m[4]), m[5])]
        }
        failing(
            |a, b, p, n, e| {
                slip((a, b, p, n, e), Slip { push: -1.0, b_push: 1.0, ..RIGHT })
            },
            "further together",
        );
        failing(
            |a, b, p, n, e| slip((a, b, p, n, e), Slip { mass: 1, ..RIGHT }),
            "multiplies the push by the mass",
        );
        failing(
            |a, b, p, n, e| slip((a, b, p, n, e), Slip { inertia: 1, ..RIGHT }),
            "multiplies the turn",
        );
        failing(
            |a, b, p, n, e| {
                slip((a, b, p, n, e), Slip { lever: |r, n| r.dot(n), ..RIGHT })
            },
            "(r·n) f/I",
        );
        failing(
            |a, b, p, n, e| {
                slip((a, b, p, n, e), Slip { lever: |r, n| cross2(n, r), ..RIGHT })
            },
            "wrong sign",
        );
        failing(
            |a, b, p, n, e| {
                slip((a, b, p, n, e), Slip { b_push: 0.0, b_in_w: false, ..RIGHT })
            },
            "b does not move",
        );
        failing(
            |a, b, p, n, e| slip((a, b, p, n, e), Slip { b_push: 1.0, ..RIGHT }),
            "same way as a",
        );
        failing(
            |a, b, p, n, e| {
                slip((a, b, p, n, e), Slip { turning_in_w: false, ..RIGHT })
            },
            "only slid",
        );
        failing(
            |a, b, p, n, e| slip((a, b, p, n, e), Slip { b_in_w: false, ..RIGHT }),
            "a's share alone",
        );
        // Twice the push: named by its ratio, and measured.
        failing(
            |a, b, p, n, e| {
                let [(xa, ta), (xb, tb)] = through_the_row(a, b, p, n, e);
                [(xa * 2.0, ta * 2.0), (xb * 2.0, tb * 2.0)]
            },
            "2 times as far",
        );
        // The turn of b left out, the rest right: only the measurements say it.
        let unturned = check_least_displacement(|a, b, p, n, e| {
            let [da, (xb, _)] = through_the_row(a, b, p, n, e);
            [da, (xb, 0.0)]
        });
        unturned.assert_fails_with("changes the gap by");
        unturned.assert_fails_with("kinetic-energy norm");
        // Bilateral: a contact apart is pulled shut, f = −e/w < 0.
        failing(
            |a, b, p, n, e| {
                if e <= 0.0 {
                    return through_the_row(a, b, p, n, e);
                }
                let [(xa, ta), (xb, tb)] = through_the_row(a, b, p, n, -e);
                [(-xa, -ta), (-xb, -tb)]
            },
            "only pushes",
        );
        failing(|_, _, _, _, _| [(Vector2::zeros(), 0.0); 2], "nothing moved");
    }

    #[test]
    fn catch_mutants_fail_with_the_diagnosis_meant_for_them() {
        // Solved along r̂ and across it, where K is 1/m and 1/m + |r|²/I: passes.
        check_catch(|body, anchor| {
            let r = anchor - body.position();
            let v = body.point_velocity(anchor);
            if r.norm() == 0.0 {
                return -v * body.mass();
            }
            let along = r / r.norm();
            let across = Vector2::new(-along.y, along.x);
            let m_p = 1.0 / (1.0 / body.mass() + r.norm_squared() / body.inertia());
            -along * (body.mass() * v.dot(&along)) - across * (m_p * v.dot(&across))
        })
        .assert_passed();
        let failing =
            |f: CatchFn, expect: &str| check_catch(f).assert_fails_with(expect);
        /// −K⁻¹ v with the turning term `turning(r, I)` in K = 𝟙/m + turning.
        fn with_k(
            body: &RigidBody2,
            anchor: &Vector2<f64>,
            turning: fn(Vector2<f64>, f64) -> nalgebra::Matrix2<f64>,
        ) -> Vector2<f64> {
            let r = anchor - body.position();
            let k = nalgebra::Matrix2::identity() / body.mass()
                + turning(r, body.inertia());
            let v = body.point_velocity(anchor);
            -(k.try_inverse().unwrap_or_else(nalgebra::Matrix2::zeros) * v)
        }
        failing(
            |body, anchor| -body.point_velocity(anchor) * body.mass(),
            "whole body's mass",
        );
        failing(
            |body, anchor| {
                let r2 = (anchor - body.position()).norm_squared();
                -body.point_velocity(anchor)
                    / (1.0 / body.mass() + r2 / body.inertia())
            },
            "least mass",
        );
        failing(
            |body, anchor| with_k(body, anchor, |r, i| r * r.transpose() / i),
            "r rᵀ/I",
        );
        failing(
            |body, anchor| {
                with_k(body, anchor, |r, i| {
                    let q = Vector2::new(-r.y, r.x);
                    q * q.transpose() * i
                })
            },
            "multiplies by the moment of inertia",
        );
        failing(
            |body, anchor| -catch::catch_impulse(body, anchor),
            "along the motion",
        );
        failing(|body, anchor| catch::catch_impulse(body, anchor) * 2.0, "elastic");
        failing(
            |body, anchor| {
                let r = anchor - body.position();
                let q = Vector2::new(-r.y, r.x);
                let k = nalgebra::Matrix2::identity() / body.mass()
                    + q * q.transpose() / body.inertia();
                -(k * body.point_velocity(anchor))
            },
            "K inverted",
        );
        // Across r at half the point's mass: measured apart, along r and across it.
        failing(
            |body, anchor| {
                let j = catch::catch_impulse(body, anchor);
                let r = anchor - body.position();
                if r.norm() == 0.0 {
                    return j;
                }
                let across = Vector2::new(-r.y, r.x) / r.norm();
                j - across * (0.5 * j.dot(&across))
            },
            "across r the point has the mass",
        );
    }
}
