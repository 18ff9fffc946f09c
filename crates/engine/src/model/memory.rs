//! Campaign memory (DESIGN §12): quests, NPCs who remember, secrets kept from players, and the
//! world clock. Data and pure functions of it; the use cases are in [`crate::memory`] and
//! [`crate::clock`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Where a quest stands.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QuestStatus {
    /// Under way.
    #[default]
    Active,
    /// Every objective done.
    Completed,
    /// Failed.
    Failed,
}

impl QuestStatus {
    /// The snake_case name.
    pub fn key(self) -> &'static str {
        match self {
            QuestStatus::Active => "active",
            QuestStatus::Completed => "completed",
            QuestStatus::Failed => "failed",
        }
    }
}

/// One objective of a quest.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Objective {
    /// What must be done.
    pub text: String,
    /// Done.
    #[serde(default)]
    pub done: bool,
}

/// What a quest pays when it is completed.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Rewards {
    /// Experience points, split evenly among the party's active members.
    pub xp: u32,
    /// Gold pieces, split evenly (in copper) among the party's active members.
    pub gp: u32,
    /// Items, given to the party's leader (or first active member).
    pub items: Vec<String>,
}

impl Rewards {
    /// Whether there is nothing to hand out.
    pub fn is_empty(&self) -> bool {
        self.xp == 0 && self.gp == 0 && self.items.is_empty()
    }
}

/// A quest.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Quest {
    /// Id within the campaign ("qu1").
    pub id: String,
    /// Title.
    pub title: String,
    /// What it is about.
    #[serde(default)]
    pub description: String,
    /// Who gave it (an NPC's name or id, as given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub giver: Option<String>,
    /// Places it involves.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub places: Vec<String>,
    /// Objectives, in order (numbered from 1).
    #[serde(default)]
    pub objectives: Vec<Objective>,
    /// Rewards on completion.
    #[serde(default)]
    pub rewards: Rewards,
    /// Where it stands.
    #[serde(default)]
    pub status: QuestStatus,
    /// Why it failed, or what completing it handed out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<String>,
    /// World-clock second it was created at.
    #[serde(default)]
    pub created_at: u64,
}

impl Quest {
    /// (done, total) objectives.
    pub fn progress(&self) -> (usize, usize) {
        (
            self.objectives.iter().filter(|o| o.done).count(),
            self.objectives.len(),
        )
    }
}

/// An NPC's attitude (SRD: social interaction).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Attitude {
    /// Hostile.
    Hostile,
    /// Unfriendly.
    Unfriendly,
    /// Indifferent.
    Indifferent,
    /// Friendly.
    Friendly,
    /// Helpful.
    Helpful,
}

impl Attitude {
    /// The snake_case name.
    pub fn key(self) -> &'static str {
        match self {
            Attitude::Hostile => "hostile",
            Attitude::Unfriendly => "unfriendly",
            Attitude::Indifferent => "indifferent",
            Attitude::Friendly => "friendly",
            Attitude::Helpful => "helpful",
        }
    }
}

/// Something an NPC remembers.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Memory {
    /// Number within the NPC (1, 2, …).
    pub n: u32,
    /// Whom it is about: a character id, an NPC id, or "party" (absent: nobody in particular).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub about: Option<String>,
    /// Whom it is about, by name (for display).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub about_name: Option<String>,
    /// What the NPC remembers.
    pub text: String,
    /// 1 (trivia) to 5 (life-changing).
    pub importance: u8,
    /// World-clock second it was recorded at.
    pub at: u64,
}

/// A tie between an NPC and another NPC or a faction.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Relationship {
    /// The other NPC's id, or a faction's name.
    pub with: String,
    /// The other's name (for display).
    pub with_name: String,
    /// Whether `with` is a faction.
    #[serde(default)]
    pub faction: bool,
    /// What the tie is ("brother", "member", "rival", "owes money to").
    pub kind: String,
}

/// A non-player character the campaign remembers.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Npc {
    /// Id within the campaign ("np1").
    pub id: String,
    /// Name.
    pub name: String,
    /// The character sheet it is linked to, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub character_id: Option<String>,
    /// Who they are.
    #[serde(default)]
    pub description: String,
    /// Where they are usually found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// Factions they belong to.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub factions: Vec<String>,
    /// Attitude toward each PC (by character id) or "party" (the default for anyone unnamed).
    #[serde(default)]
    pub attitudes: BTreeMap<String, Attitude>,
    /// What they remember, oldest first.
    #[serde(default)]
    pub memories: Vec<Memory>,
    /// Ties to other NPCs and factions.
    #[serde(default)]
    pub relationships: Vec<Relationship>,
}

impl Npc {
    /// The attitude toward `who` (a character id), falling back to the party's, then
    /// indifferent.
    pub fn attitude_toward(&self, who: &str) -> Attitude {
        self.attitudes
            .get(who)
            .or_else(|| self.attitudes.get(PARTY))
            .copied()
            .unwrap_or(Attitude::Indifferent)
    }
}

/// The `about` value meaning the whole party.
pub const PARTY: &str = "party";

/// A DM-only fact with what would reveal it.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Secret {
    /// Id within the campaign ("se1").
    pub id: String,
    /// A short title ("The mayor is a doppelganger").
    pub title: String,
    /// The fact itself.
    pub content: String,
    /// What would reveal it to the players (DM guidance; revealing is explicit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reveal_condition: Option<String>,
    /// Words and phrases whose mention gives it away (absent: taken from title and content).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub key_terms: Vec<String>,
    /// Revealed to the players.
    #[serde(default)]
    pub revealed: bool,
    /// How it was revealed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revealed_how: Option<String>,
    /// World-clock second it was revealed at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revealed_at: Option<u64>,
}

/// One stored memory record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MemoryRecord {
    /// A quest.
    Quest(Quest),
    /// An NPC.
    Npc(Npc),
    /// A secret.
    Secret(Secret),
}

/// Which kind of memory record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemoryKind {
    /// Quests.
    Quest,
    /// NPCs.
    Npc,
    /// Secrets.
    Secret,
}

impl MemoryRecord {
    /// Its kind.
    pub fn kind(&self) -> MemoryKind {
        match self {
            MemoryRecord::Quest(_) => MemoryKind::Quest,
            MemoryRecord::Npc(_) => MemoryKind::Npc,
            MemoryRecord::Secret(_) => MemoryKind::Secret,
        }
    }

    /// Its id.
    pub fn id(&self) -> &str {
        match self {
            MemoryRecord::Quest(q) => &q.id,
            MemoryRecord::Npc(n) => &n.id,
            MemoryRecord::Secret(s) => &s.id,
        }
    }

    /// Its name or title.
    pub fn name(&self) -> &str {
        match self {
            MemoryRecord::Quest(q) => &q.title,
            MemoryRecord::Npc(n) => &n.name,
            MemoryRecord::Secret(s) => &s.title,
        }
    }

    /// The status column: a quest's status, "revealed"/"hidden" for secrets, "npc" for NPCs.
    pub fn status(&self) -> &'static str {
        match self {
            MemoryRecord::Quest(q) => q.status.key(),
            MemoryRecord::Npc(_) => "npc",
            MemoryRecord::Secret(s) => {
                if s.revealed {
                    "revealed"
                } else {
                    "hidden"
                }
            }
        }
    }
}

/// A rest the clock already counted: characters who rest at the same moment share it.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RestWindow {
    /// "short" or "long".
    pub kind: String,
    /// The clock second the rest ended at.
    pub ends_at: u64,
}

/// The campaign's in-game clock: seconds since day 1, 00:00 (a new campaign starts at 08:00).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorldClock {
    /// Seconds since day 1, 00:00.
    pub seconds: u64,
    /// The last rest that moved the clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_rest: Option<RestWindow>,
    /// The clock second each character's last long rest ended at (by character id): a
    /// character can't benefit from more than one long rest in a 24-hour period.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub long_rests: std::collections::BTreeMap<String, u64>,
}

/// Seconds in a minute, hour and day.
pub const MINUTE: u64 = 60;
/// Seconds in an hour.
pub const HOUR: u64 = 3_600;
/// Seconds in a day.
pub const DAY: u64 = 86_400;
/// Seconds in a combat round.
pub const ROUND: u64 = 6;

impl Default for WorldClock {
    fn default() -> Self {
        WorldClock {
            seconds: 8 * HOUR,
            last_rest: None,
            long_rests: Default::default(),
        }
    }
}

impl WorldClock {
    /// Day number, from 1.
    pub fn day(&self) -> u64 {
        self.seconds / DAY + 1
    }

    /// "Day 3, 14:05".
    pub fn describe(&self) -> String {
        describe_time(self.seconds)
    }
}

/// "Day 3, 14:05" for a clock second.
pub fn describe_time(seconds: u64) -> String {
    let in_day = seconds % DAY;
    format!(
        "Day {}, {:02}:{:02}",
        seconds / DAY + 1,
        in_day / HOUR,
        (in_day % HOUR) / MINUTE
    )
}

/// The part of the day at a clock second: night, dawn, morning, afternoon, dusk, evening.
pub fn part_of_day(seconds: u64) -> &'static str {
    match (seconds % DAY) / HOUR {
        0..=4 => "night",
        5 => "dawn",
        6..=11 => "morning",
        12..=17 => "afternoon",
        18 => "dusk",
        19..=21 => "evening",
        _ => "night",
    }
}

/// "1 h 30 min", "6 s", "2 days".
pub fn span(seconds: u64) -> String {
    let mut parts = Vec::new();
    let (d, h, m, s) = (
        seconds / DAY,
        seconds % DAY / HOUR,
        seconds % HOUR / MINUTE,
        seconds % MINUTE,
    );
    if d > 0 {
        parts.push(format!("{d} day{}", if d == 1 { "" } else { "s" }));
    }
    if h > 0 {
        parts.push(format!("{h} h"));
    }
    if m > 0 {
        parts.push(format!("{m} min"));
    }
    if s > 0 || parts.is_empty() {
        parts.push(format!("{s} s"));
    }
    parts.join(" ")
}
