-- Lists page through characters in name order. This index holds that order and every column a
-- list filter reads (type, class, level; the name for "contains"), so a page is found in the
-- index alone and only its own rows' documents are read: no sort of documents, and a deep page
-- no longer loads every document before it. It also serves exact name lookups.
DROP INDEX characters_by_name;
CREATE INDEX characters_by_name ON characters (campaign_id, name_key, id, kind, class_key, level);
