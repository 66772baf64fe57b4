//! The broad phase: which pairs of bounding boxes overlap, and which of them started
//! or stopped overlapping since the last step.
//!
//! Three ways to answer, from slowest to fastest on a coherent scene:
//! [`brute_force_pairs`] tests all n(n − 1)/2 pairs; [`sort_and_sweep_pairs`] sorts
//! the boxes' ends along one axis and sweeps, O(n log n + k); [`CoherentSweep`] keeps
//! one sorted list of ends per axis from the last step, re-sorts it by insertion sort
//! (almost nothing moves far between steps, so this costs O(n + c) for c exchanges),
//! and updates the table of overlapping pairs from the exchanges: a pair can change
//! status only when an end of one box passes an end of the other.

use crate::aabb::Aabb;
use pbm_prelim::PbmError;

/// A pair of box indices, the smaller first.
pub type Pair = (u32, u32);

fn pair(a: u32, b: u32) -> Pair {
    if a < b { (a, b) } else { (b, a) }
}

pub(crate) fn index_of(n: usize) -> Result<u32, PbmError> {
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
/// Every overlapping pair, by sorting the ends of the boxes along axis 0 and
/// sweeping: a box's begin meets every box still open, and only those can overlap
/// it; the other axes are then checked directly. Sorted.
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
/// to step, and for each box the boxes it overlaps (a handful at most in a scene
/// worth simulating, so a membership test is a short scan).
#[derive(Debug, Clone)]
pub struct CoherentSweep<const D: usize> {
    lists: [Vec<Endpoint>; D],
    partners: Vec<Vec<u32>>,
}

impl<const D: usize> CoherentSweep<D> {
    /// Sorts the boxes' ends on every axis and finds the overlapping pairs by a full
    /// sort-and-sweep: O(n log n + k).
    pub fn new(boxes: &[Aabb<D>]) -> Result<Self, PbmError> {
        let mut partners = vec![Vec::new(); boxes.len()];
        for (i, j) in sort_and_sweep_pairs(boxes)? {
            partners[i as usize].push(j);
            partners[j as usize].push(i);
        }
        let lists = std::array::from_fn(|axis| {
            let mut list = endpoints(boxes, axis);
            sort(&mut list);
            list
        });
        Ok(CoherentSweep { lists, partners })
    }

    /// The pairs that overlap now. Sorted.
    pub fn pairs(&self) -> Vec<Pair> {
        let mut pairs = Vec::new();
        for (i, others) in self.partners.iter().enumerate() {
            let i = i as u32;
            pairs.extend(others.iter().filter(|&&j| i < j).map(|&j| (i, j)));
        }
        pairs.sort_unstable();
        pairs
    }

    /// The interval ends on `axis` in the list's current order, as (box, whether it
    /// is the begin, coordinate): what the insertion sort of [`Self::update`] keeps
    /// sorted.
    pub fn order(&self, axis: usize) -> Vec<(u32, bool, f64)> {
        self.lists
            .get(axis)
            .map(|list| {
                list.iter().map(|e| (e.id, e.end == End::Begin, e.value)).collect()
            })
            .unwrap_or_default()
    }

    // ANCHOR: update
    /// Moves the ends to the boxes' new positions, re-sorts every axis by insertion
    /// sort and returns the pairs whose status changed. Two boxes' intervals on an
    /// axis start or stop overlapping exactly when a begin of one passes a finish of
    /// the other, so only pairs met in such an exchange can have changed; each is
    /// tested against the boxes' new bounds when it is met.
    pub fn update(&mut self, boxes: &[Aabb<D>]) -> Result<Changes, PbmError> {
        if boxes.len() != self.partners.len() {
            let why = format!(
                "{} boxes given to a sweep built for {}",
                boxes.len(),
                self.partners.len()
            );
            return Err(PbmError::invalid("broad phase", why));
        }
        let mut changes = Changes::default();
        for (axis, list) in self.lists.iter_mut().enumerate() {
            for e in list.iter_mut() {
                let b = &boxes[e.id as usize];
                e.value = if e.end == End::Begin { b.min[axis] } else { b.max[axis] };
            }
            for k in 1..list.len() {
                let mut m = k;
                while m > 0 && list[m - 1].after(&list[m]) {
                    let (a, b) = (list[m - 1], list[m]);
                    list.swap(m - 1, m);
                    m -= 1;
                    changes.exchanges += 1;
                    if a.end != b.end && a.id != b.id {
                        let p = pair(a.id, b.id);
                        let now = boxes[p.0 as usize].overlaps(&boxes[p.1 as usize]);
                        set_status(&mut self.partners, p, now, &mut changes);
                    }
                }
            }
        }
        changes.began.sort_unstable();
        changes.ended.sort_unstable();
        Ok(changes)
    }
    // ANCHOR_END: update
}

/// Records that pair `p` overlaps (`now`) or not, noting a change of status. A pair
/// met twice in one update (on two axes) changes at most once: the test is against
/// the final bounds both times.
fn set_status(
    partners: &mut [Vec<u32>],
    (i, j): Pair,
    now: bool,
    changes: &mut Changes,
) {
    let was = partners[i as usize].contains(&j);
    if now && !was {
        partners[i as usize].push(j);
        partners[j as usize].push(i);
        changes.began.push((i, j));
    } else if !now && was {
        partners[i as usize].retain(|&k| k != j);
        partners[j as usize].retain(|&k| k != i);
        changes.ended.push((i, j));
    }
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
