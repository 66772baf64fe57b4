//! Data-parallel loops that give the same bits with any number of threads, or with
//! none.
//!
//! With the `parallel` feature the loops run on rayon's thread pool; without it (for
//! example in the WebAssembly demos) they run in order on the calling thread. Every
//! call of `f` sees only its own item and writes only its own output, and results are
//! collected in index order, so there is no reduction whose order could depend on the
//! schedule: the answers are bit-identical either way.

#[cfg(feature = "parallel")]
use rayon::prelude::*;

/// The per-item loops below ([`for_each_mut`], [`zip_chunks`], [`zip_chunks_mut`]) run
/// on the calling thread for fewer items than this. Their items are small (a rigid
/// body's state, a few dozen flops): handing ten of them to the thread pool costs a
/// wake-up and a wait, tens of microseconds, where the work itself takes one. The
/// answers are the same bits either way, since every item is independent.
pub const SERIAL_BELOW: usize = 512;

/// Calls `f` on every item.
pub fn for_each_mut<T: Send>(items: &mut [T], f: impl Fn(&mut T) + Sync + Send) {
    #[cfg(feature = "parallel")]
    if items.len() >= SERIAL_BELOW {
        items.par_iter_mut().for_each(f);
        return;
    }
    items.iter_mut().for_each(f);
}

/// `[f(0, &mut items[0]), f(1, &mut items[1]), …]`: each call sees its own item
/// (to fill a buffer kept from call to call) and its index.
pub fn map_indexed_mut<T: Send, R: Send>(
    items: &mut [T],
    f: impl Fn(usize, &mut T) -> R + Sync + Send,
) -> Vec<R> {
    #[cfg(feature = "parallel")]
    return items.par_iter_mut().enumerate().map(|(i, t)| f(i, t)).collect();
    #[cfg(not(feature = "parallel"))]
    return items.iter_mut().enumerate().map(|(i, t)| f(i, t)).collect();
}

/// `[f(0), f(1), …, f(n − 1)]`.
pub fn map_range<T: Send>(n: usize, f: impl Fn(usize) -> T + Sync + Send) -> Vec<T> {
    #[cfg(feature = "parallel")]
    return (0..n).into_par_iter().map(f).collect();
    #[cfg(not(feature = "parallel"))]
    return (0..n).map(f).collect();
}

/// Like [`map_range`], with a scratch value made by `init` for each worker and handed
/// to `f` (a buffer to reuse, never a result: `f` must not let one index's answer
/// depend on it).
pub fn map_range_with<S, T: Send>(
    n: usize,
    init: impl Fn() -> S + Sync + Send,
    f: impl Fn(&mut S, usize) -> T + Sync + Send,
) -> Vec<T> {
    #[cfg(feature = "parallel")]
    return (0..n).into_par_iter().map_init(init, f).collect();
    #[cfg(not(feature = "parallel"))]
    {
        let mut scratch = init();
        (0..n).map(|i| f(&mut scratch, i)).collect()
    }
}

/// Calls `f(scratch, i, &mut items[i])` for every index: each call writes only its
/// own item, and `scratch` (made by `init` for each worker) is a buffer to reuse,
/// never a source of results.
pub fn for_each_indexed_with<S, T: Send>(
    items: &mut [T],
    init: impl Fn() -> S + Sync + Send,
    f: impl Fn(&mut S, usize, &mut T) + Sync + Send,
) {
    #[cfg(feature = "parallel")]
    items
        .par_iter_mut()
        .enumerate()
        .for_each_init(init, |scratch, (i, item)| f(scratch, i, item));
    #[cfg(not(feature = "parallel"))]
    {
        let mut scratch = init();
        for (i, item) in items.iter_mut().enumerate() {
            f(&mut scratch, i, item);
        }
    }
}

/// Calls `f(item, chunk)` for every item and the consecutive `chunk_len`-long chunk
/// of `data` with the same index: each item reads its own slice of a state vector.
pub fn zip_chunks<T: Send>(
    items: &mut [T],
    data: &[f64],
    chunk_len: usize,
    f: impl Fn(&mut T, &[f64]) + Sync + Send,
) {
    #[cfg(feature = "parallel")]
    if items.len() >= SERIAL_BELOW {
        items
            .par_iter_mut()
            .zip(data.par_chunks_exact(chunk_len))
            .for_each(|(item, chunk)| f(item, chunk));
        return;
    }
    items
        .iter_mut()
        .zip(data.chunks_exact(chunk_len))
        .for_each(|(item, chunk)| f(item, chunk));
}

/// Calls `f(item, chunk)` for every item and the consecutive `chunk_len`-long chunk
/// of `out` with the same index: each item writes its own slice of a derivative
/// vector.
pub fn zip_chunks_mut<T: Sync>(
    items: &[T],
    out: &mut [f64],
    chunk_len: usize,
    f: impl Fn(&T, &mut [f64]) + Sync + Send,
) {
    #[cfg(feature = "parallel")]
    if items.len() >= SERIAL_BELOW {
        items
            .par_iter()
            .zip(out.par_chunks_exact_mut(chunk_len))
            .for_each(|(item, chunk)| f(item, chunk));
        return;
    }
    items
        .iter()
        .zip(out.chunks_exact_mut(chunk_len))
        .for_each(|(item, chunk)| f(item, chunk));
}

/// How many threads the loops above use: rayon's pool size, or 1 without `parallel`.
pub fn threads() -> usize {
    #[cfg(feature = "parallel")]
    return rayon::current_num_threads();
    #[cfg(not(feature = "parallel"))]
    return 1;
}

/// `f()` run with the loops above on one thread: what a speed-up is measured against.
/// None if the one-thread pool could not be started (the system refused a thread).
pub fn on_one_thread<T: Send>(f: impl FnOnce() -> T + Send) -> Option<T> {
    #[cfg(feature = "parallel")]
    return rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .ok()
        .map(|pool| pool.install(f));
    #[cfg(not(feature = "parallel"))]
    return Some(f());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_index_order() {
        let squares = map_range(1000, |i| i * i);
        assert!(squares.iter().enumerate().all(|(i, s)| *s == i * i));
        let with = map_range_with(100, Vec::<usize>::new, |buf, i| {
            buf.clear();
            buf.extend(0..i);
            buf.len()
        });
        assert_eq!(with, (0..100).collect::<Vec<_>>());
        let mut items = vec![0.0; 4];
        zip_chunks(
            &mut items,
            &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
            2,
            |x, c| {
                *x = c[0] + c[1];
            },
        );
        assert_eq!(items, [3.0, 7.0, 11.0, 15.0]);
        let mut out = vec![0.0; 8];
        zip_chunks_mut(&items, &mut out, 2, |x, c| c.fill(*x));
        assert_eq!(out, [3.0, 3.0, 7.0, 7.0, 11.0, 11.0, 15.0, 15.0]);
        for_each_mut(&mut items, |x| *x *= 2.0);
        assert_eq!(items, [6.0, 14.0, 22.0, 30.0]);
        assert!(threads() >= 1);
        assert_eq!(on_one_thread(threads), Some(1));
        assert_eq!(on_one_thread(|| map_range(10, |i| i)), Some((0..10).collect()));
    }
}
