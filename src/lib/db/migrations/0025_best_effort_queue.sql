CREATE TABLE "best_effort_queue" (
	"workout_id" integer PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"version" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "best_effort_queue" ADD CONSTRAINT "best_effort_queue_workout_id_workouts_id_fk" FOREIGN KEY ("workout_id") REFERENCES "public"."workouts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "best_effort_queue_owner_idx" ON "best_effort_queue" USING btree ("owner_id");--> statement-breakpoint
INSERT INTO "best_effort_queue" ("workout_id", "owner_id", "version")
SELECT w."id", w."owner_id", w."version" FROM "workouts" w
LEFT JOIN "best_effort_scans" s ON s."workout_id" = w."id"
WHERE s."workout_id" IS NULL OR s."version" <> w."version";--> statement-breakpoint
DROP TABLE "best_effort_scans" CASCADE;--> statement-breakpoint
CREATE FUNCTION "queue_best_effort_scan"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "best_effort_queue" ("workout_id", "owner_id", "version") VALUES (NEW."id", NEW."owner_id", NEW."version")
	ON CONFLICT ("workout_id") DO UPDATE SET "version" = excluded."version";
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "workouts_queue_best_efforts_on_insert" AFTER INSERT ON "workouts" FOR EACH ROW EXECUTE FUNCTION "queue_best_effort_scan"();--> statement-breakpoint
CREATE TRIGGER "workouts_queue_best_efforts_on_edit" AFTER UPDATE OF "version" ON "workouts" FOR EACH ROW WHEN (OLD."version" IS DISTINCT FROM NEW."version") EXECUTE FUNCTION "queue_best_effort_scan"();
