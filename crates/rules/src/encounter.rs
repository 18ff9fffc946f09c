//! Encounter difficulty: XP by challenge rating, the party's XP thresholds and the multiplier
//! for the number of opponents.

use serde::{Deserialize, Serialize};

/// Difficulty bands, easiest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Band {
    /// Below the party's easy threshold.
    Trivial,
    /// Easy.
    Easy,
    /// Medium.
    Medium,
    /// Hard.
    Hard,
    /// Deadly.
    Deadly,
}

impl Band {
    /// "easy", "deadly", …
    pub fn key(self) -> &'static str {
        match self {
            Band::Trivial => "trivial",
            Band::Easy => "easy",
            Band::Medium => "medium",
            Band::Hard => "hard",
            Band::Deadly => "deadly",
        }
    }
}

/// Easy, medium, hard and deadly XP thresholds of one character of each level 1–20.
const THRESHOLDS: [[u32; 4]; 20] = [
    [25, 50, 75, 100],
    [50, 100, 150, 200],
    [75, 150, 225, 400],
    [125, 250, 375, 500],
    [250, 500, 750, 1100],
    [300, 600, 900, 1400],
    [350, 750, 1100, 1700],
    [450, 900, 1400, 2100],
    [550, 1100, 1600, 2400],
    [600, 1200, 1900, 2800],
    [800, 1600, 2400, 3600],
    [1000, 2000, 3000, 4500],
    [1100, 2200, 3400, 5100],
    [1250, 2500, 3800, 5700],
    [1400, 2800, 4300, 6400],
    [1600, 3200, 4800, 7200],
    [2000, 3900, 5900, 8800],
    [2100, 4200, 6300, 9500],
    [2400, 4900, 7300, 10900],
    [2800, 5700, 8500, 12700],
];

/// XP for defeating a creature of challenge rating `cr` (0, 0.125, 0.25, 0.5, 1–30).
pub fn xp_for_cr(cr: f32) -> u32 {
    const WHOLE: [u32; 31] = [
        10, 200, 450, 700, 1100, 1800, 2300, 2900, 3900, 5000, 5900, 7200, 8400, 10000, 11500,
        13000, 15000, 18000, 20000, 22000, 25000, 33000, 41000, 50000, 62000, 75000, 90000, 105000,
        120000, 135000, 155000,
    ];
    match cr {
        c if c <= 0.0 => 10,
        c if c < 0.2 => 25,
        c if c < 0.3 => 50,
        c if c < 1.0 => 100,
        c => WHOLE[(c.round() as usize).min(30)],
    }
}

/// The multiplier for `monsters` opponents against a party of `party_size`: ×1 for one, ×1.5
/// for two, ×2 for 3–6, ×2.5 for 7–10, ×3 for 11–14, ×4 for 15 or more; a party of fewer than
/// three uses the next higher step, six or more the next lower.
pub fn multiplier(monsters: usize, party_size: usize) -> f32 {
    const STEPS: [f32; 8] = [0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0];
    let base = match monsters {
        0 => return 0.0,
        1 => 1,
        2 => 2,
        3..=6 => 3,
        7..=10 => 4,
        11..=14 => 5,
        _ => 6,
    };
    let step = match party_size {
        0..=2 => base + 1,
        3..=5 => base,
        _ => base - 1,
    };
    STEPS[step]
}

/// An encounter's XP and how hard it is for the party.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Difficulty {
    /// XP the opponents are worth (what the party earns).
    pub total_xp: u32,
    /// XP after the multiplier for numbers (what sets the difficulty).
    pub adjusted_xp: u32,
    /// The multiplier used.
    pub multiplier: f32,
    /// The party's easy, medium, hard and deadly thresholds.
    pub thresholds: [u32; 4],
    /// The band the adjusted XP falls in.
    pub band: Band,
    /// XP each party member earns on victory.
    pub xp_per_member: u32,
}

impl Difficulty {
    /// "hard (adjusted 1,200 XP; thresholds 300/600/900/1,400); 600 XP, 150 each".
    pub fn summary(&self) -> String {
        let [e, m, h, d] = self.thresholds;
        format!(
            "{} — {} XP ({} each); adjusted {} XP vs thresholds easy {e} / medium {m} / hard {h} / deadly {d}",
            self.band.key(),
            self.total_xp,
            self.xp_per_member,
            self.adjusted_xp
        )
    }
}

/// Rates opponents worth `monster_xp` each against a party of the given character levels.
/// `None` when there is no party (no levels) or no opponents.
pub fn rate(party_levels: &[u32], monster_xp: &[u32]) -> Option<Difficulty> {
    if party_levels.is_empty() || monster_xp.is_empty() {
        return None;
    }
    let mut thresholds = [0u32; 4];
    for level in party_levels {
        let row = THRESHOLDS[(level.clamp(&1, &20) - 1) as usize];
        for (t, r) in thresholds.iter_mut().zip(row) {
            *t += r;
        }
    }
    let total_xp: u32 = monster_xp.iter().sum();
    let multiplier = multiplier(monster_xp.len(), party_levels.len());
    let adjusted_xp = (total_xp as f32 * multiplier).round() as u32;
    let band = match thresholds.iter().rposition(|t| adjusted_xp >= *t) {
        None => Band::Trivial,
        Some(0) => Band::Easy,
        Some(1) => Band::Medium,
        Some(2) => Band::Hard,
        Some(_) => Band::Deadly,
    };
    Some(Difficulty {
        total_xp,
        adjusted_xp,
        multiplier,
        thresholds,
        band,
        xp_per_member: total_xp / party_levels.len() as u32,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xp_follows_the_challenge_rating() {
        assert_eq!(xp_for_cr(0.25), 50);
        assert_eq!(xp_for_cr(0.125), 25);
        assert_eq!(xp_for_cr(0.5), 100);
        assert_eq!(xp_for_cr(5.0), 1800);
        assert_eq!(xp_for_cr(30.0), 155000);
    }

    #[test]
    fn four_goblins_against_four_first_level_heroes_is_deadly() {
        // 4 × 50 XP = 200, ×2 for 3–6 monsters = 400 ≥ deadly 400.
        let d = rate(&[1, 1, 1, 1], &[50; 4]).expect("rated");
        assert_eq!(d.total_xp, 200);
        assert_eq!(d.adjusted_xp, 400);
        assert_eq!(d.thresholds, [100, 200, 300, 400]);
        assert_eq!(d.band, Band::Deadly);
        assert_eq!(d.xp_per_member, 50);
    }

    #[test]
    fn party_size_shifts_the_multiplier() {
        assert_eq!(multiplier(1, 4), 1.0);
        assert_eq!(multiplier(1, 2), 1.5);
        assert_eq!(multiplier(1, 6), 0.5);
        assert_eq!(multiplier(15, 1), 5.0);
        let d = rate(&[3, 3, 3, 3], &[100, 100]).expect("rated");
        assert_eq!(d.adjusted_xp, 300);
        assert_eq!(d.band, Band::Easy);
        assert!(rate(&[], &[50]).is_none());
    }
}
