-- Search support: trigram indexes and accent-insensitive matching ("joao" finds "João").
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
-- unaccent() is STABLE (it reads a dictionary); generated columns and indexes need IMMUTABLE.
-- Pinning the dictionary makes this wrapper safe to mark IMMUTABLE (the common PostgreSQL idiom).
CREATE OR REPLACE FUNCTION app_search_text(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, value)) $$;
