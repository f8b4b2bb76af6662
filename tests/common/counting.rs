//! A counting global allocator for the memory tests (`parse_memory`,
//! `load_memory`): every call is forwarded to the system allocator, and the
//! bytes held are counted, with the most held at once since the last
//! [`reset_peak`]. A test binary installs it with
//! `#[global_allocator] static ALLOCATOR: Counting = Counting;` and holds one
//! test, since the tests of a binary run side by side on threads.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

pub struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);

fn add(bytes: isize) {
    let live = LIVE.fetch_add(bytes, Ordering::SeqCst) + bytes;
    PEAK.fetch_max(live, Ordering::SeqCst);
}

// SAFETY: every call is forwarded to the system allocator unchanged; the
// counters only add and subtract the sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        add(layout.size() as isize);
        // SAFETY: the caller's layout is passed on as given.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        add(-(layout.size() as isize));
        // SAFETY: `ptr` was allocated by `System` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // Counted as held twice while it moves, as it may be.
        add(new_size as isize);
        add(-(layout.size() as isize));
        // SAFETY: `ptr` was allocated by `System` with this layout, as the
        // caller guarantees.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// The bytes held now.
pub fn live() -> isize {
    LIVE.load(Ordering::SeqCst)
}

/// Starts counting the peak again from the bytes held now, which it returns.
pub fn reset_peak() -> isize {
    let live = live();
    PEAK.store(live, Ordering::SeqCst);
    live
}

/// The most bytes held at once since [`reset_peak`].
pub fn peak() -> isize {
    PEAK.load(Ordering::SeqCst)
}
