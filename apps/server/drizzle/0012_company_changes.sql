-- Each instance keeps its recent answers to a company's list calls in memory (decision record
-- 039) and forgets them when the company's data changes: whatever the writer (a service, a sweep,
-- a seed, an operator's SQL), a change to a table the answers read announces its company on
-- commit, to every instance at once. PostgreSQL folds the same announcement sent many times in
-- one transaction into one. Not announced: logins, throttle counters, idempotency keys and photo
-- bytes, which no list shows.
CREATE FUNCTION "announce_company_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' THEN
		PERFORM pg_notify('siteboard_changes', OLD.company_id::text);
	END IF;
	IF TG_OP <> 'DELETE' THEN
		PERFORM pg_notify('siteboard_changes', NEW.company_id::text);
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "announce_company_row_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('siteboard_changes', CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END::text);
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "companies_change" AFTER INSERT OR UPDATE OR DELETE ON "companies" FOR EACH ROW EXECUTE FUNCTION "announce_company_row_change"();--> statement-breakpoint
CREATE TRIGGER "users_change" AFTER INSERT OR UPDATE OR DELETE ON "users" FOR EACH ROW EXECUTE FUNCTION "announce_company_change"();--> statement-breakpoint
CREATE TRIGGER "team_members_change" AFTER INSERT OR UPDATE OR DELETE ON "team_members" FOR EACH ROW EXECUTE FUNCTION "announce_company_change"();--> statement-breakpoint
CREATE TRIGGER "projects_change" AFTER INSERT OR UPDATE OR DELETE ON "projects" FOR EACH ROW EXECUTE FUNCTION "announce_company_change"();--> statement-breakpoint
CREATE TRIGGER "major_tasks_change" AFTER INSERT OR UPDATE OR DELETE ON "major_tasks" FOR EACH ROW EXECUTE FUNCTION "announce_company_change"();--> statement-breakpoint
CREATE TRIGGER "subtasks_change" AFTER INSERT OR UPDATE OR DELETE ON "subtasks" FOR EACH ROW EXECUTE FUNCTION "announce_company_change"();--> statement-breakpoint
CREATE TRIGGER "subtask_activity_change" AFTER INSERT OR UPDATE OR DELETE ON "subtask_activity" FOR EACH ROW EXECUTE FUNCTION "announce_company_change"();--> statement-breakpoint
CREATE TRIGGER "subtask_attachments_change" AFTER INSERT OR UPDATE OR DELETE ON "subtask_attachments" FOR EACH ROW EXECUTE FUNCTION "announce_company_change"();--> statement-breakpoint
CREATE TRIGGER "notifications_change" AFTER INSERT OR UPDATE OR DELETE ON "notifications" FOR EACH ROW EXECUTE FUNCTION "announce_company_change"();--> statement-breakpoint
CREATE TRIGGER "notification_recipients_change" AFTER INSERT OR UPDATE OR DELETE ON "notification_recipients" FOR EACH ROW EXECUTE FUNCTION "announce_company_change"();--> statement-breakpoint
CREATE TRIGGER "calendar_feeds_change" AFTER INSERT OR UPDATE OR DELETE ON "calendar_feeds" FOR EACH ROW EXECUTE FUNCTION "announce_company_change"();
