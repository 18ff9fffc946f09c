//! Text renderings of the world and session tools: the outcome first, compact, light Markdown.

use tabletop_engine::notes::{Note, NotePage, NoteSearch};
use tabletop_engine::party::{MemberView, PartyView};
use tabletop_engine::session::SessionContext;
use tabletop_engine::travel::{ExitSeen, MoveOutcome, TravelHistory, TravelStatus};
use tabletop_engine::world::{Exit, LinkOutcome, LocationDeletion, LocationPage, LocationView};

fn exit_flags(locked: bool, one_way: bool, minutes: u32) -> String {
    let mut f = Vec::new();
    if locked {
        f.push("locked".to_string());
    }
    if one_way {
        f.push("one-way".to_string());
    }
    if minutes != 1 {
        f.push(format!("{minutes} min"));
    }
    if f.is_empty() {
        String::new()
    } else {
        format!(" [{}]", f.join(", "))
    }
}

fn exit_dm(e: &Exit) -> String {
    let mut s = format!(
        "{} ({}) → {} ({})",
        e.kind.key(),
        e.connection_id,
        e.to_name,
        e.to_id
    );
    let mut f = Vec::new();
    if e.direction == "in" {
        f.push("one-way, arrives here only".to_string());
    } else if e.one_way {
        f.push("one-way".to_string());
    }
    if e.locked {
        let mut l = format!("locked DC {}", e.lock_dc.unwrap_or(15));
        if let Some(k) = &e.key_item {
            l.push_str(&format!(", key: {k}"));
        }
        f.push(l);
    }
    if e.concealed {
        f.push(format!(
            "hidden, not found (find DC {})",
            e.find_dc.unwrap_or(15)
        ));
    } else if e.find_dc.is_some() {
        f.push("hidden, found".into());
    }
    if e.travel_minutes != 1 {
        f.push(format!("{} min", e.travel_minutes));
    }
    if !f.is_empty() {
        s.push_str(&format!(" [{}]", f.join("; ")));
    }
    s
}

fn exit_seen(e: &ExitSeen) -> String {
    format!(
        "{} → {} ({}, {}){}",
        e.kind,
        e.to_name,
        e.to_id,
        e.connection_id,
        exit_flags(e.locked, e.one_way, e.travel_minutes)
    )
}

/// A place with its details and every connection (the DM's view).
pub fn location(v: &LocationView) -> String {
    let l = &v.location;
    let mut t = format!(
        "{} ({}): {}, {}{}",
        l.name,
        l.id,
        l.kind,
        l.lighting.key(),
        if l.discovered { "" } else { ", undiscovered" }
    );
    if let Some(d) = &l.description {
        t.push_str(&format!("\n{d}"));
    }
    if let Some(x) = &l.terrain {
        t.push_str(&format!("\nTerrain: {x}"));
    }
    if !l.hazards.is_empty() {
        t.push_str(&format!("\nHazards: {}", l.hazards.join(", ")));
    }
    if !l.tags.is_empty() {
        t.push_str(&format!("\nTags: {}", l.tags.join(", ")));
    }
    if v.exits.is_empty() {
        t.push_str("\nExits: none (link places with operation link)");
    } else {
        t.push_str("\nExits:");
        for e in &v.exits {
            t.push_str(&format!("\n- {}", exit_dm(e)));
        }
    }
    if !v.parties_here.is_empty() {
        t.push_str(&format!("\nParties here: {}", v.parties_here.join(", ")));
    }
    t
}

/// What deleting a place affected.
pub fn location_deletion(d: &LocationDeletion) -> String {
    let mut t = format!("Deleted {} ({}).", d.name, d.id);
    if d.removed_connections.is_empty() {
        t.push_str(" No connections touched it.");
    } else {
        t.push_str(&format!(
            " Removed {} connection(s): {}.",
            d.removed_connections.len(),
            d.removed_connections.join("; ")
        ));
    }
    if !d.unplaced_parties.is_empty() {
        t.push_str(&format!(
            " Now nowhere (place with manage_party update): {}.",
            d.unplaced_parties.join(", ")
        ));
    }
    t
}

/// A link made or changed.
pub fn link(o: &LinkOutcome) -> String {
    let c = &o.connection;
    let mut f = Vec::new();
    if c.locked {
        f.push(format!(
            "locked DC {}{}",
            c.lock_dc.unwrap_or(15),
            c.key_item
                .as_deref()
                .map(|k| format!(", key: {k}"))
                .unwrap_or_default()
        ));
    }
    if c.hidden {
        f.push(format!(
            "hidden (find DC {}){}",
            c.find_dc.unwrap_or(15),
            if c.found { ", found" } else { "" }
        ));
    }
    f.push(format!("{} min", c.travel_minutes));
    format!(
        "{} {} ({}): {} {} {} [{}].",
        if o.updated { "Updated" } else { "Linked" },
        c.kind.key(),
        c.id,
        o.from_name,
        if c.one_way { "→ (one-way)" } else { "↔" },
        o.to_name,
        f.join("; ")
    )
}

/// A page of places.
pub fn location_list(p: &LocationPage) -> String {
    if p.locations.is_empty() {
        return if p.total == 0 {
            "No locations yet: create one with operation create.".into()
        } else {
            format!("Page {} is past the end: {} locations.", p.page, p.total)
        };
    }
    let mut t = format!(
        "{} locations.\n| id | name | type | connections | discovered |\n|---|---|---|---|---|",
        p.total
    );
    for l in &p.locations {
        t.push_str(&format!(
            "\n| {} | {} | {} | {} | {} |",
            l.id,
            l.name,
            l.kind,
            l.connections,
            if l.discovered { "yes" } else { "no" }
        ));
    }
    if p.has_more {
        t.push_str(&format!("\nMore: page {}.", p.page + 1));
    }
    t
}

fn member(m: &MemberView) -> String {
    let mut s = format!(
        "{} ({}){}{}: HP {}/{}",
        m.name,
        m.character_id,
        if m.leader { ", leader" } else { "" },
        if m.active { ", active" } else { "" },
        m.hp,
        m.max_hp
    );
    if m.temp_hp > 0 {
        s.push_str(&format!(" (+{} temp)", m.temp_hp));
    }
    s.push_str(&format!(", AC {}", m.ac));
    if m.role.key() != "member" {
        s.push_str(&format!(", {}", m.role.key()));
    }
    if m.status != "ok" {
        s.push_str(&format!(", {}", m.status));
    }
    if !m.conditions.is_empty() {
        s.push_str(&format!(", {}", m.conditions.join(", ")));
    }
    s
}

/// A party with its members.
pub fn party(p: &PartyView) -> String {
    let mut t = format!(
        "{} ({}){}, at {}",
        p.name,
        p.id,
        if p.active { ", active party" } else { "" },
        p.location_name.as_deref().unwrap_or("no location")
    );
    if p.elapsed_minutes > 0 {
        t.push_str(&format!(", {} min travelled", p.elapsed_minutes));
    }
    if let Some(d) = &p.description {
        t.push_str(&format!("\n{d}"));
    }
    if p.members.is_empty() {
        t.push_str("\nNo members (operation add_member).");
    }
    for m in &p.members {
        t.push_str(&format!("\n- {}", member(m)));
    }
    t
}

/// Every party.
pub fn party_list(list: &[PartyView]) -> String {
    if list.is_empty() {
        return "No parties yet: create one with operation create.".into();
    }
    let mut t = format!(
        "{} parties.\n| id | name | active | location | members |\n|---|---|---|---|---|",
        list.len()
    );
    for p in list {
        t.push_str(&format!(
            "\n| {} | {} | {} | {} | {} |",
            p.id,
            p.name,
            if p.active { "yes" } else { "no" },
            p.location_name.as_deref().unwrap_or("-"),
            p.members
                .iter()
                .map(|m| m.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    t
}

/// A move (or a failed attempt at a lock).
pub fn moved(o: &MoveOutcome) -> String {
    let mut t = o.summary.clone();
    if let Some(c) = &o.check {
        t.push_str(&format!("\n{}", c.summary()));
    }
    if o.moved {
        if o.exits.is_empty() {
            t.push_str("\nKnown exits: none.");
        } else {
            t.push_str("\nKnown exits:");
            for e in &o.exits {
                t.push_str(&format!("\n- {}", exit_seen(&ExitSeen::from(e))));
            }
        }
    }
    t
}

/// Where a party stands.
pub fn status(s: &TravelStatus) -> String {
    let Some(l) = &s.location else {
        return format!(
            "{} ({}) is nowhere yet: place it with manage_party operation update and locationId.",
            s.party_name, s.party_id
        );
    };
    let mut t = format!(
        "{} is at {} ({}): {}, {}.",
        s.party_name,
        l.name,
        l.id,
        l.kind,
        l.lighting.key()
    );
    if let Some(d) = &l.description {
        t.push_str(&format!("\n{d}"));
    }
    if s.exits.is_empty() {
        t.push_str("\nKnown exits: none.");
    } else {
        t.push_str("\nKnown exits:");
        for e in &s.exits {
            t.push_str(&format!("\n- {}", exit_seen(e)));
        }
    }
    if s.unfound_hidden > 0 {
        t.push_str(&format!(
            "\nDM: {} hidden way(s) here not yet found (operation search).",
            s.unfound_hidden
        ));
    }
    t
}

/// A travel log.
pub fn history(h: &TravelHistory) -> String {
    if h.entries.is_empty() {
        return format!("{} has not travelled yet.", h.party_name);
    }
    let mut t = format!(
        "{}: {} min travelled. Newest first:",
        h.party_name, h.elapsed_minutes
    );
    for e in &h.entries {
        t.push_str(&format!(
            "\n- {} → {} by {} ({} min)",
            e.from_name.as_deref().unwrap_or("?"),
            e.to_name,
            e.how,
            e.minutes
        ));
    }
    t
}

/// One note on one line.
pub fn note_line(n: &Note) -> String {
    let tags = if n.tags.is_empty() {
        String::new()
    } else {
        format!(" #{}", n.tags.join(" #"))
    };
    format!(
        "{} [{}, {}, {}]: {}{tags}",
        n.id,
        n.kind.key(),
        n.importance.key(),
        n.visibility.key(),
        n.content
    )
}

/// One note in full.
pub fn note_full(n: &Note) -> String {
    format!(
        "{}\nWritten {}{}",
        note_line(n),
        n.created_at,
        if n.updated_at != n.created_at {
            format!(", updated {}", n.updated_at)
        } else {
            String::new()
        }
    )
}

/// Search results, best first.
pub fn note_search(s: &NoteSearch) -> String {
    if s.notes.is_empty() {
        return if s.terms.is_empty() {
            "No notes match the filters.".into()
        } else {
            format!("No notes match '{}'.", s.terms.join(" "))
        };
    }
    let mut t = format!(
        "{} note(s){}, best first:",
        s.notes.len(),
        if s.any_word {
            " hold some of the words (none holds all)"
        } else {
            ""
        }
    );
    for n in &s.notes {
        t.push_str(&format!("\n- {}", note_line(&n.note)));
    }
    t
}

/// A page of notes.
pub fn note_page(p: &NotePage) -> String {
    if p.notes.is_empty() {
        return if p.total == 0 {
            "No notes match.".into()
        } else {
            format!("Page {} is past the end: {} notes match.", p.page, p.total)
        };
    }
    let mut t = format!("{} note(s), newest first:", p.total);
    for n in &p.notes {
        t.push_str(&format!("\n- {}", note_line(n)));
    }
    if p.has_more {
        t.push_str(&format!("\nMore: page {}.", p.page + 1));
    }
    t
}

/// The session context, section by section.
pub fn context(c: &SessionContext) -> String {
    let mut t = format!(
        "## Session\n**Time** {} ({})",
        c.clock.time, c.clock.part_of_day
    );
    if !c.quests.is_empty() {
        t.push_str(&format!("\n**Quests** {}", c.quests.join("; ")));
    }
    if let Some(p) = &c.party {
        t.push_str(&format!("\n**Party** {} ({})", p.name, p.id));
        if p.elapsed_minutes > 0 {
            t.push_str(&format!(", {} min travelled", p.elapsed_minutes));
        }
        for m in &p.members {
            t.push_str(&format!("\n- {}", member(m)));
        }
        if !p.other_parties.is_empty() {
            t.push_str(&format!("\nOther parties: {}", p.other_parties.join("; ")));
        }
    }
    if let Some(l) = &c.location {
        t.push_str(&format!(
            "\n**Location** {} ({}): {}, {}",
            l.name,
            l.id,
            l.kind,
            l.lighting.key()
        ));
        if let Some(d) = &l.description {
            t.push_str(&format!("\n{d}"));
        }
        if let Some(x) = &l.terrain {
            t.push_str(&format!("\nTerrain: {x}"));
        }
        if !l.hazards.is_empty() {
            t.push_str(&format!("\nHazards: {}", l.hazards.join(", ")));
        }
        if l.exits.is_empty() {
            t.push_str("\nExits: none known");
        } else {
            t.push_str(&format!(
                "\nExits: {}",
                l.exits
                    .iter()
                    .map(|e| format!(
                        "{} → {} ({}){}",
                        e.kind,
                        e.to_name,
                        e.connection_id,
                        exit_flags(e.locked, e.one_way, e.travel_minutes)
                    ))
                    .collect::<Vec<_>>()
                    .join("; ")
            ));
        }
        if l.unfound_hidden > 0 {
            t.push_str(&format!(
                "\nDM: {} hidden way(s) not yet found",
                l.unfound_hidden
            ));
        }
    }
    if let Some(e) = &c.encounter {
        t.push_str(&format!("\n**Encounter** {}", e.summary));
    }
    if let Some(n) = &c.notes {
        if n.important.is_empty() && n.recent.is_empty() {
            t.push_str("\n**Notes** none");
        }
        if !n.important.is_empty() {
            t.push_str("\n**Key notes**");
            for x in &n.important {
                t.push_str(&format!(
                    "\n- {} [{}, {}]: {}",
                    x.id,
                    x.kind,
                    x.importance.key(),
                    x.content
                ));
            }
        }
        if !n.recent.is_empty() {
            t.push_str("\n**Recent notes**");
            for x in &n.recent {
                t.push_str(&format!("\n- {} [{}]: {}", x.id, x.kind, x.content));
            }
        }
    }
    if let Some(ev) = &c.events {
        if ev.is_empty() {
            t.push_str("\n**Events** none yet");
        } else {
            t.push_str("\n**Last events** (newest first)");
            for e in ev {
                t.push_str(&format!(
                    "\n- #{} {}: {}",
                    e.seq,
                    e.tool,
                    if e.changes.is_empty() {
                        "no change".to_string()
                    } else {
                        e.changes.join("; ")
                    }
                ));
            }
        }
    }
    for h in &c.hints {
        t.push_str(&format!("\nHint: {h}"));
    }
    t
}
