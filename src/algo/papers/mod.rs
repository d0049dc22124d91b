//! The published algorithms, each as its paper gives it: jump, rendezvous, Maglev,
//! multi-probe, bounded loads, AnchorHash, DxHash, MementoHash, JumpBackHash, FlipHash,
//! BinomialHash, power consistent hashing (`Family::Paper`).

// The algorithms' files name the catalog's machinery and shapes as `super::…`, as
// files of `algo` itself.
use super::*;

pub mod anchor;
pub mod binomial;
pub mod bounded;
pub mod dx;
pub mod flip;
pub mod jump;
pub mod jumpback;
pub mod maglev;
pub mod memento;
pub mod multiprobe;
pub mod power;
pub mod rendezvous;
