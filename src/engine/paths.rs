//! Which evaluation paths a program and its engines take. Besides the tree
//! walker, seven fast paths compute formulas: repeated subformulas shared
//! between cells (`engine::share`), shared counts kept across the writes
//! that leave them as they are (`engine::share::counted`), name bindings reused between cells
//! (`eval::bind::memo`), the compiled kernels (`eval::kernel`), arrays
//! of numbers or booleans kept as `f64` buffers with their loops
//! (`value::Array::dense`, `eval::ops::dense`), aggregates over growing
//! ranges continuing a remembered fold (`grid::folds`), and dirty marks
//! for only what a formula's last evaluation read (`engine::touched`).
//! Each is an optimisation only: every combination gives the same values,
//! and the switches here exist so that tests can show it (the formula
//! corpus and the property tests run under [`Paths::EACH`]). Excel's rules themselves have one
//! home each (`eval::ops::rules`, the function registry); the paths call
//! them.

use super::program::Sharing;

/// The fast paths a program is built with and its engines evaluate with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paths {
    /// Subformulas repeated between formulas are evaluated once per pass
    /// (decided when the program is built).
    pub sharing: bool,
    /// A shared count is kept across writes that leave the cells meeting
    /// its criterion as they were, and marks only its users dirty when
    /// it changes (decided when the program is built; with `sharing`).
    pub counts: bool,
    /// A name's binding is reused by the cells that bind it alike (when
    /// the program is built).
    pub bind_memo: bool,
    /// Formulas that have a kernel are run through it (engines start with
    /// this; `Engine::set_kernels` changes it).
    pub kernels: bool,
    /// Arrays of numbers or booleans are kept dense, and the operators and
    /// functions take their loops over the buffers (engines).
    pub dense: bool,
    /// SUM, AVERAGE and COUNT over a range taller than a block continue
    /// the fold remembered for the same range ending higher (engines'
    /// grids, `grid::folds`).
    pub folds: bool,
    /// A change marks dirty only the formulas whose last evaluation read
    /// it, not every formula that may read it (engines start with this,
    /// `engine::touched`; `Engine::set_dynamic_reads` changes it).
    pub reads: bool,
}

impl Paths {
    /// Every fast path: what dataflow runs with.
    pub const ALL: Paths =
        Paths { sharing: true, counts: true, bind_memo: true, kernels: true, dense: true, folds: true, reads: true };

    /// The tree walker alone, every value built as the general path builds
    /// it: the reference the fast paths are compared with.
    pub const WALKER: Paths = Paths {
        sharing: false,
        counts: false,
        bind_memo: false,
        kernels: false,
        dense: false,
        folds: false,
        reads: false,
    };

    /// What `dataflow check` builds with: binding's shared bindings and
    /// the engines' own paths, but none of the paths compiled when the
    /// program is built (shared subformulas, kept counts, kernels). A
    /// check calculates nothing, so compiling them would only cost time;
    /// a program built so calculates the same values, more slowly.
    pub const CHECK: Paths = Paths { sharing: false, counts: false, kernels: false, ..Paths::ALL };

    /// The walker alone, each fast path alone, and all of them: the
    /// combinations the tests run every case through.
    pub const EACH: [Paths; 9] = [
        Paths::WALKER,
        Paths { sharing: true, ..Paths::WALKER },
        Paths { sharing: true, counts: true, ..Paths::WALKER },
        Paths { bind_memo: true, ..Paths::WALKER },
        Paths { kernels: true, ..Paths::WALKER },
        Paths { dense: true, ..Paths::WALKER },
        Paths { folds: true, ..Paths::WALKER },
        Paths { reads: true, ..Paths::WALKER },
        Paths::ALL,
    ];

    /// What [`Program::build_with`](super::Program::build_with) has always
    /// meant by a [`Sharing`]: `Off` is the plain evaluation, with neither
    /// shared subformulas nor kernels.
    pub fn of_sharing(sharing: Sharing) -> Paths {
        match sharing {
            Sharing::On => Paths::ALL,
            Sharing::Off => Paths { sharing: false, counts: false, kernels: false, ..Paths::ALL },
        }
    }

    /// A short name for messages: `walker`, `all`, or the paths that are on
    /// joined by `+`.
    pub fn name(&self) -> String {
        if *self == Paths::WALKER {
            return "walker".into();
        }
        if *self == Paths::ALL {
            return "all".into();
        }
        let on = [
            (self.sharing, "sharing"),
            (self.counts, "counts"),
            (self.bind_memo, "bind-memo"),
            (self.kernels, "kernels"),
            (self.dense, "dense"),
            (self.folds, "folds"),
            (self.reads, "reads"),
        ];
        on.iter().filter(|(on, _)| *on).map(|(_, n)| *n).collect::<Vec<_>>().join("+")
    }
}

impl Default for Paths {
    fn default() -> Self {
        Paths::ALL
    }
}
