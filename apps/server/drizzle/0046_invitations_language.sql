-- The invited person's language, as the inviter chose it in the invite form: the invitation mail is
-- written in it and the new user starts in it. Null for invitations made before it was asked (the
-- company's language, as then). Nullable without a default: added without rewriting the table.
ALTER TABLE "invitations" ADD COLUMN "language" text;
