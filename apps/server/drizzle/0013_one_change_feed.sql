-- One change feed (decision record 040): every announcement an instance must hear goes on one
-- channel, 'siteboard_changes', as '<kind>:<detail>', so each instance has one listener, one
-- marker echo and one way to settle. The identity announcements move onto it ('u:' a user, 'f:'
-- a login); notifications are announced there as 'n:{…}' by the statement that writes them.
-- The company announcements of the answer cache (migration 0012) go with the cache: conditional
-- GETs answer repeated reads now, and nothing listens for them.
CREATE OR REPLACE FUNCTION "announce_user_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('siteboard_changes', 'u:' || OLD.id);
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "announce_login_end"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('siteboard_changes', 'f:' || NEW.family);
	RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER "companies_change" ON "companies";--> statement-breakpoint
DROP TRIGGER "users_change" ON "users";--> statement-breakpoint
DROP TRIGGER "team_members_change" ON "team_members";--> statement-breakpoint
DROP TRIGGER "projects_change" ON "projects";--> statement-breakpoint
DROP TRIGGER "major_tasks_change" ON "major_tasks";--> statement-breakpoint
DROP TRIGGER "subtasks_change" ON "subtasks";--> statement-breakpoint
DROP TRIGGER "subtask_activity_change" ON "subtask_activity";--> statement-breakpoint
DROP TRIGGER "subtask_attachments_change" ON "subtask_attachments";--> statement-breakpoint
DROP TRIGGER "notifications_change" ON "notifications";--> statement-breakpoint
DROP TRIGGER "notification_recipients_change" ON "notification_recipients";--> statement-breakpoint
DROP TRIGGER "calendar_feeds_change" ON "calendar_feeds";--> statement-breakpoint
DROP FUNCTION "announce_company_change"();--> statement-breakpoint
DROP FUNCTION "announce_company_row_change"();
