//! Work spread over threads: rayon's pool when the crate is built with the feature `rayon`
//! (a default feature of `probdml`), the calling thread otherwise.
//!
//! Results never depend on the thread count: each item's work is independent, and the results
//! come back in the order of the items. Without the feature a program spawns no thread and the
//! crate pulls in no threading dependency (`probdml` with `default-features = false`).

/// `f(i, item)` for every item, in the order of the items; on the current pool when
/// `parallel` (and the feature `rayon` is on), else on the calling thread.
pub fn map_indexed<T: Send, R: Send>(
    items: Vec<T>,
    parallel: bool,
    f: impl Fn(usize, T) -> R + Sync + Send,
) -> Vec<R> {
    #[cfg(feature = "rayon")]
    if parallel {
        use rayon::prelude::*;
        return items
            .into_par_iter()
            .enumerate()
            .map(|(i, t)| f(i, t))
            .collect();
    }
    let _ = parallel;
    items
        .into_iter()
        .enumerate()
        .map(|(i, t)| f(i, t))
        .collect()
}

/// `f(scratch, item)` for every item, in any order, with one scratch per worker made by
/// `init`; on the current pool when `parallel` (and the feature `rayon` is on), else on the
/// calling thread with one scratch.
pub fn for_each_with_scratch<T: Sync, S>(
    items: &[T],
    parallel: bool,
    init: impl Fn() -> S + Sync + Send,
    f: impl Fn(&mut S, &T) + Sync + Send,
) {
    #[cfg(feature = "rayon")]
    if parallel {
        use rayon::prelude::*;
        items.par_iter().for_each_init(init, f);
        return;
    }
    let _ = parallel;
    let mut scratch = init();
    for item in items {
        f(&mut scratch, item);
    }
}

/// Runs `f` with the pool of [`map_indexed`] and [`for_each_with_scratch`] set to `threads`
/// threads (`None`: the global pool, which `RAYON_NUM_THREADS` sizes). Without the feature
/// `rayon`, `f` runs as it is. `Err` if the operating system does not start the threads.
pub fn with_threads<R: Send>(
    threads: Option<usize>,
    f: impl FnOnce() -> R + Send,
) -> Result<R, std::io::Error> {
    #[cfg(feature = "rayon")]
    if let Some(threads) = threads.filter(|&t| t > 1) {
        return rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map(|pool| pool.install(f))
            .map_err(std::io::Error::other);
    }
    let _ = threads;
    Ok(f())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_the_order_of_the_items_on_any_pool() {
        let items: Vec<u64> = (0..1000).collect();
        for threads in [None, Some(1), Some(3)] {
            for parallel in [false, true] {
                let out = with_threads(threads, || {
                    map_indexed(items.clone(), parallel, |i, v| (i as u64) * 1000 + v)
                })
                .expect("threads start");
                assert!(out.iter().enumerate().all(|(i, &v)| v == i as u64 * 1001));
            }
        }
    }

    #[test]
    fn every_item_is_visited_once() {
        use std::sync::atomic::{AtomicU64, Ordering};
        let items: Vec<u64> = (1..=500).collect();
        for parallel in [false, true] {
            let sum = AtomicU64::new(0);
            for_each_with_scratch(
                &items,
                parallel,
                || 0u64,
                |scratch, &v| {
                    *scratch += 1;
                    sum.fetch_add(v, Ordering::Relaxed);
                },
            );
            assert_eq!(sum.into_inner(), 500 * 501 / 2);
        }
    }
}
