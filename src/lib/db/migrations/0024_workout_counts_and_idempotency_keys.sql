ALTER TABLE "workout_change_marks" ADD COLUMN "workout_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "workouts" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "workouts" ADD COLUMN "request_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "workouts_owner_idempotency_idx" ON "workouts" USING btree ("owner_id","idempotency_key");--> statement-breakpoint
CREATE OR REPLACE FUNCTION "mark_workout_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' THEN
		INSERT INTO "workout_change_marks" ("owner_id", "mark") VALUES (OLD."owner_id", gen_random_uuid()::text)
		ON CONFLICT ("owner_id") DO UPDATE SET "mark" = excluded."mark",
			"workout_count" = "workout_change_marks"."workout_count" - CASE WHEN TG_OP = 'DELETE' THEN 1 ELSE 0 END;
	END IF;
	IF TG_OP <> 'DELETE' THEN
		INSERT INTO "workout_change_marks" ("owner_id", "mark", "workout_count") VALUES (NEW."owner_id", gen_random_uuid()::text, 1)
		ON CONFLICT ("owner_id") DO UPDATE SET "mark" = excluded."mark",
			"workout_count" = "workout_change_marks"."workout_count" + CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE 0 END;
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint
INSERT INTO "workout_change_marks" ("owner_id", "mark", "workout_count")
SELECT "owner_id", gen_random_uuid()::text, count(*)::int FROM "workouts" GROUP BY "owner_id"
ON CONFLICT ("owner_id") DO UPDATE SET "workout_count" = excluded."workout_count";
