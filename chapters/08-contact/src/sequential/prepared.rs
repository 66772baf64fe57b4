//! A row made ready for the sweeps: the bodies' velocities it reads ([`Velocity`]),
//! its Jacobian and what a unit impulse along it does ([`Prepared`]), and the
//! velocity it must reach ([`Targets`]).

use crate::rows::{BodyState, Role, Row};
use nalgebra::Vector3;

type V3 = Vector3<f64>;

/// The velocity a row's relative motion must reach (m/s), for every row: a normal
/// row's velocity must be at least it, a tangent or bilateral row's equal to it.
pub type Targets = [f64];

/// What a sweep reads and changes of a body: its velocity (m/s) and angular
/// velocity (rad/s). A fixed body's stay zero: nothing it is pushed with moves it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Velocity {
    /// Velocity of the centre of mass (m/s).
    pub v: V3,
    /// Angular velocity (rad/s).
    pub omega: V3,
}

/// The bodies' velocities, in the same order.
pub fn velocities(bodies: &[BodyState]) -> Vec<Velocity> {
    bodies.iter().map(|b| Velocity { v: b.v, omega: b.omega }).collect()
}

// ANCHOR: prepared
/// A row made ready for the sweeps. Its Jacobian J reads the row's relative
/// velocity off its two bodies, J v = n · (v_a − v_b) + (r_a × n) · ω_a −
/// (r_b × n) · ω_b, with r the contact point from each body's centre; M⁻¹ Jᵀ is
/// what a unit impulse along it does to them, n / m and I⁻¹ (r × n) on a, the
/// negatives on b. Both are computed once before the sweeps, with 1 / Aᵢᵢ (its
/// "effective mass"): a sweep then reads and pushes a row with a few dot products,
/// no cross products or inertia tensors.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prepared {
    /// The body pushed along +n, and the one pushed along −n.
    pub bodies: (usize, usize),
    /// The row's direction n.
    pub n: V3,
    /// The angular parts of J: r_a × n and r_b × n.
    pub arms: (V3, V3),
    /// The inverse masses, 1 / m_a and 1 / m_b (1/kg).
    pub inv_masses: (f64, f64),
    /// The turns a unit impulse gives: I_a⁻¹ (r_a × n) and I_b⁻¹ (r_b × n).
    pub turns: (V3, V3),
    /// 1 / Aᵢᵢ, the impulse per unit of velocity along the row (kg).
    pub inverse: f64,
}
// ANCHOR_END: prepared

impl Prepared {
    /// Row `row` prepared at the bodies' present positions.
    /// A twist row ([`Role::Twist`]) reads and turns only: its J is (0, n, 0, −n),
    /// the relative angular velocity about the face's normal n.
    pub fn new(bodies: &[BodyState], row: &Row) -> Self {
        let (a, b) = (&bodies[row.a], &bodies[row.b]);
        let (n, arms) = match row.role {
            Role::Twist { .. } => (V3::zeros(), (row.along, row.along)),
            _ => (
                row.along,
                ((row.p - a.x).cross(&row.along), (row.p - b.x).cross(&row.along)),
            ),
        };
        let turns = (a.inv_inertia * arms.0, b.inv_inertia * arms.1);
        let inv_masses = (a.inv_mass, b.inv_mass);
        let along = n.norm_squared() * (inv_masses.0 + inv_masses.1);
        let diagonal = along + arms.0.dot(&turns.0) + arms.1.dot(&turns.1);
        Prepared {
            bodies: (row.a, row.b),
            n,
            arms,
            inv_masses,
            turns,
            inverse: 1.0 / diagonal.max(f64::MIN_POSITIVE),
        }
    }

    /// v += M⁻¹ Jᵀ `impulse` on the bodies' velocities `vel`.
    pub fn push(&self, vel: &mut [Velocity], impulse: f64) {
        let (a, b) = self.bodies;
        let mut pair = [vel[a], vel[b]];
        self.push_pair(&mut pair, impulse);
        (vel[a], vel[b]) = (pair[0], pair[1]);
    }

    /// J v: the row's relative velocity (m/s), from the bodies' velocities `vel`.
    pub fn velocity(&self, vel: &[Velocity]) -> f64 {
        self.velocity_pair(&[vel[self.bodies.0], vel[self.bodies.1]])
    }

    // ANCHOR: read_push
    /// J v from the velocities of a and b, `pair`: n · (v_a − v_b) + (r_a × n) · ω_a
    /// − (r_b × n) · ω_b (m/s).
    pub(super) fn velocity_pair(&self, [a, b]: &[Velocity; 2]) -> f64 {
        self.n.dot(&(a.v - b.v)) + self.arms.0.dot(&a.omega)
            - self.arms.1.dot(&b.omega)
    }

    /// v += M⁻¹ Jᵀ `impulse` on a and b's velocities `pair`: the impulse along +n on
    /// a, −n on b.
    pub(super) fn push_pair(&self, [a, b]: &mut [Velocity; 2], impulse: f64) {
        let (ma, mb) = self.inv_masses;
        a.v += self.n * (ma * impulse);
        a.omega += self.turns.0 * impulse;
        b.v -= self.n * (mb * impulse);
        b.omega -= self.turns.1 * impulse;
    }
    // ANCHOR_END: read_push

    /// A_ij = J_i M⁻¹ J_jᵀ: this row's change of velocity per unit impulse on row
    /// `other`, through every body the two share.
    pub fn coupling(&self, other: &Prepared) -> f64 {
        let mine = [(self.bodies.0, 1.0, 0), (self.bodies.1, -1.0, 1)];
        let theirs = [(other.bodies.0, 1.0, 0), (other.bodies.1, -1.0, 1)];
        let pick = |p: &Prepared, side: usize| match side {
            0 => (p.arms.0, p.turns.0, p.inv_masses.0),
            _ => (p.arms.1, p.turns.1, p.inv_masses.1),
        };
        let mut sum = 0.0;
        for &(k, s, side) in &mine {
            for &(l, t, other_side) in &theirs {
                if k == l {
                    let (arm, _, _) = pick(self, side);
                    let (_, turn, inv_mass) = pick(other, other_side);
                    sum += s * t * (inv_mass * self.n.dot(&other.n) + arm.dot(&turn));
                }
            }
        }
        sum
    }
}

/// Row `row`'s relative velocity along its direction, from the bodies' point
/// velocities: u · (v_a(p) − v_b(p)).
pub fn row_velocity(bodies: &[BodyState], row: &Row) -> f64 {
    let (a, b) = (&bodies[row.a], &bodies[row.b]);
    row.along.dot(&(a.point_velocity(&row.p) - b.point_velocity(&row.p)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rows::row_matrix;
    use nalgebra::Matrix3;

    #[test]
    fn prepared_rows_read_push_and_couple_as_the_assembled_matrix_says() {
        // Rows on two free bodies and a fixture, sharing bodies every which way,
        // against chapter 8's row_matrix (assembled body by body) and the bodies'
        // own point velocities.
        let body = |x: V3, m: f64| BodyState {
            x,
            v: V3::new(0.3, -1.0, 0.2),
            omega: V3::new(0.1, 0.4, -0.7),
            inv_mass: 1.0 / m,
            inv_inertia: Matrix3::new(2.0, 0.3, 0.1, 0.3, 5.0, -0.2, 0.1, -0.2, 3.0),
        };
        let bodies = vec![
            body(V3::new(0.0, 0.5, 0.0), 1.0),
            body(V3::new(0.2, 1.5, -0.1), 2.5),
            BodyState::fixed(V3::zeros()),
        ];
        let row = |a, b, p: V3, along: V3| Row {
            a,
            b,
            p,
            along: along.normalize(),
            role: Role::Normal,
        };
        let rows = [
            row(0, 2, V3::new(0.5, 0.0, 0.5), V3::y()),
            row(1, 0, V3::new(-0.4, 1.0, 0.3), V3::new(0.1, 1.0, 0.0)),
            row(0, 1, V3::new(0.3, 1.0, -0.2), V3::new(1.0, 0.2, 0.3)),
            row(2, 1, V3::new(0.1, 1.2, 0.4), V3::new(-0.3, 0.5, 1.0)),
        ];
        let a = row_matrix(&bodies, &rows);
        let prepared: Vec<Prepared> =
            rows.iter().map(|r| Prepared::new(&bodies, r)).collect();
        let vel = velocities(&bodies);
        for (i, p) in prepared.iter().enumerate() {
            assert!(
                (p.velocity(&vel) - row_velocity(&bodies, &rows[i])).abs() < 1e-14
            );
            assert!((p.inverse * a[(i, i)] - 1.0).abs() < 1e-12, "row {i}");
            let mut pushed = vel.clone();
            p.push(&mut pushed, 1.0);
            for (j, q) in prepared.iter().enumerate() {
                let change = q.velocity(&pushed) - q.velocity(&vel);
                assert!((change - a[(j, i)]).abs() < 1e-12, "A[{j}, {i}]: {change}");
                assert!(
                    (q.coupling(p) - a[(j, i)]).abs() < 1e-12,
                    "coupling {j}, {i}"
                );
            }
        }
    }
}
