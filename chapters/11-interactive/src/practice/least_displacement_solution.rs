// The book's answer to `interactive/least-displacement`, as `pbm practice solution`
// prints it. The world solves the same problem for every row of the bodies joined to
// a deep contact at once (`least_displacement` and `displace`, `world/correct.rs`).

use nalgebra::Vector2;
use pbm_rigid::body2d::RigidBody2;

// ANCHOR: least_displacement
/// f = max(0, −e/w), w = Σ 1/m + (r × n)²/I: a pushed by f n, b by −f n.
pub fn least_displacement(
    a: &RigidBody2,
    b: &RigidBody2,
    p: &Vector2<f64>,
    n: &Vector2<f64>,
    gap: f64,
) -> [(Vector2<f64>, f64); 2] {
    use pbm_rigid::body2d::cross2;
    // The lever of a push along n at p on each body, and the row's entry of A.
    let lever_a = cross2(&(p - a.position()), n);
    let lever_b = cross2(&(p - b.position()), n);
    let share = |body: &RigidBody2, lever: f64| {
        1.0 / body.mass() + lever * lever / body.inertia()
    };
    let w = share(a, lever_a) + share(b, lever_b);
    // One row of the LCP: w f + e ≥ 0, f ≥ 0, f (w f + e) = 0.
    let f = if gap < 0.0 { -gap / w } else { 0.0 };
    [
        (n * (f / a.mass()), lever_a * f / a.inertia()),
        (-n * (f / b.mass()), -lever_b * f / b.inertia()),
    ]
}
// ANCHOR_END: least_displacement
