//! Constraint objects ("Constrained Dynamics", section 4): each one is a condition
//! function of chapter 2 (C, its Jacobian J = ∂C/∂q and J̇), and the constrained
//! system holds it with a Lagrange multiplier instead of a spring. Models are built
//! by snapping them together, as springs were in chapter 2.

use pbm_particles::condition::Condition;
use pbm_particles::particle::{Vector, two_ends};
use pbm_prelim::PbmError;
use pbm_prelim::validate::{all_finite, positive};

/// A nail: particle `particle` held at the point `at`. C = x − p (D rows), J = I, J̇
/// = 0 (the trait's default for a C linear in the positions).
#[derive(Debug, Clone)]
pub struct Nail<const D: usize> {
    particle: [usize; 1],
    at: Vector<D>,
}

impl<const D: usize> Nail<D> {
    /// Nails `particle` to `at` (which must be finite).
    pub fn new(particle: usize, at: Vector<D>) -> Result<Self, PbmError> {
        all_finite("nail", "point", at.iter().copied())?;
        Ok(Nail { particle: [particle], at })
    }
}

impl<const D: usize> Condition<D> for Nail<D> {
    fn name(&self) -> &'static str {
        "nail"
    }
    fn rows(&self) -> usize {
        D
    }
    fn particles(&self) -> &[usize] {
        &self.particle
    }
    fn position(
        &self,
        x: &[Vector<D>],
        c: &mut [f64],
        j: &mut [Vector<D>],
    ) -> Result<(), PbmError> {
        for r in 0..D {
            c[r] = x[0][r] - self.at[r];
            j[r] = Vector::zeros();
            j[r][r] = 1.0;
        }
        Ok(())
    }
}

// ANCHOR: rod
/// A rigid rod of length L between particles a and b. With d = x_a − x_b:
/// C = ½(d·d − L²), Ċ = d·ḋ, J = [dᵀ, −dᵀ], J̇ = [ḋᵀ, −ḋᵀ].
#[derive(Debug, Clone)]
pub struct Rod {
    ends: [usize; 2],
    length: f64,
}
// ANCHOR_END: rod

impl<const D: usize> Condition<D> for Rod {
    // ANCHOR: rod_impl
    fn position(
        &self,
        x: &[Vector<D>],
        c: &mut [f64],
        j: &mut [Vector<D>],
    ) -> Result<(), PbmError> {
        let d = x[0] - x[1];
        c[0] = 0.5 * (d.dot(&d) - self.length * self.length);
        (j[0], j[1]) = (d, -d);
        Ok(())
    }
    fn jacobian_dot(
        &self,
        _x: &[Vector<D>],
        v: &[Vector<D>],
        j_dot: &mut [Vector<D>],
    ) {
        let d_dot = v[0] - v[1];
        (j_dot[0], j_dot[1]) = (d_dot, -d_dot);
    }
    fn check(&self, x: &[Vector<D>]) -> Result<(), PbmError> {
        if (x[0] - x[1]).norm() <= 1e-12 * self.length {
            return Err(PbmError::invalid(
                "rod",
                format!(
                    "particles {} and {} are coincident, so the rod has no direction",
                    self.ends[0], self.ends[1]
                ),
            ));
        }
        Ok(())
    }
    // ANCHOR_END: rod_impl
    fn name(&self) -> &'static str {
        "rod"
    }
    fn rows(&self) -> usize {
        1
    }
    fn particles(&self) -> &[usize] {
        &self.ends
    }
}

impl Rod {
    /// A rod of `length` between two different particles.
    pub fn new(a: usize, b: usize, length: f64) -> Result<Self, PbmError> {
        Ok(Rod {
            ends: two_ends("rod", a, b)?,
            length: positive("rod", "length", length)?,
        })
    }

    /// The rod's length L.
    pub fn length(&self) -> f64 {
        self.length
    }

    /// The two particles it joins.
    pub fn ends(&self) -> (usize, usize) {
        (self.ends[0], self.ends[1])
    }
}

// ANCHOR: on_circle
/// The bead on a wire: a particle on the circle (a sphere in 3D) of radius r about c.
/// C = ½(|x − c|² − r²), Ċ = (x − c)·v, J = (x − c)ᵀ, J̇ = vᵀ.
#[derive(Debug, Clone)]
pub struct OnCircle<const D: usize> {
    particle: [usize; 1],
    centre: Vector<D>,
    radius: f64,
}
// ANCHOR_END: on_circle

impl<const D: usize> Condition<D> for OnCircle<D> {
    // ANCHOR: on_circle_impl
    fn position(
        &self,
        x: &[Vector<D>],
        c: &mut [f64],
        j: &mut [Vector<D>],
    ) -> Result<(), PbmError> {
        let r = x[0] - self.centre;
        c[0] = 0.5 * (r.dot(&r) - self.radius * self.radius);
        j[0] = r;
        Ok(())
    }
    fn jacobian_dot(
        &self,
        _x: &[Vector<D>],
        v: &[Vector<D>],
        j_dot: &mut [Vector<D>],
    ) {
        j_dot[0] = v[0];
    }
    fn check(&self, x: &[Vector<D>]) -> Result<(), PbmError> {
        off_centre("point on circle", &x[0], &self.centre, self.radius)
    }
    // ANCHOR_END: on_circle_impl
    fn name(&self) -> &'static str {
        "point on circle"
    }
    fn rows(&self) -> usize {
        1
    }
    fn particles(&self) -> &[usize] {
        &self.particle
    }
}

impl<const D: usize> OnCircle<D> {
    /// Keeps `particle` on the circle of `radius` about `centre`.
    pub fn new(
        particle: usize,
        centre: Vector<D>,
        radius: f64,
    ) -> Result<Self, PbmError> {
        all_finite("point on circle", "centre", centre.iter().copied())?;
        let radius = positive("point on circle", "radius", radius)?;
        Ok(OnCircle { particle: [particle], centre, radius })
    }
}

/// The check of a curve about a centre (circle, ellipse) whose gradient vanishes
/// there: an error if `x` is within rounding (relative to the curve's `size`) of
/// `centre`.
fn off_centre<const D: usize>(
    what: &'static str,
    x: &Vector<D>,
    centre: &Vector<D>,
    size: f64,
) -> Result<(), PbmError> {
    if (x - centre).norm() <= 1e-12 * size {
        return Err(PbmError::invalid(
            what,
            "the particle is at the centre, where the constraint has no gradient",
        ));
    }
    Ok(())
}

/// A particle on the line through p with direction u. The line is the intersection of
/// the D − 1 hyperplanes n_k·(x − p) = 0 whose unit normals n_k are perpendicular to
/// u and to each other, so C has D − 1 rows, J's rows are the n_kᵀ and J̇ = 0 (the
/// trait's default for a C linear in the positions).
#[derive(Debug, Clone)]
pub struct OnLine<const D: usize> {
    particle: [usize; 1],
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
        all_finite("point on line", "point", point.iter().copied())?;
        all_finite("point on line", "direction", direction.iter().copied())?;
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
        Ok(OnLine { particle: [particle], point, normals: basis.split_off(1) })
    }
}

impl<const D: usize> Condition<D> for OnLine<D> {
    fn name(&self) -> &'static str {
        "point on line"
    }
    fn rows(&self) -> usize {
        D - 1
    }
    fn particles(&self) -> &[usize] {
        &self.particle
    }
    fn position(
        &self,
        x: &[Vector<D>],
        c: &mut [f64],
        j: &mut [Vector<D>],
    ) -> Result<(), PbmError> {
        for (k, n) in self.normals.iter().enumerate() {
            c[k] = n.dot(&(x[0] - self.point));
            j[k] = *n;
        }
        Ok(())
    }
}

/// A particle on the axis-aligned ellipse (x/a)² + (y/b)² = 1 about `centre`, in the
/// plane: C = ½((x/a)² + (y/b)² − 1) with r = x − centre, so J = (r_x/a², r_y/b²)
/// and J̇ = (ṙ_x/a², ṙ_y/b²). A wire whose curvature changes along it, unlike the
/// circle's (chapter 5 runs the same bead in one coordinate).
#[derive(Debug, Clone)]
pub struct OnEllipse {
    particle: [usize; 1],
    centre: Vector<2>,
    axes: [f64; 2],
}

impl Condition<2> for OnEllipse {
    fn position(
        &self,
        x: &[Vector<2>],
        c: &mut [f64],
        j: &mut [Vector<2>],
    ) -> Result<(), PbmError> {
        let r = x[0] - self.centre;
        let [a, b] = self.axes;
        c[0] = 0.5 * ((r.x / a).powi(2) + (r.y / b).powi(2) - 1.0);
        j[0] = Vector::<2>::new(r.x / (a * a), r.y / (b * b));
        Ok(())
    }
    fn jacobian_dot(
        &self,
        _x: &[Vector<2>],
        v: &[Vector<2>],
        j_dot: &mut [Vector<2>],
    ) {
        let [a, b] = self.axes;
        j_dot[0] = Vector::<2>::new(v[0].x / (a * a), v[0].y / (b * b));
    }
    fn name(&self) -> &'static str {
        "point on ellipse"
    }
    fn rows(&self) -> usize {
        1
    }
    fn particles(&self) -> &[usize] {
        &self.particle
    }
    fn check(&self, x: &[Vector<2>]) -> Result<(), PbmError> {
        let size = self.axes[0].min(self.axes[1]);
        off_centre("point on ellipse", &x[0], &self.centre, size)
    }
}

impl OnEllipse {
    /// Keeps `particle` on the ellipse with half-axes `a` (along x) and `b` (along y)
    /// about `centre`.
    pub fn new(
        particle: usize,
        centre: Vector<2>,
        a: f64,
        b: f64,
    ) -> Result<Self, PbmError> {
        all_finite("point on ellipse", "centre", centre.iter().copied())?;
        let a = positive("point on ellipse", "half-axis a", a)?;
        let b = positive("point on ellipse", "half-axis b", b)?;
        Ok(OnEllipse { particle: [particle], centre, axes: [a, b] })
    }
}
