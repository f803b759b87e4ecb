-- A user whose password an admin set may do nothing but choose their own (decision record 052):
-- the identity each request checks carries `must_change_password`, so setting or clearing it is
-- announced like a change of role, and every instance's identity cache forgets the old answer.
DROP TRIGGER "users_identity_change" ON "users";--> statement-breakpoint
CREATE TRIGGER "users_identity_change" AFTER UPDATE OF "deleted_at", "role", "company_id", "email", "language", "must_change_password" OR DELETE ON "users"
	FOR EACH ROW EXECUTE FUNCTION "announce_user_change"();
