//! Axis-aligned bounding boxes: the cheap test that rules out most pairs before any
//! exact geometry is looked at.

use pbm_prelim::PbmError;

// ANCHOR: aabb
/// A box with faces perpendicular to the axes, in `D` dimensions: the interval
/// `[min[k], max[k]]` on every axis `k`. The intervals are closed, so boxes that
/// touch overlap: a contact is a pair the narrow phase must see.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Aabb<const D: usize> {
    /// The lower corner.
    pub min: [f64; D],
    /// The upper corner.
    pub max: [f64; D],
}

impl<const D: usize> Aabb<D> {
    /// A box from its corners; every coordinate must be finite and every side
    /// longer than zero.
    pub fn new(min: [f64; D], max: [f64; D]) -> Result<Self, PbmError> {
        for k in 0..D {
            if !(min[k].is_finite() && max[k].is_finite()) {
                let why = format!("corner {min:?} to {max:?} is not finite");
                return Err(PbmError::invalid("bounding box", why));
            }
            if min[k] >= max[k] {
                let why = format!(
                    "side {k} runs from {} to {}; it must have positive length",
                    min[k], max[k]
                );
                return Err(PbmError::invalid("bounding box", why));
            }
        }
        Ok(Aabb { min, max })
    }

    /// Whether the two boxes share a point: their intervals overlap on every axis.
    pub fn overlaps(&self, other: &Self) -> bool {
        (0..D).all(|k| self.min[k] <= other.max[k] && other.min[k] <= self.max[k])
    }
}
// ANCHOR_END: aabb

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn touching_boxes_overlap_and_separated_ones_do_not() {
        let a = Aabb::new([0.0, 0.0], [1.0, 1.0]).unwrap();
        let touching = Aabb::new([1.0, 0.5], [2.0, 2.0]).unwrap();
        let apart = Aabb::new([1.0 + 1e-12, 0.5], [2.0, 2.0]).unwrap();
        let beside = Aabb::new([0.2, 1.5], [0.8, 2.0]).unwrap();
        assert!(a.overlaps(&touching) && touching.overlaps(&a));
        assert!(!a.overlaps(&apart) && !apart.overlaps(&a));
        // Overlapping on x but not on y.
        assert!(!a.overlaps(&beside));
    }

    #[test]
    fn degenerate_boxes_are_errors() {
        assert!(Aabb::new([0.0, 0.0], [0.0, 1.0]).is_err());
        assert!(Aabb::new([0.0, 2.0], [1.0, 1.0]).is_err());
        let e = Aabb::new([f64::NAN, 0.0], [1.0, 1.0]).unwrap_err();
        assert!(e.to_string().contains("not finite"), "{e}");
    }
}
