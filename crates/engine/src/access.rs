//! Who may use a campaign over the network: access tokens with a role, stored hashed.
//!
//! A token reads `tt_<id>_<secret>`: the id finds the stored row, the 256-bit secret is checked
//! against its SHA-256 in constant time. Tokens die with their campaign (and a player token with
//! its character).

use rand::RngCore;
use serde::Serialize;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::character::name_key;
use crate::error::{EngineError, Result};
use crate::store::{Store, StoredToken, Transaction, Tx};

/// What a token lets its bearer do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Everything in the campaign.
    Dm,
    /// Acts for one character and sees what the table sees.
    Player,
}

impl Role {
    /// The stored key.
    pub fn key(self) -> &'static str {
        match self {
            Role::Dm => "dm",
            Role::Player => "player",
        }
    }

    /// Parses "dm" or "player".
    pub fn from_key(k: &str) -> Option<Self> {
        match k.trim().to_ascii_lowercase().as_str() {
            "dm" => Some(Role::Dm),
            "player" => Some(Role::Player),
            _ => None,
        }
    }
}

/// What a verified token grants.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    /// The token's id.
    pub token_id: String,
    /// The campaign's name.
    pub campaign: String,
    /// The role.
    pub role: Role,
    /// The character a player acts for.
    pub character_id: Option<String>,
}

/// A token as listed (never its secret).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TokenInfo {
    /// Its id.
    pub id: String,
    /// Its campaign.
    pub campaign: String,
    /// Its role.
    pub role: Role,
    /// The character a player token acts for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub character_id: Option<String>,
    /// A free label.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// When it was created.
    pub created_at: String,
}

impl TokenInfo {
    fn of(t: &StoredToken) -> Result<Self> {
        Ok(Self {
            id: t.id.clone(),
            campaign: t.campaign_name.clone(),
            role: Role::from_key(&t.role).ok_or_else(|| {
                EngineError::Rule(format!("token {} has an unknown role '{}'", t.id, t.role))
            })?,
            character_id: t.character_id.clone(),
            label: t.label.clone(),
            created_at: t.created_at.clone(),
        })
    }
}

const PREFIX: &str = "tt_";

fn hash(secret: &str) -> Vec<u8> {
    Sha256::digest(secret.as_bytes()).to_vec()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Creates a token for `campaign` (which must exist). A player token names its character by id or
/// name. Returns the token's listing and its full text, shown only once.
pub fn create_token<S: Store>(
    store: &mut S,
    campaign: &str,
    role: Role,
    character: Option<&str>,
    label: Option<&str>,
) -> Result<(TokenInfo, String)> {
    let mut tx = store.begin(true)?;
    let Some(cid) = tx.find_campaign(campaign.trim())? else {
        return Err(EngineError::NotFound {
            kind: "campaign",
            given: campaign.to_string(),
            suggestions: tx.list_campaigns()?.into_iter().map(|c| c.name).collect(),
        });
    };
    let character_id = match (role, character.map(str::trim).filter(|c| !c.is_empty())) {
        (Role::Dm, Some(_)) => {
            return Err(EngineError::invalid(
                "character",
                "a DM token acts for the whole campaign; give --character only with --role player",
            ));
        }
        (Role::Dm, None) => None,
        (Role::Player, None) => {
            return Err(EngineError::invalid(
                "character",
                "a player token acts for one character: give --character NAME (or id)",
            ));
        }
        (Role::Player, Some(c)) => {
            if let Some(ch) = tx.character(cid, c)? {
                Some(ch.id)
            } else {
                let named = tx.characters_named(cid, c)?;
                match named.as_slice() {
                    [one] => Some(one.id.clone()),
                    [] => {
                        return Err(EngineError::NotFound {
                            kind: "character",
                            given: c.to_string(),
                            suggestions: tx
                                .character_names(cid)?
                                .into_iter()
                                .filter(|(_, n)| name_key(n).contains(&name_key(c)))
                                .map(|(_, n)| n)
                                .collect(),
                        });
                    }
                    many => {
                        return Err(EngineError::Ambiguous {
                            kind: "character",
                            given: c.to_string(),
                            candidates: many
                                .iter()
                                .map(|m| format!("{} ({})", m.name, m.id))
                                .collect(),
                            id_field: "--character with the id",
                        });
                    }
                }
            }
        }
    };
    let mut raw = [0u8; 32];
    rand::rng().fill_bytes(&mut raw);
    let secret = hex(&raw);
    let mut idb = [0u8; 6];
    rand::rng().fill_bytes(&mut idb);
    let id = format!("tk{}", hex(&idb));
    let stored = StoredToken {
        id: id.clone(),
        campaign: cid,
        campaign_name: campaign.trim().to_string(),
        role: role.key().into(),
        character_id,
        secret_hash: hash(&secret),
        label: label.map(str::to_string),
        created_at: String::new(),
    };
    tx.put_token(&stored)?;
    let saved = tx
        .token(&id)?
        .ok_or_else(|| EngineError::Rule("internal: the new token was not stored".into()))?;
    tx.commit()?;
    Ok((TokenInfo::of(&saved)?, format!("{PREFIX}{id}_{secret}")))
}

/// Checks a presented token: its id must exist, its secret must match (compared in constant
/// time), its campaign must still exist and, for a player, its character too. `None` otherwise.
pub fn verify<S: Store>(store: &mut S, presented: &str) -> Result<Option<Grant>> {
    let Some(rest) = presented.trim().strip_prefix(PREFIX) else {
        return Ok(None);
    };
    let Some((id, secret)) = rest.split_once('_') else {
        return Ok(None);
    };
    let tx = store.begin(false)?;
    let Some(t) = tx.token(id)? else {
        return Ok(None);
    };
    if !bool::from(hash(secret).ct_eq(&t.secret_hash)) {
        return Ok(None);
    }
    let Some(role) = Role::from_key(&t.role) else {
        return Ok(None);
    };
    if let Some(c) = &t.character_id
        && tx.character(t.campaign, c)?.is_none()
    {
        return Ok(None);
    }
    Ok(Some(Grant {
        token_id: t.id,
        campaign: t.campaign_name,
        role,
        character_id: t.character_id,
    }))
}

/// Every token, or a campaign's.
pub fn list_tokens<S: Store>(store: &mut S, campaign: Option<&str>) -> Result<Vec<TokenInfo>> {
    let tx = store.begin(false)?;
    let cid = match campaign {
        Some(name) => {
            Some(
                tx.find_campaign(name.trim())?
                    .ok_or_else(|| EngineError::NotFound {
                        kind: "campaign",
                        given: name.to_string(),
                        suggestions: Vec::new(),
                    })?,
            )
        }
        None => None,
    };
    tx.list_tokens(cid)?.iter().map(TokenInfo::of).collect()
}

/// Revokes a token by id (or by its full text); false when there was none.
pub fn revoke_token<S: Store>(store: &mut S, id: &str) -> Result<bool> {
    let id = id.trim();
    let id = id
        .strip_prefix(PREFIX)
        .and_then(|r| r.split_once('_').map(|(i, _)| i))
        .unwrap_or(id);
    let mut tx = store.begin(true)?;
    let gone = tx.delete_token(id)?;
    tx.commit()?;
    Ok(gone)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SqliteStore;

    #[test]
    fn a_token_verifies_only_with_its_secret_and_dies_with_its_campaign() {
        let mut store = SqliteStore::in_memory().unwrap();
        {
            let mut tx = store.begin(true).unwrap();
            tx.ensure_campaign("saga").unwrap();
            tx.commit().unwrap();
        }
        assert!(create_token(&mut store, "nope", Role::Dm, None, None).is_err());
        assert!(create_token(&mut store, "saga", Role::Player, None, None).is_err());
        let (info, text) = create_token(&mut store, "saga", Role::Dm, None, Some("me")).unwrap();
        assert_eq!(info.role, Role::Dm);
        assert_eq!(info.campaign, "saga");
        assert_eq!(text.len(), 3 + 14 + 1 + 64);
        let g = verify(&mut store, &text).unwrap().unwrap();
        assert_eq!(g.campaign, "saga");
        assert_eq!(g.role, Role::Dm);
        let mut bad = text.clone();
        bad.pop();
        bad.push(if text.ends_with('0') { '1' } else { '0' });
        assert_eq!(verify(&mut store, &bad).unwrap(), None);
        assert_eq!(verify(&mut store, "tt_x").unwrap(), None);
        assert_eq!(list_tokens(&mut store, Some("saga")).unwrap().len(), 1);
        {
            let mut tx = store.begin(true).unwrap();
            assert!(tx.delete_campaign("saga").unwrap());
            tx.commit().unwrap();
        }
        assert_eq!(verify(&mut store, &text).unwrap(), None);
        assert!(list_tokens(&mut store, None).unwrap().is_empty());
        assert!(!revoke_token(&mut store, &info.id).unwrap());
    }
}
