//! Character advancement by experience points (SRD 5.1, "Character Advancement" table).

/// XP needed for each character level, 1–20.
const THRESHOLDS: [u32; 20] = [
    0, 300, 900, 2_700, 6_500, 14_000, 23_000, 34_000, 48_000, 64_000, 85_000, 100_000, 120_000,
    140_000, 165_000, 195_000, 225_000, 265_000, 305_000, 355_000,
];

/// The XP a character needs to be `level` (1–20); `None` outside 1–20.
pub fn xp_for_level(level: u32) -> Option<u32> {
    let i = usize::try_from(level.checked_sub(1)?).ok()?;
    THRESHOLDS.get(i).copied()
}

/// The level `xp` experience points reach (1–20).
pub fn level_for_xp(xp: u32) -> u32 {
    THRESHOLDS.iter().filter(|t| xp >= **t).count().max(1) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds() {
        assert_eq!(xp_for_level(1), Some(0));
        assert_eq!(xp_for_level(3), Some(900));
        assert_eq!(xp_for_level(20), Some(355_000));
        assert_eq!(xp_for_level(21), None);
        assert_eq!(xp_for_level(0), None);
        assert_eq!(level_for_xp(0), 1);
        assert_eq!(level_for_xp(299), 1);
        assert_eq!(level_for_xp(300), 2);
        assert_eq!(level_for_xp(899), 2);
        assert_eq!(level_for_xp(355_000), 20);
        assert_eq!(level_for_xp(u32::MAX), 20);
    }
}
