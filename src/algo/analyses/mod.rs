//! What the engine tells about algorithms beyond placing keys: every algorithm side by side
//! (`compare`), the papers' metrics (`metrics`), whether two clients agree (`agreement`), a
//! key's way to its owner (`explain`), and what a user's key list puts on each node (`loads`).

// Their files name the catalog's machinery as `super::…`, as files of `algo` itself.
use super::*;

pub mod agreement;
pub mod compare;
pub mod explain;
pub mod loads;
pub mod metrics;

/// Refuses a list of algorithms that names one twice: each row is one algorithm's, and a
/// repeat would only do its work again.
pub(crate) fn check_distinct(algorithms: &[Algorithm]) -> Result<(), Error> {
    for (i, a) in algorithms.iter().enumerate() {
        if algorithms[..i].contains(a) {
            let message = format!("the algorithms list {} twice: name each once", a.name());
            return Err(Error::invalid_option("algorithms", message));
        }
    }
    Ok(())
}
