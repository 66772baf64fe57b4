//! The broad phase: which pairs of bounding boxes overlap, and which of them started
//! or stopped overlapping since the last step.
//!
//! Three ways to answer, from slowest to fastest on a coherent scene:
//! [`brute_force_pairs`] tests all n(n − 1)/2 pairs; [`sort_and_sweep_pairs`] sorts
//! the boxes' ends along one axis and sweeps, O(n log n + k); [`CoherentSweep`] keeps
//! one sorted list of ends per axis from the last step, re-sorts it by insertion sort
//! (almost nothing moves far between steps, so this costs O(n + c) for c exchanges),
//! and updates a table of overlap counts on each exchange: a pair can change status
//! only when an end of one box passes an end of the other.

use crate::aabb::Aabb;
use pbm_prelim::PbmError;
use std::collections::BTreeSet;

/// A pair of box indices, the smaller first.
pub type Pair = (u32, u32);

fn pair(a: u32, b: u32) -> Pair {
    if a < b { (a, b) } else { (b, a) }
}

fn index_of(n: usize) -> Result<u32, PbmError> {
    u32::try_from(n).map_err(|_| {
        PbmError::invalid(
            "broad phase",
            format!("{n} boxes are more than it indexes"),
        )
    })
}

// ANCHOR: brute_force
/// Every overlapping pair, by testing all of them: the reference the faster methods
/// are checked against. Sorted.
pub fn brute_force_pairs<const D: usize>(boxes: &[Aabb<D>]) -> Vec<Pair> {
    let mut pairs = Vec::new();
    for (i, a) in boxes.iter().enumerate() {
        for (j, b) in boxes.iter().enumerate().skip(i + 1) {
            if a.overlaps(b) {
                pairs.push((i as u32, j as u32));
            }
        }
    }
    pairs
}
// ANCHOR_END: brute_force

/// Which end of a box's interval an endpoint is. Begins sort before ends at equal
/// coordinates, so that touching intervals (closed) count as overlapping.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum End {
    Begin,
    Finish,
}

/// One end of one box's interval on one axis.
#[derive(Debug, Clone, Copy)]
struct Endpoint {
    value: f64,
    end: End,
    id: u32,
}

impl Endpoint {
    /// Whether `self` belongs after `other` in the sorted list.
    fn after(&self, other: &Endpoint) -> bool {
        self.value > other.value
            || (self.value == other.value && self.end > other.end)
    }
}

fn endpoints<const D: usize>(boxes: &[Aabb<D>], axis: usize) -> Vec<Endpoint> {
    let mut list = Vec::with_capacity(2 * boxes.len());
    for (i, b) in boxes.iter().enumerate() {
        let id = i as u32;
        list.push(Endpoint { value: b.min[axis], end: End::Begin, id });
        list.push(Endpoint { value: b.max[axis], end: End::Finish, id });
    }
    list
}

fn sort(list: &mut [Endpoint]) {
    list.sort_unstable_by(|a, b| {
        a.value.total_cmp(&b.value).then(a.end.cmp(&b.end)).then(a.id.cmp(&b.id))
    });
}

// ANCHOR: sort_and_sweep
/// Every overlapping pair, by sorting the ends of the boxes along axis 0 and sweeping:
/// a box's begin meets every box still open, and only those can overlap it; the
/// other axes are then checked directly. Sorted.
pub fn sort_and_sweep_pairs<const D: usize>(
    boxes: &[Aabb<D>],
) -> Result<Vec<Pair>, PbmError> {
    index_of(boxes.len())?;
    let mut list = endpoints(boxes, 0);
    sort(&mut list);
    let mut open: Vec<u32> = Vec::new();
    let mut pairs = Vec::new();
    for e in &list {
        match e.end {
            End::Begin => {
                let b = &boxes[e.id as usize];
                for &other in &open {
                    if b.overlaps(&boxes[other as usize]) {
                        pairs.push(pair(e.id, other));
                    }
                }
                open.push(e.id);
            }
            End::Finish => open.retain(|&id| id != e.id),
        }
    }
    pairs.sort_unstable();
    Ok(pairs)
}
// ANCHOR_END: sort_and_sweep

/// What changed in one update of a [`CoherentSweep`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Changes {
    /// Pairs that overlap now and did not before. Sorted.
    pub began: Vec<Pair>,
    /// Pairs that overlapped before and do not now. Sorted.
    pub ended: Vec<Pair>,
    /// Exchanges the insertion sorts made, over all axes.
    pub exchanges: usize,
}

/// The coherent broad phase: one sorted list of interval ends per axis, kept from step
/// to step, and for every pair the number of axes on which its intervals overlap.
#[derive(Debug, Clone)]
pub struct CoherentSweep<const D: usize> {
    lists: [Vec<Endpoint>; D],
    /// Per-pair overlap counts (0..=D), packed as a strict lower triangle.
    counts: Vec<u8>,
    overlapping: BTreeSet<Pair>,
    n: usize,
}

/// Position of pair (i, j), i < j, in the packed lower triangle.
fn slot((i, j): Pair) -> usize {
    let (i, j) = (i as usize, j as usize);
    j * (j - 1) / 2 + i
}

impl<const D: usize> CoherentSweep<D> {
    /// Sorts the boxes' ends on every axis and counts, for every pair, the axes on
    /// which they overlap: O(n log n + k) per axis, plus the table's n²/2 bytes.
    pub fn new(boxes: &[Aabb<D>]) -> Result<Self, PbmError> {
        let n = boxes.len();
        index_of(n)?;
        let mut counts = vec![0u8; n * n.saturating_sub(1) / 2];
        let lists: [Vec<Endpoint>; D] = std::array::from_fn(|axis| {
            let mut list = endpoints(boxes, axis);
            sort(&mut list);
            // Sweep: each begin overlaps, on this axis, every interval still open.
            let mut open: Vec<u32> = Vec::new();
            for e in &list {
                match e.end {
                    End::Begin => {
                        for &other in &open {
                            counts[slot(pair(e.id, other))] += 1;
                        }
                        open.push(e.id);
                    }
                    End::Finish => open.retain(|&id| id != e.id),
                }
            }
            list
        });
        let mut overlapping = BTreeSet::new();
        for j in 1..n as u32 {
            for i in 0..j {
                if counts[slot((i, j))] as usize == D {
                    overlapping.insert((i, j));
                }
            }
        }
        Ok(CoherentSweep { lists, counts, overlapping, n })
    }

    /// The pairs that overlap now. Sorted.
    pub fn pairs(&self) -> Vec<Pair> {
        self.overlapping.iter().copied().collect()
    }

    // ANCHOR: update
    /// Moves the ends to the boxes' new positions, re-sorts every axis by insertion
    /// sort and returns the pairs whose status changed. Each exchange of a begin of
    /// one box with the finish of another starts or ends their overlap on that axis;
    /// a pair overlaps when it does on all `D` axes.
    pub fn update(&mut self, boxes: &[Aabb<D>]) -> Result<Changes, PbmError> {
        if boxes.len() != self.n {
            let why = format!(
                "{} boxes given to a sweep built for {}",
                boxes.len(),
                self.n
            );
            return Err(PbmError::invalid("broad phase", why));
        }
        let mut began = BTreeSet::new();
        let mut ended = BTreeSet::new();
        let mut exchanges = 0;
        for (axis, list) in self.lists.iter_mut().enumerate() {
            for e in list.iter_mut() {
                let b = &boxes[e.id as usize];
                e.value = if e.end == End::Begin { b.min[axis] } else { b.max[axis] };
            }
            for k in 1..list.len() {
                let mut m = k;
                while m > 0 && list[m - 1].after(&list[m]) {
                    // `moving` passes `passed` on its way down the list.
                    let (passed, moving) = (list[m - 1], list[m]);
                    list.swap(m - 1, m);
                    m -= 1;
                    exchanges += 1;
                    if passed.end == moving.end || passed.id == moving.id {
                        continue;
                    }
                    let p = pair(passed.id, moving.id);
                    let count = &mut self.counts[slot(p)];
                    if moving.end == End::Begin {
                        // A begin passing a finish downward: they now overlap here.
                        *count += 1;
                        if *count as usize == D && !ended.remove(&p) {
                            began.insert(p);
                        }
                    } else {
                        // A finish passing a begin downward: they no longer do.
                        if *count as usize == D && !began.remove(&p) {
                            ended.insert(p);
                        }
                        *count -= 1;
                    }
                }
            }
        }
        for p in &began {
            self.overlapping.insert(*p);
        }
        for p in &ended {
            self.overlapping.remove(p);
        }
        let began = began.into_iter().collect();
        let ended = ended.into_iter().collect();
        Ok(Changes { began, ended, exchanges })
    }
    // ANCHOR_END: update
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boxes(corners: &[([f64; 2], [f64; 2])]) -> Vec<Aabb<2>> {
        corners.iter().map(|&(a, b)| Aabb::new(a, b).unwrap()).collect()
    }

    #[test]
    fn three_boxes_in_a_row() {
        let b = boxes(&[
            ([0.0, 0.0], [1.0, 1.0]),
            ([0.5, 0.5], [1.5, 1.5]),
            ([1.5, 0.0], [2.0, 0.4]),
        ]);
        assert_eq!(brute_force_pairs(&b), vec![(0, 1)]);
        assert_eq!(sort_and_sweep_pairs(&b).unwrap(), vec![(0, 1)]);
        let mut sweep = CoherentSweep::new(&b).unwrap();
        assert_eq!(sweep.pairs(), vec![(0, 1)]);
        // Box 2 moves up to touch box 1's corner: x intervals touch at 1.5, y
        // intervals overlap.
        let moved = boxes(&[
            ([0.0, 0.0], [1.0, 1.0]),
            ([0.5, 0.5], [1.5, 1.5]),
            ([1.5, 0.6], [2.0, 1.0]),
        ]);
        let changes = sweep.update(&moved).unwrap();
        assert_eq!(changes.began, vec![(1, 2)]);
        assert!(changes.ended.is_empty());
        assert_eq!(sweep.pairs(), brute_force_pairs(&moved));
    }

    #[test]
    fn a_sweep_given_the_wrong_number_of_boxes_says_so() {
        let b = boxes(&[([0.0, 0.0], [1.0, 1.0])]);
        let mut sweep = CoherentSweep::new(&b).unwrap();
        assert!(sweep.update(&[]).is_err());
    }
}
