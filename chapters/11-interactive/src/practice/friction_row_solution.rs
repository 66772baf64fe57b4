// The book's answer to `interactive/friction-row`, as `pbm practice solution` prints
// it: the stub's imports and signature, so that it compiles where the stub sits. The
// world writes the same row in `contact_force_rows` (`world/hold.rs`), with its
// bodies looked up by index.

use nalgebra::Vector2;
use pbm_rigid::body2d::RigidBody2;

// ANCHOR: friction_rhs
/// t·(p̈_a − p̈_b) + ṫ·s + (t·s)/h, t = n⊥, ṫ = ω_b × t, s = ṗ_a − ṗ_b.
pub fn friction_rhs(
    a: &RigidBody2,
    b: &RigidBody2,
    p: &Vector2<f64>,
    n: &Vector2<f64>,
    h: f64,
) -> f64 {
    use pbm_rigid::body2d::spin2; // ω × r in the plane: (−ω r_y, ω r_x)
    // The acceleration of the point p of a body under its loads alone.
    let load_acceleration = |body: &RigidBody2| {
        let r = p - body.position();
        let w = body.angular_velocity();
        body.force() / body.mass() + spin2(body.torque() / body.inertia(), &r)
            - r * (w * w)
    };
    let t = Vector2::new(-n.y, n.x);
    let s = a.point_velocity(p) - b.point_velocity(p);
    let acc = load_acceleration(a) - load_acceleration(b);
    let t_dot = spin2(b.angular_velocity(), &t); // the edge, and t, turn with b
    t.dot(&acc) + t_dot.dot(&s) + t.dot(&s) / h
}
// ANCHOR_END: friction_rhs
