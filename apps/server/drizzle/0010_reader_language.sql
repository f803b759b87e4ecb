-- Each person reads the product in their own language and lives in their own time zone
-- (decision record 032): the language and zone on the user (null zone: the company's), and the
-- language a company's new users start in.
ALTER TABLE "companies" ADD COLUMN "default_language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "timezone" text;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_default_language_check" CHECK ("companies"."default_language" in ('en', 'es', 'fr', 'de'));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_language_check" CHECK ("users"."language" in ('en', 'es', 'fr', 'de'));--> statement-breakpoint
-- The identity each request checks carries the user's language (its errors are written in it),
-- so a change of language is announced like a change of role (decision record 017).
DROP TRIGGER "users_identity_change" ON "users";--> statement-breakpoint
CREATE TRIGGER "users_identity_change" AFTER UPDATE OF "deleted_at", "role", "company_id", "email", "language" OR DELETE ON "users"
	FOR EACH ROW EXECUTE FUNCTION "announce_user_change"();
