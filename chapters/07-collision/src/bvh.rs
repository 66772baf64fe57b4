//! A bounding-volume hierarchy over a triangle mesh that deforms: boxes around each
//! triangle (the leaves), boxes around pairs of boxes above them, up to one box
//! around the whole mesh. A cloth or a strand of hair keeps its triangles' neighbours
//! as it moves, so the tree is built once and only its boxes are recomputed each
//! step, from the leaves up.

use crate::aabb::Aabb;
use nalgebra::Vector3;
use pbm_prelim::PbmError;

type V3 = Vector3<f64>;

#[derive(Debug, Clone, Copy)]
enum Kind {
    Leaf(usize),
    Inner(usize, usize),
}

#[derive(Debug, Clone, Copy)]
struct Node {
    bounds: Aabb<3>,
    kind: Kind,
}

/// The hierarchy: nodes stored parents before children, so a pass from the back of
/// the list visits every child before its parent.
#[derive(Debug, Clone)]
pub struct Bvh {
    triangles: Vec<[usize; 3]>,
    nodes: Vec<Node>,
    margin: f64,
}

/// The box of a triangle, grown by `margin` on every side (a cloth's thickness: two
/// layers closer than that must be looked at).
fn triangle_box(t: &[usize; 3], x: &[V3], margin: f64) -> Result<Aabb<3>, PbmError> {
    let mut min = [f64::INFINITY; 3];
    let mut max = [f64::NEG_INFINITY; 3];
    for &i in t {
        if !x[i].iter().all(|c| c.is_finite()) {
            let why = format!("vertex {i} is at {:?}", x[i].as_slice());
            return Err(PbmError::invalid("mesh position", why));
        }
        for k in 0..3 {
            min[k] = min[k].min(x[i][k] - margin);
            max[k] = max[k].max(x[i][k] + margin);
        }
    }
    Aabb::new(min, max)
}

fn union(a: &Aabb<3>, b: &Aabb<3>) -> Aabb<3> {
    Aabb {
        min: std::array::from_fn(|k| a.min[k].min(b.min[k])),
        max: std::array::from_fn(|k| a.max[k].max(b.max[k])),
    }
}

fn check(triangles: &[[usize; 3]], x: &[V3], margin: f64) -> Result<(), PbmError> {
    if triangles.is_empty() {
        return Err(PbmError::invalid("mesh", "it has no triangles"));
    }
    if let Some(t) = triangles.iter().find(|t| t.iter().any(|&i| i >= x.len())) {
        let why =
            format!("triangle {t:?} names a vertex beyond the {} given", x.len());
        return Err(PbmError::invalid("mesh", why));
    }
    if !(margin > 0.0 && margin.is_finite()) {
        let why = format!("margin {margin}: it must be positive and finite");
        return Err(PbmError::invalid("bounding-volume hierarchy", why));
    }
    Ok(())
}

impl Bvh {
    /// Builds the tree over `triangles` (vertex indices into `x`): split the
    /// triangles at the median of their centres along the axis where those centres
    /// spread most, and recurse.
    pub fn build(
        triangles: &[[usize; 3]],
        x: &[V3],
        margin: f64,
    ) -> Result<Self, PbmError> {
        check(triangles, x, margin)?;
        let mut bvh =
            Bvh { triangles: triangles.to_vec(), nodes: Vec::new(), margin };
        let mut order: Vec<usize> = (0..triangles.len()).collect();
        bvh.split(&mut order, x)?;
        Ok(bvh)
    }

    fn split(&mut self, ids: &mut [usize], x: &[V3]) -> Result<usize, PbmError> {
        let here = self.nodes.len();
        if let [t] = ids {
            let bounds = triangle_box(&self.triangles[*t], x, self.margin)?;
            self.nodes.push(Node { bounds, kind: Kind::Leaf(*t) });
            return Ok(here);
        }
        let centre =
            |t: usize| self.triangles[t].iter().map(|&i| x[i]).sum::<V3>() / 3.0;
        let (mut lo, mut hi) =
            (V3::repeat(f64::INFINITY), V3::repeat(f64::NEG_INFINITY));
        for &t in ids.iter() {
            lo = lo.inf(&centre(t));
            hi = hi.sup(&centre(t));
        }
        let axis = (hi - lo).imax();
        let mid = ids.len() / 2;
        ids.select_nth_unstable_by(mid, |&a, &b| {
            centre(a)[axis].total_cmp(&centre(b)[axis])
        });
        // A placeholder box until the children are known.
        self.nodes.push(Node {
            bounds: Aabb { min: [0.0; 3], max: [0.0; 3] },
            kind: Kind::Leaf(0),
        });
        let (left, right) = ids.split_at_mut(mid);
        let l = self.split(left, x)?;
        let r = self.split(right, x)?;
        self.nodes[here] = Node {
            bounds: union(&self.nodes[l].bounds, &self.nodes[r].bounds),
            kind: Kind::Inner(l, r),
        };
        Ok(here)
    }

    // ANCHOR: refit
    /// Recomputes every box for the vertices' new positions, keeping the tree: the
    /// leaves from their triangles, then each parent as the union of its children,
    /// visiting children first. O(n) per step, against O(n log n) for a rebuild.
    pub fn refit(&mut self, x: &[V3]) -> Result<(), PbmError> {
        check(&self.triangles, x, self.margin)?;
        for i in (0..self.nodes.len()).rev() {
            self.nodes[i].bounds = match self.nodes[i].kind {
                Kind::Leaf(t) => triangle_box(&self.triangles[t], x, self.margin)?,
                Kind::Inner(l, r) => {
                    union(&self.nodes[l].bounds, &self.nodes[r].bounds)
                }
            };
        }
        Ok(())
    }
    // ANCHOR_END: refit

    /// How far every box reaches beyond its triangle (m).
    pub fn margin(&self) -> f64 {
        self.margin
    }

    /// The root's box: the whole mesh.
    pub fn root(&self) -> Aabb<3> {
        self.nodes[0].bounds
    }

    /// The sum of the inner boxes' volumes: how loose the tree has become (a rebuilt
    /// tree is as tight as median splits make it).
    pub fn inner_volume(&self) -> f64 {
        self.nodes
            .iter()
            .filter(|n| matches!(n.kind, Kind::Inner(..)))
            .map(|n| {
                (0..3).map(|k| n.bounds.max[k] - n.bounds.min[k]).product::<f64>()
            })
            .sum()
    }

    // ANCHOR: self_pairs
    /// Candidate pairs for self-collision: triangles whose boxes overlap and that
    /// share no vertex (neighbours always touch). Returns the pairs, sorted, and the
    /// number of box pairs tested to find them.
    pub fn self_pairs(&self) -> (Vec<(usize, usize)>, usize) {
        let mut pairs = Vec::new();
        let mut tests = 0;
        // Pairs of subtrees still to compare; (i, i) means "within subtree i".
        let mut stack = vec![(0, 0)];
        while let Some((i, j)) = stack.pop() {
            let (a, b) = (&self.nodes[i], &self.nodes[j]);
            if i == j {
                if let Kind::Inner(l, r) = a.kind {
                    stack.extend([(l, l), (r, r), (l, r)]);
                }
                continue;
            }
            tests += 1;
            if !a.bounds.overlaps(&b.bounds) {
                continue;
            }
            match (a.kind, b.kind) {
                (Kind::Leaf(s), Kind::Leaf(t)) => {
                    let (ts, tt) = (self.triangles[s], self.triangles[t]);
                    if !ts.iter().any(|v| tt.contains(v)) {
                        pairs.push((s.min(t), s.max(t)));
                    }
                }
                // Open the inner node (both inner: the first one's children).
                (Kind::Inner(l, r), Kind::Leaf(_)) => stack.extend([(l, j), (r, j)]),
                (Kind::Leaf(_), Kind::Inner(l, r)) => stack.extend([(i, l), (i, r)]),
                (Kind::Inner(l, r), Kind::Inner(..)) => {
                    stack.extend([(l, j), (r, j)])
                }
            }
        }
        pairs.sort_unstable();
        (pairs, tests)
    }
    // ANCHOR_END: self_pairs

    /// The same pairs by testing every pair of triangles' boxes.
    pub fn brute_force_self_pairs(
        &self,
        x: &[V3],
    ) -> Result<Vec<(usize, usize)>, PbmError> {
        let boxes = self
            .triangles
            .iter()
            .map(|t| triangle_box(t, x, self.margin))
            .collect::<Result<Vec<_>, _>>()?;
        let mut pairs = Vec::new();
        for s in 0..boxes.len() {
            for t in s + 1..boxes.len() {
                let (ts, tt) = (self.triangles[s], self.triangles[t]);
                if boxes[s].overlaps(&boxes[t]) && !ts.iter().any(|v| tt.contains(v))
                {
                    pairs.push((s, t));
                }
            }
        }
        Ok(pairs)
    }
}

/// A square sheet of `n` × `n` cells (side 1, two triangles per cell) folded about the
/// line u = ½ by `angle` radians: at π − a little, the two halves face each other
/// across a narrow gap, which is when self-collision candidates appear.
pub fn folded_sheet(n: usize, angle: f64) -> (Vec<V3>, Vec<[usize; 3]>) {
    let index = |i: usize, j: usize| i * (n + 1) + j;
    let mut x = Vec::with_capacity((n + 1) * (n + 1));
    for i in 0..=n {
        for j in 0..=n {
            let (u, v) = (i as f64 / n as f64, j as f64 / n as f64);
            let p = if u <= 0.5 {
                V3::new(u, v, 0.0)
            } else {
                let r = u - 0.5;
                V3::new(0.5 + r * angle.cos(), v, r * angle.sin())
            };
            x.push(p);
        }
    }
    let mut triangles = Vec::with_capacity(2 * n * n);
    for i in 0..n {
        for j in 0..n {
            let (a, b, c, d) =
                (index(i, j), index(i + 1, j), index(i + 1, j + 1), index(i, j + 1));
            triangles.push([a, b, c]);
            triangles.push([a, c, d]);
        }
    }
    (x, triangles)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_meshes_are_errors() {
        let x = vec![V3::zeros(), V3::x(), V3::y()];
        assert!(
            Bvh::build(&[], &x, 0.1)
                .unwrap_err()
                .to_string()
                .contains("no triangles")
        );
        let e = Bvh::build(&[[0, 1, 3]], &x, 0.1).unwrap_err().to_string();
        assert!(e.contains("beyond"), "{e}");
        assert!(Bvh::build(&[[0, 1, 2]], &x, 0.0).is_err());
        let mut bvh = Bvh::build(&[[0, 1, 2]], &x, 0.1).unwrap();
        assert!(
            bvh.refit(&[V3::zeros(), V3::x(), V3::new(f64::NAN, 0.0, 0.0)]).is_err()
        );
    }

    #[test]
    fn a_refitted_tree_finds_what_brute_force_finds_at_every_fold() {
        let (x0, triangles) = folded_sheet(12, 0.0);
        let mut bvh = Bvh::build(&triangles, &x0, 0.01).unwrap();
        let mut found_any = false;
        for k in 0..=40 {
            let angle = std::f64::consts::PI * (0.99 * k as f64 / 40.0);
            let (x, _) = folded_sheet(12, angle);
            bvh.refit(&x).unwrap();
            let (pairs, _) = bvh.self_pairs();
            assert_eq!(
                pairs,
                bvh.brute_force_self_pairs(&x).unwrap(),
                "angle {angle}"
            );
            // The root box is the mesh's box, grown by the margin.
            let rebuilt = Bvh::build(&triangles, &x, 0.01).unwrap();
            assert_eq!(bvh.root(), rebuilt.root());
            found_any |= !pairs.is_empty();
        }
        assert!(found_any, "the folded sheet never came near itself");
    }
}
