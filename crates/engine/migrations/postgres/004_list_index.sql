-- PostgreSQL dialect of ../004_list_index.sql.
DROP INDEX characters_by_name;
CREATE INDEX characters_by_name ON characters (campaign_id, name_key, id, kind, class_key, level);
