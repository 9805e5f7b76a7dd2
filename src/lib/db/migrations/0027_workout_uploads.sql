CREATE TABLE "workout_uploads" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"size" integer NOT NULL,
	"file_name" text DEFAULT '' NOT NULL,
	"choices" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"idempotency_key" text,
	"status" text DEFAULT 'receiving' NOT NULL,
	"workout_id" integer,
	"refusal" jsonb,
	"lock_token" text,
	"locked_until" timestamp with time zone,
	"import_until" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "workout_uploads" ADD CONSTRAINT "workout_uploads_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workout_uploads" ADD CONSTRAINT "workout_uploads_workout_id_workouts_id_fk" FOREIGN KEY ("workout_id") REFERENCES "public"."workouts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "workout_uploads_owner_idx" ON "workout_uploads" USING btree ("owner_id","status");--> statement-breakpoint
CREATE INDEX "workout_uploads_expires_idx" ON "workout_uploads" USING btree ("expires_at");