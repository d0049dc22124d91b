//! The work meter: what a call is about to do, counted in what that work is made of, and
//! refused before it starts when it is over the call's budget.
//!
//! The caps of [`limits`](crate::limits) count items: nodes, points, keys. An item's cost is
//! not fixed, though: a point of ringlab's ring hashes its label, and the label template and
//! the node's name set how long that is (a template repeating `{name}` nine times under
//! SHA-256 made one constructor hash about a gigabyte); a key compared by two clients is
//! hashed by each, at whatever length it has; a preference list of `n` nodes may walk past
//! every point of the `n − 1` before it. So a call that does such work first works out how
//! much, as one of the [`Cost`]s, and asks [`charge`]: over the budget, it is refused with
//! [`Error::TooLarge`] (code `too-large`) naming the cost, the budget and the amount, and
//! nothing has changed. Every budget lives here, and every refusal for work is minted here.
//!
//! The costs of one call share one budget: each [`Cost::budget`] is about the same time, and
//! the fractions of them a call uses add up to at most 1.
//!
//! The caps on items stay, as fast checks made first; the meter bounds what they multiply.
//!
//! ```
//! use ringlab::work::{self, Cost};
//!
//! assert!(work::charge(Cost::HashedBytes, 1 << 20).is_ok());
//! let err = work::charge(Cost::HashedBytes, Cost::HashedBytes.budget() + 1).unwrap_err();
//! assert_eq!(err.code(), "too-large");
//! assert!(err.to_string().contains("bytes hashed"));
//! ```

use crate::Error;
use std::cell::Cell;

/// What a call's work is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Cost {
    /// Bytes hashed, each weighted by its hash's cost ([`Hash::work_per_byte`](crate::Hash::work_per_byte):
    /// 1 for the fast hashes, more for MD5 and SHA-256), so the budget is about the same time
    /// whichever hash a ring uses.
    HashedBytes,
    /// Points or entries stepped past while walking a ring, a table or a list of candidates.
    Probes,
    /// Pairs compared: of keys, of states, of nodes.
    Pairs,
    /// Cells of a lookup table filled (Maglev's), each a choice among the nodes'
    /// permutations, and points of a client's continuum (four cells each: a digest and a
    /// sort): a table rebuilt on every change of an analysis counts each time.
    Cells,
    /// Key lookups, each weighted by its cost ([`Cluster::lookup_cost`](crate::algo::Cluster::lookup_cost),
    /// about 0.1 µs natively a unit): a lookup that walks (DxHash's probes through a mostly
    /// empty array) counts as many.
    Lookups,
}

impl Cost {
    /// Every cost, in the order the docs list them.
    pub const ALL: [Cost; 5] = [Cost::HashedBytes, Cost::Probes, Cost::Pairs, Cost::Cells, Cost::Lookups];

    /// What the refusal says was too much.
    pub fn name(self) -> &'static str {
        match self {
            Cost::HashedBytes => "bytes hashed (weighted by the hash's cost) in one call",
            Cost::Probes => "points or entries walked in one call",
            Cost::Pairs => "pairs compared in one call",
            Cost::Cells => "table cells filled in one call",
            Cost::Lookups => "key lookups (weighted by their cost) in one call",
        }
    }

    /// The most of it one call may do: each about 250 ms natively at the worst rate it is
    /// done at (SHA-256 labels; a preference list's walk; two placements compared), which
    /// keeps a call within about half a second in a browser.
    pub fn budget(self) -> u64 {
        match self {
            // 32 MiB of SHA-256 (weight 8), or 256 MiB of XXH3.
            Cost::HashedBytes => 256 << 20,
            Cost::Probes => 50_000_000,
            Cost::Pairs => 50_000_000,
            Cost::Cells => CELLS_BUDGET,
            // 250 ms in units of 0.1 µs.
            Cost::Lookups => 2_500_000,
        }
    }
}

/// [`Cost::Cells`]' budget: a Maglev table of 500,009 cells over 200 nodes filled in 42 ms
/// natively (`examples/meter.rs`, the 2-core VM under load), so six such tables.
const CELLS_BUDGET: u64 = 3_000_000;

impl Cost {
    fn index(self) -> usize {
        match self {
            Cost::HashedBytes => 0,
            Cost::Probes => 1,
            Cost::Pairs => 2,
            Cost::Cells => 3,
            Cost::Lookups => 4,
        }
    }
}

std::thread_local! {
    /// What the call in progress ([`call`]) has charged so far, per cost; `None` outside a call.
    static SPENT: Cell<Option<[u64; Cost::ALL.len()]>> = const { Cell::new(None) };
}

/// Runs `f` as one call: what it [`charge`]s adds up, and a charge that would take the sum
/// past a budget is refused. Every export of the JS binding runs in one, and so do the
/// engine calls made of many pieces (a sizing's ring builds), so that `k` pieces each under
/// the budget cannot add up to `k` budgets. A call inside a call is part of the outer one
/// (it neither starts from zero nor gets a budget of its own); leaving the outermost call,
/// even by a panic, ends the count.
pub fn call<T>(f: impl FnOnce() -> T) -> T {
    // Entering and leaving are not generic: every export instantiates this, and the wasm
    // module carries each instance.
    let _scope = Scope::enter();
    f()
}

/// A [`call`] in progress: puts back what was there before when it ends (`None` for an
/// outermost call; an inner call's work stays the outer one's).
struct Scope {
    outermost: bool,
}

impl Scope {
    #[inline(never)]
    fn enter() -> Scope {
        SPENT.with(|s| {
            let outer = s.get();
            s.set(Some(outer.unwrap_or_default()));
            Scope { outermost: outer.is_none() }
        })
    }
}

impl Drop for Scope {
    #[inline(never)]
    fn drop(&mut self) {
        if self.outermost {
            SPENT.with(|s| s.set(None));
        }
    }
}

/// What the call in progress has charged of `cost` so far (0 outside a [`call`]).
pub fn spent(cost: Cost) -> u64 {
    SPENT.with(|s| s.get().map_or(0, |spent| spent[cost.index()]))
}

/// `Err(TooLarge)` naming `cost` when `amount`, added to what the call in progress has
/// charged already, is over the call's budget (outside a [`call`], when `amount` alone is
/// over `cost`'s). Call it before the work: a refused charge adds nothing.
///
/// The costs share one budget: each [`Cost::budget`] is about the same time, so what a call
/// may still do of `cost` is its budget less the fraction of their budgets the call's other
/// costs have used (hashing half the bytes leaves half the probes). Each alone within its
/// budget, several costs together would otherwise add up to several calls' time.
pub fn charge(cost: Cost, amount: u64) -> Result<(), Error> {
    SPENT.with(|s| match s.get() {
        None => crate::limits::check(cost.name(), amount, cost.budget()),
        Some(mut spent) => {
            check(&spent, cost, amount)?;
            spent[cost.index()] = spent[cost.index()].saturating_add(amount);
            s.set(Some(spent));
            Ok(())
        }
    })
}

/// `Err(TooLarge)` as [`charge`] would answer for `amount`, without charging it: for a call
/// that can bound its work before it starts, when its pieces charge what each really does
/// as they go.
pub fn afford(cost: Cost, amount: u64) -> Result<(), Error> {
    SPENT.with(|s| check(&s.get().unwrap_or_default(), cost, amount))
}

/// Whether `amount` more of `cost` fits the one budget `spent` has used part of: the sum
/// over the costs of spent / budget stays at most 1.
fn check(spent: &[u64; Cost::ALL.len()], cost: Cost, amount: u64) -> Result<(), Error> {
    // IEEE arithmetic, so the same everywhere; a budget's fraction is exact to far below one
    // unit of any budget.
    let others: f64 =
        Cost::ALL.iter().filter(|&&c| c != cost).map(|&c| spent[c.index()] as f64 / c.budget() as f64).sum();
    // What of `cost` the others leave, rounded down.
    let left = ((1.0 - others).max(0.0) * cost.budget() as f64) as u64;
    crate::limits::check(cost.name(), spent[cost.index()].saturating_add(amount), left)
}

/// The weighted bytes of hashing `count` texts of `len` bytes each with a hash that costs
/// `per_byte` (saturating: an overflow is over any budget).
pub fn hashed(count: u64, len: u64, per_byte: u64) -> u64 {
    count.saturating_mul(len).saturating_mul(per_byte)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_cost_is_refused_just_past_its_budget_and_named() {
        for cost in Cost::ALL {
            assert!(charge(cost, cost.budget()).is_ok(), "{cost:?} at its budget");
            let err = charge(cost, cost.budget() + 1).unwrap_err();
            assert_eq!(err.code(), "too-large");
            assert!(err.to_string().contains(cost.name()), "{err}");
        }
        assert_eq!(hashed(u64::MAX, 2, 8), u64::MAX);
    }

    #[test]
    fn the_costs_of_one_call_share_its_budget() {
        call(|| {
            charge(Cost::HashedBytes, Cost::HashedBytes.budget() / 2).unwrap();
            charge(Cost::Probes, Cost::Probes.budget() / 4).unwrap();
            // A quarter of the budget is left, in whichever cost.
            let err = charge(Cost::Pairs, Cost::Pairs.budget() / 4 + 1).unwrap_err();
            assert!(err.to_string().contains(Cost::Pairs.name()), "{err}");
            assert!(afford(Cost::Cells, Cost::Cells.budget() / 4).is_ok());
            assert!(afford(Cost::Cells, Cost::Cells.budget() / 4 + 1).is_err());
            charge(Cost::Pairs, Cost::Pairs.budget() / 4).unwrap();
            assert!(charge(Cost::Lookups, 1).is_err());
            assert_eq!(spent(Cost::Lookups), 0);
        });
    }
}
