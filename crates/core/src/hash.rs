//! The one content hash of the crate: cache keys, lock names and stable
//! ids are SHA-256 over length-prefixed parts; the cache's records are
//! bound to their key by the keyed form of the same hash (HMAC-SHA-256,
//! [`mac`]), under a secret only the cache holds.

use hmac::{Hmac, KeyInit as _, Mac as _};
use sha2::{Digest, Sha256};

/// The bytes of a [`mac`].
pub const MAC_LEN: usize = 32;

/// The hash of some parts, in hex; each part is length-prefixed so that
/// `["ab", "c"]` and `["a", "bc"]` differ.
pub fn key(parts: &[&[u8]]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p);
    }
    hex(&h.finalize())
}

/// The SHA-256 of `bytes`, in hex (the cache's checksums).
pub fn sha256(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// The HMAC-SHA-256 of some parts under `secret`, in hex; each part is
/// length-prefixed as in [`key`]. Without the secret nobody can make one
/// that [`mac_holds`] accepts, whatever else they know of the parts.
pub fn mac(secret: &[u8], parts: &[&[u8]]) -> String {
    hex(&keyed(secret, parts).finalize().into_bytes())
}

/// Whether `tag` (hex, as [`mac`] writes it) is the MAC of `parts` under
/// `secret`; compared in constant time.
pub fn mac_holds(secret: &[u8], parts: &[&[u8]], tag: &[u8]) -> bool {
    let Some(tag) = unhex(tag) else {
        return false;
    };
    keyed(secret, parts).verify_slice(&tag).is_ok()
}

/// The HMAC state of `parts` under `secret`.
fn keyed(secret: &[u8], parts: &[&[u8]]) -> Hmac<Sha256> {
    // HMAC takes a key of any length (a long one is hashed first).
    let mut h = match Hmac::<Sha256>::new_from_slice(secret) {
        Ok(h) => h,
        Err(_) => unreachable!("HMAC accepts keys of every length"),
    };
    for p in parts {
        h.update(&(p.len() as u64).to_le_bytes());
        h.update(p);
    }
    h
}

/// Lower-case hex of [`MAC_LEN`] bytes read back; `None` for anything
/// else.
fn unhex(text: &[u8]) -> Option<[u8; MAC_LEN]> {
    if text.len() != 2 * MAC_LEN {
        return None;
    }
    let digit = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    };
    let mut out = [0u8; MAC_LEN];
    for (o, pair) in out.iter_mut().zip(text.chunks_exact(2)) {
        *o = digit(pair[0])? << 4 | digit(pair[1])?;
    }
    Some(out)
}

/// Bytes as lower-case hex.
fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    (bytes.iter())
        .flat_map(|b| [DIGITS[usize::from(b >> 4)], DIGITS[usize::from(b & 0xf)]])
        .map(char::from)
        .collect()
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

    #[test]
    fn the_mac_is_hmac_sha256_over_the_parts_and_needs_the_secret() {
        // RFC 4231's test case 2 (key "Jefe"), the message one part: its
        // length first, then its bytes.
        let message = b"what do ya want for nothing?";
        let mut framed = (message.len() as u64).to_le_bytes().to_vec();
        framed.extend_from_slice(message);
        let mut plain = Hmac::<Sha256>::new_from_slice(b"Jefe").unwrap();
        plain.update(&framed);
        assert_eq!(
            mac(b"Jefe", &[message]),
            hex(&plain.finalize().into_bytes())
        );
        let mut rfc = Hmac::<Sha256>::new_from_slice(b"Jefe").unwrap();
        rfc.update(message);
        assert_eq!(
            hex(&rfc.finalize().into_bytes()),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        let tag = mac(b"secret", &[b"check", b"k1", b"payload"]);
        assert!(mac_holds(
            b"secret",
            &[b"check", b"k1", b"payload"],
            tag.as_bytes()
        ));
        for (secret, parts) in [
            (&b"other"[..], [&b"check"[..], b"k1", b"payload"]),
            (b"secret", [b"check", b"k2", b"payload"]),
            (b"secret", [b"check-again", b"k1", b"payload"]),
            (b"secret", [b"check", b"k1", b"payloaD"]),
        ] {
            assert!(!mac_holds(secret, &parts, tag.as_bytes()), "{parts:?}");
        }
        assert!(!mac_holds(
            b"secret",
            &[b"check", b"k1", b"payload"],
            &tag.as_bytes()[1..]
        ));
        assert!(!mac_holds(
            b"secret",
            &[b"check", b"k1", b"payload"],
            tag.to_uppercase().as_bytes()
        ));
    }

    #[test]
    fn sha256_is_the_standard_digest_in_hex() {
        assert_eq!(
            sha256(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
