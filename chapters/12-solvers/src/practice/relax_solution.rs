// The book's answer to `solvers/relax`, as `pbm practice solution` prints it. The
// chapter's own is `bias` and `solve` in `contact.rs`, on a whole point.

// ANCHOR: soft_step_impulse
/// The new accumulated normal impulse of one point after one pass of soft step.
pub fn soft_step_impulse(
    vn: f64,
    gap: f64,
    (mass, total): (f64, f64),
    soft: (f64, f64, f64),
    (h, max_speed, relax): (f64, f64, bool),
) -> f64 {
    let rigid = (1.0, 0.0);
    let (bias, (mass_scale, impulse_scale)) = if gap > 0.0 {
        (gap / h, rigid)
    } else if relax {
        (0.0, rigid)
    } else {
        let (beta, sm, si) = soft;
        ((beta * gap).max(-max_speed), (sm, si))
    };
    let delta = -mass * mass_scale * (vn + bias) - impulse_scale * total;
    (total + delta).max(0.0)
}
// ANCHOR_END: soft_step_impulse
