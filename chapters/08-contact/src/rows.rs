//! What the contact solvers see: each body as a [`BodyState`] (where it is, how it
//! moves, how hard it is to push) and each unknown as a [`Row`] — a unit push at a
//! point along a direction, whose condition watches the relative motion along the
//! same direction. Colliding contact ([`crate::impulse`]), resting contact
//! ([`crate::resting`]) and friction ([`crate::friction`]) all build on the one
//! matrix of rows, [`row_matrix`].

use nalgebra::{DMatrix, Matrix3, Vector3};
use pbm_prelim::PbmError;

type V3 = Vector3<f64>;

/// What a contact needs to know of a body: where it is, how it moves, and how hard it
/// is to push. A fixed body (the ground) has zero inverse mass and inertia.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BodyState {
    /// Centre of mass (m).
    pub x: V3,
    /// Velocity of the centre of mass (m/s).
    pub v: V3,
    /// Angular velocity (rad/s).
    pub omega: V3,
    /// 1 / mass (1/kg); 0 for a fixed body.
    pub inv_mass: f64,
    /// Inverse inertia tensor in world space, I⁻¹ = R I_body⁻¹ Rᵀ; 0 for a fixed body.
    pub inv_inertia: Matrix3<f64>,
}

impl BodyState {
    /// A body that never moves.
    pub fn fixed(x: V3) -> Self {
        BodyState {
            x,
            v: V3::zeros(),
            omega: V3::zeros(),
            inv_mass: 0.0,
            inv_inertia: Matrix3::zeros(),
        }
    }

    /// The velocity of the body's point p: v + ω × (p − x).
    pub fn point_velocity(&self, p: &V3) -> V3 {
        self.v + self.omega.cross(&(p - self.x))
    }

    /// Kinetic energy ½ m |v|² + ½ ωᵀ I ω (0 for a fixed body).
    pub fn kinetic_energy(&self) -> f64 {
        if self.inv_mass == 0.0 {
            return 0.0;
        }
        let inertia = self.inv_inertia.try_inverse().unwrap_or_else(Matrix3::zeros);
        0.5 * self.v.norm_squared() / self.inv_mass
            + 0.5 * self.omega.dot(&(inertia * self.omega))
    }

    /// Applies impulse j at point p: Δv = j / M, Δω = I⁻¹ ((p − x) × j).
    pub fn apply_impulse(&mut self, p: &V3, j: &V3) {
        self.v += j * self.inv_mass;
        self.omega += self.inv_inertia * (p - self.x).cross(j);
    }
}

/// One unknown of the contact solve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Row {
    /// The body pushed along +`push`.
    pub a: usize,
    /// The body pushed along −`push`.
    pub b: usize,
    /// Where (m).
    pub p: V3,
    /// The direction of the row's force on a (a unit force per unit unknown), and
    /// of the relative acceleration it watches.
    pub along: V3,
    /// What the row is.
    pub role: Role,
}

/// What a row is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A normal contact force: f ≥ 0.
    Normal,
    /// A bilateral constraint force (a hinge, a pin): any sign.
    Bilateral,
    /// A tangential friction force bounded by μ times the normal force of row
    /// `normal`.
    Tangent {
        /// The index of the row holding the contact's normal force.
        normal: usize,
    },
    /// Friction of a whole face (sequential impulses, the way production engines
    /// solve it): a tangent row at the centre of the face's contacts, bounded by μ
    /// times the sum of the normal impulses of rows `first..first + count`.
    Face {
        /// The first of the face's normal rows.
        first: usize,
        /// How many normal rows the face has.
        count: usize,
    },
    /// The face's twist: its relative turning about the normal (`along`), at the
    /// face's centre (`p`), bounded by μ Σ λₖ rₖ over its normal rows k, with rₖ the
    /// distance of row k's point from the centre.
    Twist {
        /// The first of the face's normal rows.
        first: usize,
        /// How many normal rows the face has.
        count: usize,
    },
}

// ANCHOR: bounds
/// The bounds of a row with `role`, for the impulses (or forces) `lambda` of the
/// normal rows so far: a normal row pushes only ([0, ∞)), a bilateral row either
/// way, a tangent row at most μ times its normal row's (the friction pyramid), a
/// face's tangent row μ times the sum of the face's normal rows, and its twist row
/// μ Σ λₖ rₖ, with `levers` holding each normal row's rₖ ([`twist_levers`]).
pub fn row_bounds(
    role: Role,
    lambda: &[f64],
    (mu, levers): (f64, &[f64]),
) -> (f64, f64) {
    let limit = match role {
        Role::Normal => return (0.0, f64::INFINITY),
        Role::Bilateral => return (f64::NEG_INFINITY, f64::INFINITY),
        Role::Tangent { normal } => mu * lambda[normal].max(0.0),
        Role::Face { first, count } => {
            mu * lambda[first..first + count].iter().map(|l| l.max(0.0)).sum::<f64>()
        }
        Role::Twist { first, count } => {
            let normals = lambda[first..first + count].iter();
            mu * normals
                .zip(&levers[first..])
                .map(|(l, r)| l.max(0.0) * r)
                .sum::<f64>()
        }
    };
    (-limit, limit)
}
// ANCHOR_END: bounds

/// Each normal row's lever rₖ about its face's twist row: the distance of its point
/// from the twist row's axis (the face's normal through its centre), measured in the
/// face's plane; zero for rows of no face.
pub fn twist_levers(rows: &[Row]) -> Vec<f64> {
    let mut levers = vec![0.0; rows.len()];
    for twist in rows {
        if let Role::Twist { first, count } = twist.role {
            for (r, normal) in
                levers[first..first + count].iter_mut().zip(&rows[first..])
            {
                let arm = normal.p - twist.p;
                *r = (arm - twist.along * twist.along.dot(&arm)).norm();
            }
        }
    }
    levers
}

// ANCHOR: row_matrix
/// A_ij: row i's relative acceleration per unit of row j's unknown, j pushing +u_j
/// on a_j and −u_j on b_j at p_j. A body k that row j pushes with sign s changes
/// the acceleration of its point p by s (u_j / M + (I⁻¹ (r_j × u_j)) × r), with
/// r_j = p_j − x and r = p − x; row i reads u_i · (that on a_i − that on b_i).
///
/// Rows that share no body do not interact, so A is assembled body by body: with
/// J_ik = (s u_i, s r_i × u_i), row i's reading of body k's motion, each moving body
/// adds J_ik · M_k⁻¹ J_jk to A_ij for every pair of rows that push it. The cost is
/// the sum over bodies of the square of their rows, not the square of all rows.
pub fn row_matrix(bodies: &[BodyState], rows: &[Row]) -> DMatrix<f64> {
    let mut on_body: Vec<Vec<Jacobian>> = vec![Vec::new(); bodies.len()];
    for (i, row) in rows.iter().enumerate() {
        for (k, sign) in [(row.a, 1.0), (row.b, -1.0)] {
            let body = &bodies[k];
            if body.inv_mass == 0.0 && body.inv_inertia == Matrix3::zeros() {
                continue; // a fixture: nothing moves it
            }
            let (u, w) =
                (row.along * sign, (row.p - body.x).cross(&row.along) * sign);
            let (mu, iw) = (u * body.inv_mass, body.inv_inertia * w);
            on_body[k].push(Jacobian { row: i, u, w, mu, iw });
        }
    }
    let m = rows.len();
    let mut a = DMatrix::zeros(m, m);
    for list in &on_body {
        for (x, ji) in list.iter().enumerate() {
            for jj in &list[x..] {
                let entry = ji.u.dot(&jj.mu) + ji.w.dot(&jj.iw);
                a[(ji.row, jj.row)] += entry;
                if ji.row != jj.row {
                    a[(jj.row, ji.row)] += entry;
                }
            }
        }
    }
    a
}
// ANCHOR_END: row_matrix

/// For each row, the first and last row it shares a moving body with (itself
/// included): outside that span its column of [`row_matrix`] is zero. With the rows
/// listed body pair by body pair, as contacts are found, a stack's spans are a few
/// contacts wide however tall it is.
pub fn row_spans(bodies: &[BodyState], rows: &[Row]) -> Vec<(usize, usize)> {
    let moving = |k: usize| {
        let body = &bodies[k];
        !(body.inv_mass == 0.0 && body.inv_inertia == Matrix3::zeros())
    };
    let mut on_body = vec![(usize::MAX, 0); bodies.len()];
    for (i, row) in rows.iter().enumerate() {
        for k in [row.a, row.b].into_iter().filter(|&k| moving(k)) {
            on_body[k] = (on_body[k].0.min(i), on_body[k].1.max(i));
        }
    }
    rows.iter()
        .enumerate()
        .map(|(i, row)| {
            [row.a, row.b]
                .into_iter()
                .filter(|&k| moving(k))
                .fold((i, i), |(lo, hi), k| {
                    (lo.min(on_body[k].0), hi.max(on_body[k].1))
                })
        })
        .collect()
}

/// Row `row`'s reading of one body's motion, (u, w) = (s u_i, s r × u_i), and the
/// body's response to a unit of its force, (M⁻¹ u, I⁻¹ w).
#[derive(Debug, Clone, Copy)]
struct Jacobian {
    row: usize,
    u: V3,
    w: V3,
    mu: V3,
    iw: V3,
}

// ANCHOR: find_islands
/// The islands of `rows` among `n` moving bodies: the rows of each group of bodies
/// joined through rows between moving bodies, in the order of their first rows, each
/// list of rows in order. Forces in one island cannot change accelerations in
/// another, so the islands' LCPs are independent: solved apart, they cost the sum of
/// their sizes cubed, not the cube of their sum.
pub fn islands(n: usize, rows: &[Row]) -> Vec<Vec<usize>> {
    // Union–find over the moving bodies (indices from n on are fixtures and the
    // world, which join nothing).
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut k: usize) -> usize {
        while parent[k] != k {
            parent[k] = parent[parent[k]];
            k = parent[k];
        }
        k
    }
    for row in rows {
        if row.a < n && row.b < n {
            let (ra, rb) = (root(&mut parent, row.a), root(&mut parent, row.b));
            if ra != rb {
                parent[ra.max(rb)] = ra.min(rb);
            }
        }
    }
    let mut order: Vec<usize> = Vec::new();
    let mut members: Vec<Vec<usize>> = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let body = if row.a < n { row.a } else { row.b };
        let r = root(&mut parent, body);
        match order.iter().position(|&o| o == r) {
            Some(k) => members[k].push(i),
            None => {
                order.push(r);
                members.push(vec![i]);
            }
        }
    }
    members
}
// ANCHOR_END: find_islands

// ANCHOR: island_rows
/// The rows of the island `members`, each friction row pointing at its normal's
/// new index. (A friction row joins the same two bodies as its normal, so the two
/// are always in one island.)
pub fn island_rows(rows: &[Row], members: &[usize]) -> Result<Vec<Row>, PbmError> {
    // Where each member row lands in the island (one pass, not a search per row).
    let mut local = vec![usize::MAX; rows.len()];
    for (k, &i) in members.iter().enumerate() {
        local[i] = k;
    }
    members
        .iter()
        .map(|&i| {
            let mut row = rows[i];
            if let Role::Tangent { normal } = row.role {
                let at = local.get(normal).copied().filter(|&k| k != usize::MAX);
                let at = at.ok_or_else(|| {
                    let why = format!("friction row {i} left its normal {normal}");
                    PbmError::degenerate("contact islands", why)
                })?;
                row.role = Role::Tangent { normal: at };
            }
            Ok(row)
        })
        .collect()
}
// ANCHOR_END: island_rows

/// For tests: a unit cube of 1 kg (I⁻¹ = 6 / kg m² about every axis) at `x`,
/// moving at `v` and turning at `omega`.
#[cfg(test)]
pub(crate) fn unit_cube(x: V3, v: V3, omega: V3) -> BodyState {
    BodyState {
        x,
        v,
        omega,
        inv_mass: 1.0,
        inv_inertia: nalgebra::Matrix3::identity() * 6.0,
    }
}

/// For tests: pushes onto `rows` the rows of a unit square face of body `a` resting
/// on body `b` at height `y`, its corners at (±0.5, y, ±0.5), normal +y; each corner
/// a normal row and, `with_friction`, two tangent rows along x and z.
#[cfg(test)]
pub(crate) fn push_square_face(
    rows: &mut Vec<Row>,
    (a, b): (usize, usize),
    y: f64,
    with_friction: bool,
) {
    for (x, z) in [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)] {
        let p = V3::new(x, y, z);
        let normal = rows.len();
        rows.push(Row { a, b, p, along: V3::y(), role: Role::Normal });
        if with_friction {
            for along in [V3::x(), V3::z()] {
                rows.push(Row { a, b, p, along, role: Role::Tangent { normal } });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three moving bodies and a fixture, and rows between them in every direction,
    /// listed pair by pair.
    fn scene() -> (Vec<BodyState>, Vec<Row>) {
        let body = |x: V3, m: f64, spin: f64| BodyState {
            x,
            v: V3::zeros(),
            omega: V3::new(0.0, spin, 0.0),
            inv_mass: 1.0 / m,
            inv_inertia: Matrix3::new(2.0, 0.1, 0.0, 0.1, 3.0, 0.2, 0.0, 0.2, 1.5)
                / m,
        };
        let bodies = vec![
            body(V3::new(0.0, 0.5, 0.0), 1.0, 0.3),
            body(V3::new(0.1, 1.5, 0.0), 2.0, -0.2),
            body(V3::new(0.0, 2.5, 0.2), 0.5, 0.0),
            BodyState::fixed(V3::zeros()),
        ];
        let dirs = [V3::y(), V3::x(), V3::new(0.3, 0.9, -0.2).normalize()];
        let mut rows = Vec::new();
        for (a, b, y) in [(0, 3, 0.0), (1, 0, 1.0), (2, 1, 2.0)] {
            for (k, along) in dirs.iter().enumerate() {
                let p = V3::new(0.2 * k as f64 - 0.2, y, 0.1 * k as f64);
                rows.push(Row { a, b, p, along: *along, role: Role::Normal });
            }
        }
        (bodies, rows)
    }

    #[test]
    fn each_column_is_the_change_of_velocity_per_unit_impulse_and_zero_off_its_span()
    {
        let (bodies, rows) = scene();
        let a = row_matrix(&bodies, &rows);
        let spans = row_spans(&bodies, &rows);
        let read = |bodies: &[BodyState], r: &Row| {
            r.along.dot(
                &(bodies[r.a].point_velocity(&r.p)
                    - bodies[r.b].point_velocity(&r.p)),
            )
        };
        for (j, rj) in rows.iter().enumerate() {
            // Independently: apply row j's unit impulse and read every row's velocity.
            let mut pushed = bodies.clone();
            pushed[rj.a].apply_impulse(&rj.p, &rj.along);
            pushed[rj.b].apply_impulse(&rj.p, &(-rj.along));
            for (i, ri) in rows.iter().enumerate() {
                let expected = read(&pushed, ri) - read(&bodies, ri);
                assert!((a[(i, j)] - expected).abs() < 1e-12, "A[{i}, {j}]");
                assert_eq!(a[(i, j)], a[(j, i)], "symmetric by construction");
                let (first, last) = spans[j];
                if i < first || i > last {
                    assert_eq!(
                        a[(i, j)],
                        0.0,
                        "A[{i}, {j}] outside span {first}..={last}"
                    );
                }
            }
        }
        // The ground contact's rows share nothing with the top pair's.
        assert_eq!(spans[0], (0, 5));
        assert_eq!(spans[8], (3, 8));
    }

    #[test]
    fn islands_join_through_moving_bodies_only() {
        // Five moving bodies (0–4); 5 is a fixture and 6 the world. Rows 0–1, 1–3
        // and 3–5 join 0, 1 and 3; 2 touches only the fixture, and 4 is pinned to
        // the world: three islands, in the order of their first rows, even though
        // 2 and 3 both touch fixture 5.
        let row = |a: usize, b: usize| Row {
            a,
            b,
            p: V3::zeros(),
            along: V3::x(),
            role: Role::Normal,
        };
        let rows = [row(2, 5), row(0, 1), row(4, 6), row(1, 3), row(3, 5), row(5, 2)];
        assert_eq!(islands(5, &rows), vec![vec![0, 5], vec![1, 3, 4], vec![2]]);
        assert!(islands(5, &[]).is_empty());
    }

    #[test]
    fn a_twist_lever_is_the_distance_from_the_axis_in_the_faces_plane() {
        // A face with normal +y, its centre at the origin: corners at 0.5 m across,
        // one raised 0.3 m off the plane (a clipped or tilted point). The raise turns
        // nothing about the normal: every lever is the in-plane 0.5 m.
        let mut rows = Vec::new();
        for (x, y) in [(0.5, 0.0), (-0.5, 0.3)] {
            let p = V3::new(x, y, 0.0);
            rows.push(Row { a: 0, b: 1, p, along: V3::y(), role: Role::Normal });
        }
        let twist = Role::Twist { first: 0, count: 2 };
        rows.push(Row { a: 0, b: 1, p: V3::zeros(), along: V3::y(), role: twist });
        let levers = twist_levers(&rows);
        assert!((levers[0] - 0.5).abs() < 1e-15 && (levers[1] - 0.5).abs() < 1e-15);
        assert_eq!(levers[2], 0.0);
    }
}
