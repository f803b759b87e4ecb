-- An event also shows its project's and major task's names and (issue 42) its assignee's name, the
-- full name else the e-mail: renaming any of them raises the revision of the events that show it,
-- as 0036 does for the subtask's own fields (issue 41, RFC 5545). Only open work is raised, in one
-- statement per rename on the company's status indexes: completed work is in no feed, and its
-- revision rises anyway when it opens again (its status changes).
CREATE FUNCTION "projects_calendar_revision"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "subtasks" AS s SET "calendar_sequence" = s."calendar_sequence" + 1, "changed_at" = now()
  FROM "major_tasks" AS m
  WHERE m."company_id" = NEW."company_id" AND m."project_id" = NEW."id" AND s."company_id" = NEW."company_id" AND s."major_task_id" = m."id" AND s."status" IN ('ongoing', 'pending_approval');
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "projects_calendar_revision" AFTER UPDATE OF "name" ON "projects" FOR EACH ROW
  WHEN (NEW."name" IS DISTINCT FROM OLD."name") EXECUTE FUNCTION "projects_calendar_revision"();--> statement-breakpoint
-- A major task's or a person's subtasks: those whose column named by the trigger's argument is its id.
CREATE FUNCTION "subtasks_of_row_calendar_revision"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('UPDATE "subtasks" SET "calendar_sequence" = "calendar_sequence" + 1, "changed_at" = now() WHERE "company_id" = $1 AND %I = $2 AND "status" IN (''ongoing'', ''pending_approval'')', TG_ARGV[0])
    USING NEW."company_id", NEW."id";
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "major_tasks_calendar_revision" AFTER UPDATE OF "name" ON "major_tasks" FOR EACH ROW
  WHEN (NEW."name" IS DISTINCT FROM OLD."name") EXECUTE FUNCTION "subtasks_of_row_calendar_revision"('major_task_id');--> statement-breakpoint
-- The name an event shows: the full name, else the e-mail.
CREATE TRIGGER "users_calendar_revision" AFTER UPDATE OF "full_name", "email" ON "users" FOR EACH ROW
  WHEN (coalesce(NEW."full_name", NEW."email") IS DISTINCT FROM coalesce(OLD."full_name", OLD."email")) EXECUTE FUNCTION "subtasks_of_row_calendar_revision"('assigned_to_id');
