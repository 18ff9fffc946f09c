//! Text answers of the campaign-memory tools: quests, NPCs, secrets.

use tabletop_engine::clock::span;
use tabletop_engine::memory::npcs::{NpcOutcome, Recall};
use tabletop_engine::memory::quests::QuestOutcome;
use tabletop_engine::memory::secrets::{LeakCheck, SecretOutcome};
use tabletop_engine::memory::{Npc, Quest, Secret};
use tabletop_engine::model::memory::describe_time;

/// A quest in full.
pub fn quest(q: &Quest) -> String {
    let (done, total) = q.progress();
    let mut t = format!(
        "**{}** ({}) — {} ({done}/{total} objectives)",
        q.title,
        q.id,
        q.status.key()
    );
    if let Some(g) = &q.giver {
        t.push_str(&format!("\nGiver: {g}"));
    }
    if !q.places.is_empty() {
        t.push_str(&format!("\nPlaces: {}", q.places.join(", ")));
    }
    if !q.description.is_empty() {
        t.push_str(&format!("\n{}", q.description));
    }
    for (i, o) in q.objectives.iter().enumerate() {
        t.push_str(&format!(
            "\n{}. [{}] {}",
            i + 1,
            if o.done { "x" } else { " " },
            o.text
        ));
    }
    let r = &q.rewards;
    if !r.is_empty() {
        let mut parts = Vec::new();
        if r.xp > 0 {
            parts.push(format!("{} XP", r.xp));
        }
        if r.gp > 0 {
            parts.push(format!("{} gp", r.gp));
        }
        parts.extend(r.items.iter().cloned());
        t.push_str(&format!("\nRewards: {}", parts.join(", ")));
    }
    if let Some(o) = &q.outcome {
        t.push_str(&format!("\nOutcome: {o}"));
    }
    t
}

/// Quests, one a line.
pub fn quest_list(list: &[Quest]) -> String {
    if list.is_empty() {
        return "No quests.".into();
    }
    list.iter()
        .map(|q| {
            let (done, total) = q.progress();
            format!(
                "- {} {} — {} ({done}/{total})",
                q.id,
                q.title,
                q.status.key()
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// What a quest operation did.
pub fn quest_outcome(o: &QuestOutcome) -> String {
    let mut t = o.changes.join("; ");
    if !o.rewarded.is_empty() {
        t.push_str(&format!("\nRewards: {}", o.rewarded.join("; ")));
    }
    t.push_str(&format!("\n{}", quest(&o.quest)));
    t
}

/// An NPC in full.
pub fn npc(n: &Npc) -> String {
    let mut t = format!("**{}** ({})", n.name, n.id);
    if let Some(c) = &n.character_id {
        t.push_str(&format!(", sheet {c}"));
    }
    if let Some(l) = &n.location {
        t.push_str(&format!(", at {l}"));
    }
    if !n.description.is_empty() {
        t.push_str(&format!("\n{}", n.description));
    }
    if !n.factions.is_empty() {
        t.push_str(&format!("\nFactions: {}", n.factions.join(", ")));
    }
    if !n.attitudes.is_empty() {
        let a: Vec<String> = n
            .attitudes
            .iter()
            .map(|(who, a)| format!("{who}: {}", a.key()))
            .collect();
        t.push_str(&format!("\nAttitude: {}", a.join(", ")));
    }
    if !n.relationships.is_empty() {
        let r: Vec<String> = n
            .relationships
            .iter()
            .map(|r| format!("{} ({})", r.with_name, r.kind))
            .collect();
        t.push_str(&format!("\nTies: {}", r.join(", ")));
    }
    t.push_str(&format!(
        "\n{} memories (recall them with operation recall)",
        n.memories.len()
    ));
    t
}

/// NPCs, one a line.
pub fn npc_list(list: &[Npc]) -> String {
    if list.is_empty() {
        return "No NPCs.".into();
    }
    list.iter()
        .map(|n| {
            format!(
                "- {} {}{}",
                n.id,
                n.name,
                n.location
                    .as_deref()
                    .map(|l| format!(" (at {l})"))
                    .unwrap_or_default()
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// What an NPC operation did.
pub fn npc_outcome(o: &NpcOutcome) -> String {
    o.changes.join("; ")
}

/// What an NPC recalls.
pub fn recall(r: &Recall) -> String {
    let mut t = format!(
        "{} recalls{} ({} of {}):",
        r.npc,
        r.about
            .as_deref()
            .map(|a| format!(" about {a}"))
            .unwrap_or_default(),
        r.memories.len(),
        r.total
    );
    if let Some(a) = r.attitude {
        t = format!(
            "{} is {} toward {}. {t}",
            r.npc,
            a.key(),
            r.about.as_deref().unwrap_or("them")
        );
    }
    if r.memories.is_empty() {
        t.push_str(" nothing.");
    }
    for m in &r.memories {
        t.push_str(&format!(
            "\n- [{}] {}{} ({})",
            m.importance,
            m.about_name
                .as_deref()
                .map(|a| format!("{a}: "))
                .unwrap_or_default(),
            m.text,
            describe_time(m.at)
        ));
    }
    t
}

/// A secret in full.
pub fn secret(s: &Secret) -> String {
    let mut t = format!(
        "**{}** ({}) — {}\n{}",
        s.title,
        s.id,
        if s.revealed {
            "revealed"
        } else {
            "hidden (DM only)"
        },
        s.content
    );
    if let Some(r) = &s.reveal_condition {
        t.push_str(&format!("\nRevealed when: {r}"));
    }
    if !s.key_terms.is_empty() {
        t.push_str(&format!("\nKey terms: {}", s.key_terms.join(", ")));
    }
    if let Some(h) = &s.revealed_how {
        t.push_str(&format!("\nRevealed: {h}"));
    }
    t
}

/// Secrets, one a line.
pub fn secret_list(list: &[Secret]) -> String {
    if list.is_empty() {
        return "No secrets.".into();
    }
    list.iter()
        .map(|s| {
            format!(
                "- {} {} — {}",
                s.id,
                s.title,
                if s.revealed { "revealed" } else { "hidden" }
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// What a secret operation did.
pub fn secret_outcome(o: &SecretOutcome) -> String {
    format!("{}\n{}", o.changes.join("; "), secret(&o.secret))
}

/// A leak check.
pub fn leaks(c: &LeakCheck) -> String {
    if c.leaks.is_empty() {
        return format!(
            "No leak found among {} unrevealed secrets ({}).",
            c.checked, c.method
        );
    }
    let mut t = format!(
        "This narration would give away {} of {} unrevealed secrets:",
        c.leaks.len(),
        c.checked
    );
    for l in &c.leaks {
        t.push_str(&format!("\n- {} '{}': {}", l.secret_id, l.title, l.why));
    }
    t.push_str(&format!("\n({})", c.method));
    t
}

/// "+1 h 30 min" (re-exported for the clock answers).
pub fn elapsed(seconds: u64) -> String {
    span(seconds)
}
