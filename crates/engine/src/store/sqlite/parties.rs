//! Parties as rows: a party and its ordered members are read back from their two tables.

use rusqlite::params;

use super::rows::corrupt;
use crate::model::party::{Party, PartyMember, PartyRole};
use crate::store::{CampaignId, StoreError};

impl super::SqliteTx<'_> {
    pub(super) fn party_members(
        &self,
        campaign: CampaignId,
        party: &str,
    ) -> Result<Vec<PartyMember>, StoreError> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT character_id, role, active FROM party_members
             WHERE campaign_id = ?1 AND party_id = ?2 ORDER BY position",
        )?;
        let rows = stmt
            .query_map(params![campaign.0, party], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, bool>(2)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(character_id, role, active)| {
                Ok(PartyMember {
                    character_id,
                    role: PartyRole::from_key(&role).ok_or_else(|| corrupt("party role", &role))?,
                    active,
                })
            })
            .collect()
    }

    pub(super) fn parties_where(
        &self,
        campaign: CampaignId,
        id: Option<&str>,
    ) -> Result<Vec<Party>, StoreError> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT id, name, description, location_id, leader_id, active, elapsed_minutes
             FROM parties WHERE campaign_id = ?1 AND (?2 IS NULL OR id = ?2)
             ORDER BY created_at, id",
        )?;
        let rows = stmt
            .query_map(params![campaign.0, id], |r| {
                Ok(Party {
                    id: r.get(0)?,
                    name: r.get(1)?,
                    description: r.get(2)?,
                    location_id: r.get(3)?,
                    leader_id: r.get(4)?,
                    active: r.get(5)?,
                    elapsed_minutes: r.get::<_, i64>(6)?.max(0) as u64,
                    members: vec![],
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|mut p| {
                p.members = self.party_members(campaign, &p.id)?;
                Ok(p)
            })
            .collect()
    }
}
