//! `check --partition hash:K/N`: one share of a book's blocks, so that CI
//! can spread a very large book over N runners (cargo-nextest's
//! convention). A block belongs to share `1 + h mod N`, where `h` is a
//! stable hash (SHA-256) of its file and line: the same on every machine
//! and every run of a commit, so shares 1/N..N/N together are the whole
//! book, each block in exactly one.

use mdbook_companion_engine::cache::Cache;

/// Share `k` (1-based) of `n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Partition {
    /// This share, 1..=n.
    pub k: u64,
    /// The number of shares.
    pub n: u64,
}

/// A `--partition` value that is not `hash:K/N` with 1 ≤ K ≤ N.
#[derive(Debug, thiserror::Error)]
#[error("--partition {0:?}: expected hash:K/N with 1 <= K <= N (for example hash:1/3)")]
pub struct BadPartition(String);

impl Partition {
    /// Parses `hash:K/N`.
    pub fn parse(text: &str) -> Result<Partition, BadPartition> {
        let bad = || BadPartition(text.to_owned());
        let (k, n) = text
            .strip_prefix("hash:")
            .and_then(|s| s.split_once('/'))
            .ok_or_else(bad)?;
        let (k, n) = (
            k.parse::<u64>().map_err(|_| bad())?,
            n.parse::<u64>().map_err(|_| bad())?,
        );
        if k == 0 || k > n {
            return Err(bad());
        }
        Ok(Partition { k, n })
    }

    /// Whether the block at `file:line` is in this share.
    pub fn holds(&self, file: &str, line: usize) -> bool {
        let key = Cache::key(&[file.as_bytes(), line.to_string().as_bytes()]);
        let h = key
            .get(..16)
            .and_then(|hex| u64::from_str_radix(hex, 16).ok())
            .unwrap_or(0);
        h % self.n + 1 == self.k
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_only_hash_k_of_n() {
        assert_eq!(
            Partition::parse("hash:2/3").ok(),
            Some(Partition { k: 2, n: 3 })
        );
        for bad in [
            "hash:0/3",
            "hash:4/3",
            "count:1/2",
            "hash:1",
            "hash:a/2",
            "hash:1/0",
        ] {
            assert!(Partition::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn every_block_is_in_exactly_one_share() {
        for n in 1..=5 {
            for line in 1..200 {
                let owners = (1..=n)
                    .filter(|&k| Partition { k, n }.holds("src/a.md", line))
                    .count();
                assert_eq!(owners, 1, "line {line} of {n} shares");
            }
        }
    }
}
