//! Colliding contact: two bodies meeting at a point with velocities that would carry
//! them into each other, stopped (and bounced) in an instant by an impulse along the
//! contact normal (the course notes, rigid-body section 8).

use crate::rows::{BodyState, Role, Row, row_matrix};
use nalgebra::{DMatrix, DVector, Vector3};
use pbm_prelim::PbmError;

type V3 = Vector3<f64>;

/// A contact point between bodies `a` and `b`: the normal points out of b, towards a.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Contact {
    /// The body the normal points towards.
    pub a: usize,
    /// The body the normal points out of.
    pub b: usize,
    /// The contact point (m).
    pub p: V3,
    /// Unit normal.
    pub n: V3,
}

/// The relative velocity of a and b at the contact along the normal: negative when
/// they are coming together (colliding), zero when resting, positive when parting.
pub fn relative_velocity(bodies: &[BodyState], c: &Contact) -> f64 {
    c.n.dot(&(bodies[c.a].point_velocity(&c.p) - bodies[c.b].point_velocity(&c.p)))
}

// ANCHOR: impulse
/// The magnitude of the impulse j n that makes the relative normal velocity
/// v⁺ = −e v⁻ (e the coefficient of restitution):
///
/// j = −(1 + e) v⁻ / (1/M_a + 1/M_b + k_a + k_b),
///
/// with k = n · ((I⁻¹ (r × n)) × r) and r = p − x for each body.
pub fn impulse_magnitude(
    bodies: &[BodyState],
    c: &Contact,
    restitution: f64,
) -> Result<f64, PbmError> {
    if !(0.0..=1.0).contains(&restitution) {
        let why = format!("{restitution}: it must lie in [0, 1]");
        return Err(PbmError::invalid("coefficient of restitution", why));
    }
    let (a, b) = (&bodies[c.a], &bodies[c.b]);
    let (ra, rb) = (c.p - a.x, c.p - b.x);
    let term = |body: &BodyState, r: &V3| {
        c.n.dot(&(body.inv_inertia * r.cross(&c.n)).cross(r))
    };
    let denominator = a.inv_mass + b.inv_mass + term(a, &ra) + term(b, &rb);
    if denominator <= 0.0 {
        let why = "both bodies are fixed: nothing can move".to_string();
        return Err(PbmError::degenerate("collision impulse", why));
    }
    Ok(-(1.0 + restitution) * relative_velocity(bodies, c) / denominator)
}
// ANCHOR_END: impulse

/// Applies the collision impulse at `c` if the bodies are colliding there (relative
/// normal velocity below −`threshold`); returns the impulse magnitude applied.
pub fn collide(
    bodies: &mut [BodyState],
    c: &Contact,
    restitution: f64,
    threshold: f64,
) -> Result<f64, PbmError> {
    if relative_velocity(bodies, c) >= -threshold {
        return Ok(0.0);
    }
    let j = impulse_magnitude(bodies, c, restitution)?;
    let force = c.n * j;
    bodies[c.a].apply_impulse(&c.p, &force);
    bodies[c.b].apply_impulse(&c.p, &(-force));
    Ok(j)
}

// ANCHOR: matrix
/// The matrix A with A_ij = the change in contact i's relative normal velocity per
/// unit impulse along contact j's normal (+n_j on a_j, −n_j on b_j). The same matrix
/// relates contact forces to relative normal accelerations in resting contact. It
/// is the matrix of rows that push and measure along the normals, written once in
/// [`crate::rows::row_matrix`] for rows along any direction.
pub fn contact_matrix(bodies: &[BodyState], contacts: &[Contact]) -> DMatrix<f64> {
    let rows: Vec<Row> = contacts
        .iter()
        .map(|c| Row { a: c.a, b: c.b, p: c.p, along: c.n, role: Role::Normal })
        .collect();
    row_matrix(bodies, &rows)
}
// ANCHOR_END: matrix

/// How a set of simultaneous contacts was resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolution {
    /// The impulse magnitude applied at each contact, in total.
    pub impulses: Vec<f64>,
    /// Passes over the contacts (1 for the simultaneous solve).
    pub passes: usize,
}

// ANCHOR: sequential
/// Resolves several contacts one at a time, in the given order, pass after pass,
/// until none is colliding (relative normal velocity below −`threshold`). The answer
/// depends on the order.
pub fn sequential(
    bodies: &mut [BodyState],
    contacts: &[Contact],
    order: &[usize],
    restitution: f64,
    threshold: f64,
) -> Result<Resolution, PbmError> {
    let mut impulses = vec![0.0; contacts.len()];
    for passes in 1..=1000 {
        let mut any = false;
        for &i in order {
            let j = collide(bodies, &contacts[i], restitution, threshold)?;
            impulses[i] += j;
            any |= j > 0.0;
        }
        if !any {
            return Ok(Resolution { impulses, passes });
        }
    }
    let why = "contacts still colliding after 1,000 passes".to_string();
    Err(PbmError::degenerate("sequential impulses", why))
}
// ANCHOR_END: sequential

// ANCHOR: simultaneous
/// Resolves the colliding contacts together: impulses j ≥ 0 with
/// v⁺ + e v⁻ = A j + (1 + e) v⁻ ≥ 0 and complementary to j, an LCP (for contacts
/// already parting, v⁻ ≥ 0, the target is only v⁺ ≥ 0). Symmetric contacts get
/// symmetric impulses, whatever their order.
pub fn simultaneous(
    bodies: &mut [BodyState],
    contacts: &[Contact],
    restitution: f64,
) -> Result<Resolution, PbmError> {
    let a = contact_matrix(bodies, contacts);
    let b = DVector::from_iterator(
        contacts.len(),
        contacts.iter().map(|c| {
            let v = relative_velocity(bodies, c);
            if v < 0.0 { (1.0 + restitution) * v } else { v }
        }),
    );
    let solution = crate::lcp::solve(&a, &b)?;
    for (c, &j) in contacts.iter().zip(solution.f.iter()) {
        let force = c.n * j;
        bodies[c.a].apply_impulse(&c.p, &force);
        bodies[c.b].apply_impulse(&c.p, &(-force));
    }
    Ok(Resolution { impulses: solution.f.iter().copied().collect(), passes: 1 })
}
// ANCHOR_END: simultaneous

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rows::{BodyState, unit_cube};
    use nalgebra::Matrix3;

    /// A 2 × 1 × 0.5 m box of 3 kg, tumbling down onto the ground at one corner.
    fn falling_box() -> (Vec<BodyState>, Contact) {
        let (m, (w, h, d)) = (3.0, (2.0, 1.0, 0.5));
        let inertia = Matrix3::from_diagonal(&V3::new(
            m * (h * h + d * d) / 12.0,
            m * (w * w + d * d) / 12.0,
            m * (w * w + h * h) / 12.0,
        ));
        let body = BodyState {
            x: V3::new(0.0, 0.0, 0.8),
            v: V3::new(0.3, -0.2, -2.0),
            omega: V3::new(0.5, 1.5, -0.7),
            inv_mass: 1.0 / m,
            inv_inertia: inertia.try_inverse().unwrap(),
        };
        let ground = BodyState::fixed(V3::zeros());
        let contact = Contact { a: 0, b: 1, p: V3::new(0.9, 0.4, 0.0), n: V3::z() };
        (vec![body, ground], contact)
    }

    #[test]
    fn an_impact_loses_half_one_minus_epsilon_squared_m_eff_v_squared() {
        // ΔE = −½ (1 − e²) m_eff v⁻², with 1/m_eff = 1/M + (r × n)ᵀ I⁻¹ (r × n)
        // against the ground, from the energies of v and ω before and after.
        let (bodies, c) = falling_box();
        let body = &bodies[0];
        let rn = (c.p - body.x).cross(&c.n);
        let m_eff = 1.0 / (body.inv_mass + rn.dot(&(body.inv_inertia * rn)));
        let v = relative_velocity(&bodies, &c);
        for eps in [0.0, 0.3, 0.7, 1.0] {
            let mut after = bodies.clone();
            collide(&mut after, &c, eps, 0.0).unwrap();
            let lost = body.kinetic_energy() - after[0].kinetic_energy();
            let predicted = 0.5 * (1.0 - eps * eps) * m_eff * v * v;
            assert!(
                (lost - predicted).abs() < 1e-12 * body.kinetic_energy(),
                "e = {eps}: lost {lost} J, predicted {predicted} J"
            );
        }
    }

    #[test]
    fn restitution_sets_the_velocity_after_and_energy_never_grows() {
        let (bodies, c) = falling_box();
        let before = relative_velocity(&bodies, &c);
        assert!(before < 0.0);
        let energy = bodies[0].kinetic_energy();
        for eps in [0.0, 0.25, 0.5, 0.75, 1.0] {
            let mut after = bodies.clone();
            let j = collide(&mut after, &c, eps, 0.0).unwrap();
            assert!(j > 0.0);
            let v = relative_velocity(&after, &c);
            assert!(
                (v + eps * before).abs() < 1e-12,
                "e = {eps}: {v} vs {}",
                -eps * before
            );
            let e = after[0].kinetic_energy();
            if eps == 1.0 {
                assert!((e - energy).abs() < 1e-12 * energy, "{e} vs {energy}");
            } else {
                assert!(e < energy, "e = {eps}: {e} ≥ {energy}");
            }
        }
    }

    #[test]
    fn bad_restitution_and_two_fixed_bodies_are_errors() {
        let (bodies, c) = falling_box();
        assert!(impulse_magnitude(&bodies, &c, 1.5).is_err());
        assert!(impulse_magnitude(&bodies, &c, -0.1).is_err());
        let fixed = vec![BodyState::fixed(V3::zeros()), BodyState::fixed(V3::x())];
        let e = impulse_magnitude(&fixed, &c, 0.5).unwrap_err();
        assert!(e.to_string().contains("both bodies are fixed"), "{e}");
    }

    /// A unit cube of 1 kg landing flat on the ground at 1 m/s: four corner contacts.
    fn flat_landing() -> (Vec<BodyState>, Vec<Contact>) {
        let body =
            unit_cube(V3::new(0.0, 0.0, 0.5), V3::new(0.0, 0.0, -1.0), V3::zeros());
        let corners = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)];
        let contacts = corners
            .iter()
            .map(|&(x, y)| Contact { a: 0, b: 1, p: V3::new(x, y, 0.0), n: V3::z() })
            .collect();
        (vec![body, BodyState::fixed(V3::zeros())], contacts)
    }

    #[test]
    fn the_matrix_is_the_velocity_change_per_unit_impulse() {
        let (bodies, contacts) = flat_landing();
        let a = contact_matrix(&bodies, &contacts);
        for j in 0..contacts.len() {
            let mut pushed = bodies.clone();
            let c = &contacts[j];
            pushed[c.a].apply_impulse(&c.p, &c.n);
            for (i, ci) in contacts.iter().enumerate() {
                let change =
                    relative_velocity(&pushed, ci) - relative_velocity(&bodies, ci);
                assert!((a[(i, j)] - change).abs() < 1e-12, "A[{i},{j}]");
            }
        }
        assert!((a.clone() - a.transpose()).amax() < 1e-12);
    }

    #[test]
    fn notes_errata_8_14_crosses_only_the_turning_part_with_r() {
        // A 2 kg body with an anisotropic inertia, hit with j n at a point off its centre.
        let body = BodyState {
            x: V3::new(0.1, 0.2, -0.3),
            v: V3::new(0.5, -1.0, 0.25),
            omega: V3::new(0.3, 0.1, -0.2),
            inv_mass: 0.5,
            inv_inertia: Matrix3::from_diagonal(&V3::new(2.0, 5.0, 3.0)),
        };
        let (p, n, j) = (V3::new(0.6, -0.1, 0.2), V3::new(0.0, 0.6, 0.8), 1.7);
        let r = p - body.x;
        let mut hit = body;
        hit.apply_impulse(&p, &(n * j));
        let change = hit.point_velocity(&p) - body.point_velocity(&p);
        // j n / M + (j I⁻¹ (r × n)) × r, as the middle line of 8-13 has it.
        let right =
            n * (j * body.inv_mass) + (body.inv_inertia * r.cross(&n) * j).cross(&r);
        // The form of 8-13's last line and 8-14, the linear part crossed with r too.
        let printed =
            (n * body.inv_mass + body.inv_inertia * r.cross(&n)).cross(&r) * j;
        assert!((change - right).norm() < 1e-12, "{change} vs {right}");
        assert!((change - printed).norm() > 0.1, "{change} vs {printed}");
        // Even along n they differ, by j/M: (n/M) × r is perpendicular to n, so the
        // printed form loses the linear part's push along n, which 8-15 then has again.
        assert!((change - printed).dot(&n).abs() > 0.1 * j * body.inv_mass);
    }

    #[test]
    fn one_at_a_time_the_order_matters_and_together_it_does_not() {
        let (bodies, contacts) = flat_landing();
        let mut spins = Vec::new();
        for order in [[0, 1, 2, 3], [2, 0, 3, 1]] {
            let mut b = bodies.clone();
            sequential(&mut b, &contacts, &order, 0.5, 1e-12).unwrap();
            assert!(contacts.iter().all(|c| relative_velocity(&b, c) >= -1e-12));
            spins.push(b[0].omega);
        }
        // One at a time leaves the cube spinning, differently for each order.
        assert!(
            spins[0].norm() > 1e-3 && (spins[0] - spins[1]).norm() > 1e-3,
            "{spins:?}"
        );
        // Together: the symmetric answer, straight up at 0.5 m/s, no spin.
        let mut b = bodies.clone();
        let r = simultaneous(&mut b, &contacts, 0.5).unwrap();
        assert!(b[0].omega.norm() < 1e-12, "{}", b[0].omega);
        assert!((b[0].v - V3::new(0.0, 0.0, 0.5)).norm() < 1e-12, "{}", b[0].v);
        assert!((r.impulses.iter().sum::<f64>() - 1.5).abs() < 1e-12);
    }
}
