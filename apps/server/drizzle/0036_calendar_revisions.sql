-- The calendar feed's events carry a revision (issue 41, RFC 5545): SEQUENCE rises and LAST-MODIFIED
-- moves whenever what a calendar shows of a subtask changes, so calendar apps replace the old event.
ALTER TABLE "subtasks" ADD COLUMN "calendar_sequence" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "subtasks" ADD COLUMN "changed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
UPDATE "subtasks" SET "changed_at" = coalesce("submitted_at", "created_at");--> statement-breakpoint
CREATE FUNCTION "subtasks_calendar_revision"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.name IS DISTINCT FROM OLD.name
    OR NEW.due_date IS DISTINCT FROM OLD.due_date
    OR NEW.status IS DISTINCT FROM OLD.status
    OR NEW.assigned_to_id IS DISTINCT FROM OLD.assigned_to_id
    OR NEW.major_task_id IS DISTINCT FROM OLD.major_task_id THEN
    NEW.calendar_sequence := OLD.calendar_sequence + 1;
    NEW.changed_at := now();
  END IF;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "subtasks_calendar_revision" BEFORE UPDATE ON "subtasks" FOR EACH ROW EXECUTE FUNCTION "subtasks_calendar_revision"();
