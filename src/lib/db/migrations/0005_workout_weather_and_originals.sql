CREATE TABLE "workout_weather" (
	"workout_id" integer PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"provider" text NOT NULL,
	"asked_for" text NOT NULL,
	"observation" jsonb,
	"retry_after" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workout_weather_status_check" CHECK ("workout_weather"."status" in ('pending', 'ready', 'none'))
);
--> statement-breakpoint
CREATE TABLE "workout_originals" (
	"workout_id" integer PRIMARY KEY NOT NULL,
	"file_name" text DEFAULT '' NOT NULL,
	"content_gzip_base64" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "workout_weather" ADD CONSTRAINT "workout_weather_workout_id_workouts_id_fk" FOREIGN KEY ("workout_id") REFERENCES "public"."workouts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workout_originals" ADD CONSTRAINT "workout_originals_workout_id_workouts_id_fk" FOREIGN KEY ("workout_id") REFERENCES "public"."workouts"("id") ON DELETE cascade ON UPDATE no action;