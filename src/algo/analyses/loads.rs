//! What a user's key list puts on a placement, and what a change does to it (kept here, with
//! the placements, so that `keys` needs nothing from `algo`).

use super::Cluster;
use crate::keys::KeyList;

/// What a user's key list puts on each node of a placement.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListLoads {
    /// Keys per node, indexed like the placement's nodes.
    pub keys: Vec<u64>,
    /// Requests per node (the keys' counts).
    pub traffic: Vec<u128>,
    /// Keys no node serves right now (a down owner that nothing replaces) and their requests.
    pub unavailable_keys: u64,
    pub unavailable_traffic: u128,
}

/// Each key of `list` located on `cluster`: keys and requests per node.
///
/// ```
/// use ringlab::algo::{Algorithm, Cluster, Options};
/// use ringlab::algo::loads::list_loads;
/// use ringlab::keys::parse_key_list;
/// let cluster = Cluster::new(Options::new(Algorithm::Ring), ["a", "b"])?;
/// let loads = list_loads(&cluster, &parse_key_list("x,5\ny,1\nz,2")?)?;
/// assert_eq!(loads.keys.iter().sum::<u64>(), 3);
/// assert_eq!(loads.traffic.iter().sum::<u128>(), 8);
/// # Ok::<(), ringlab::Error>(())
/// ```
pub fn list_loads(cluster: &Cluster, list: &KeyList) -> Result<ListLoads, crate::Error> {
    let n = cluster.nodes().len();
    let mut loads = ListLoads { keys: vec![0; n], traffic: vec![0; n], unavailable_keys: 0, unavailable_traffic: 0 };
    for (key, &count) in list.keys.iter().zip(&list.counts) {
        match cluster.locate_index(key) {
            Ok(i) => {
                loads.keys[i] += 1;
                loads.traffic[i] += u128::from(count);
            }
            Err(crate::Error::Unavailable(_)) => {
                loads.unavailable_keys += 1;
                loads.unavailable_traffic += u128::from(count);
            }
            Err(e) => return Err(e),
        }
    }
    Ok(loads)
}

/// What a change did to a user's key list.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListMove {
    pub keys: u64,
    /// Keys served by another node after the change.
    pub moved_keys: u64,
    /// Keys that had a node and have none after it (a down owner nothing replaces).
    pub lost_keys: u64,
    /// `moved_keys / keys`, and the same for their requests.
    pub moved_fraction: f64,
    pub moved_traffic_fraction: f64,
    /// `lost_keys / keys`, and the same for their requests.
    pub lost_fraction: f64,
    pub lost_traffic_fraction: f64,
}

/// Which keys of `list` change node (or lose it) from `before` to `after`.
pub fn list_moved(before: &Cluster, after: &Cluster, list: &KeyList) -> Result<ListMove, crate::Error> {
    let (mut moved, mut lost, mut moved_traffic, mut lost_traffic) = (0u64, 0u64, 0u128, 0u128);
    for (key, &count) in list.keys.iter().zip(&list.counts) {
        let old = match before.locate(key) {
            Ok(name) => Some(name),
            Err(crate::Error::Unavailable(_)) => None,
            Err(e) => return Err(e),
        };
        match (old, after.locate(key)) {
            (Some(a), Ok(b)) if a != b => {
                moved += 1;
                moved_traffic += u128::from(count);
            }
            (Some(_), Err(crate::Error::Unavailable(_))) => {
                lost += 1;
                lost_traffic += u128::from(count);
            }
            (_, Err(crate::Error::Unavailable(_))) | (_, Ok(_)) => {}
            (_, Err(e)) => return Err(e),
        }
    }
    let keys = list.keys.len() as u64;
    let total = list.total_count();
    let frac = |x: u128, of: u128| if of == 0 { 0.0 } else { x as f64 / of as f64 };
    Ok(ListMove {
        keys,
        moved_keys: moved,
        lost_keys: lost,
        moved_fraction: frac(u128::from(moved), u128::from(keys)),
        moved_traffic_fraction: frac(moved_traffic, total),
        lost_fraction: frac(u128::from(lost), u128::from(keys)),
        lost_traffic_fraction: frac(lost_traffic, total),
    })
}
