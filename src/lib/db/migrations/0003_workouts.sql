CREATE TABLE "workout_series" (
	"workout_id" integer PRIMARY KEY NOT NULL,
	"series" jsonb NOT NULL,
	"laps" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workouts" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"name" text NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"activity_type_id" integer NOT NULL,
	"privacy" integer DEFAULT 0 NOT NULL,
	"start_datetime" timestamp with time zone NOT NULL,
	"start_locale_timezone" text DEFAULT 'UTC' NOT NULL,
	"source" text DEFAULT '' NOT NULL,
	"attribution" text,
	"origin" text DEFAULT 'manual' NOT NULL,
	"distance_total" double precision,
	"metabolic_energy_total" double precision,
	"active_time_total" double precision,
	"elapsed_time_total" double precision,
	"steps_total" integer,
	"heartrate_min" double precision,
	"heartrate_max" double precision,
	"heartrate_avg" double precision,
	"speed_min" double precision,
	"speed_max" double precision,
	"speed_avg" double precision,
	"cadence_min" double precision,
	"cadence_max" double precision,
	"cadence_avg" double precision,
	"power_min" double precision,
	"power_max" double precision,
	"power_avg" double precision,
	"sample_count" integer DEFAULT 0 NOT NULL,
	"content_hash" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workouts_privacy_check" CHECK ("workouts"."privacy" in (0, 1, 3))
);
--> statement-breakpoint
ALTER TABLE "workout_series" ADD CONSTRAINT "workout_series_workout_id_workouts_id_fk" FOREIGN KEY ("workout_id") REFERENCES "public"."workouts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workouts" ADD CONSTRAINT "workouts_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "workouts_owner_start_idx" ON "workouts" USING btree ("owner_id","start_datetime");--> statement-breakpoint
CREATE INDEX "workouts_privacy_start_idx" ON "workouts" USING btree ("privacy","start_datetime");--> statement-breakpoint
CREATE UNIQUE INDEX "workouts_owner_duplicate_idx" ON "workouts" USING btree ("owner_id","start_datetime","content_hash");