//! Lists of ids held flat: one vector of every list's items one after
//! another and one of where each list starts (compressed sparse rows).
//! The dependency graph keeps its edges so ([`DepGraph`](super::graph::DepGraph)'s
//! readers, containing areas and reads): a list per formula cell held in
//! place cost 24 bytes a list, a flat list costs 4 bytes and 4 an item
//! (8 bytes where a chain cell has one: the three lists of 100,000 chain
//! cells 7.2 → 2.4 MB).
//! Lists are built once, in order; an edit that changes some builds them
//! again ([`Lists::replaced`]), which costs what deriving the schedule
//! after it costs already.

/// Lists of `T`, by position.
#[derive(Clone, Debug)]
pub struct Lists<T> {
    /// Where each list starts in `items`, and one past the last.
    starts: Vec<u32>,
    items: Vec<T>,
}

/// A position in the items as a start. Lists of 2^32 items or more (16 GB
/// of them) cannot be told where they start: that ends as a vector that
/// cannot grow ends, the process aborting with the memory it would need.
/// Only formulas reading wide areas full of formula cells come near (a
/// cell's containing areas grow with them: see `docs/limits.md`).
fn start(len: usize) -> u32 {
    u32::try_from(len).unwrap_or_else(|_| std::alloc::handle_alloc_error(too_many(len)))
}

/// The memory `len` items of four bytes take, as a layout.
fn too_many(len: usize) -> std::alloc::Layout {
    std::alloc::Layout::array::<u32>(len).unwrap_or(std::alloc::Layout::new::<u32>())
}

impl<T: Copy> Lists<T> {
    /// No lists, with room for `lists` lists of `items` items in all.
    pub fn with_capacity(lists: usize, items: usize) -> Lists<T> {
        let mut starts = Vec::with_capacity(lists + 1);
        starts.push(0);
        Lists { starts, items: Vec::with_capacity(items) }
    }

    /// `lists` lists, list `i` holding the items `each` gives with `i`, in
    /// the order it gives them. `each` is called twice, to count and then
    /// to place, and must give the same items both times: no pairs are
    /// held between (a vector of them was 8 MB at the peak of loading
    /// 100,000 cumulative sums).
    pub fn grouped(lists: usize, each: impl Fn(&mut dyn FnMut(usize, T))) -> Lists<T> {
        let mut starts = vec![0u32; lists + 1];
        let (mut total, mut first) = (0usize, None);
        each(&mut |i, x| {
            starts[i + 1] = starts[i + 1].saturating_add(1);
            total += 1;
            first.get_or_insert(x);
        });
        // Every start is at most the count of all the items.
        start(total);
        (1..starts.len()).for_each(|i| starts[i] += starts[i - 1]);
        let Some(first) = first else { return Lists { starts, items: Vec::new() } };
        let mut next = starts.clone();
        // Every item is written once; the first fills the room first.
        let mut items = vec![first; total];
        each(&mut |i, x| {
            items[next[i] as usize] = x;
            next[i] += 1;
        });
        Lists { starts, items }
    }

    /// The next list: `list`'s items.
    pub fn push(&mut self, list: impl IntoIterator<Item = T>) {
        self.items.extend(list);
        self.starts.push(start(self.items.len()));
    }

    /// How many lists there are.
    pub fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// List `i`.
    #[inline]
    pub fn get(&self, i: usize) -> &[T] {
        let bounds = &self.starts[i..i + 2];
        &self.items[bounds[0] as usize..bounds[1] as usize]
    }

    /// List `i`, or an empty one past the last (lists made only when
    /// some would not be empty).
    #[inline]
    pub fn get_or_empty(&self, i: usize) -> &[T] {
        match i < self.len() {
            true => self.get(i),
            false => &[],
        }
    }

    /// How many items the lists hold together.
    pub fn items(&self) -> usize {
        self.items.len()
    }

    /// The lists in order.
    pub fn iter(&self) -> impl Iterator<Item = &[T]> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// The lists with those of `changed` (position, new list; ascending
    /// positions) replaced.
    pub fn replaced(&self, changed: &[(usize, &[T])]) -> Lists<T> {
        let mut out = Lists::with_capacity(self.len(), self.items.len());
        let mut changed = changed.iter().peekable();
        for i in 0..self.len() {
            match changed.next_if(|(at, _)| *at == i) {
                Some((_, list)) => out.push(list.iter().copied()),
                None => out.push(self.get(i).iter().copied()),
            }
        }
        out
    }

    /// `lists` lists, list `j` holding the positions of the lists here
    /// that hold an item at `j` (`at` tells where), in ascending order:
    /// the lists the other way round.
    pub fn transposed<U: Copy>(&self, lists: usize, at: impl Fn(T) -> usize, id: impl Fn(usize) -> U) -> Lists<U> {
        // As many items as here, whose count was checked as a start.
        let mut starts = vec![0u32; lists + 1];
        self.items.iter().for_each(|&x| starts[at(x) + 1] += 1);
        (1..starts.len()).for_each(|i| starts[i] += starts[i - 1]);
        let mut next = starts.clone();
        // Every item is written once; the first list's position fills the room first.
        let mut items: Vec<U> = vec![id(0); self.items.len()];
        for i in 0..self.len() {
            for &x in self.get(i) {
                let j = at(x);
                items[next[j] as usize] = id(i);
                next[j] += 1;
            }
        }
        Lists { starts, items }
    }
}

/// List `i`, as `lists[i]`.
impl<T: Copy> std::ops::Index<usize> for Lists<T> {
    type Output = [T];

    #[inline]
    fn index(&self, i: usize) -> &[T] {
        self.get(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(l: &Lists<u32>) -> Vec<Vec<u32>> {
        l.iter().map(<[u32]>::to_vec).collect()
    }

    #[test]
    fn lists_are_pushed_grouped_replaced_and_transposed() {
        let mut l = Lists::with_capacity(3, 4);
        l.push([2, 0]);
        l.push([]);
        l.push([1, 2]);
        assert_eq!(show(&l), vec![vec![2, 0], vec![], vec![1, 2]]);
        assert_eq!(l.len(), 3);
        let pairs = [(3, 7), (0, 5), (3, 6), (0, 4)];
        let g = Lists::grouped(4, |put| pairs.iter().for_each(|&(i, x)| put(i, x)));
        assert_eq!(show(&g), vec![vec![5, 4], vec![], vec![], vec![7, 6]]);
        let r = l.replaced(&[(1, &[9, 8][..]), (2, &[][..])]);
        assert_eq!(show(&r), vec![vec![2, 0], vec![9, 8], vec![]]);
        let t = l.transposed(4, |x| x as usize, |i| i as u32);
        assert_eq!(show(&t), vec![vec![0], vec![2], vec![0, 2], vec![]]);
        assert_eq!(show(&Lists::<u32>::with_capacity(0, 0)), Vec::<Vec<u32>>::new());
        assert_eq!((l.get_or_empty(2), l.get_or_empty(3)), (&[1, 2][..], &[][..]));
    }
}
