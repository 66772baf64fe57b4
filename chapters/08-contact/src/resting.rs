//! Resting contact: bodies touching with zero relative normal velocity. The contact
//! forces f must keep every contact from accelerating into interpenetration, push
//! only, and vanish where a contact is about to separate: with d̈ = A f + b,
//!
//! f ≥ 0,   d̈ ≥ 0,   f · d̈ = 0,
//!
//! the LCP of [`crate::lcp`]. A is [`crate::impulse::contact_matrix`]; this module
//! computes b, the contacts' relative normal accelerations without contact forces
//! (the course notes, section 9 and Appendix D).

use crate::impulse::{Contact, contact_matrix};
use crate::lcp::{LcpSolution, solve};
use crate::rows::BodyState;
use nalgebra::{DVector, Matrix3, Vector3};
use pbm_prelim::PbmError;

type V3 = Vector3<f64>;

/// The external force and torque on a body (gravity, springs, ...).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Load {
    /// Force (N).
    pub force: V3,
    /// Torque about the centre of mass (N m).
    pub torque: V3,
}

/// How the normal of a resting contact moves.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// A vertex of a on a face of b: the normal turns with b.
    VertexFace,
    /// An edge of a across an edge of b: n = e_a × e_b / |e_a × e_b|, turning with
    /// both edges.
    EdgeEdge {
        /// a's edge direction.
        ea: V3,
        /// b's edge direction.
        eb: V3,
    },
    /// A ball a (centre x_a, radius r) on a face of b: the normal turns with b, and
    /// the contact point p = x_a − r n is a point of neither body; it rolls.
    Ball {
        /// The ball's radius (m).
        radius: f64,
    },
}

/// A resting contact: where, which normal, and which kind.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RestingContact {
    /// Bodies, point and normal (out of b, towards a).
    pub contact: Contact,
    /// What the normal is attached to.
    pub kind: Kind,
}

fn inertia(body: &BodyState) -> Matrix3<f64> {
    body.inv_inertia.try_inverse().unwrap_or_else(Matrix3::zeros)
}

/// The angular acceleration without contact forces: ω̇ = I⁻¹ (τ − ω × (I ω)).
fn angular_acceleration(body: &BodyState, load: &Load) -> V3 {
    let l = inertia(body) * body.omega;
    body.inv_inertia * (load.torque - body.omega.cross(&l))
}

/// The centre's acceleration without contact forces, F/M.
fn load_acceleration(body: &BodyState, load: &Load) -> V3 {
    load.force * body.inv_mass
}

// ANCHOR: point_acceleration
/// The acceleration of a body's point p without contact forces:
/// v̇ + ω̇ × r + ω × (ω × r), with v̇ = F/M and r = p − x.
pub fn point_acceleration(body: &BodyState, load: &Load, p: &V3) -> V3 {
    let r = p - body.x;
    load_acceleration(body, load)
        + angular_acceleration(body, load).cross(&r)
        + body.omega.cross(&body.omega.cross(&r))
}
// ANCHOR_END: point_acceleration

// ANCHOR: normal_derivative
/// ṅ: for a vertex on a face, the face's normal turns with b, ṅ = ω_b × n. For two
/// edges, z = e_a × e_b with ė = ω × e for each, ż = ė_a × e_b + e_a × ė_b, and the
/// unit normal's derivative is the part of ż / |z| across n.
pub fn normal_derivative(bodies: &[BodyState], rc: &RestingContact) -> V3 {
    let c = &rc.contact;
    match rc.kind {
        Kind::VertexFace | Kind::Ball { .. } => bodies[c.b].omega.cross(&c.n),
        Kind::EdgeEdge { ea, eb } => {
            let z = ea.cross(&eb);
            let (dea, deb) =
                (bodies[c.a].omega.cross(&ea), bodies[c.b].omega.cross(&eb));
            let dz = dea.cross(&eb) + ea.cross(&deb);
            // n = s z/|z| with s = ±1 fixed by the contact's normal. Differentiating,
            // ṅ = s (ż − ẑ (ẑ·ż))/|z| with ẑ = z/|z| = s n, and s² = 1 leaves
            // ṅ = s (ż − n (n·ż))/|z|: the part of ż across n, whichever the sign.
            let sign = if z.dot(&c.n) >= 0.0 { 1.0 } else { -1.0 };
            sign * (dz - c.n * c.n.dot(&dz)) / z.norm()
        }
    }
}
// ANCHOR_END: normal_derivative

// ANCHOR: b_vector
/// b_i = n_i · (p̈_a − p̈_b) + 2 ṅ_i · (ṗ_a − ṗ_b), the relative normal acceleration
/// at contact i if no contact force acted (Appendix D). For a ball the gap is
/// d = n · (x_a − p_b) − r, so its centre takes the place of the point p_a, and
/// n̈ · (x_a − p_b) = r n̈ · n = −r |ṅ|² adds a term.
pub fn b_vector(
    bodies: &[BodyState],
    loads: &[Load],
    contacts: &[RestingContact],
) -> DVector<f64> {
    DVector::from_iterator(
        contacts.len(),
        contacts.iter().map(|rc| {
            let c = &rc.contact;
            let (a, b) = (&bodies[c.a], &bodies[c.b]);
            let n_dot = normal_derivative(bodies, rc);
            let (pa, curvature) = match rc.kind {
                Kind::Ball { radius } => (a.x, -radius * n_dot.norm_squared()),
                _ => (c.p, 0.0),
            };
            let accel = point_acceleration(a, &loads[c.a], &pa)
                - point_acceleration(b, &loads[c.b], &c.p);
            let vel = a.point_velocity(&pa) - b.point_velocity(&c.p);
            c.n.dot(&accel) + 2.0 * n_dot.dot(&vel) + curvature
        }),
    )
}
// ANCHOR_END: b_vector

// ANCHOR: sliding
/// The relative velocity s = ṗ_a − ṗ_b of the bodies' points at the contact, and
/// its rate of change without contact forces, as friction sees them. The contact
/// point p moves over the bodies, and a body's velocity field read at a moving
/// point changes by d/dt v_k(p) = p̈_k + ω_k × (ṗ − v_k(p)), so
/// ṡ = p̈_a − p̈_b + ω_a × (ṗ − v_a(p)) − ω_b × (ṗ − v_b(p)).
/// Only ṗ depends on the kind of contact ([`contact_point_velocity`]). For a vertex
/// ṗ = v_a(p), and the last term is −ω_b × s: a tangent t fixed in b then sees
/// t · ṡ + ṫ · s = t · (p̈_a − p̈_b) + 2 ṫ · s, as the normal sees 2 ṅ · s.
pub fn sliding(
    bodies: &[BodyState],
    loads: &[Load],
    rc: &RestingContact,
) -> (V3, V3) {
    let c = &rc.contact;
    let (a, b) = (&bodies[c.a], &bodies[c.b]);
    let (va, vb) = (a.point_velocity(&c.p), b.point_velocity(&c.p));
    let p_dot = contact_point_velocity(bodies, rc);
    let s_dot = point_acceleration(a, &loads[c.a], &c.p)
        - point_acceleration(b, &loads[c.b], &c.p)
        + a.omega.cross(&(p_dot - va))
        - b.omega.cross(&(p_dot - vb));
    (va - vb, s_dot)
}
// ANCHOR_END: sliding

// ANCHOR: contact_point_velocity
/// ṗ, how fast the contact point moves. A vertex is a point of a: ṗ = v_a(p). A
/// ball's contact point p = x_a − r n moves at ṗ = ẋ_a − r ṅ. Two edges touch where
/// they cross, p = q_a + u e_a = q_b + w e_b, which slides along both: ṗ = v_a(p) +
/// u̇ e_a = v_b(p) + ẇ e_b, and across n, u̇ e_a − ẇ e_b = −s. Crossing with e_b
/// gives u̇ (e_a × e_b) = −s × e_b (n's part of s drops out, as n ∥ e_a × e_b).
pub fn contact_point_velocity(bodies: &[BodyState], rc: &RestingContact) -> V3 {
    let c = &rc.contact;
    let (a, b) = (&bodies[c.a], &bodies[c.b]);
    let va = a.point_velocity(&c.p);
    match rc.kind {
        Kind::VertexFace => va,
        Kind::Ball { radius } => a.v - normal_derivative(bodies, rc) * radius,
        Kind::EdgeEdge { ea, eb } => {
            let z = ea.cross(&eb);
            let s = va - b.point_velocity(&c.p);
            va - ea * (s.cross(&eb).dot(&z) / z.norm_squared())
        }
    }
}
// ANCHOR_END: contact_point_velocity

/// Checks the bodies' loads match, then solves for the resting contact forces.
pub fn contact_forces(
    bodies: &[BodyState],
    loads: &[Load],
    contacts: &[RestingContact],
) -> Result<LcpSolution, PbmError> {
    if loads.len() != bodies.len() {
        let why = format!("{} loads for {} bodies", loads.len(), bodies.len());
        return Err(PbmError::invalid("resting contact", why));
    }
    let plain: Vec<Contact> = contacts.iter().map(|rc| rc.contact).collect();
    solve(&contact_matrix(bodies, &plain), &b_vector(bodies, loads, contacts))
}

// ANCHOR: apply
/// Adds the contact forces f (one magnitude per contact) to the bodies' loads:
/// +f n on a and −f n on b, each with the torque (p − x) × (f n) about its centre.
/// (The notes' listing writes that torque with `*`, their vector library's dot
/// product; it is a cross product, as everywhere else in the notes.)
pub fn apply_contact_forces(
    bodies: &[BodyState],
    loads: &mut [Load],
    contacts: &[RestingContact],
    f: &DVector<f64>,
) {
    for (rc, &magnitude) in contacts.iter().zip(f.iter()) {
        let c = &rc.contact;
        let force = c.n * magnitude;
        for (k, sign) in [(c.a, 1.0), (c.b, -1.0)] {
            loads[k].force += force * sign;
            loads[k].torque += (c.p - bodies[k].x).cross(&force) * sign;
        }
    }
}
// ANCHOR_END: apply

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{DMatrix, Rotation3};

    /// Where a body's point, at p when t = 0, is at time t, moving with constant
    /// acceleration and angular acceleration (exact to second order in t).
    fn carried(body: &BodyState, load: &Load, p: &V3, t: f64) -> V3 {
        let (dv, dw) = (load.force * body.inv_mass, angular_acceleration(body, load));
        let x = body.x + body.v * t + dv * (0.5 * t * t);
        let turn = Rotation3::from_scaled_axis(body.omega * t + dw * (0.5 * t * t));
        x + turn * (p - body.x)
    }

    fn bodies() -> (Vec<BodyState>, Vec<Load>) {
        let box_inertia = |m: f64, s: V3| {
            Matrix3::from_diagonal(&V3::new(
                m * (s.y * s.y + s.z * s.z) / 12.0,
                m * (s.x * s.x + s.z * s.z) / 12.0,
                m * (s.x * s.x + s.y * s.y) / 12.0,
            ))
        };
        let a = BodyState {
            x: V3::new(0.1, -0.2, 0.7),
            v: V3::new(0.4, 0.1, -0.3),
            omega: V3::new(1.1, -0.6, 0.8),
            inv_mass: 0.5,
            inv_inertia: box_inertia(2.0, V3::new(1.0, 0.6, 0.4))
                .try_inverse()
                .unwrap(),
        };
        let b = BodyState {
            x: V3::new(-0.3, 0.2, -0.4),
            v: V3::new(-0.2, 0.3, 0.1),
            omega: V3::new(-0.7, 0.9, 0.5),
            inv_mass: 0.25,
            inv_inertia: box_inertia(4.0, V3::new(1.5, 1.0, 0.8))
                .try_inverse()
                .unwrap(),
        };
        let loads = vec![
            Load { force: V3::new(0.3, 0.0, -19.6), torque: V3::new(0.2, -0.1, 0.3) },
            Load { force: V3::new(0.0, 0.5, -39.2), torque: V3::new(-0.4, 0.2, 0.1) },
        ];
        (vec![a, b], loads)
    }

    /// d̈ at t = 0 by central differences of d(t) = n(t) · (p_a(t) − p_b(t)).
    fn numeric_d_ddot(
        n_at: impl Fn(f64) -> V3,
        pa: impl Fn(f64) -> V3,
        pb: impl Fn(f64) -> V3,
    ) -> f64 {
        let d = |t: f64| n_at(t).dot(&(pa(t) - pb(t)));
        let h = 1e-4;
        (d(h) - 2.0 * d(0.0) + d(-h)) / (h * h)
    }

    #[test]
    fn b_is_the_relative_normal_acceleration_for_a_vertex_on_a_face() {
        let (bodies, loads) = bodies();
        let p = V3::new(0.05, 0.1, 0.2);
        let n = V3::new(0.3, -0.2, 1.0).normalize();
        let rc = RestingContact {
            contact: Contact { a: 0, b: 1, p, n },
            kind: Kind::VertexFace,
        };
        let turn_b = |t: f64| {
            let dw = angular_acceleration(&bodies[1], &loads[1]);
            Rotation3::from_scaled_axis(bodies[1].omega * t + dw * (0.5 * t * t))
        };
        let numeric = numeric_d_ddot(
            |t| turn_b(t) * n,
            |t| carried(&bodies[0], &loads[0], &p, t),
            |t| carried(&bodies[1], &loads[1], &p, t),
        );
        let b = b_vector(&bodies, &loads, &[rc])[0];
        assert!((b - numeric).abs() < 1e-5 * b.abs().max(1.0), "{b} vs {numeric}");
    }

    #[test]
    fn b_is_the_relative_normal_acceleration_for_two_edges() {
        let (bodies, loads) = bodies();
        let p = V3::new(0.05, 0.1, 0.2);
        let (ea, eb) = (
            V3::new(1.0, 0.2, -0.1).normalize(),
            V3::new(-0.1, 1.0, 0.3).normalize(),
        );
        let n = ea.cross(&eb).normalize();
        let rc = RestingContact {
            contact: Contact { a: 0, b: 1, p, n },
            kind: Kind::EdgeEdge { ea, eb },
        };
        let turn = |k: usize, t: f64| {
            let dw = angular_acceleration(&bodies[k], &loads[k]);
            Rotation3::from_scaled_axis(bodies[k].omega * t + dw * (0.5 * t * t))
        };
        let numeric = numeric_d_ddot(
            |t| (turn(0, t) * ea).cross(&(turn(1, t) * eb)).normalize(),
            |t| carried(&bodies[0], &loads[0], &p, t),
            |t| carried(&bodies[1], &loads[1], &p, t),
        );
        let b = b_vector(&bodies, &loads, &[rc])[0];
        assert!((b - numeric).abs() < 1e-5 * b.abs().max(1.0), "{b} vs {numeric}");
    }

    /// The velocity field of body k at time t, read at the point q: the body's
    /// velocity and spin moved on by their rates, to first order as in [`carried`].
    fn field(body: &BodyState, load: &Load, t: f64, q: &V3) -> V3 {
        let (dv, dw) = (load.force * body.inv_mass, angular_acceleration(body, load));
        let x = body.x + body.v * t + dv * (0.5 * t * t);
        body.v + dv * t + (body.omega + dw * t).cross(&(q - x))
    }

    /// A tangent row's rate as the world's rows compute it, t · ṡ + ṫ · s with t
    /// fixed in b (ṫ = ω_b × t), against t(τ) · s(τ) differenced along the motion:
    /// the contact point p(τ) follows the kind of contact, and s(τ) is the two
    /// bodies' velocity fields read there.
    fn check_tangent_rate(
        bodies: &[BodyState],
        loads: &[Load],
        rc: &RestingContact,
        p_at: impl Fn(f64) -> V3,
    ) {
        let c = rc.contact;
        let turn_b = |t: f64| {
            let dw = angular_acceleration(&bodies[c.b], &loads[c.b]);
            Rotation3::from_scaled_axis(bodies[c.b].omega * t + dw * (0.5 * t * t))
        };
        let (s, s_dot) = sliding(bodies, loads, rc);
        for t0 in [c.n.cross(&V3::x()).normalize(), c.n.cross(&V3::y()).normalize()] {
            let rate = t0.dot(&s_dot) + bodies[c.b].omega.cross(&t0).dot(&s);
            let along = |t: f64| {
                let p = p_at(t);
                let s = field(&bodies[c.a], &loads[c.a], t, &p)
                    - field(&bodies[c.b], &loads[c.b], t, &p);
                (turn_b(t) * t0).dot(&s)
            };
            let h = 1e-5;
            let numeric = (along(h) - along(-h)) / (2.0 * h);
            assert!(
                (rate - numeric).abs() < 1e-6 * numeric.abs().max(1.0),
                "{:?}: t · ṡ + ṫ · s = {rate}, differences give {numeric}",
                rc.kind
            );
        }
    }

    #[test]
    fn a_vertex_sliding_across_a_turntable_sees_twice_the_tangents_turn() {
        // A turntable b spinning at 1 rad/s about z; a vertex of a non-turning a at
        // (1, 0, 0), moving at 1 m/s against the table's 1 m/s there, so s = −2 ŷ.
        // Along the radius t = x̂: t · s = −τ cos τ − 2 sin τ, whose rate is −3 m/s²,
        // that is −t · p̈_b + 2 ṫ · s = 1 − 4. One ṫ · s would give −1.
        let table = BodyState { omega: V3::z(), ..BodyState::fixed(V3::zeros()) };
        let vertex = BodyState {
            x: V3::new(1.0, 0.0, 0.5),
            v: -V3::y(),
            ..BodyState { inv_mass: 1.0, inv_inertia: Matrix3::identity(), ..table }
        };
        let vertex = BodyState { omega: V3::zeros(), ..vertex };
        let rest = Load { force: V3::zeros(), torque: V3::zeros() };
        let rc = RestingContact {
            contact: Contact { a: 0, b: 1, p: V3::x(), n: V3::z() },
            kind: Kind::VertexFace,
        };
        let (bodies, loads) = (vec![vertex, table], vec![rest, rest]);
        let (s, s_dot) = sliding(&bodies, &loads, &rc);
        let t = V3::x();
        let rate = t.dot(&s_dot) + V3::z().cross(&t).dot(&s);
        assert!((rate + 3.0).abs() < 1e-12, "rate {rate} m/s², not −3");
        check_tangent_rate(&bodies, &loads, &rc, |t| {
            carried(&bodies[0], &loads[0], &V3::x(), t)
        });
    }

    #[test]
    fn tangent_rows_see_the_rate_of_t_dot_s_for_every_kind_of_contact() {
        let (bodies, loads) = bodies();
        let p = V3::new(0.05, 0.1, 0.2);
        let n = V3::new(0.3, -0.2, 1.0).normalize();
        let turn = |k: usize, t: f64| {
            let dw = angular_acceleration(&bodies[k], &loads[k]);
            Rotation3::from_scaled_axis(bodies[k].omega * t + dw * (0.5 * t * t))
        };
        let vertex = RestingContact {
            contact: Contact { a: 0, b: 1, p, n },
            kind: Kind::VertexFace,
        };
        check_tangent_rate(&bodies, &loads, &vertex, |t| {
            carried(&bodies[0], &loads[0], &p, t)
        });
        // A ball of radius 0.3 whose centre sits 0.3 above p along n.
        let radius = 0.3;
        let mut ball_bodies = bodies.clone();
        ball_bodies[0].x = p + n * radius;
        let ball = RestingContact { kind: Kind::Ball { radius }, ..vertex };
        check_tangent_rate(&ball_bodies, &loads, &ball, |t| {
            carried(&ball_bodies[0], &loads[0], &ball_bodies[0].x, t)
                - turn(1, t) * n * radius
        });
        // Two edges crossing at p, with either sign of the normal: the contact point
        // is where a's edge comes closest to b's, which slides along both.
        let (ea, eb) = (
            V3::new(1.0, 0.2, -0.1).normalize(),
            V3::new(-0.1, 1.0, 0.3).normalize(),
        );
        for sign in [1.0, -1.0] {
            let n = ea.cross(&eb).normalize() * sign;
            let edges = RestingContact {
                contact: Contact { a: 0, b: 1, p, n },
                kind: Kind::EdgeEdge { ea, eb },
            };
            check_tangent_rate(&bodies, &loads, &edges, |t| {
                let (qa, qb) = (
                    carried(&bodies[0], &loads[0], &p, t),
                    carried(&bodies[1], &loads[1], &p, t),
                );
                let (da, db) = (turn(0, t) * ea, turn(1, t) * eb);
                let (r, b) = (qa - qb, da.dot(&db));
                let u = (b * db.dot(&r) - da.dot(&r)) / (1.0 - b * b);
                qa + da * u
            });
        }
    }

    #[test]
    fn n_dot_of_two_edges_matches_finite_differences_for_either_normal_sign() {
        // A free body at the origin spinning about z and moving along z, its edge
        // along x across a fixed edge along (1, 1, 0): e_a × e_b = (0, 0, 1), which
        // shrinks as e_a turns but keeps its direction, so ṅ = 0 for both signs of n.
        // Then the general bodies of the tests above. Each against n(t) differenced.
        let spinning = vec![
            BodyState {
                x: V3::zeros(),
                v: V3::z(),
                omega: V3::z(),
                inv_mass: 1.0,
                inv_inertia: Matrix3::identity(),
            },
            BodyState::fixed(V3::zeros()),
        ];
        let (general, _) = bodies();
        let cases = [
            (spinning, V3::x(), V3::new(1.0, 1.0, 0.0).normalize()),
            (
                general,
                V3::new(1.0, 0.2, -0.1).normalize(),
                V3::new(-0.1, 1.0, 0.3).normalize(),
            ),
        ];
        for (bodies, ea, eb) in cases {
            for sign in [1.0, -1.0] {
                let n = ea.cross(&eb).normalize() * sign;
                let rc = RestingContact {
                    contact: Contact { a: 0, b: 1, p: V3::zeros(), n },
                    kind: Kind::EdgeEdge { ea, eb },
                };
                let n_at = |t: f64| {
                    let turn =
                        |k: usize| Rotation3::from_scaled_axis(bodies[k].omega * t);
                    (turn(0) * ea).cross(&(turn(1) * eb)).normalize() * sign
                };
                let h = 1e-6;
                let numeric = (n_at(h) - n_at(-h)) / (2.0 * h);
                let n_dot = normal_derivative(&bodies, &rc);
                assert!(
                    (n_dot - numeric).norm() < 1e-7 * numeric.norm().max(1.0),
                    "sign {sign}: ṅ = {n_dot}, differences give {numeric}"
                );
                assert!(n_dot.dot(&n).abs() < 1e-12, "ṅ not across n: {n_dot}");
            }
        }
    }

    /// The notes' `compute_aij` (course notes, Appendix D), its torque sign as
    /// printed: when body A (or B) is contact j's face body, the force on it is −n_j
    /// but the torque is left (p_j − x) × n_j, not negated.
    fn notes_a(bodies: &[BodyState], contacts: &[RestingContact]) -> DMatrix<f64> {
        let n = contacts.len();
        DMatrix::from_fn(n, n, |i, j| {
            let (ci, cj) = (&contacts[i].contact, &contacts[j].contact);
            let response = |k: usize| {
                let body = &bodies[k];
                let (force, torque) = if cj.a == k {
                    (cj.n, (cj.p - body.x).cross(&cj.n))
                } else if cj.b == k {
                    (-cj.n, (cj.p - body.x).cross(&cj.n))
                } else {
                    (V3::zeros(), V3::zeros())
                };
                force * body.inv_mass
                    + (body.inv_inertia * torque).cross(&(ci.p - body.x))
            };
            ci.n.dot(&(response(ci.a) - response(ci.b)))
        })
    }

    #[test]
    fn notes_errata_compute_aij_negates_the_face_bodys_torque() {
        // A 2 kg unit cube offset (0.3, 0.2) on a 1 kg unit cube on the ground, at rest.
        // Four ground contacts (lower cube on the ground) and the four corners of the
        // faces' overlap (upper cube on the lower one): the lower cube is the face
        // body of those, so the notes' sign slip shows. Ours is J M⁻¹ Jᵀ, symmetric,
        // and its forces carry the weights: 3 g under the lower cube, 2 g under the
        // upper. The notes' A is not symmetric, and its forces launch the top box.
        let cube = |m: f64, x: V3| BodyState {
            x,
            v: V3::zeros(),
            omega: V3::zeros(),
            inv_mass: 1.0 / m,
            inv_inertia: Matrix3::identity() * (6.0 / m),
        };
        let bodies = vec![
            cube(1.0, V3::new(0.0, 0.0, 0.5)),
            cube(2.0, V3::new(0.3, 0.2, 1.5)),
            { BodyState::fixed(V3::zeros()) },
        ];
        let g = 9.81;
        let loads = vec![
            Load { force: V3::new(0.0, 0.0, -g), torque: V3::zeros() },
            Load { force: V3::new(0.0, 0.0, -2.0 * g), torque: V3::zeros() },
            Load { force: V3::zeros(), torque: V3::zeros() },
        ];
        let at = |a: usize, b: usize, x: f64, y: f64, z: f64| RestingContact {
            contact: Contact { a, b, p: V3::new(x, y, z), n: V3::z() },
            kind: Kind::VertexFace,
        };
        let mut contacts: Vec<RestingContact> =
            [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]
                .iter()
                .map(|&(x, y)| at(0, 2, x, y, 0.0))
                .collect();
        contacts.extend(
            [(-0.2, -0.3), (0.5, -0.3), (0.5, 0.5), (-0.2, 0.5)]
                .iter()
                .map(|&(x, y)| at(1, 0, x, y, 1.0)),
        );
        let ours = contact_forces(&bodies, &loads, &contacts).unwrap();
        let (ground, between) = (ours.f.rows(0, 4).sum(), ours.f.rows(4, 4).sum());
        assert!((ground - 3.0 * g).abs() < 1e-9 && (between - 2.0 * g).abs() < 1e-9);
        let a = notes_a(&bodies, &contacts);
        assert!((&a - a.transpose()).amax() > 1.0, "the notes' A came out symmetric");
        // The notes' A is not positive semidefinite, and the pivoting cycles on it.
        // Every answer brute force finds (every complementary basis tried) carries the
        // right total weights, but the wrong torques: applied to the bodies, its forces
        // drive some contact into its partner at tens of m/s².
        let b = b_vector(&bodies, &loads, &contacts);
        let theirs = crate::lcp::enumerate(&a, &b, 1e-9).unwrap();
        assert!(!theirs.is_empty());
        let rows: Vec<Contact> = contacts.iter().map(|c| c.contact).collect();
        let a_true = contact_matrix(&bodies, &rows);
        assert!((&a_true * &ours.f + &b).min() > -1e-9, "ours hold every contact");
        for f in theirs {
            let sinking = (&a_true * &f + &b).min();
            assert!(
                sinking < -10.0,
                "the notes' forces sink a contact at {sinking} m/s²"
            );
        }
    }

    /// A 2 kg unit cube standing on four corners on the ground, under gravity and an
    /// external `torque`.
    fn cube_on_corners(
        torque: V3,
    ) -> (Vec<BodyState>, Vec<Load>, Vec<RestingContact>) {
        let body = BodyState {
            x: V3::new(0.0, 0.0, 0.5),
            v: V3::zeros(),
            omega: V3::zeros(),
            inv_mass: 0.5,
            inv_inertia: Matrix3::identity() * 3.0,
        };
        let loads = vec![
            Load { force: V3::new(0.0, 0.0, -19.62), torque },
            Load { force: V3::zeros(), torque: V3::zeros() },
        ];
        let corners = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)];
        let contacts = corners
            .iter()
            .map(|&(x, y)| RestingContact {
                contact: Contact { a: 0, b: 1, p: V3::new(x, y, 0.0), n: V3::z() },
                kind: Kind::VertexFace,
            })
            .collect();
        (vec![body, BodyState::fixed(V3::zeros())], loads, contacts)
    }

    #[test]
    fn a_box_resting_on_the_ground_carries_its_weight() {
        // A 2 kg unit cube at rest on four corners: the forces hold it, a = 0, and
        // together they equal its weight (how they split is not unique: A is singular).
        let (bodies, loads, contacts) = cube_on_corners(V3::zeros());
        let sol = contact_forces(&bodies, &loads, &contacts).unwrap();
        assert!((sol.f.sum() - 19.62).abs() < 1e-10, "{}", sol.f);
        assert!(sol.f.iter().all(|&f| f >= 0.0) && sol.a.amax() < 1e-10);
    }

    #[test]
    fn notes_errata_the_contact_torque_is_a_cross_product() {
        // A cube on four corners, pushed over a little by an external torque about x
        // that the contacts can resist: with the forces applied (torque (p − x) × f n),
        // nothing accelerates at all.
        let (bodies, mut loads, contacts) = cube_on_corners(V3::new(2.0, 0.0, 0.0));
        let sol = contact_forces(&bodies, &loads, &contacts).unwrap();
        assert!(sol.a.amax() < 1e-10 && sol.f.iter().all(|&f| f >= 0.0));
        apply_contact_forces(&bodies, &mut loads, &contacts, &sol.f);
        assert!(loads[0].force.norm() < 1e-10, "{}", loads[0].force);
        assert!(loads[0].torque.norm() < 1e-10, "{}", loads[0].torque);
    }

    #[test]
    fn notes_errata_the_solver_is_given_the_b_vector() {
        // The notes' listing computes `bvec` and then calls qp_solve(amat, bmat,
        // fvec); `bmat` exists nowhere. The solve needs b: with it, a = A f + b is
        // zero at every contact of the resting cube and f carries its weight.
        let (bodies, loads, contacts) = cube_on_corners(V3::zeros());
        let sol = contact_forces(&bodies, &loads, &contacts).unwrap();
        let plain: Vec<Contact> = contacts.iter().map(|rc| rc.contact).collect();
        let b = b_vector(&bodies, &loads, &contacts);
        let a = contact_matrix(&bodies, &plain) * &sol.f + &b;
        assert!(a.amax() < 1e-9, "{a}");
        assert!((sol.f.sum() - 9.81 * 2.0).abs() < 1e-9, "{}", sol.f);
    }
}
