//! Secrets: DM-only facts with what would reveal them, revealed explicitly, and a leak check
//! that names the unrevealed secrets a piece of narration would give away.
//!
//! The leak check is word overlap, not understanding: each secret has key terms (given, or else
//! the distinctive words of its title and content); narration that contains a given key term, or
//! two or more of the derived ones, is flagged, with the terms that matched.

use serde::Serialize;

use super::{clean, load, save};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::memory::{MemoryKind, MemoryRecord, Secret};
use crate::model::names::name_key;

/// A new secret, or changes to one (absent: unchanged).
#[derive(Debug, Clone, Default)]
pub struct SecretDraft {
    /// Title.
    pub title: Option<String>,
    /// The fact.
    pub content: Option<String>,
    /// What would reveal it.
    pub reveal_condition: Option<String>,
    /// Words and phrases that give it away (replace).
    pub key_terms: Option<Vec<String>>,
}

/// What a secret operation did.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SecretOutcome {
    /// The secret.
    pub secret: Secret,
    /// What changed.
    pub changes: Vec<String>,
}

/// One secret a narration would give away.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Leak {
    /// The secret's id.
    pub secret_id: String,
    /// Its title.
    pub title: String,
    /// The key terms found in the narration.
    pub matched: Vec<String>,
    /// Whether the terms are the DM's own key terms (else derived from the secret's words).
    pub key_terms_given: bool,
    /// Why it was flagged, in a sentence.
    pub why: String,
}

/// The result of a leak check.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LeakCheck {
    /// Secrets it would give away.
    pub leaks: Vec<Leak>,
    /// Unrevealed secrets checked.
    pub checked: usize,
    /// How the check works.
    pub method: &'static str,
}

const METHOD: &str = "word overlap: a secret is flagged when the text contains one of its key terms, or (without key terms) two or more distinctive words of its title and content; the DM judges the rest";

const STOP: &[&str] = &[
    "about", "after", "again", "also", "because", "been", "before", "being", "could", "does",
    "from", "have", "into", "just", "know", "knows", "like", "more", "most", "much", "only",
    "other", "over", "really", "said", "some", "that", "their", "them", "then", "there", "these",
    "they", "this", "those", "through", "very", "want", "wants", "were", "what", "when", "where",
    "which", "while", "will", "with", "would", "your", "secret", "secretly", "actually", "truly",
];

/// Lower-case words of a text, with a plural "s" dropped.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric() && c != '\'')
        .map(|w| w.trim_matches('\'').to_lowercase())
        .filter(|w| !w.is_empty())
        .map(|w| stem(&w))
        .collect()
}

fn stem(w: &str) -> String {
    let w = w.strip_suffix("'s").unwrap_or(w);
    if w.len() > 4 && w.ends_with('s') && !w.ends_with("ss") {
        w[..w.len() - 1].to_string()
    } else {
        w.to_string()
    }
}

/// The distinctive words of a secret: 4+ letters, not common words, each once.
fn derived_terms(s: &Secret) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in words(&format!("{} {}", s.title, s.content)) {
        if w.chars().count() >= 4 && !STOP.contains(&w.as_str()) && !out.contains(&w) {
            out.push(w);
        }
    }
    out
}

/// Whether `phrase` (as words) occurs contiguously in `text` (as words).
fn contains_phrase(text: &[String], phrase: &[String]) -> bool {
    !phrase.is_empty() && text.windows(phrase.len()).any(|w| w == phrase)
}

/// The leak check for one secret against the narration's words.
fn leak_of(s: &Secret, text: &[String]) -> Option<Leak> {
    if !s.key_terms.is_empty() {
        let matched: Vec<String> = s
            .key_terms
            .iter()
            .filter(|t| contains_phrase(text, &words(t)))
            .cloned()
            .collect();
        return (!matched.is_empty()).then(|| Leak {
            secret_id: s.id.clone(),
            title: s.title.clone(),
            why: format!(
                "the text says {} (key term{} of this secret)",
                quoted(&matched),
                if matched.len() == 1 { "" } else { "s" }
            ),
            matched,
            key_terms_given: true,
        });
    }
    let matched: Vec<String> = derived_terms(s)
        .into_iter()
        .filter(|t| text.contains(t))
        .collect();
    (matched.len() >= 2).then(|| Leak {
        secret_id: s.id.clone(),
        title: s.title.clone(),
        why: format!(
            "the text shares {} words with this secret: {} (it has no key terms; add keyTerms to sharpen the check)",
            matched.len(),
            quoted(&matched)
        ),
        matched,
        key_terms_given: false,
    })
}

fn quoted(v: &[String]) -> String {
    v.iter()
        .map(|t| format!("'{t}'"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn all(call: &Call<'_>, status: Option<&str>) -> Result<Vec<Secret>> {
    Ok(call
        .tx_ref()
        .memories(call.campaign(), MemoryKind::Secret, status)?
        .into_iter()
        .filter_map(|r| match r {
            MemoryRecord::Secret(s) => Some(s),
            _ => None,
        })
        .collect())
}

fn find(call: &Call<'_>, id: &str) -> Result<Secret> {
    let id = id.trim();
    if id.is_empty() {
        return Err(EngineError::invalid(
            "secretId",
            "name the secret: secretId (or its title)",
        ));
    }
    if let Some(MemoryRecord::Secret(s)) = load(call, MemoryKind::Secret, id)? {
        return Ok(s);
    }
    let key = name_key(id);
    let every = all(call, None)?;
    let names: Vec<(String, String)> = every
        .iter()
        .map(|s| (s.id.clone(), s.title.clone()))
        .collect();
    every
        .into_iter()
        .find(|s| name_key(&s.title) == key)
        .ok_or_else(|| EngineError::NotFound {
            kind: "secret",
            given: id.into(),
            suggestions: crate::model::world::suggestions(id, &names),
        })
}

fn store(call: &mut Call<'_>, s: &Secret, what: String) -> Result<()> {
    save(call, MemoryRecord::Secret(s.clone()))?;
    call.record_change("secret", &s.id, what);
    Ok(())
}

fn clean_terms(v: Vec<String>) -> Result<Vec<String>> {
    let v: Vec<String> = v
        .into_iter()
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .collect();
    if v.len() > 30 || v.iter().any(|t| t.chars().count() > 100) {
        return Err(EngineError::invalid(
            "keyTerms",
            "at most 30 key terms of at most 100 characters",
        ));
    }
    Ok(v)
}

/// Creates a secret.
pub fn create(call: &mut Call<'_>, d: SecretDraft) -> Result<SecretOutcome> {
    let s = Secret {
        id: call.new_id("se")?,
        title: clean("title", d.title.as_deref(), 200)?,
        content: clean("content", d.content.as_deref(), 5_000)?,
        reveal_condition: d.reveal_condition.filter(|r| !r.trim().is_empty()),
        key_terms: clean_terms(d.key_terms.unwrap_or_default())?,
        revealed: false,
        revealed_how: None,
        revealed_at: None,
    };
    let line = format!("secret {} '{}' kept (DM only)", s.id, s.title);
    store(call, &s, line.clone())?;
    Ok(SecretOutcome {
        secret: s,
        changes: vec![line],
    })
}

/// One secret by id or title.
pub fn get(call: &Call<'_>, id: &str) -> Result<Secret> {
    find(call, id)
}

/// Secrets, only revealed or unrevealed ones when asked.
pub fn list(call: &Call<'_>, revealed: Option<bool>) -> Result<Vec<Secret>> {
    all(
        call,
        revealed.map(|r| if r { "revealed" } else { "hidden" }),
    )
}

/// Changes a secret's fields.
pub fn update(call: &mut Call<'_>, id: &str, d: SecretDraft) -> Result<SecretOutcome> {
    let mut s = find(call, id)?;
    let mut changes = Vec::new();
    if let Some(t) = d.title.as_deref() {
        s.title = clean("title", Some(t), 200)?;
        changes.push(format!("title: {}", s.title));
    }
    if let Some(c) = d.content.as_deref() {
        s.content = clean("content", Some(c), 5_000)?;
        changes.push("content changed".into());
    }
    if let Some(r) = d.reveal_condition {
        s.reveal_condition = Some(r).filter(|r| !r.trim().is_empty());
        changes.push("reveal condition changed".into());
    }
    if let Some(k) = d.key_terms {
        s.key_terms = clean_terms(k)?;
        changes.push(format!("key terms: {}", s.key_terms.join(", ")));
    }
    if changes.is_empty() {
        return Err(EngineError::invalid(
            "title",
            "nothing to update: give title, content, revealCondition or keyTerms",
        ));
    }
    store(call, &s, changes.join("; "))?;
    Ok(SecretOutcome { secret: s, changes })
}

/// Reveals a secret to the players (from now on the leak check skips it).
pub fn reveal(call: &mut Call<'_>, id: &str, how: Option<&str>) -> Result<SecretOutcome> {
    let mut s = find(call, id)?;
    if s.revealed {
        return Err(EngineError::Rule(format!(
            "secret '{}' was already revealed{}",
            s.title,
            s.revealed_how
                .as_deref()
                .map(|h| format!(" ({h})"))
                .unwrap_or_default()
        )));
    }
    s.revealed = true;
    s.revealed_how = how.map(|h| h.trim().to_string()).filter(|h| !h.is_empty());
    s.revealed_at = Some(crate::clock::now(call)?.seconds);
    let line = format!("secret '{}' revealed", s.title);
    store(call, &s, line.clone())?;
    Ok(SecretOutcome {
        secret: s,
        changes: vec![line],
    })
}

/// Deletes a secret.
pub fn delete(call: &mut Call<'_>, id: &str) -> Result<SecretOutcome> {
    let s = find(call, id)?;
    let campaign = call.campaign();
    call.tx()
        .delete_memory(campaign, MemoryKind::Secret, &s.id)?;
    call.record_change("secret", &s.id, "deleted");
    let line = format!("deleted secret {} '{}'", s.id, s.title);
    Ok(SecretOutcome {
        secret: s,
        changes: vec![line],
    })
}

/// Names the unrevealed secrets `text` would give away, with the terms that matched.
pub fn check_leaks(call: &Call<'_>, text: &str) -> Result<LeakCheck> {
    if text.trim().is_empty() {
        return Err(EngineError::invalid(
            "text",
            "give the narration you are about to say",
        ));
    }
    let ws = words(text);
    let secrets = all(call, Some("hidden"))?;
    Ok(LeakCheck {
        leaks: secrets.iter().filter_map(|s| leak_of(s, &ws)).collect(),
        checked: secrets.len(),
        method: METHOD,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secret(title: &str, content: &str, terms: &[&str]) -> Secret {
        Secret {
            id: "se1".into(),
            title: title.into(),
            content: content.into(),
            reveal_condition: None,
            key_terms: terms.iter().map(|t| t.to_string()).collect(),
            revealed: false,
            revealed_how: None,
            revealed_at: None,
        }
    }

    #[test]
    fn key_terms_match_as_phrases() {
        let s = secret(
            "Mayor",
            "The mayor is a doppelganger",
            &["doppelganger", "false face"],
        );
        let l = leak_of(&s, &words("Her false face slips for a moment.")).unwrap();
        assert_eq!(l.matched, vec!["false face".to_string()]);
        assert!(leak_of(&s, &words("Her face is false.")).is_none());
        let l = leak_of(&s, &words("Doppelgangers everywhere!")).unwrap();
        assert_eq!(l.matched, vec!["doppelganger".to_string()]);
    }

    #[test]
    fn derived_terms_need_two_words() {
        let s = secret(
            "The mayor's twin",
            "The mayor has a hidden twin brother in the crypt",
            &[],
        );
        assert!(leak_of(&s, &words("The mayor greets you.")).is_none());
        let l = leak_of(&s, &words("The mayor glances toward the crypt.")).unwrap();
        assert_eq!(l.matched, vec!["mayor".to_string(), "crypt".to_string()]);
    }
}
