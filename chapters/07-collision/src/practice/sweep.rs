// Practice `collision/sweep`: the coherent sweep's insertion sort.
//
// Read "Bounding boxes and the coherent sweep"
// (book/src/07-collision/broad-phase.md), the section "Keep the order: the
// coherent sweep". Then fill in the body and run
// `cargo run --release -- practice check collision/sweep`.

/// Re-sorts one axis's list of interval ends after the boxes have moved, by
/// insertion sort, and says which pairs of boxes it met. Each end is `(box, begin,
/// x)`: the box's index, whether it is the box's begin (true) or its end (false),
/// and its new coordinate. The list comes in last step's order.
///
/// - Sorted means x ascending, and at equal x a begin before an end (touching
///   intervals overlap). Two ends with equal x of the same kind are never exchanged.
/// - Move each end back past the ends that belong after it, one exchange of two
///   neighbours at a time, and count the exchanges.
/// - A pair's overlap on this axis can change only when a begin of one box and an
///   end of the other are exchanged. Return every pair met in such an exchange, each
///   pair once, smaller index first, in any order.
pub fn resort(ends: &mut [(u32, bool, f64)]) -> (usize, Vec<(u32, u32)>) {
    let _ = ends;
    todo!("insertion sort the ends, counting exchanges and noting begin/end pairs")
}
