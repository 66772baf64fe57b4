// The book's answer to `collision/sweep`, as `pbm practice solution collision/sweep`
// prints it: the insertion sort of `CoherentSweep::update` for one axis, which there
// also tests each pair it meets against the boxes' new bounds.

// ANCHOR: resort
/// Insertion sort of one axis's ends (box, begin, x): x ascending, begins before ends
/// at equal x. Returns the exchanges made and the pairs met in a begin/end exchange.
pub fn resort(ends: &mut [(u32, bool, f64)]) -> (usize, Vec<(u32, u32)>) {
    // Whether end p belongs after end q.
    let after = |p: &(u32, bool, f64), q: &(u32, bool, f64)| {
        p.2 > q.2 || (p.2 == q.2 && !p.1 && q.1)
    };
    let (mut exchanges, mut pairs) = (0, Vec::new());
    for k in 1..ends.len() {
        let mut m = k;
        while m > 0 && after(&ends[m - 1], &ends[m]) {
            let (a, b) = (ends[m - 1], ends[m]);
            ends.swap(m - 1, m);
            m -= 1;
            exchanges += 1;
            if a.1 != b.1 && a.0 != b.0 {
                let pair = (a.0.min(b.0), a.0.max(b.0));
                if !pairs.contains(&pair) {
                    pairs.push(pair);
                }
            }
        }
    }
    (exchanges, pairs)
}
// ANCHOR_END: resort
