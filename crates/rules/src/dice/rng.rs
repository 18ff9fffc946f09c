//! The seeded random stream: ChaCha20, with a compact state that resumes exactly.

use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use serde::{Deserialize, Serialize};

use super::DiceError;
use crate::DieRoller;

/// A seedable ChaCha20 stream of die faces; the engine keeps one per campaign.
///
/// Faces are drawn from 32-bit words by rejection sampling, so a seed gives the same faces on
/// every platform and does not depend on `rand`'s sampling algorithms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiceRng {
    inner: ChaCha20Rng,
}

/// A saved [`DiceRng`] position: the 32-byte key as hex and the 32-bit word position in the
/// stream as a decimal string (it can exceed 64 bits, and JSON numbers lose precision).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct RngState {
    /// The 32-byte ChaCha key, 64 lower-case hex digits.
    seed: String,
    /// Words consumed since the start of the stream, in decimal.
    word_pos: String,
}

/// Word positions are 68-bit numbers in ChaCha (64-bit block counter × 16 words).
const WORD_POS_LIMIT: u128 = 1 << 68;

impl DiceRng {
    /// A stream fully determined by `seed`.
    pub fn from_seed(seed: u64) -> Self {
        Self {
            inner: ChaCha20Rng::seed_from_u64(seed),
        }
    }

    /// A stream seeded from the operating system's entropy (falling back to the clock and a
    /// counter if the OS source is unavailable).
    pub fn from_entropy() -> Self {
        match ChaCha20Rng::try_from_os_rng() {
            Ok(inner) => Self { inner },
            Err(_) => {
                use std::sync::atomic::{AtomicU64, Ordering};
                static COUNTER: AtomicU64 = AtomicU64::new(0);
                let nanos = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64);
                let n = COUNTER.fetch_add(1, Ordering::Relaxed);
                Self::from_seed(nanos ^ n.rotate_left(32) ^ 0x9E37_79B9_7F4A_7C15)
            }
        }
    }

    /// The current position, to persist and later [`restore`](Self::restore).
    pub fn state(&self) -> RngState {
        // Saved on every call that rolls: hex digits from a table, not one `format!` per byte.
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let mut seed = String::with_capacity(64);
        for b in self.inner.get_seed() {
            seed.push(char::from(DIGITS[usize::from(b >> 4)]));
            seed.push(char::from(DIGITS[usize::from(b & 0x0f)]));
        }
        RngState {
            seed,
            word_pos: self.inner.get_word_pos().to_string(),
        }
    }

    /// The stream at a saved position; the next faces are exactly those that would have followed.
    pub fn restore(state: &RngState) -> Result<Self, DiceError> {
        let invalid = |reason: String| DiceError::InvalidRngState { reason };
        let hex = state.seed.as_bytes();
        if hex.len() != 64 {
            return Err(invalid(format!(
                "seed must be 64 hex digits, got {} characters",
                state.seed.chars().count()
            )));
        }
        let mut seed = [0u8; 32];
        for (byte, pair) in seed.iter_mut().zip(hex.chunks_exact(2)) {
            let digit = |c: u8| (c as char).to_digit(16);
            match (digit(pair[0]), digit(pair[1])) {
                (Some(hi), Some(lo)) => *byte = (hi * 16 + lo) as u8,
                _ => {
                    return Err(invalid(
                        "seed must contain only hex digits 0-9, a-f".to_string(),
                    ));
                }
            }
        }
        let word_pos: u128 = state
            .word_pos
            .parse()
            .ok()
            .filter(|&p| p < WORD_POS_LIMIT)
            .ok_or_else(|| {
                invalid(format!(
                    "word position '{}' must be a decimal number below 2^68",
                    state.word_pos
                ))
            })?;
        let mut inner = ChaCha20Rng::from_seed(seed);
        inner.set_word_pos(word_pos);
        Ok(Self { inner })
    }
}

impl DieRoller for DiceRng {
    fn roll_die(&mut self, faces: u32) -> u32 {
        let range = u64::from(faces.max(1));
        // Accept only words below the largest multiple of `range`, so every face is equally
        // likely; at least half of all words are accepted.
        let zone = (1u64 << 32) - (1u64 << 32) % range;
        loop {
            let word = u64::from(self.inner.next_u32());
            if word < zone {
                return (word % range) as u32 + 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_faces() {
        let mut a = DiceRng::from_seed(42);
        let mut b = DiceRng::from_seed(42);
        let fa: Vec<u32> = (0..100).map(|_| a.roll_die(20)).collect();
        let fb: Vec<u32> = (0..100).map(|_| b.roll_die(20)).collect();
        assert_eq!(fa, fb);
        assert!(fa.iter().all(|&f| (1..=20).contains(&f)));
        let mut c = DiceRng::from_seed(43);
        let fc: Vec<u32> = (0..100).map(|_| c.roll_die(20)).collect();
        assert_ne!(fa, fc);
    }

    #[test]
    fn state_serde_round_trip_resumes_exactly() {
        let mut rng = DiceRng::from_seed(7);
        for _ in 0..37 {
            rng.roll_die(6);
        }
        let json = serde_json::to_string(&rng.state()).unwrap();
        assert!(
            json.starts_with("{\"seed\":\"") && json.contains("\"wordPos\":\"37\""),
            "{json}"
        );
        let state: RngState = serde_json::from_str(&json).unwrap();
        let mut restored = DiceRng::restore(&state).unwrap();
        let expected: Vec<u32> = (0..200).map(|_| rng.roll_die(100)).collect();
        let got: Vec<u32> = (0..200).map(|_| restored.roll_die(100)).collect();
        assert_eq!(expected, got);
        assert_eq!(rng, restored);
    }

    #[test]
    fn state_seed_is_the_key_in_lower_case_hex() {
        let rng = DiceRng::from_seed(0xDEAD_BEEF);
        let expected: String = rng
            .inner
            .get_seed()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(rng.state().seed, expected);
        assert_eq!(rng.state().seed.len(), 64);
    }

    #[test]
    fn fresh_state_restores_to_start() {
        let rng = DiceRng::from_seed(1);
        let restored = DiceRng::restore(&rng.state()).unwrap();
        assert_eq!(rng, restored);
        assert_eq!(rng.state().word_pos, "0");
    }

    #[test]
    fn entropy_streams_differ() {
        let mut a = DiceRng::from_entropy();
        let mut b = DiceRng::from_entropy();
        let fa: Vec<u32> = (0..32).map(|_| a.roll_die(10_000)).collect();
        let fb: Vec<u32> = (0..32).map(|_| b.roll_die(10_000)).collect();
        assert_ne!(fa, fb);
    }

    #[test]
    fn bad_states_are_rejected_with_reasons() {
        let good = DiceRng::from_seed(3).state();
        let short = RngState {
            seed: "abc".into(),
            ..good.clone()
        };
        assert!(
            DiceRng::restore(&short)
                .unwrap_err()
                .to_string()
                .contains("64 hex digits")
        );
        let not_hex = RngState {
            seed: "zz".repeat(32),
            ..good.clone()
        };
        assert!(
            DiceRng::restore(&not_hex)
                .unwrap_err()
                .to_string()
                .contains("hex digits")
        );
        let multibyte = RngState {
            seed: "é".repeat(32),
            ..good.clone()
        };
        assert!(DiceRng::restore(&multibyte).is_err());
        for pos in ["-1", "x", "", "295147905179352825856"] {
            let bad = RngState {
                word_pos: pos.into(),
                ..good.clone()
            };
            let err = DiceRng::restore(&bad).unwrap_err().to_string();
            assert!(err.contains("word position"), "{err}");
        }
        let upper = RngState {
            seed: good.seed.to_uppercase(),
            ..good.clone()
        };
        assert_eq!(
            DiceRng::restore(&upper).unwrap(),
            DiceRng::restore(&good).unwrap()
        );
    }

    #[test]
    fn faces_are_roughly_uniform() {
        let mut rng = DiceRng::from_seed(99);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[(rng.roll_die(6) - 1) as usize] += 1;
        }
        assert!(
            counts.iter().all(|&c| (9_400..10_600).contains(&c)),
            "{counts:?}"
        );
        assert_eq!(rng.roll_die(1), 1);
        assert_eq!(rng.roll_die(0), 1);
    }
}
