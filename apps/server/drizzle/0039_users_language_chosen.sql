-- A new user starts in their company's language until they choose one, and the web app then takes
-- their device's language at their first sign-in. Who among the existing users chose theirs cannot
-- be told: each keeps the language they have, as chosen.
ALTER TABLE "users" ADD COLUMN "language_chosen" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "language_chosen" SET DEFAULT false;
