//! Practice for chapter 11: the reader writes the mouse spring and the right-hand
//! side of a friction row. The spring is checked by the mass a free body really
//! shows at the grabbed point, measured with an impulse, on a turned, moving bar,
//! and by dragging a thin bar by its tip under RK4 at the world's step; the friction
//! row by central differences of the sliding velocity as the two bodies move under
//! their loads, the frozen contact point followed in both.

use nalgebra::Vector2;
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::tableau::RK4;
use pbm_prelim::PbmError;
use pbm_prelim::practice::{Listing, Report, Task, sequence};
use pbm_rigid::body::{BodyForce, RigidSystem};
use pbm_rigid::body2d::{RigidBody2, RigidBody2Def, rotation2, spin2};

/// A mouse spring the reader writes: (body, grabbed point in body coordinates,
/// target, k, c) → force.
pub type MouseFn =
    fn(&RigidBody2, &Vector2<f64>, &Vector2<f64>, f64, f64) -> Vector2<f64>;

/// A friction row's right-hand side the reader writes: (a, b, p, n, h) → number.
pub type FrictionRowFn =
    fn(&RigidBody2, &RigidBody2, &Vector2<f64>, &Vector2<f64>, f64) -> f64;

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
];

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
            return Err(format!("by step {} the tip was at {tip:?}", k + 1));
        }
    }
    Ok((system.bodies[0].world_point(&local) - end).norm())
}

/// Checks a mouse spring: the mass it is scaled by, the point it pulls, the velocity
/// it damps, and a drag under RK4 at the world's step.
pub fn check_mouse(f: MouseFn) -> Report {
    let (k, c) = (4000.0, 120.0);
    // A 2 m bar of 3 kg, turned, moving and spinning; grabbed at its centre, at its
    // tip, and between. With the target at p, only the damping pulls.
    let cases = [
        (Vector2::new(0.0, 0.0), Vector2::new(0.4, 1.6), Vector2::zeros(), 0.0),
        (Vector2::new(1.0, 0.0), Vector2::new(0.7, 2.5), Vector2::zeros(), 0.0),
        (Vector2::new(-0.6, 0.0), Vector2::new(-1.0, 0.3), Vector2::zeros(), 0.0),
        (Vector2::new(0.8, 0.0), Vector2::zeros(), Vector2::new(0.5, -0.2), 1.5),
    ];
    for (local, offset, v, omega) in cases {
        let body = match bar((3.0, 2.0), (Vector2::new(0.2, 1.0), 0.6), (v, omega)) {
            Ok(b) => b,
            Err(e) => {
                return Report::fail(format!("the test bar could not be made: {e}"));
            }
        };
        let p = body.world_point(&local);
        let target = p + offset;
        let got = f(&body, &local, &target, k, c);
        if !finite(&got) {
            return Report::fail(format!(
                "grabbed at {local:?} (body coordinates) your force is {got:?}"
            ));
        }
        let m_p = least_point_mass(&body, &p);
        let pull = target - p;
        let velocity = body.point_velocity(&p);
        let want = (pull * k - velocity * c) * m_p;
        if (got - want).norm() <= 1e-9 * (1.0 + want.norm()) {
            continue;
        }
        let close = |x: Vector2<f64>| (got - x).norm() <= 1e-9 * (1.0 + want.norm());
        let m = body.mass();
        let r = p - body.position();
        let along = if pull.norm() > 0.0 { pull / pull.norm() } else { Vector2::x() };
        let lever = r.x * along.y - r.y * along.x;
        let m_along = 1.0 / (1.0 / m + lever * lever / body.inertia());
        let unturned = body.position() + local;
        let m_unturned = 1.0
            / (1.0 / m
                + (unturned - body.position()).norm_squared() / body.inertia());
        let why = if close((pull * k - velocity * c) * m) {
            format!(
                "it is scaled by the body's mass m = {m} kg, but the point yields like \
                 m_p = {m_p:.3} kg (the body turns as well as moves). With the body's mass \
                 the spring is {:.1} times too stiff there, and RK4 at the world's step \
                 blows up",
                m / m_p
            )
        } else if close((pull * k - velocity * c) * m_along) {
            "it uses the mass along the pull, 1/m + (r × u)²/I. The world uses the least \
             mass, 1/m + |r|²/I, the same in every direction, so that k and c bound the \
             spring's rates however it pulls"
                .to_string()
        } else if close(
            ((target - unturned) * k - body.point_velocity(&unturned) * c)
                * m_unturned,
        ) {
            "it pulls the point x + local, as if the body had not turned: `local` is in \
             the body's coordinates, and the point is `body.world_point(local)`"
                .to_string()
        } else if close((pull * k - body.velocity() * c) * m_p) {
            "it damps the centre's velocity; the spring is attached at p and damps the \
             point's velocity ṗ = v + ω × r, `body.point_velocity(&p)`"
                .to_string()
        } else if close((pull * k + velocity * c) * m_p) {
            "its damping pushes along the motion: −c ṗ opposes it".to_string()
        } else {
            format!(
                "it should be m_p (k (m − p) − c ṗ) = {want:?} with m_p = {m_p:.4} kg"
            )
        };
        return Report::fail(format!(
            "on a 3 kg bar turned by 0.6 rad, grabbed at {local:?} in its coordinates \
             with the mouse {offset:?} away, your force is {got:?}: {why}"
        ));
    }
    match drag_by_the_tip(f) {
        Err(e) => Report::fail(format!(
            "dragging a thin bar by its tip (k = 4000/s², c = 120/s, RK4 at 10 ms) went \
             wrong: {e}"
        )),
        Ok(gap) if gap > 0.05 => Report::fail(format!(
            "dragging a thin bar by its tip, the tip ended {gap:.3} m from the mouse \
             2 s after it stopped: the spring should pull it in"
        )),
        Ok(gap) => Report::pass(vec![
            "m_p (k (m − p) − c ṗ) on a turned, moving bar at four grabbed points, m_p \
             measured with an impulse"
                .to_string(),
            format!(
                "a thin bar dragged 1.1 m by its tip under RK4 at 10 ms ends {gap:.1e} m \
                 from the mouse"
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
        let got = f(a, b, p, n, h);
        if !got.is_finite() {
            return Report::fail(format!("your right-hand side is {got}"));
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
                "measured, the loads give t·(p̈_a − p̈_b) = {load:.5}, the turning tangent \
                 ṫ·s = {turn:.5}, and (t·s)/h = {now:.5}"
            )
        };
        return Report::fail(format!(
            "at a contact with n = {n:.3?}, ω_a = {:.3}, ω_b = {:.3}, your right-hand \
             side is {got:.5} where the rate of change of t·s measured along the motion, \
             plus (t·s)/h, is {want:.5}: {why}",
            a.angular_velocity(),
            b.angular_velocity()
        ));
    }
    Report::pass(vec![format!(
        "d(t·s)/dt + (t·s)/h at {} contacts of loaded, spinning bodies, by central \
         differences of the motion, to {worst:.0e} relative",
        cases.len()
    )])
}

#[cfg(test)]
mod tests {
    use super::*;

    pbm_prelim::answers! {
        mouse => check_mouse(mouse::mouse_force),
        friction_row => check_friction_row(friction_row::friction_rhs),
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
}
