-- PostgreSQL dialect of ../005_campaign_ids.sql: campaign ids are never reused.
CREATE TABLE campaign_ids (last BIGINT NOT NULL);
INSERT INTO campaign_ids (last) SELECT COALESCE(MAX(id), 0) FROM campaigns;
