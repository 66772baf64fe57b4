//! A body's shape: a union of convex polygons with a density, as the paper's objects
//! are (a concave outline is cut into convex parts first). From the parts come the
//! mass, the centre of mass and the moment of inertia about it, each a sum over the
//! triangles of a fan, so that a body needs only its outline and its density.

use nalgebra::Vector2;
use pbm_collision::polygon::ConvexPolygon;
use pbm_prelim::PbmError;
use pbm_prelim::validate::positive;
use pbm_rigid::body2d::cross2;

type V2 = Vector2<f64>;

/// Area, first and second moments of a polygon about the origin.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Moments {
    /// Area A (m²).
    pub area: f64,
    /// ∫ x dA (m³): the centroid times the area.
    pub first: V2,
    /// ∫ |x|² dA (m⁴): the polar second moment about the origin.
    pub second: f64,
}

// ANCHOR: moments
/// The moments of a counter-clockwise polygon about the origin, as a sum over the
/// triangles (0, vᵢ, vᵢ₊₁): each has area ½ vᵢ × vᵢ₊₁, centroid (vᵢ + vᵢ₊₁)/3 and
/// polar second moment (area/6)(vᵢ·vᵢ + vᵢ·vᵢ₊₁ + vᵢ₊₁·vᵢ₊₁) about the origin.
pub fn moments(polygon: &ConvexPolygon) -> Moments {
    let v = polygon.vertices();
    let mut m = Moments { area: 0.0, first: V2::zeros(), second: 0.0 };
    for i in 0..v.len() {
        let (a, b) = (v[i], v[(i + 1) % v.len()]);
        let area = 0.5 * cross2(&a, &b);
        m.area += area;
        m.first += (a + b) * (area / 3.0);
        m.second += area / 6.0 * (a.dot(&a) + a.dot(&b) + b.dot(&b));
    }
    m
}
// ANCHOR_END: moments

/// A body's shape: convex parts in the body's own frame, centred on its centre of
/// mass, and the mass properties that go with them.
#[derive(Debug, Clone, PartialEq)]
pub struct Shape {
    /// The parts, in body coordinates (the centre of mass at the origin).
    pub parts: Vec<ConvexPolygon>,
    /// Mass (kg).
    pub mass: f64,
    /// Moment of inertia about the centre of mass (kg m²).
    pub inertia: f64,
}

impl Shape {
    /// The shape of `parts` (in any frame) of uniform `density` (kg/m²), and where
    /// its centre of mass was in that frame: the parts come back moved so that it
    /// is at the origin. The parts' areas add, so they must not overlap.
    pub fn new(
        parts: Vec<ConvexPolygon>,
        density: f64,
    ) -> Result<(Shape, V2), PbmError> {
        let density = positive("shape", "density", density)?;
        if parts.is_empty() {
            return Err(PbmError::invalid("shape", "it needs at least one polygon"));
        }
        let total = parts.iter().map(moments).fold(
            Moments { area: 0.0, first: V2::zeros(), second: 0.0 },
            |s, m| Moments {
                area: s.area + m.area,
                first: s.first + m.first,
                second: s.second + m.second,
            },
        );
        let centre = total.first / total.area;
        // Parallel axis: ∫ |x − c|² dA = ∫ |x|² dA − A |c|².
        let inertia = density * (total.second - total.area * centre.norm_squared());
        let parts = parts.iter().map(|p| p.placed(-centre, 0.0)).collect();
        Ok((Shape { parts, mass: density * total.area, inertia }, centre))
    }

    /// A `width` × `height` rectangle of `density`, centred on its centre of mass.
    pub fn rectangle(
        width: f64,
        height: f64,
        density: f64,
    ) -> Result<Shape, PbmError> {
        let half = V2::new(
            positive("rectangle", "width", width)? / 2.0,
            positive("rectangle", "height", height)? / 2.0,
        );
        Ok(Shape::new(vec![ConvexPolygon::rectangle(V2::zeros(), half)?], density)?.0)
    }

    /// The radius of the smallest circle about the centre of mass holding the shape.
    pub fn radius(&self) -> f64 {
        self.parts
            .iter()
            .flat_map(|p| p.vertices().iter())
            .map(|v| v.norm())
            .fold(0.0, f64::max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rectangle_has_the_textbook_inertia() {
        // m (w² + h²) / 12 for a 2 × 0.5 plate of 3 kg/m²: m = 3, I = 3 · 4.25 / 12.
        let s = Shape::rectangle(2.0, 0.5, 3.0).unwrap();
        assert!((s.mass - 3.0).abs() < 1e-14);
        assert!((s.inertia - 3.0 * 4.25 / 12.0).abs() < 1e-14);
    }

    #[test]
    fn an_l_of_two_parts_has_its_centre_where_the_parts_balance() {
        // A 2 × 1 bar along x and a 1 × 1 square on top of its left end: areas 2 and
        // 1 with centres (1, 0.5) and (0.5, 1.5); the centre is (2.5, 2.5)/3.
        let bar =
            ConvexPolygon::rectangle(V2::new(1.0, 0.5), V2::new(1.0, 0.5)).unwrap();
        let top =
            ConvexPolygon::rectangle(V2::new(0.5, 1.5), V2::new(0.5, 0.5)).unwrap();
        let (s, centre) = Shape::new(vec![bar, top], 1.0).unwrap();
        assert!((centre - V2::new(2.5, 2.5) / 3.0).norm() < 1e-14);
        // Each part's own inertia plus its mass times its squared distance.
        let own = 2.0 * (4.0 + 1.0) / 12.0 + (1.0 + 1.0) / 12.0;
        let shift = 2.0 * (V2::new(1.0, 0.5) - centre).norm_squared()
            + (V2::new(0.5, 1.5) - centre).norm_squared();
        assert!((s.inertia - (own + shift)).abs() < 1e-13, "{}", s.inertia);
        assert!(Shape::new(vec![], 1.0).is_err());
        assert!(Shape::rectangle(1.0, 1.0, 0.0).is_err());
    }
}
