-- Notifications name people by user id beside the e-mail, so a text shows the person's current
-- name when it is read (decision record 062). Rows written before keep their e-mail and get the id
-- of the company's user who still has that e-mail; the others go on showing the e-mail.
UPDATE "notifications" AS n SET "params" = n."params" || jsonb_build_object('actor_id', u."id")
FROM "users" AS u
WHERE n."params" ? 'actor' AND NOT n."params" ? 'actor_id' AND u."company_id" = n."company_id" AND lower(u."email") = lower(n."params"->>'actor');
--> statement-breakpoint
UPDATE "notifications" AS n SET "params" = n."params" || jsonb_build_object('submitter_id', u."id")
FROM "users" AS u
WHERE n."params" ? 'submitter' AND NOT n."params" ? 'submitter_id' AND u."company_id" = n."company_id" AND lower(u."email") = lower(n."params"->>'submitter');
--> statement-breakpoint
UPDATE "notifications" AS n SET "params" = n."params" || jsonb_build_object('assignee_id', u."id")
FROM "users" AS u
WHERE n."params" ? 'assignee' AND NOT n."params" ? 'assignee_id' AND u."company_id" = n."company_id" AND lower(u."email") = lower(n."params"->>'assignee');
