-- Each instance keeps the identities of recent requests in memory (decision record 017) and
-- forgets one when it changes: whatever the writer, a change that can end a user's access
-- announces itself on commit, to every instance at once.
CREATE FUNCTION "announce_user_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('siteboard_identity', 'u:' || OLD.id);
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "users_identity_change" AFTER UPDATE OF "deleted_at", "role", "company_id", "email" OR DELETE ON "users"
	FOR EACH ROW EXECUTE FUNCTION "announce_user_change"();
--> statement-breakpoint
CREATE FUNCTION "announce_login_end"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('siteboard_identity', 'f:' || NEW.family);
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "refresh_tokens_login_end" AFTER UPDATE OF "revoked_at" ON "refresh_tokens"
	FOR EACH ROW WHEN (NEW.revoked_at IS NOT NULL AND NEW.replaced_by IS NULL) EXECUTE FUNCTION "announce_login_end"();
