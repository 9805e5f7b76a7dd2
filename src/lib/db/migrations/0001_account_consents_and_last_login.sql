ALTER TABLE "users" ADD COLUMN "signup_consents" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_login_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "promotional_preferences_user_type_idx" ON "promotional_preferences" USING btree ("user_id","preference_type");