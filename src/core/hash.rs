//! The one content hash of the crate: cache keys, lock names and stable
//! ids are SHA-256 over length-prefixed parts.

use sha2::{Digest, Sha256};

/// The hash of some parts, in hex; each part is length-prefixed so that
/// `["ab", "c"]` and `["a", "bc"]` differ.
pub fn key(parts: &[&[u8]]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p);
    }
    format!("{:x}", h.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_length_prefixed() {
        assert_ne!(key(&[b"ab", b"c"]), key(&[b"a", b"bc"]));
        assert_eq!(key(&[b"x"]), key(&[b"x"]));
        assert_eq!(key(&[]).len(), 64);
    }
}
