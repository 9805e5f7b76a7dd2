CREATE TABLE "user_goals" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"period" text DEFAULT 'P1W' NOT NULL,
	"metric" text NOT NULL,
	"threshold" double precision NOT NULL,
	"activity_group" text DEFAULT 'all' NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"start_datetime" timestamp with time zone NOT NULL,
	"end_datetime" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_goals_period_check" CHECK ("user_goals"."period" = 'P1W'),
	CONSTRAINT "user_goals_status_check" CHECK ("user_goals"."status" in ('active', 'abandoned')),
	CONSTRAINT "user_goals_metric_check" CHECK ("user_goals"."metric" in ('distance', 'duration', 'calories', 'count'))
);
--> statement-breakpoint
CREATE TABLE "best_effort_scans" (
	"workout_id" integer PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"version" integer NOT NULL,
	"scanned_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "best_efforts" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"workout_id" integer NOT NULL,
	"activity_group" text NOT NULL,
	"distance_key" text NOT NULL,
	"seconds" double precision NOT NULL,
	"distance_m" double precision NOT NULL,
	"start_offset_s" double precision DEFAULT 0 NOT NULL,
	"achieved_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workout_change_marks" (
	"owner_id" integer PRIMARY KEY NOT NULL,
	"mark" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_goals" ADD CONSTRAINT "user_goals_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "best_effort_scans" ADD CONSTRAINT "best_effort_scans_workout_id_workouts_id_fk" FOREIGN KEY ("workout_id") REFERENCES "public"."workouts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "best_effort_scans" ADD CONSTRAINT "best_effort_scans_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "best_efforts" ADD CONSTRAINT "best_efforts_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "best_efforts" ADD CONSTRAINT "best_efforts_workout_id_workouts_id_fk" FOREIGN KEY ("workout_id") REFERENCES "public"."workouts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_goals_owner_idx" ON "user_goals" USING btree ("owner_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "best_efforts_workout_distance_idx" ON "best_efforts" USING btree ("workout_id","distance_key");--> statement-breakpoint
CREATE INDEX "best_efforts_owner_idx" ON "best_efforts" USING btree ("owner_id","activity_group","distance_key","seconds");--> statement-breakpoint
CREATE FUNCTION "mark_workout_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' THEN
		INSERT INTO "workout_change_marks" ("owner_id", "mark") VALUES (OLD."owner_id", gen_random_uuid()::text)
		ON CONFLICT ("owner_id") DO UPDATE SET "mark" = excluded."mark";
	END IF;
	IF TG_OP <> 'DELETE' THEN
		INSERT INTO "workout_change_marks" ("owner_id", "mark") VALUES (NEW."owner_id", gen_random_uuid()::text)
		ON CONFLICT ("owner_id") DO UPDATE SET "mark" = excluded."mark";
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "workouts_mark_change" AFTER INSERT OR UPDATE OR DELETE ON "workouts" FOR EACH ROW EXECUTE FUNCTION "mark_workout_change"();
