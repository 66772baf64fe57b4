//! Constraint objects ("Constrained Dynamics", section 4): each one knows its own scalar
//! constraint functions C and how to evaluate C, Ċ and its blocks of J = ∂C/∂q and
//! J̇ = ∂Ċ/∂q. Models are built by snapping them together, as springs were in chapter 2.

use crate::block_matrix::MatrixBlock;
use pbm_particles::particle::Vector;
use pbm_prelim::PbmError;

/// Where a constraint writes its evaluation: its slices of C and Ċ, and one block of J and
/// of J̇ per particle it depends on (in the order of [`Constraint::particles`]).
pub struct Rows<'a> {
    /// This constraint's rows of C.
    pub c: &'a mut [f64],
    /// This constraint's rows of Ċ.
    pub c_dot: &'a mut [f64],
    /// ∂C/∂x_k for each of its particles k.
    pub j: &'a mut [MatrixBlock],
    /// ∂Ċ/∂x_k for each of its particles k.
    pub j_dot: &'a mut [MatrixBlock],
}

// ANCHOR: constraint
/// A constraint C(x_a, x_b, …) = 0 on a few particles.
pub trait Constraint<const D: usize>: Send + Sync {
    /// What it is, for error messages and reports.
    fn name(&self) -> &'static str;
    /// How many scalar constraints it contributes (its slice of C).
    fn rows(&self) -> usize;
    /// The particles it depends on; J gets one block for each.
    fn particles(&self) -> Vec<usize>;
    /// Checks that the constraint makes sense at these positions of its particles (for
    /// example, that its gradient is not zero there).
    fn check(&self, _x: &[Vector<D>]) -> Result<(), PbmError> {
        Ok(())
    }
    /// Evaluates C, Ċ, J and J̇ at positions `x` and velocities `v` of its own particles.
    fn evaluate(&self, x: &[Vector<D>], v: &[Vector<D>], out: Rows<'_>);
}
// ANCHOR_END: constraint

fn finite<const D: usize>(what: &'static str, v: &Vector<D>) -> Result<(), PbmError> {
    if v.iter().all(|c| c.is_finite()) {
        Ok(())
    } else {
        Err(PbmError::invalid(what, "every coordinate must be finite"))
    }
}

fn positive(what: &'static str, name: &str, value: f64) -> Result<(), PbmError> {
    if value > 0.0 && value.is_finite() {
        Ok(())
    } else {
        Err(PbmError::invalid(
            what,
            format!("{name} = {value}; it must be positive and finite"),
        ))
    }
}

/// A nail: particle `particle` held at the point `at`. C = x − p (D rows), J = I, J̇ = 0.
#[derive(Debug, Clone)]
pub struct Nail<const D: usize> {
    particle: usize,
    at: Vector<D>,
}

impl<const D: usize> Nail<D> {
    /// Nails `particle` to `at` (which must be finite).
    pub fn new(particle: usize, at: Vector<D>) -> Result<Self, PbmError> {
        finite("nail", &at)?;
        Ok(Nail { particle, at })
    }
}

impl<const D: usize> Constraint<D> for Nail<D> {
    fn name(&self) -> &'static str {
        "nail"
    }
    fn rows(&self) -> usize {
        D
    }
    fn particles(&self) -> Vec<usize> {
        vec![self.particle]
    }
    fn evaluate(&self, x: &[Vector<D>], v: &[Vector<D>], out: Rows<'_>) {
        for r in 0..D {
            out.c[r] = x[0][r] - self.at[r];
            out.c_dot[r] = v[0][r];
            let row = out.j[0].row_mut(r);
            row.fill(0.0);
            row[r] = 1.0;
            out.j_dot[0].row_mut(r).fill(0.0);
        }
    }
}

// ANCHOR: rod
/// A rigid rod of length L between particles a and b. With d = x_a − x_b:
/// C = ½(d·d − L²), Ċ = d·ḋ, J = [dᵀ, −dᵀ], J̇ = [ḋᵀ, −ḋᵀ].
#[derive(Debug, Clone)]
pub struct Rod {
    a: usize,
    b: usize,
    length: f64,
}

impl<const D: usize> Constraint<D> for Rod {
    fn evaluate(&self, x: &[Vector<D>], v: &[Vector<D>], out: Rows<'_>) {
        let d = x[0] - x[1];
        let d_dot = v[0] - v[1];
        out.c[0] = 0.5 * (d.dot(&d) - self.length * self.length);
        out.c_dot[0] = d.dot(&d_dot);
        out.j[0].data.copy_from_slice(d.as_slice());
        out.j[1].data.copy_from_slice((-d).as_slice());
        out.j_dot[0].data.copy_from_slice(d_dot.as_slice());
        out.j_dot[1].data.copy_from_slice((-d_dot).as_slice());
    }
    // ANCHOR_END: rod
    fn name(&self) -> &'static str {
        "rod"
    }
    fn rows(&self) -> usize {
        1
    }
    fn particles(&self) -> Vec<usize> {
        vec![self.a, self.b]
    }
    fn check(&self, x: &[Vector<D>]) -> Result<(), PbmError> {
        if (x[0] - x[1]).norm() <= 1e-12 * self.length {
            return Err(PbmError::invalid(
                "rod",
                format!(
                    "particles {} and {} are coincident, so the rod has no direction",
                    self.a, self.b
                ),
            ));
        }
        Ok(())
    }
}

impl Rod {
    /// A rod of `length` between two different particles.
    pub fn new(a: usize, b: usize, length: f64) -> Result<Self, PbmError> {
        if a == b {
            return Err(PbmError::invalid("rod", format!("both ends are particle {a}")));
        }
        positive("rod", "length", length)?;
        Ok(Rod { a, b, length })
    }

    /// The rod's length L.
    pub fn length(&self) -> f64 {
        self.length
    }

    /// The two particles it joins.
    pub fn ends(&self) -> (usize, usize) {
        (self.a, self.b)
    }
}

// ANCHOR: on_circle
/// The bead on a wire: a particle on the circle (a sphere in 3D) of radius r about c.
/// C = ½(|x − c|² − r²), Ċ = (x − c)·v, J = (x − c)ᵀ, J̇ = vᵀ.
#[derive(Debug, Clone)]
pub struct OnCircle<const D: usize> {
    particle: usize,
    centre: Vector<D>,
    radius: f64,
}

impl<const D: usize> Constraint<D> for OnCircle<D> {
    fn evaluate(&self, x: &[Vector<D>], v: &[Vector<D>], out: Rows<'_>) {
        let r = x[0] - self.centre;
        out.c[0] = 0.5 * (r.dot(&r) - self.radius * self.radius);
        out.c_dot[0] = r.dot(&v[0]);
        out.j[0].data.copy_from_slice(r.as_slice());
        out.j_dot[0].data.copy_from_slice(v[0].as_slice());
    }
    // ANCHOR_END: on_circle
    fn name(&self) -> &'static str {
        "point on circle"
    }
    fn rows(&self) -> usize {
        1
    }
    fn particles(&self) -> Vec<usize> {
        vec![self.particle]
    }
    fn check(&self, x: &[Vector<D>]) -> Result<(), PbmError> {
        if (x[0] - self.centre).norm() <= 1e-12 * self.radius {
            return Err(PbmError::invalid(
                "point on circle",
                "the particle is at the centre, where the constraint has no gradient",
            ));
        }
        Ok(())
    }
}

impl<const D: usize> OnCircle<D> {
    /// Keeps `particle` on the circle of `radius` about `centre`.
    pub fn new(particle: usize, centre: Vector<D>, radius: f64) -> Result<Self, PbmError> {
        finite("point on circle", &centre)?;
        positive("point on circle", "radius", radius)?;
        Ok(OnCircle { particle, centre, radius })
    }
}

/// A particle on the line through p with direction u. The line is the intersection of the
/// D − 1 hyperplanes n_k·(x − p) = 0 whose unit normals n_k are perpendicular to u and to
/// each other, so C has D − 1 rows, J's rows are the n_kᵀ and J̇ = 0.
#[derive(Debug, Clone)]
pub struct OnLine<const D: usize> {
    particle: usize,
    point: Vector<D>,
    normals: Vec<Vector<D>>,
}

impl<const D: usize> OnLine<D> {
    /// Keeps `particle` on the line through `point` along `direction` (non-zero).
    pub fn new(
        particle: usize,
        point: Vector<D>,
        direction: Vector<D>,
    ) -> Result<Self, PbmError> {
        finite("point on line", &point)?;
        finite("point on line", &direction)?;
        let norm = direction.norm();
        if norm == 0.0 {
            return Err(PbmError::invalid("point on line", "the direction is zero"));
        }
        // Gram–Schmidt on the coordinate axes, after the direction itself.
        let mut basis = vec![direction / norm];
        for axis in 0..D {
            let mut e = Vector::<D>::zeros();
            e[axis] = 1.0;
            for b in &basis {
                e -= b * b.dot(&e);
            }
            if e.norm() > 1e-6 && basis.len() < D {
                basis.push(e.normalize());
            }
        }
        Ok(OnLine { particle, point, normals: basis.split_off(1) })
    }
}

impl<const D: usize> Constraint<D> for OnLine<D> {
    fn name(&self) -> &'static str {
        "point on line"
    }
    fn rows(&self) -> usize {
        D - 1
    }
    fn particles(&self) -> Vec<usize> {
        vec![self.particle]
    }
    fn evaluate(&self, x: &[Vector<D>], v: &[Vector<D>], out: Rows<'_>) {
        for (k, n) in self.normals.iter().enumerate() {
            out.c[k] = n.dot(&(x[0] - self.point));
            out.c_dot[k] = n.dot(&v[0]);
            out.j[0].row_mut(k).copy_from_slice(n.as_slice());
            out.j_dot[0].row_mut(k).fill(0.0);
        }
    }
}
