//! The orders in which AMD's OpenCL compilers list things they keep in LLVM's hash
//! containers, which their binaries show: the sampler lines of the metadata (names in a
//! `StringMap`) and, on drivers before 1124.02, the UAVs of the UAV note (ids in a
//! `DenseMap<unsigned, …>`). The compilers of drivers 1016.4 to 1642.5 were built on LLVM
//! 3.x, whose containers these functions replay:
//!
//! - `StringMap` (llvm/lib/Support/StringMap.cpp, `StringMapImpl::LookupBucketFor` and
//!   `RehashTable`): 16 buckets at first, doubled when an insertion leaves more than 3/4
//!   of them full; a name goes to bucket `HashString(name) & (buckets − 1)`, probing
//!   quadratically (1, 2, 3, … buckets further) past used ones; iteration is bucket
//!   order. `HashString` (llvm/include/llvm/ADT/StringExtras.h of LLVM 3.x) is
//!   Bernstein's hash: h = h · 33 + byte, from 0.
//! - `DenseMap<unsigned, …>` (llvm/include/llvm/ADT/DenseMap.h, `LookupBucketFor`,
//!   `grow`): 64 buckets at the first insertion, doubled when an insertion would leave 3/4
//!   of them or more full; key k goes to bucket `k · 37 & (buckets − 1)`
//!   (`DenseMapInfo<unsigned>::getHashValue`), probing as above; iteration is bucket
//!   order.
//!
//! The tables are rebuilt by reinserting in old bucket order on growth, as both
//! containers do.

/// Bernstein's string hash of LLVM 3.x's `HashString`.
fn hash_string(name: &str) -> u32 {
    name.bytes()
        .fold(0u32, |h, b| h.wrapping_mul(33).wrapping_add(u32::from(b)))
}

/// Inserts `hash`'s item `item` into `table` (a power-of-two length) with quadratic
/// probing; the slot must be free eventually (the table is never full).
fn place(table: &mut [Option<(u32, usize)>], hash: u32, item: usize) {
    let mask = table.len() - 1;
    let mut bucket = hash as usize & mask;
    let mut probe = 1;
    while table[bucket].is_some() {
        bucket = (bucket + probe) & mask;
        probe += 1;
    }
    table[bucket] = Some((hash, item));
}

/// The iteration order of a hash table filled with `hashes` in order: 16 or 64 buckets
/// at first, doubled when `full(entries, buckets)` says so after (StringMap) or before
/// (DenseMap) an insertion.
fn iteration_order(hashes: &[u32], first_buckets: usize, grow_before: bool) -> Vec<usize> {
    let mut table: Vec<Option<(u32, usize)>> = vec![None; first_buckets];
    let mut entries = 0usize;
    let rehash = |table: &mut Vec<Option<(u32, usize)>>| {
        let old = std::mem::replace(table, vec![None; 0]);
        let mut bigger = vec![None; old.len() * 2];
        for (hash, item) in old.into_iter().flatten() {
            place(&mut bigger, hash, item);
        }
        *table = bigger;
    };
    for (item, &hash) in hashes.iter().enumerate() {
        // DenseMap grows when the new entry would make it 3/4 full.
        if grow_before && (entries + 1) * 4 >= table.len() * 3 {
            rehash(&mut table);
        }
        place(&mut table, hash, item);
        entries += 1;
        // StringMap grows after an insertion that made it more than 3/4 full.
        if !grow_before && entries * 4 > table.len() * 3 {
            rehash(&mut table);
        }
    }
    table.into_iter().flatten().map(|(_, item)| item).collect()
}

/// The order in which an LLVM 3.x `StringMap` lists `names` (inserted in the given order):
/// indices into `names`. A repeated name, which a `StringMap` would hold once, is placed as
/// one more entry, so every index is listed.
pub fn string_map_order(names: &[&str]) -> Vec<usize> {
    let hashes: Vec<u32> = names.iter().map(|n| hash_string(n)).collect();
    iteration_order(&hashes, 16, false)
}

/// The order in which an LLVM 3.x `DenseMap<unsigned, …>` lists `keys` (inserted in the
/// given order; repeated keys count once, at their first insertion).
pub fn dense_map_order(keys: &[u32]) -> Vec<u32> {
    let mut unique: Vec<u32> = Vec::with_capacity(keys.len());
    for &k in keys {
        if !unique.contains(&k) {
            unique.push(k);
        }
    }
    let hashes: Vec<u32> = unique.iter().map(|k| k.wrapping_mul(37)).collect();
    iteration_order(&hashes, 64, true)
        .into_iter()
        .map(|i| unique[i])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_map_buckets_by_hand() {
        // HashString("samp1") = ((((115·33 + 97)·33 + 109)·33 + 112)·33 + 49) mod 2^32:
        // bucket 2 of 16; "samp2" bucket 3; "unknown_20" 1; "unknown_38" 10.
        assert_eq!(hash_string("samp1") & 15, 2);
        assert_eq!(hash_string("unknown_20") & 15, 1);
        let names = ["unknown_38", "unknown_20", "samp1", "samp2"];
        assert_eq!(string_map_order(&names), vec![1, 2, 3, 0]);
        // Two names in one bucket: the second probes one bucket on.
        let h = hash_string("samp1") & 15;
        let other = (0..1000)
            .map(|i| format!("n{i}"))
            .find(|n| hash_string(n) & 15 == h)
            .unwrap();
        let order = string_map_order(&[&other, "samp1"]);
        assert_eq!(order, vec![0, 1]);
    }

    #[test]
    fn dense_map_buckets_by_hand() {
        // 10·37 = 370 → bucket 50 of 64, 11 → 23, 12 → 60, 13 → 33, 9 → 13.
        assert_eq!(dense_map_order(&[10, 11, 12, 13]), vec![11, 13, 10, 12]);
        assert_eq!(dense_map_order(&[9, 10, 11, 12, 9]), vec![9, 11, 10, 12]);
        // 10 and 74 share bucket 50 (74·37 = 2738 = 42·64 + 50): 74 probes to 51.
        assert_eq!(dense_map_order(&[74, 10]), vec![74, 10]);
        assert_eq!(dense_map_order(&[10, 74]), vec![10, 74]);
        // 48 keys grow the table to 128 buckets before the 48th is placed.
        let keys: Vec<u32> = (0..48).collect();
        let order = dense_map_order(&keys);
        assert_eq!(order.len(), 48);
        assert_eq!(order[0], 0);
        // Bucket 1 of 128 holds key 45 (45·37 = 1665 = 13·128 + 1).
        assert_eq!(order[1], 45);
    }
}
