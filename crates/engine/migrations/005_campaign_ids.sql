-- Campaign ids are never reused. A running server holds its campaign's numeric id; if a deleted
-- campaign's id came back for the next new campaign, that server would silently work on the new
-- campaign. New ids come from this high-water mark, which only grows (one row).
CREATE TABLE campaign_ids (last INTEGER NOT NULL);
INSERT INTO campaign_ids (last) SELECT COALESCE(MAX(id), 0) FROM campaigns;
